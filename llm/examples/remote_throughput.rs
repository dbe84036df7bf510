//! Benchmark (not a test): throughput of the remote engine against the embedded one on the
//! same fills with the same options (one sample per hole, one error round, no candidates,
//! 32 tokens at most, so that a fill in flight is a request in flight). The embedded engine
//! fills one hole after another; the server gets 1, 4 and 16 fills at once (each from its
//! own thread and `Filler`). Prints, for each, fills per second and tokens per second of
//! wall time, the share of fills with a well-typed result, and each remote figure as a
//! ratio to the embedded one.
//!
//! ```sh
//! cargo run --release -p rex-llm --example remote_throughput -- \
//!     [--url URL --model NAME --server vllm|sglang|llamacpp] [HOLES] [FILLS] [TASKS_DIR]
//! ```
//! HOLES (default 4) of the task set (`bench/holes/tasks`: the LLMS guide's programs, then
//! the holes cut from the conformance programs), repeated to FILLS fills (default 16) for
//! every run. The server is also found from `REX_LLM_URL`, `REX_LLM_MODEL`,
//! `REX_LLM_SERVER`; with none, this starts llama.cpp's server from
//! `scripts/llama-server.sh` on this machine and stops it at the end: a CPU server that
//! runs one request at a time, so that run measures the protocol and that server, not what
//! a GPU server gives.

use std::io::{BufRead, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rex_compiler::db::Database;
use rex_compiler::Position;
use rex_llm::engine::llama::EngineOptions;
use rex_llm::fill::{FillOptions, Filler};
use rex_llm::remote::{RemoteConfig, Server};

#[path = "common/tasks.rs"]
mod tasks;

use tasks::task_holes;

/// Fills in flight at once against the server.
const CONCURRENCY: [usize; 3] = [1, 4, 16];

/// One run over the fills.
#[derive(Default)]
struct Run {
    seconds: f64,
    fills: usize,
    well_typed: usize,
    tokens: usize,
    /// Fills that failed (the first error is kept).
    failed: usize,
    error: Option<String>,
}

impl Run {
    fn fills_per_second(&self) -> f64 {
        self.fills as f64 / self.seconds.max(f64::EPSILON)
    }

    fn tokens_per_second(&self) -> f64 {
        self.tokens as f64 / self.seconds.max(f64::EPSILON)
    }

    fn add(&mut self, other: Run) {
        self.fills += other.fills;
        self.well_typed += other.well_typed;
        self.tokens += other.tokens;
        self.failed += other.failed;
        if self.error.is_none() {
            self.error = other.error;
        }
    }
}

fn options() -> FillOptions {
    FillOptions {
        samples: 1,
        error_rounds: 1,
        candidates: false,
        max_tokens: 32,
        ..FillOptions::default()
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut flag = |name: &str| -> Option<String> {
        let i = args.iter().position(|a| a == name)?;
        let value = args.get(i + 1).cloned();
        args.drain(i..(i + 2).min(args.len()));
        value
    };
    let url = flag("--url");
    let model = flag("--model");
    let server: Option<Server> = flag("--server").map(|s| s.parse().unwrap_or_else(|e| exit(e)));
    let max_holes: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(4);
    let fills: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(16);
    let dir = args
        .get(2)
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/holes/tasks"));

    let mut holes = task_holes(&dir.join("llms"));
    holes.extend(task_holes(&dir.join("cut")));
    holes.truncate(max_holes);
    if holes.is_empty() {
        exit(format!("no holes under {}", dir.display()));
    }
    let work: Vec<(String, Position)> = holes.iter().cycle().take(fills).cloned().collect();

    let embedded = run_embedded(&work);

    let (config, local) = if url.is_some() || std::env::var_os("REX_LLM_URL").is_some() {
        let config = RemoteConfig::from_parts(url, model, server, None).unwrap_or_else(|e| exit(e));
        (config, None)
    } else {
        let local = LocalServer::start();
        let config = RemoteConfig::from_parts(
            Some(local.url.clone()),
            Some("gemma-3-270m".into()),
            Some(Server::LlamaCpp),
            None,
        )
        .unwrap_or_else(|e| exit(e));
        (config, Some(local))
    };
    let mut config = config;
    // Sixteen requests queued on a server that runs one at a time wait long.
    config.timeout = Duration::from_secs(1800);
    println!(
        "{} holes, {} fills per run; server {} ({}, model {})",
        holes.len(),
        work.len(),
        config.url,
        config.server,
        config.model
    );
    let remote: Vec<(usize, Run)> = CONCURRENCY
        .iter()
        .map(|&c| {
            // No more in flight than there are fills.
            let c = c.min(work.len());
            let run = run_remote(&work, &config, c);
            println!("  remote, {c} in flight: {:.1} s", run.seconds);
            (c, run)
        })
        .collect();
    drop(local);

    println!();
    println!(
        "{:<10}{:>10}{:>7}{:>8}{:>9}{:>10}{:>11}{:>11}",
        "engine", "in flight", "fills", "typed", "fills/s", "tokens/s", "fills/s x", "tokens/s x"
    );
    let row = |name: &str, c: usize, r: &Run| {
        println!(
            "{:<10}{:>10}{:>7}{:>7.0}%{:>9.3}{:>10.1}{:>11.3}{:>11.3}",
            name,
            c,
            r.fills,
            100.0 * r.well_typed as f64 / r.fills.max(1) as f64,
            r.fills_per_second(),
            r.tokens_per_second(),
            r.fills_per_second() / embedded.fills_per_second().max(f64::EPSILON),
            r.tokens_per_second() / embedded.tokens_per_second().max(f64::EPSILON),
        )
    };
    row("embedded", 1, &embedded);
    for (c, r) in &remote {
        row("remote", *c, r);
    }
    println!("(x: the ratio to the embedded engine on the same fills; wall-clock rates)");
    for (name, r) in
        std::iter::once(("embedded", &embedded)).chain(remote.iter().map(|(_, r)| ("remote", r)))
    {
        if let Some(e) = &r.error {
            println!("{name}: {} fill(s) failed; the first: {e}", r.failed);
        }
    }
}

fn exit(message: impl std::fmt::Display) -> ! {
    eprintln!("{message}");
    std::process::exit(2)
}

/// The fills one after another with the embedded engine.
fn run_embedded(work: &[(String, Position)]) -> Run {
    let mut filler =
        Filler::load_embedded(None, EngineOptions::default()).unwrap_or_else(|e| exit(e));
    let mut run = Run::default();
    let started = Instant::now();
    for (text, pos) in work {
        fill_one(&mut filler, text, *pos, &mut run);
    }
    run.seconds = started.elapsed().as_secs_f64();
    println!("  embedded: {:.1} s", run.seconds);
    run
}

/// The fills by `concurrency` threads at once, each with its own filler over the server.
fn run_remote(work: &[(String, Position)], config: &RemoteConfig, concurrency: usize) -> Run {
    let queue = Arc::new(Mutex::new(work.to_vec()));
    let started = Instant::now();
    let workers: Vec<_> = (0..concurrency)
        .map(|_| {
            let queue = Arc::clone(&queue);
            let config = config.clone();
            std::thread::spawn(move || {
                let mut filler = Filler::remote(config);
                let mut mine = Run::default();
                loop {
                    let next = queue.lock().ok().and_then(|mut q| q.pop());
                    let Some((text, pos)) = next else { break };
                    fill_one(&mut filler, &text, pos, &mut mine);
                }
                mine
            })
        })
        .collect();
    let mut run = Run::default();
    for w in workers {
        match w.join() {
            Ok(mine) => run.add(mine),
            Err(_) => run.failed += 1,
        }
    }
    run.seconds = started.elapsed().as_secs_f64();
    run
}

fn fill_one(filler: &mut Filler, text: &str, pos: Position, run: &mut Run) {
    let db = Database::new();
    let file = db.add_file("bench.rex", text.to_string());
    let cancel = AtomicBool::new(false);
    match filler.fill_at(&db, file, pos, &options(), &mut |_| {}, &cancel) {
        Ok(r) => {
            run.fills += 1;
            run.tokens += r.stats.tokens;
            run.well_typed += usize::from(!r.fills.is_empty());
        }
        Err(e) => {
            run.failed += 1;
            run.error.get_or_insert(e.to_string());
        }
    }
}

/// llama.cpp's server from `scripts/llama-server.sh serve`, stopped when dropped.
struct LocalServer {
    child: Child,
    url: String,
}

impl LocalServer {
    /// Started, and answering `GET /v1/models`; exits with a message when it does not come
    /// up in two minutes.
    fn start() -> LocalServer {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/llama-server.sh");
        let child = Command::new("bash")
            .arg(&script)
            .arg("serve")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| exit(format!("cannot start {}: {e}", script.display())));
        let mut server = LocalServer {
            child,
            url: String::new(),
        };
        let mut line = String::new();
        if let Some(out) = server.child.stdout.take() {
            let _ = std::io::BufReader::new(out).read_line(&mut line);
        }
        match line.trim().strip_prefix("listening on ") {
            Some(url) => server.url = url.to_string(),
            None => server.fail(&format!(
                "llama.cpp's server did not start (bash scripts/llama-server.sh install first): {line}"
            )),
        }
        let addr = server.url.trim_start_matches("http://").to_string();
        let deadline = Instant::now() + Duration::from_secs(120);
        while Instant::now() < deadline {
            if models_answer(&addr) {
                return server;
            }
            std::thread::sleep(Duration::from_millis(300));
        }
        server.fail("llama.cpp's server did not come up in two minutes")
    }

    fn fail(mut self, message: &str) -> ! {
        self.stop();
        exit(message)
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Whether `GET /v1/models` at `addr` answers 200 (the model is loaded).
fn models_answer(addr: &str) -> bool {
    let Ok(mut s) = TcpStream::connect(addr) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
    let request = format!("GET /v1/models HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    if s.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let mut reply = String::new();
    let _ = s.read_to_string(&mut reply);
    reply.starts_with("HTTP/1.1 200")
}

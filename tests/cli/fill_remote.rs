//! `rex fill --engine openai` end to end: the real binary against real sockets.
//!
//! * Against llama.cpp's OpenAI-compatible server (`scripts/llama-server.sh`, the PyPI
//!   package llama-cpp-python, on the default Gemma GGUF), started and stopped here: every
//!   fill returned type-checks (each written in and re-checked by `rex check`), on the pH
//!   and `mk` programs the embedded engine is tested on. Where the server's venv is not
//!   installed the test prints a `skipped:` line.
//! * Against small TCP listeners this test starts (a closed port, HTTP 500, a reply that is
//!   not JSON, a grammar refusal, silence past the timeout): one clear error each, exit
//!   status 2, no hang, and the API key never printed.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use support::{fills_checked_in, stderr, stdout, TempDir};

const PH: &str = include_str!("../../examples/holes.rex");
const MK: &str =
    "fn mk : i32 -> string = \\n -> \"value\"\nlet x = 1 in\nlet y : string = ? in\ny\n";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the cli crate is in the repository")
        .to_path_buf()
}

/// `rex fill --engine openai` on `file` against `url`.
fn fill_remote(
    dir: &TempDir,
    file: &str,
    url: &str,
    server: &str,
    extra: &[&str],
) -> std::process::Output {
    let mut args = vec![
        "fill",
        file,
        "--engine",
        "openai",
        "--url",
        url,
        "--model",
        "gemma-3-270m",
        "--server",
        server,
    ];
    args.extend_from_slice(extra);
    dir.rex(&args)
}

// --- the real llama.cpp server -----------------------------------------------------------

/// llama.cpp's server on a free port; stopped when dropped.
struct LlamaServer {
    child: Child,
    url: String,
}

impl LlamaServer {
    /// None (after printing why) when the server's venv is not installed.
    fn start() -> Option<LlamaServer> {
        let script = repo().join("scripts/llama-server.sh");
        let installed = Command::new("bash")
            .arg(&script)
            .arg("venv")
            .output()
            .is_ok_and(|o| o.status.success());
        if !installed {
            println!(
                "skipped: llama.cpp's server is not installed (bash scripts/llama-server.sh install)"
            );
            return None;
        }
        let mut child = Command::new("bash")
            .arg(&script)
            .arg("serve")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start scripts/llama-server.sh serve");
        let mut first = String::new();
        let stdout = child.stdout.take().expect("the server's stdout");
        BufReader::new(stdout)
            .read_line(&mut first)
            .expect("read the server's address");
        let url = first
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("no address in `{first}`"))
            .to_string();
        let server = LlamaServer { child, url };
        server.wait_ready();
        Some(server)
    }

    /// Polls `GET /v1/models` until the model is loaded (at most two minutes).
    fn wait_ready(&self) {
        let addr = self.url.trim_start_matches("http://").to_string();
        let deadline = Instant::now() + Duration::from_secs(120);
        while Instant::now() < deadline {
            if let Ok(mut s) = TcpStream::connect(&addr) {
                let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
                let _ = write!(
                    s,
                    "GET /v1/models HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
                );
                let mut reply = String::new();
                let _ = s.read_to_string(&mut reply);
                if reply.starts_with("HTTP/1.1 200") {
                    return;
                }
            }
            std::thread::sleep(Duration::from_millis(300));
        }
        panic!("llama.cpp's server at {} did not come up", self.url);
    }
}

impl Drop for LlamaServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Each fill of the only hole of `text`, written in and checked by `rex check`. `extra`:
/// more flags for `rex fill`.
fn remote_fills_that_check(
    dir: &TempDir,
    url: &str,
    name: &str,
    text: &str,
    extra: &[&str],
) -> Vec<Value> {
    let file = dir.file(name, text);
    let mut args = vec!["--json"];
    args.extend_from_slice(extra);
    let out = fill_remote(dir, &file.display().to_string(), url, "llamacpp", &args);
    assert!(
        out.status.code() == Some(0),
        "rex fill failed: {}\n{}",
        stderr(&out),
        stdout(&out)
    );
    let report: Value = serde_json::from_str(&stdout(&out)).expect("--json prints JSON");
    assert!(
        report["holes"][0]["fills"]
            .as_array()
            .is_some_and(|f| !f.is_empty()),
        "no fill: {}",
        report["holes"][0]
    );
    fills_checked_in(dir, text, &report)
}

#[test]
fn rex_fill_against_llama_cpp_s_server_returns_only_fills_that_check() {
    let Some(server) = LlamaServer::start() else {
        return;
    };
    let dir = TempDir::new("fill-remote");
    let texts = |fills: &[Value]| -> Vec<String> {
        fills
            .iter()
            .map(|f| {
                f["text"]
                    .as_str()
                    .unwrap()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    // Fewer samples and tokens than the defaults: llama-cpp-python takes about a second per
    // token on two CPU cores (it sorts the whole 262k-token vocabulary for each token's
    // log-probability, and its grammar sampler walks it too).
    let ph = remote_fills_that_check(
        &dir,
        &server.url,
        "ph.rex",
        PH,
        &[
            "--samples",
            "2",
            "--error-rounds",
            "1",
            "--max-tokens",
            "24",
        ],
    );
    println!("pH fills: {:?}", texts(&ph));
    assert!(
        texts(&ph)
            .iter()
            .any(|t| t == "qc_label_from_sensor sensor_reading"),
        "{:?}",
        texts(&ph)
    );
    let mk = remote_fills_that_check(
        &dir,
        &server.url,
        "mk.rex",
        MK,
        &["--samples", "2", "--max-tokens", "24"],
    );
    println!("mk fills: {:?}", texts(&mk));
    assert!(texts(&mk).iter().any(|t| t == "mk x"), "{:?}", texts(&mk));
    // Fills the model wrote, not only the semantic loop's candidates it scored.
    assert!(
        ph.iter().chain(&mk).any(|f| f["source"] == "model"),
        "no fill from the model itself"
    );
}

// --- error paths against listeners this test starts ---------------------------------------

/// A listener on a free port that answers every connection with `reply`, an HTTP status
/// line and a JSON body in which `{auth}` stands for the request's Authorization header
/// (None: reads the request and never answers); counts the connections.
fn serve(reply: Option<(&'static str, &'static str)>) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    let url = format!("http://{}", listener.local_addr().unwrap());
    let count = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&count);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            seen.fetch_add(1, Ordering::Relaxed);
            std::thread::spawn(move || {
                let request = read_request(&mut stream);
                match reply {
                    Some((status, body)) => {
                        let body = body.replace("{auth}", &header(&request, "authorization"));
                        let _ = stream.write_all(http(status, &body).as_bytes());
                    }
                    None => std::thread::sleep(Duration::from_secs(30)),
                }
            });
        }
    });
    (url, count)
}

/// The request's head and body (by its Content-Length).
fn read_request(stream: &mut TcpStream) -> String {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    while let Ok(n) = stream.read(&mut chunk) {
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
        let text = String::from_utf8_lossy(&buf);
        if let Some(head_end) = text.find("\r\n\r\n") {
            let len: usize = header(&text, "content-length").parse().unwrap_or(0);
            if buf.len() >= head_end + 4 + len {
                break;
            }
        }
    }
    String::from_utf8_lossy(&buf).into_owned()
}

fn header(request: &str, name: &str) -> String {
    request
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
        .unwrap_or_default()
}

fn http(status: &str, body: &str) -> String {
    format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// `rex fill --engine openai` on the `mk` program against `url`: its stderr and status.
fn fill_error(url: &str, extra: &[&str]) -> (String, Option<i32>) {
    let dir = TempDir::new("fill-remote-error");
    let file = dir.file("mk.rex", MK);
    let out = fill_remote(&dir, &file.display().to_string(), url, "vllm", extra);
    (stderr(&out), out.status.code())
}

#[test]
fn a_server_that_is_down_is_one_clear_error() {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let (err, code) = fill_error(&format!("http://127.0.0.1:{port}"), &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("connection refused") && err.contains(&port.to_string()),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn an_http_500_is_retried_then_reported() {
    let (url, count) = serve(Some((
        "500 Internal Server Error",
        r#"{"error": {"message": "out of memory"}}"#,
    )));
    let (err, code) = fill_error(&url, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("HTTP 500") && err.contains("out of memory"),
        "{err}"
    );
    // The first try and two retries, for the first of the samples to fail.
    assert!(
        count.load(Ordering::Relaxed) >= 3,
        "{}",
        count.load(Ordering::Relaxed)
    );
}

#[test]
fn a_reply_that_is_not_json_is_reported() {
    let (url, _) = serve(Some(("200 OK", "<html>hello</html>")));
    let (err, code) = fill_error(&url, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("not an OpenAI completion") && err.contains("<html>"),
        "{err}"
    );
}

#[test]
fn a_reply_without_text_is_reported() {
    let (url, _) = serve(Some((
        "200 OK",
        r#"{"choices": [{"index": 0, "finish_reason": "stop"}]}"#,
    )));
    let (err, code) = fill_error(&url, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("without text"), "{err}");
}

#[test]
fn a_refused_grammar_is_named() {
    let (url, count) = serve(Some((
        "400 Bad Request",
        r#"{"error": {"message": "grammar backend not enabled"}}"#,
    )));
    let (err, code) = fill_error(&url, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("refused the hole's grammar"), "{err}");
    // Not retried: the same request would be refused again. (Two requests more than the
    // samples: the prompt budget asks the two tokenizers a llama.cpp server may have
    // once, and this listener refuses them too.)
    assert!(
        count.load(Ordering::Relaxed) <= 6,
        "{}",
        count.load(Ordering::Relaxed)
    );
}

#[test]
fn a_silent_server_times_out() {
    let (url, _) = serve(None);
    let started = Instant::now();
    let (err, code) = fill_error(&url, &["--timeout", "0.5"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("did not answer within 0.5 s"), "{err}");
    // Not retried: about half a second, far from the listener's 30 s.
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn the_api_key_is_sent_and_never_printed() {
    // The server echoes the Authorization header back in its error.
    let (url, _) = serve(Some((
        "401 Unauthorized",
        r#"{"error": {"message": "bad key: {auth}"}}"#,
    )));
    let dir = TempDir::new("fill-remote-key");
    let file = dir.file("mk.rex", MK);
    let out = Command::new(env!("CARGO_BIN_EXE_rex"))
        .current_dir(&dir.0)
        .env("REX_LLM_API_KEY", "sk-rex-test-secret")
        .args([
            "fill",
            &file.display().to_string(),
            "--engine",
            "openai",
            "--url",
            &url,
            "--model",
            "m",
        ])
        .output()
        .expect("run rex");
    let all = format!("{}{}", stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(2), "{all}");
    assert!(
        all.contains("HTTP 401") && all.contains("Bearer ***"),
        "{all}"
    );
    assert!(!all.contains("sk-rex-test-secret"), "{all}");
}

#[test]
fn missing_settings_are_named() {
    let dir = TempDir::new("fill-remote-settings");
    let file = dir.file("mk.rex", MK);
    let out = Command::new(env!("CARGO_BIN_EXE_rex"))
        .current_dir(&dir.0)
        .env_remove("REX_LLM_URL")
        .args(["fill", &file.display().to_string(), "--engine", "openai"])
        .output()
        .expect("run rex");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--url"), "{}", stderr(&out));
}

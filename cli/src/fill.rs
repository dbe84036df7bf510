//! `rex fill FILE [LINE CHARACTER]`: fills the holes of a file with a model (every hole
//! when no position is given) and prints the ranked fills, each of which type-checks;
//! `--write` puts the best fill of each hole into the file, `--json` prints the result
//! object for tools. The model runs in-process (`--engine embedded`, the default) or
//! behind an OpenAI-compatible server (`--engine openai --url URL --model NAME --server
//! vllm|sglang|llamacpp`, or `REX_LLM_URL`, `REX_LLM_MODEL`, `REX_LLM_API_KEY`).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rex_compiler::db::Database;
use rex_compiler::Position;
use rex_ide::holes::holes;
use rex_llm::engine::llama::EngineOptions;
use rex_llm::fill::{FillOptions, Filler, HoleFills};
use rex_llm::prompt::{ContextLevel, PrefixMode};
use rex_llm::remote::{RemoteConfig, Server};
use serde::Serialize;

use crate::exit::Status;

#[derive(Args, Debug)]
pub struct FillArgs {
    /// The Rex source file.
    pub file: PathBuf,
    /// 0-based line of the hole (every hole when left out).
    pub line: Option<u32>,
    /// 0-based character (UTF-16 code units) of the hole.
    pub character: Option<u32>,
    /// Write the best fill of each hole into FILE.
    #[arg(long)]
    pub write: bool,
    /// Print `{holes: [...]}` as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// Where the model runs: `embedded` (in-process llama.cpp) or `openai` (an
    /// OpenAI-compatible server: vLLM, SGLang, llama.cpp's server).
    #[arg(long, value_enum, default_value = "embedded")]
    pub engine: EngineKind,
    /// The GGUF model (embedded: else `REX_MODEL`, else the one
    /// `scripts/install-model.sh` installs), or the served model's name (openai: else
    /// `REX_LLM_MODEL`).
    #[arg(long, value_name = "PATH|NAME")]
    pub model: Option<PathBuf>,
    /// The server's base URL (openai; else `REX_LLM_URL`). The API key, if any, is read
    /// from `REX_LLM_API_KEY` only.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Which server is behind the URL: vllm, sglang or llamacpp (openai; else
    /// `REX_LLM_SERVER`, else vllm). It decides where the grammar goes in a request.
    #[arg(long, value_name = "KIND")]
    pub server: Option<Server>,
    /// Seconds one request to the server may take (openai).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Static context in the prompt: none, expected-type, types, types+headers.
    #[arg(long, default_value = "types+headers")]
    pub context: ContextLevel,
    /// The program text before the hole in the prompt: its enclosing item, or the whole
    /// file up to the hole.
    #[arg(long, default_value = "item")]
    pub prefix: PrefixMode,
    /// Most tokens the prompt may take; optional parts of the context are dropped, lowest
    /// score first, to fit (default: the model's context less room for a sample).
    #[arg(long, value_name = "N")]
    pub prompt_budget: Option<usize>,
    /// The embedded engine's context in tokens (default: the model's training context,
    /// capped so that its KV cache stays under 1 GiB).
    #[arg(long, value_name = "N")]
    pub context_size: Option<u32>,
    /// Rounds that give failed attempts' problems back to the model.
    #[arg(long, default_value_t = 2)]
    pub error_rounds: usize,
    /// Decode without the grammar mask and the type oracle (fills are still verified).
    #[arg(long)]
    pub no_constrain: bool,
    /// Samples per round (the first is greedy).
    #[arg(long, default_value_t = 4)]
    pub samples: usize,
    /// Token budget of one sample.
    #[arg(long, default_value_t = 64)]
    pub max_tokens: usize,
    /// Sampling temperature of the samples after the first.
    #[arg(long, default_value_t = 0.8)]
    pub temperature: f32,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// CPU threads of the engine (default: the machine's cores).
    #[arg(long)]
    pub threads: Option<u32>,
    /// Layers offloaded to the GPU (builds with the cuda, metal or vulkan feature).
    #[arg(long, default_value_t = 0)]
    pub gpu_layers: u32,
    /// Leave out the semantic loop's verified candidates.
    #[arg(long)]
    pub no_candidates: bool,
    /// Do not nudge the model towards the names the semantic loop finds at the hole.
    #[arg(long)]
    pub no_name_bias: bool,
    /// Inject a function's signature (a comment in the model's context, never in the fill)
    /// where the model starts applying it (embedded engine only).
    #[arg(long)]
    pub signatures: bool,
    /// A directory to search for imported modules (repeatable).
    #[arg(long = "include", value_name = "DIR")]
    pub include: Vec<PathBuf>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineKind {
    Embedded,
    Openai,
}

#[derive(Serialize)]
struct Report<'a> {
    holes: &'a [HoleFills],
}

pub fn run(args: &FillArgs) -> Status {
    match fill(args) {
        Ok(status) => status,
        Err(message) => {
            eprintln!("error: {message}");
            Status::Failure
        }
    }
}

fn fill(args: &FillArgs) -> Result<Status, String> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| format!("cannot read `{}`: {e}", args.file.display()))?;
    let mut db = Database::new();
    let path = args.file.display().to_string();
    let roots = crate::modules::roots(&args.include);
    db.set_modules(
        crate::modules::load(&[(path.clone(), text.clone())], &roots),
        roots,
    );
    let file = db.add_file(path.clone(), text.clone());
    let positions = match (args.line, args.character) {
        (Some(line), Some(character)) => vec![Position { line, character }],
        (None, None) => holes(&db, file)
            .iter()
            .map(|h| Position {
                line: h.line,
                character: h.character,
            })
            .collect(),
        _ => return Err("give both LINE and CHARACTER, or neither".into()),
    };
    if positions.is_empty() {
        eprintln!("{path}: no holes to fill");
        return Ok(Status::Success);
    }
    let mut filler = filler(args)?;
    let opts = FillOptions {
        samples: args.samples.max(1),
        error_rounds: args.error_rounds,
        context: args.context,
        prefix: args.prefix,
        prompt_budget: args.prompt_budget.map(|n| n.max(1)),
        constrain: !args.no_constrain,
        max_tokens: args.max_tokens.max(1),
        temperature: args.temperature.max(0.0),
        seed: args.seed,
        name_bias: !args.no_name_bias,
        candidates: !args.no_candidates,
        signatures: args.signatures,
    };
    let cancel = AtomicBool::new(false);
    let show_progress = std::io::stderr().is_terminal() && !args.json;
    let mut results = Vec::new();
    for (i, pos) in positions.iter().enumerate() {
        let bar = show_progress.then(|| progress_bar(i, positions.len(), opts.samples));
        let mut progress = |p: rex_llm::fill::Progress| {
            if let Some(bar) = &bar {
                bar.set_position(p.sample as u64);
                bar.set_message(format!("round {}", p.round));
            }
        };
        let r = filler
            .fill_at(&db, file, *pos, &opts, &mut progress, &cancel)
            .map_err(|e| format!("{path}:{}:{}: {e}", pos.line + 1, pos.character + 1))?;
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        results.push(r);
    }
    print_results(args, &path, &results)?;
    if args.write {
        let new_text = with_best_fills(&text, &results);
        std::fs::write(&args.file, new_text)
            .map_err(|e| format!("cannot write `{}`: {e}", args.file.display()))?;
    }
    let all_filled = results.iter().all(|r| !r.fills.is_empty());
    Ok(if all_filled {
        Status::Success
    } else {
        Status::Errors
    })
}

/// The filler the flags ask for.
fn filler(args: &FillArgs) -> Result<Filler, String> {
    match args.engine {
        EngineKind::Embedded => {
            let engine = EngineOptions {
                threads: args.threads.unwrap_or(EngineOptions::default().threads),
                gpu_layers: args.gpu_layers,
                context_size: args.context_size.map(|n| n.max(64)),
                seed: args.seed as u32,
            };
            Filler::load_embedded(args.model.as_deref(), engine)
        }
        EngineKind::Openai => {
            if args.signatures {
                // An injected comment goes into the model's context mid-sample, which only
                // the in-process engine allows.
                return Err("--signatures needs --engine embedded".into());
            }
            let model = args
                .model
                .as_ref()
                .map(|m| m.to_string_lossy().into_owned());
            let mut config = RemoteConfig::from_parts(args.url.clone(), model, args.server, None)
                .map_err(|e| e.to_string())?;
            if let Some(t) = args.timeout {
                if !(t.is_finite() && t > 0.0) {
                    return Err(format!("--timeout {t}: give a number of seconds above 0"));
                }
                config.timeout = std::time::Duration::from_secs_f64(t);
            }
            Ok(Filler::remote(config))
        }
    }
}

fn progress_bar(hole: usize, holes: usize, samples: usize) -> ProgressBar {
    let bar = ProgressBar::new(samples as u64);
    let style = ProgressStyle::with_template("{prefix} [{bar:20}] sample {pos}/{len} {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style.progress_chars("=> "));
    bar.set_prefix(format!("hole {}/{holes}", hole + 1));
    bar
}

fn print_results(args: &FillArgs, path: &str, results: &[HoleFills]) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    let written = if args.json {
        let json =
            serde_json::to_string_pretty(&Report { holes: results }).map_err(|e| e.to_string())?;
        writeln!(out, "{json}")
    } else {
        let mut s = String::new();
        for r in results {
            s.push_str(&describe(path, r));
        }
        write!(out, "{s}")
    };
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write the result: {e}"))
        }
        _ => Ok(()),
    }
}

/// The fills of one hole for people.
fn describe(path: &str, r: &HoleFills) -> String {
    let mut s = format!(
        "{path}:{}:{}: {} : {}\n",
        r.range.start.line + 1,
        r.range.start.character + 1,
        r.name,
        r.expected_type.as_deref().unwrap_or("?")
    );
    if r.fills.is_empty() {
        s.push_str("  no well-typed fill found; attempts:\n");
        for a in &r.attempts {
            s.push_str(&format!(
                "    `{}`: {}\n",
                a.text,
                a.problem.as_deref().unwrap_or("")
            ));
        }
    }
    for (i, f) in r.fills.iter().enumerate() {
        let source = match f.source {
            rex_llm::fill::FillSource::Model => "model",
            rex_llm::fill::FillSource::Candidate => "candidate",
        };
        s.push_str(&format!(
            "  {}. {}    ({source}, {:.2})\n",
            i + 1,
            f.text,
            f.logprob
        ));
    }
    s.push_str(&format!(
        "  {} tokens in {:.1} s ({:.1} tokens/s)\n",
        r.stats.tokens, r.stats.seconds, r.stats.tokens_per_second
    ));
    s
}

/// `text` with each hole replaced by its best fill.
fn with_best_fills(text: &str, results: &[HoleFills]) -> String {
    let edits: Vec<(Position, Position, String)> = results
        .iter()
        .filter_map(|r| Some((pos(r.range.start), pos(r.range.end), r.best_written()?)))
        .collect();
    rex_ide::written::apply_edits(text, &edits)
}

fn pos(p: rex_ide::edit::LspPosition) -> Position {
    Position {
        line: p.line,
        character: p.character,
    }
}

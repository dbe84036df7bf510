//! `rex-bench holes`: fills every task with each configuration and prints the ablation
//! table; `rex-bench generate`: cuts the tasks from the conformance programs again and
//! makes the large programs again.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Parser, Subcommand};
use rex_bench::bench::run_task;
use rex_bench::config::{self, Config};
use rex_bench::table::{render, Report, Row};
use rex_bench::task::{load_all, tasks_dir};
use rex_bench::{cut, large};
use rex_llm::engine::llama::EngineOptions;
use rex_llm::fill::Filler;
use rex_llm::model::find_model;

#[derive(Parser)]
#[command(name = "rex-bench", about = "Benchmarks of the Rex tools")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Fill every task with each configuration and print the table.
    Holes(HolesArgs),
    /// Cut the tasks from the conformance programs again (writes tasks/cut/) and make the
    /// large programs again (writes tasks/large/).
    Generate(GenerateArgs),
}

#[derive(clap::Args)]
struct HolesArgs {
    /// Only the first N tasks (the suites interleaved).
    #[arg(long)]
    limit: Option<usize>,
    /// The configurations to run (repeatable; all when left out): reference, do-nothing,
    /// candidates, bare, type, types, headers, rounds, constrained, biased, file+context,
    /// file, static-types, full.
    #[arg(long = "config", value_name = "NAME")]
    configs: Vec<String>,
    /// Samples per fill (and k of pass@k).
    #[arg(long, default_value_t = 4)]
    samples: usize,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Token budget of one sample.
    #[arg(long, default_value_t = 64)]
    max_tokens: usize,
    /// The GGUF model (else `REX_MODEL`, else the installed default).
    #[arg(long, value_name = "PATH")]
    model: Option<PathBuf>,
    /// CPU threads of the engine (default: the machine's cores).
    #[arg(long)]
    threads: Option<u32>,
    /// Print the report as JSON (every task's fills included).
    #[arg(long)]
    json: bool,
    /// Only the tasks of these suites (repeatable): llms, cut, mvu, large.
    #[arg(long = "suite", value_name = "NAME")]
    suites: Vec<String>,
    /// Also write the JSON report to FILE.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// The task directory (default: the committed tasks).
    #[arg(long, value_name = "DIR")]
    tasks: Option<PathBuf>,
    /// Print each task's first fill and verdict on stderr.
    #[arg(long)]
    verbose: bool,
}

#[derive(clap::Args)]
struct GenerateArgs {
    /// The conformance programs (default: ../shared/conformance beside the repository).
    #[arg(long, value_name = "DIR")]
    conformance: Option<PathBuf>,
    /// Cuts kept per program.
    #[arg(long, default_value_t = cut::PER_PROGRAM)]
    per_program: usize,
    /// The task directory written (default: the committed tasks): its cut/ and large/.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Only these suites (repeatable): cut, large (default: both).
    #[arg(long = "suite", value_name = "NAME")]
    suites: Vec<String>,
    /// The seed of the large programs' declarations.
    #[arg(long, default_value_t = large::SEED)]
    seed: u64,
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Holes(args) => holes(&args),
        Command::Generate(args) => generate(&args),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn holes(args: &HolesArgs) -> Result<(), String> {
    let samples = args.samples.max(1);
    let all = config::all(samples, args.seed, args.max_tokens.max(1));
    let configs: Vec<Config> = if args.configs.is_empty() {
        all
    } else {
        let mut chosen = Vec::new();
        for name in &args.configs {
            let c = all.iter().find(|c| c.name == name).ok_or_else(|| {
                let names: Vec<&str> = all.iter().map(|c| c.name).collect();
                format!(
                    "unknown configuration `{name}` (one of {})",
                    names.join(", ")
                )
            })?;
            chosen.push(c.clone());
        }
        chosen
    };
    let dir = args.tasks.clone().unwrap_or_else(tasks_dir);
    let mut tasks = load_all(&dir)?;
    if !args.suites.is_empty() {
        tasks.retain(|t| args.suites.contains(&t.suite));
    }
    if let Some(n) = args.limit {
        tasks.truncate(n);
    }
    if tasks.is_empty() {
        return Err(format!("no tasks in `{}`", dir.display()));
    }
    let engine_opts = EngineOptions {
        threads: args.threads.unwrap_or(EngineOptions::default().threads),
        seed: args.seed as u32,
        ..EngineOptions::default()
    };
    let (mut filler, model) = if configs.iter().any(Config::uses_model) {
        let path = find_model(args.model.as_deref()).map_err(|e| e.to_string())?;
        let filler = Filler::load_embedded(Some(&path), engine_opts.clone())?;
        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        (Some(filler), format!("{} ({size} bytes)", path.display()))
    } else {
        (None, "none (no configuration needs one)".to_string())
    };
    let context = match engine_opts.context_size {
        Some(n) => format!("context {n} tokens"),
        None => "the model's default context".to_string(),
    };
    let engine = format!(
        "embedded llama.cpp (rex-llm LlamaEngine), CPU, {} threads, {context}",
        engine_opts.threads
    );
    let show_progress = std::io::stderr().is_terminal();
    let mut rows = Vec::new();
    for (ci, config) in configs.iter().enumerate() {
        let mut results = Vec::new();
        for (ti, task) in tasks.iter().enumerate() {
            if show_progress && !args.verbose {
                eprint!(
                    "\r{}/{} {:<12} task {}/{}   ",
                    ci + 1,
                    configs.len(),
                    config.name,
                    ti + 1,
                    tasks.len()
                );
            }
            let r = run_task(config, task, samples, filler.as_mut());
            if args.verbose {
                eprintln!(
                    "{:<12} {:<48} {:<5} {:>5} {:>6.1}s {:>7}  {}{}",
                    config.name,
                    task.id,
                    if r.pass_at_1 { "pass" } else { "fail" },
                    format!("{}/{}", r.tests_passed, r.tests),
                    r.seconds,
                    r.prompt_tokens
                        .map(|n| format!("{n} tok"))
                        .unwrap_or_default(),
                    r.fills
                        .first()
                        .map(|f| f.replace('\n', " "))
                        .unwrap_or_default(),
                    r.error
                        .as_deref()
                        .map(|e| format!("  [{e}]"))
                        .unwrap_or_default()
                );
            }
            results.push(r);
        }
        let row = Row::new(config, results);
        if !args.verbose {
            if show_progress {
                eprint!("\r");
            }
            eprintln!(
                "{:<12} pass@1 {:>5.1}%  ({:.0}s)",
                config.name, row.pass_at_1_percent, row.totals.seconds
            );
        }
        rows.push(row);
    }
    let report = Report {
        engine,
        model,
        samples,
        seed: args.seed,
        max_tokens: args.max_tokens.max(1),
        tasks: tasks.len(),
        rows,
    };
    let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
    if let Some(path) = &args.save {
        std::fs::write(path, format!("{json}\n"))
            .map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
    }
    if args.json {
        println!("{json}");
    } else {
        print!("{}", render(&report));
    }
    Ok(())
}

fn generate(args: &GenerateArgs) -> Result<(), String> {
    for suite in &args.suites {
        if suite != "cut" && suite != "large" {
            return Err(format!("unknown suite `{suite}` (cut, large)"));
        }
    }
    let wants = |suite: &str| args.suites.is_empty() || args.suites.iter().any(|s| s == suite);
    let out = args.out.clone().unwrap_or_else(tasks_dir);
    if wants("cut") {
        let dir = args.conformance.clone().unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance")
        });
        let (cuts, census) = cut::generate(&dir, args.per_program)?;
        let cut_dir = out.join("cut");
        cut::write(&cut_dir, &cuts)?;
        println!(
            "{} programs, {} run to their expected output; {} candidate cuts",
            census.programs, census.programs_ok, census.candidates
        );
        for (why, n) in &census.rejected {
            println!("  rejected {n:>5}: {why}");
        }
        for (kind, n) in &census.eligible {
            println!("  eligible {n:>5}: {}", kind.name());
        }
        println!("wrote {} tasks to {}", cuts.len(), cut_dir.display());
    }
    if wants("large") {
        // The large programs end with the committed `llms` tasks.
        let tasks = large::generate(&tasks_dir(), args.seed)?;
        let large_dir = out.join("large");
        large::write(&large_dir, &tasks)?;
        for t in &tasks {
            println!(
                "  large/{}: {} lines, the hole on line {}",
                t.name,
                t.program.lines().count(),
                t.program[..t.program.find('?').unwrap_or(0)]
                    .lines()
                    .count()
            );
        }
        println!("wrote {} tasks to {}", tasks.len(), large_dir.display());
    }
    Ok(())
}

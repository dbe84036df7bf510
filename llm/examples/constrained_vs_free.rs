//! Benchmark (not a test): the same holes filled by the embedded model with and without the
//! constraint layers (grammar mask + type oracle), one greedy sample each, no error rounds
//! and no semantic-loop candidates, so that the two runs differ only in the constraints.
//! Prints tokens/s of each run, their ratio (goal: constrained >= 0.8x free), the share of
//! fills that type-check (goal: 100% constrained), and the time per fill.
//!
//! ```sh
//! cargo run --release -p rex-llm --example constrained_vs_free -- [MAX_HOLES] [TASKS_DIR]
//! ```
//! The holes: those of the hole-filling benchmark's task set (`bench/holes/tasks`), the
//! LLMS guide's programs first, then the holes cut from the conformance programs (the MVU
//! apps are left out: their fills are longer than this comparison's token budget). The
//! ablation table over the same tasks is `cargo run --release -p rex-bench -- holes`.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rex_compiler::db::Database;
use rex_llm::engine::llama::EngineOptions;
use rex_llm::fill::{FillOptions, Filler};
use rex_llm::model::find_model;

#[path = "common/tasks.rs"]
mod tasks;

use tasks::task_holes;

struct Totals {
    tokens: usize,
    seconds: f64,
    fills: usize,
    well_typed: usize,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let max_holes: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(24);
    let dir = args
        .get(2)
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/holes/tasks"));
    let model = match find_model(None) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut filler = match Filler::load_embedded(Some(&model), EngineOptions::default()) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut tasks = task_holes(&dir.join("llms"));
    tasks.extend(task_holes(&dir.join("cut")));
    tasks.truncate(max_holes);
    println!("{} holes (model {})", tasks.len(), model.display());
    let mut free = Totals::new();
    let mut constrained = Totals::new();
    for (text, pos) in &tasks {
        for (constrain, totals) in [(false, &mut free), (true, &mut constrained)] {
            let db = Database::new();
            let file = db.add_file("bench.rex", text.clone());
            let pos = *pos;
            let opts = FillOptions {
                samples: 1,
                error_rounds: 0,
                constrain,
                candidates: false,
                name_bias: false,
                max_tokens: 48,
                ..FillOptions::default()
            };
            let started = Instant::now();
            let Ok(r) = filler.fill_at(&db, file, pos, &opts, &mut |_| {}, &AtomicBool::new(false))
            else {
                continue;
            };
            totals.seconds += started.elapsed().as_secs_f64();
            totals.tokens += r.stats.tokens;
            totals.fills += 1;
            totals.well_typed += usize::from(!r.fills.is_empty());
            let shown = r.attempts.first().map(|a| a.text.as_str()).unwrap_or("");
            println!(
                "  {:<12} {:<40} {}",
                if constrain { "constrained" } else { "free" },
                r.expected_type.unwrap_or_default(),
                shown.replace('\n', " ")
            );
        }
    }
    println!();
    println!(
        "{:<14}{:>12}{:>14}{:>14}",
        "", "tokens/s", "well-typed", "s per fill"
    );
    for (name, t) in [("free", &free), ("constrained", &constrained)] {
        println!(
            "{:<14}{:>12.1}{:>13.0}%{:>14.2}",
            name,
            t.rate(),
            100.0 * t.well_typed as f64 / t.fills.max(1) as f64,
            t.seconds / t.fills.max(1) as f64
        );
    }
    println!(
        "constrained / free tokens/s: {:.2}",
        constrained.rate() / free.rate().max(f64::EPSILON)
    );
}

impl Totals {
    fn new() -> Totals {
        Totals {
            tokens: 0,
            seconds: 0.0,
            fills: 0,
            well_typed: 0,
        }
    }

    fn rate(&self) -> f64 {
        self.tokens as f64 / self.seconds.max(f64::EPSILON)
    }
}

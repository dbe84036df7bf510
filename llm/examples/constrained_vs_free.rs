//! Benchmark (not a test): the same holes filled by the embedded model with and without the
//! constraint layers (grammar mask + type oracle), one greedy sample each, no error rounds
//! and no semantic-loop candidates, so that the two runs differ only in the constraints.
//! Prints tokens/s of each run, their ratio (goal: constrained >= 0.8x free), the share of
//! fills that type-check (goal: 100% constrained), and the time per fill.
//!
//! ```sh
//! cargo run --release -p rex-llm --example constrained_vs_free -- [MAX_HOLES] [CONFORMANCE_DIR]
//! ```
//! The holes: the pH and `mk` programs of the LLMS guide, then holes cut from the
//! conformance programs (a name or a call replaced by `?`) whose expected type is concrete.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rex_compiler::db::Database;
use rex_compiler::syntax::ast::ExprKind;
use rex_compiler::syntax::parser::parse_text;
use rex_compiler::LineIndex;
use rex_llm::engine::llama::EngineOptions;
use rex_llm::fill::{FillOptions, Filler};
use rex_llm::model::find_model;

const PH: &str = include_str!("../../examples/holes.rex");
const MK: &str =
    "fn mk : i32 -> string = \\n -> \"value\"\nlet x = 1 in\nlet y : string = ? in\ny\n";

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
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance"));
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
    let mut holes = vec![hole_of(PH), hole_of(MK)];
    holes.extend(cut_holes(&dir, max_holes.saturating_sub(2)));
    holes.truncate(max_holes);
    println!("{} holes (model {})", holes.len(), model.display());
    let mut free = Totals::new();
    let mut constrained = Totals::new();
    for (text, offset) in &holes {
        for (constrain, totals) in [(false, &mut free), (true, &mut constrained)] {
            let db = Database::new();
            let file = db.add_file("bench.rex", text.clone());
            let pos = LineIndex::new(text).position(text, *offset);
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

/// A program with one `?` and the hole's offset.
fn hole_of(text: &str) -> (String, usize) {
    let at = text.rfind('?').unwrap_or(0);
    (text.to_string(), at)
}

/// Holes cut from the conformance programs: names and calls whose hole gets a concrete
/// expected type (no type variable), the cut program free of errors.
fn cut_holes(dir: &Path, limit: usize) -> Vec<(String, usize)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        if out.len() >= limit {
            break;
        }
        if f.extension().is_none_or(|e| e != "rex") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let parsed = parse_text(&text);
        // One hole per program keeps the set varied.
        'items: for item in parsed.items.iter().rev() {
            for e in item.arena.exprs.iter().rev() {
                if !matches!(e.kind, ExprKind::App(..) | ExprKind::Var(_)) {
                    continue;
                }
                let span = item.abs(e.span);
                let (s, t) = (span.start as usize, span.end as usize);
                let cut = format!("{}?{}", &text[..s], &text[t..]);
                let db = Database::new();
                let file = db.add_file("cut.rex", cut.clone());
                if db.diagnostics(file).iter().any(|d| d.is_error()) {
                    continue;
                }
                let holes = rex_ide::holes::holes(&db, file);
                let concrete = holes
                    .iter()
                    .all(|h| !h.expected_type.contains('\'') && h.expected_type != "?");
                if holes.len() == 1 && concrete {
                    out.push((cut, s));
                    break 'items;
                }
            }
        }
    }
    out
}

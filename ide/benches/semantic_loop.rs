//! `rex.semanticLoopStep` on a generated 1,000-line program, and the re-check after a
//! one-character edit of one `fn` body. Prints medians (and the ratio of the re-check to a
//! cold check); no assertion, machines are noisy.
//!
//! Run: `cargo bench -p rex-ide --bench semantic_loop`

use std::time::{Duration, Instant};

use rex_compiler::db::Database;
use rex_compiler::{LineIndex, Position};
use rex_ide::commands::{execute, SEMANTIC_LOOP_STEP};
use salsa::Setter;
use serde_json::json;

/// The allocator the `rex` tool runs with, so that these times are the tool's.
#[global_allocator]
static GLOBAL: rex_alloc::Mimalloc = rex_alloc::Mimalloc;

const FUNCTIONS: usize = 200;
const RUNS: usize = 41;

/// About 1,000 lines: `FUNCTIONS` small `fn`s (six lines each with the blank), then a result
/// expression with a hole of type `i32` that every function can fill.
fn program() -> String {
    let mut s = String::new();
    for i in 0..FUNCTIONS {
        s.push_str(&format!(
            "fn step_{i} : i32 -> i32 = \\x ->\n  let y = x + {i} in\n  if y > 100 then y - 1\n  else y * 2\n\n"
        ));
    }
    s.push_str("let seed = 1 in\nlet total : i32 = ? in\ntotal\n");
    s
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let text = program();
    let lines = text.lines().count();
    let hole = text.rfind('?').expect("the program has a hole");
    let pos: Position = LineIndex::new(&text).position(&text, hole);
    let mut db = Database::new();
    let file = db.add_file("bench.rex", text.clone());
    let args = json!({"uri": "file:///bench.rex", "line": pos.line, "character": pos.character});

    let t = Instant::now();
    let first = execute(&mut db, file, SEMANTIC_LOOP_STEP, &args).expect("step");
    let cold = t.elapsed();
    let best = first["holeFillCandidates"][0]["replacement"].clone();

    let mut steps = Vec::new();
    for _ in 0..RUNS {
        let t = Instant::now();
        let out = execute(&mut db, file, SEMANTIC_LOOP_STEP, &args).expect("step");
        steps.push(t.elapsed());
        assert_eq!(out["holeFillCandidates"][0]["replacement"], best);
    }

    // A one-character edit of one `fn` body, back and forth, then the file's diagnostics.
    let edited = text.replacen("let y = x + 80 in", "let y = x + 81 in", 1);
    assert_ne!(edited, text);
    let mut rechecks = Vec::new();
    for run in 0..RUNS {
        let next = if run % 2 == 0 { &edited } else { &text };
        file.set_text(&mut db).to(next.clone());
        let t = Instant::now();
        let errors = db.diagnostics(file).iter().filter(|d| d.is_error()).count();
        rechecks.push(t.elapsed());
        assert_eq!(errors, 0);
    }
    // A cold check of the same text in a fresh database, for the ratio.
    let mut colds = Vec::new();
    for _ in 0..5 {
        let fresh = Database::new();
        let f = fresh.add_file("bench.rex", text.clone());
        let t = Instant::now();
        let _ = fresh.diagnostics(f).len();
        colds.push(t.elapsed());
    }
    // The step right after an edit (the database re-checks the edited item only).
    let mut after_edit = Vec::new();
    for run in 0..RUNS {
        let next = if run % 2 == 0 { &edited } else { &text };
        file.set_text(&mut db).to(next.clone());
        let t = Instant::now();
        let _ = execute(&mut db, file, SEMANTIC_LOOP_STEP, &args).expect("step");
        after_edit.push(t.elapsed());
    }

    let (step, recheck, cold_check, step_edit) = (
        median(steps),
        median(rechecks),
        median(colds),
        median(after_edit),
    );
    println!("program: {lines} lines, {FUNCTIONS} fns; best fill: {best}");
    println!(
        "semanticLoopStep, first call (cold database): {:.2} ms",
        ms(cold)
    );
    println!("semanticLoopStep, median of {RUNS}: {:.2} ms", ms(step));
    println!(
        "semanticLoopStep after a one-character fn-body edit, median: {:.2} ms",
        ms(step_edit)
    );
    println!(
        "re-check after a one-character fn-body edit, median: {:.2} ms",
        ms(recheck)
    );
    println!(
        "cold check of the whole file, median of 5: {:.2} ms",
        ms(cold_check)
    );
    println!(
        "re-check / cold check: {:.3}",
        recheck.as_secs_f64() / cold_check.as_secs_f64()
    );
}

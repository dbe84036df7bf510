//! Type-checking throughput on generated, well-typed programs of about 1,000 and 10,000
//! lines (functions with signatures, ADTs, nested matches, lets, `let rec`, classes and
//! instances, lambdas, records), through the database as the front doors use it: every
//! diagnostic of the file. Then the re-check after a one-character edit inside one function
//! body, which re-parses and re-infers that item alone. Prints lines per second and the
//! ratio; compare runs side by side on one machine.
//!
//! Run with `cargo bench -p rex-compiler --bench check`.

use std::hint::black_box;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rex_compiler::db::Database;
use salsa::Setter;

/// The allocator the `rex` tool runs with, so that these times are the tool's.
#[global_allocator]
static GLOBAL: rex_alloc::Mimalloc = rex_alloc::Mimalloc;

const SIZES: [usize; 2] = [1_000, 10_000];
const ITERATIONS: usize = 5;

/// The text of the function body that the incremental run edits (one character of
/// `acc + x * 2`).
const EDITED_BODY: &str = "acc + x * 7";

/// One group of declarations, numbered `n` so that every name is unique; each group also
/// uses the one before it, so items depend on each other as in a real program.
fn chunk(n: usize) -> String {
    let prev = n.saturating_sub(1);
    format!(
        r#"type Shape{n} = Circle{n} f32 | Rect{n} {{ w: f32, h: f32 }} | Dot{n}

fn area{n} : Shape{n} -> f32 = \s ->
  match s
    when Circle{n} r -> 3.0 * r * r
    when Rect{n} {{w, h}} -> w * h
    when Dot{n} -> 0.0

fn sum{n} : List i32 -> i32 = \xs ->
  let
    step = \acc x -> acc + x * {k},
    total = foldl step 0 xs,
    (lo, hi) = (total - 1, total + 1)
  in
    if lo < hi then total + sum{prev} [lo] else 0 - 1

fn label{n} : Result i32 string -> string = \x ->
  match x
    when Ok v -> "ok " + show v
    when Err e -> "error: " + e

class Measure{n} a
  measure{n} : a -> i32

instance Measure{n} (List t)
  measure{n} = \xs -> count xs

fn pipeline{n} : List i32 -> {{ count: i32, items: List i32 }} = \xs ->
  let rec go = \ys -> match ys
    when [] -> []
    when h::t -> (h * {k}) :: go t
  in {{ count = count xs, items = filter (\v -> v % 2 == 0) (go xs) }}

fn first{n} : Option (List i32) -> i32 = \o ->
  match o
    when Some (h::_) -> h + measure{n} [1, 2] + (pipeline{n} [h]).count
    when Some [] ->
      let a = area{n} (Rect{n} {{ w = 1.0, h = 2.0 }}) in
      if a > 1.0 then 1 else 0
    when None -> 0 - 1

"#,
        k = n % 9 + 2
    )
}

fn program(target_lines: usize) -> String {
    let mut out = String::new();
    let mut n = 0;
    while out.lines().count() < target_lines {
        out.push_str(&chunk(n));
        n += 1;
    }
    out.push_str("sum0 [1, 2, 3]\n");
    out
}

struct Timing {
    best: Duration,
    median: Duration,
}

/// Runs `f` once to warm up, then `ITERATIONS` times; `f` returns the measured time.
fn measure(mut f: impl FnMut() -> Duration) -> Timing {
    f();
    let mut times: Vec<Duration> = (0..ITERATIONS).map(|_| f()).collect();
    times.sort();
    Timing {
        best: times[0],
        median: times[times.len() / 2],
    }
}

fn report(name: &str, lines: usize, t: &Timing) {
    let secs = t.median.as_secs_f64();
    println!(
        "{name:<34} median {:>9.2} ms  best {:>9.2} ms  {:>10.0} lines/s",
        secs * 1e3,
        t.best.as_secs_f64() * 1e3,
        lines as f64 / secs
    );
}

/// A database whose prelude is already parsed and checked (as in a long-running server).
fn warm_database(log: Option<Arc<Mutex<Vec<String>>>>) -> Database {
    let db = match log {
        Some(log) => Database::with_execution_log(log),
        None => Database::new(),
    };
    let warm = db.add_file("warm.rex", "1 + 1\n");
    black_box(db.diagnostics(warm));
    db
}

fn timed(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

fn main() {
    for size in SIZES {
        run(size);
        println!();
    }
}

fn run(target_lines: usize) {
    let text = program(target_lines);
    let lines = text.lines().count();
    let edited = text.replacen("acc + x * 2", EDITED_BODY, 1);
    assert_ne!(text, edited, "the edit must change the program");

    let db = warm_database(None);
    let file = db.add_file("bench.rex", text.clone());
    let diagnostics = db.diagnostics(file);
    let errors: Vec<_> = diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(
        errors.is_empty(),
        "the generated program must check cleanly: {:?}",
        &errors[..1]
    );
    let items = rex_compiler::db::parse(&db, file).items.len();
    println!("program: {lines} lines, {items} items; {ITERATIONS} iterations");

    // A new file in a warm database: parse, environment, every item.
    let full = measure(|| {
        let db = warm_database(None);
        let source = text.clone();
        timed(|| {
            let file = db.add_file("bench.rex", source);
            black_box(db.diagnostics(file));
        })
    });
    report("full check (parse + types)", lines, &full);

    // The two whole-file parts every re-check repeats, for comparison.
    let prelude = rex_compiler::syntax::parser::parse_text(rex_compiler::db::PRELUDE_SOURCE);
    let parsed = rex_compiler::syntax::parser::parse_text(&text);
    let parse =
        measure(|| timed(|| drop(black_box(rex_compiler::syntax::parser::parse_text(&text)))));
    report("  of which parsing", lines, &parse);
    // The prelude is declared once per process (`db::prelude_decls`), outside the timing.
    let declared = rex_compiler::check::declare_prelude(&prelude.items);
    let env = measure(|| {
        timed(|| {
            black_box(rex_compiler::check::declare_program(
                &declared,
                &parsed.items,
                &rex_compiler::check::imports::Program::default(),
            ));
        })
    });
    report("  of which the environment", lines, &env);

    // One function body edited in a checked file: only that item is inferred again.
    let recheck = recheck_after(&text, &edited, items, "re-check after a one-body edit");
    println!(
        "re-check / full check: {:.3} (full check is {:.0}x the re-check)",
        recheck.median.as_secs_f64() / full.median.as_secs_f64(),
        full.median.as_secs_f64() / recheck.median.as_secs_f64()
    );

    // A new function above every item: the environment is rebuilt, and only the new item
    // is inferred (no other item spells its name).
    let inserted = format!("fn inserted : i32 -> i32 = \\x -> x + 1\n\n{text}");
    let insert = recheck_after(
        &text,
        &inserted,
        items,
        "re-check after an insertion at the top",
    );
    println!(
        "insertion re-check / full check: {:.3}",
        insert.median.as_secs_f64() / full.median.as_secs_f64()
    );
}

/// Times the re-check of `text` changed to `edited` in a warm database, reports it as
/// `name`, and prints how many of the `items` were inferred again (from salsa's log).
fn recheck_after(text: &str, edited: &str, items: usize, name: &str) -> Timing {
    let lines = text.lines().count();
    let timing = measure(|| {
        let mut db = warm_database(None);
        let file = db.add_file("bench.rex", text.to_string());
        black_box(db.diagnostics(file));
        let source = edited.to_string();
        let start = Instant::now();
        file.set_text(&mut db).to(source);
        black_box(db.diagnostics(file));
        start.elapsed()
    });
    report(name, lines, &timing);

    let log = Arc::new(Mutex::new(Vec::new()));
    let mut db = warm_database(Some(log.clone()));
    let file = db.add_file("bench.rex", text.to_string());
    black_box(db.diagnostics(file));
    if let Ok(mut log) = log.lock() {
        log.clear();
    }
    file.set_text(&mut db).to(edited.to_string());
    black_box(db.diagnostics(file));
    let inferred = log
        .lock()
        .map(|log| log.iter().filter(|l| l.starts_with("item_types")).count())
        .unwrap_or(0);
    println!("items inferred again: {inferred} of {items}");
    timing
}

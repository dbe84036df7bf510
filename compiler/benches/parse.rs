//! Parser throughput on a generated ~10,000-line program: `parse_text` directly, the salsa
//! `parse` query on a fresh database, and `parse_text` on a copy with damaged lines (the cost
//! of recovery). Prints lines per second and MB/s; compare runs side by side on one machine.
//!
//! Run with `cargo bench -p rex-compiler --bench parse`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use rex_compiler::db::{self, Database};
use rex_compiler::syntax::parser::parse_text;

/// The allocator the `rex` tool runs with, so that these times are the tool's.
#[global_allocator]
static GLOBAL: rex_alloc::Mimalloc = rex_alloc::Mimalloc;

const TARGET_LINES: usize = 10_000;
const ITERATIONS: usize = 10;

/// A deterministic pseudo-random sequence, so every run parses the same text.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % below
    }
}

/// Declarations of every kind, with matches, lets, lambdas, records and operators.
fn program() -> String {
    let mut rng = Lcg(42);
    let mut out = String::new();
    let mut i = 0usize;
    while out.lines().count() < TARGET_LINES {
        let n = i;
        i += 1;
        let chunk = match rng.next(6) {
            0 => format!(
                "type Shape{n} a =\n  | Circle{n} f32\n  | Rect{n} {{ w: f32, h: f32 }}\n  | Tagged{n} a (List a)\n"
            ),
            1 => format!(
                "fn area{n} : Shape{m} f32 -> f32 = \\s ->\n  match s\n    when Circle{m} r -> 3.14 * r * r\n    when Rect{m} {{w, h}} -> w * h\n    when Tagged{m} x xs -> x + foldl (+) 0.0 xs\n",
                m = n.saturating_sub(1)
            ),
            2 => format!(
                "fn sum{n} (xs: List i32) -> i32 =\n  let\n    step = \\acc x -> acc + x * {k},\n    total = foldl step 0 xs,\n    (lo, hi) = (total - 1, total + 1)\n  in\n    if lo < hi then total else -1\n",
                k = rng.next(100)
            ),
            3 => format!(
                "fn label{n} x: Result i32 string -> string =\n  match x\n    when Ok v -> \"ok \" + show v\n    when Err e -> \"error: \" + e\n"
            ),
            4 => format!(
                "class Measure{n} a <= Eq a\n  measure{n} : a -> i32\n  (<+>) : a -> a -> a\n\ninstance Measure{n} (List t) <= Eq t\n  measure{n} = \\xs -> length xs\n  (<+>) = \\a b -> a ++ b\n"
            ),
            _ => format!(
                "fn pipeline{n} : List i32 -> {{ count: i32, items: List i32 }} = \\xs ->\n  let rec go = \\ys -> match ys\n    when [] -> []\n    when h::t -> (h * {k}) :: go t\n  in {{ count = length xs, items = filter (\\v -> v % 2 == 0) (go xs) }}\n",
                k = rng.next(10) + 1
            ),
        };
        out.push_str(&chunk);
        out.push('\n');
    }
    out.push_str("sum0 [1, 2, 3]\n");
    out
}

/// The same program with the first token of every 50th line deleted.
fn damaged(text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            if i % 50 == 7 {
                let indent = line.len() - line.trim_start().len();
                let rest = line[indent..]
                    .find(' ')
                    .map_or("", |space| &line[indent + space..]);
                format!("{}{rest}\n", &line[..indent])
            } else {
                format!("{line}\n")
            }
        })
        .collect()
}

struct Timing {
    best: Duration,
    median: Duration,
}

/// Runs `f` once to warm up, then `ITERATIONS` times; `f` returns the time of the part
/// being measured.
fn measure(mut f: impl FnMut() -> Duration) -> Timing {
    f();
    let mut times: Vec<Duration> = (0..ITERATIONS).map(|_| f()).collect();
    times.sort();
    Timing {
        best: times[0],
        median: times[times.len() / 2],
    }
}

fn report(name: &str, text: &str, t: &Timing) {
    let lines = text.lines().count() as f64;
    let mb = text.len() as f64 / 1e6;
    let secs = t.median.as_secs_f64();
    println!(
        "{name:<28} median {:>8.2} ms  best {:>8.2} ms  {:>10.0} lines/s  {:>6.2} MB/s",
        secs * 1e3,
        t.best.as_secs_f64() * 1e3,
        lines / secs,
        mb / secs
    );
}

fn main() {
    let text = program();
    let broken = damaged(&text);
    // To look at the inputs: REX_BENCH_DUMP=DIR writes them there.
    if let Some(dir) = std::env::var_os("REX_BENCH_DUMP") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::write(dir.join("bench.rex"), &text).expect("writable dump directory");
        std::fs::write(dir.join("bench-damaged.rex"), &broken).expect("writable dump directory");
    }
    let clean = parse_text(&text);
    assert!(
        clean.diagnostics.is_empty(),
        "the generated program must parse cleanly: {:?}",
        &clean.diagnostics[..1]
    );
    let broken_diagnostics = parse_text(&broken).diagnostics.len();
    println!(
        "program: {} lines, {:.2} MB, {} items; damaged copy: {} diagnostics; {ITERATIONS} iterations",
        text.lines().count(),
        text.len() as f64 / 1e6,
        clean.items.len(),
        broken_diagnostics,
    );

    // Each result is dropped after its timing stops, as the database keeps its own.
    let direct = measure(|| timed(|| black_box(parse_text(black_box(&text)))).0);
    report("parse_text", &text, &direct);

    // The database (and its prelude input) is made outside the timed part.
    let query = measure(|| {
        let db = Database::new();
        let source = text.clone();
        timed(|| {
            let file = db.add_file("bench.rex", source);
            black_box(db::parse(&db, file));
        })
        .0
    });
    report("db::parse (fresh database)", &text, &query);

    let recovering = measure(|| timed(|| black_box(parse_text(black_box(&broken)))).0);
    report("parse_text (damaged copy)", &broken, &recovering);

    println!(
        "ratios (median): db::parse / parse_text = {:.2}, damaged / clean = {:.2}",
        query.median.as_secs_f64() / direct.median.as_secs_f64(),
        recovering.median.as_secs_f64() / direct.median.as_secs_f64(),
    );
}

/// The time `f` takes, and its result (dropped by the caller, after the clock stops).
fn timed<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let start = Instant::now();
    let value = f();
    (start.elapsed(), value)
}

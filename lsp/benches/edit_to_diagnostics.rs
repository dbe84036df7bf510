//! The language server's path from a keystroke to new diagnostics, in process: a
//! one-character incremental `didChange` in one `fn` body of a generated 1,000-line and
//! 10,000-line file,
//! applied to the server's workspace, then the document's diagnostics converted to LSP.
//! Prints medians, and the ratio to checking the same text cold; no assertions (machines
//! are noisy, compare figures side by side).
//!
//! Run: `cargo bench -p rex-lsp --bench edit_to_diagnostics`

use std::time::{Duration, Instant};

use rex_lsp::convert;
use rex_lsp::workspace::Workspace;
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent};

/// The allocator the `rex` tool runs with, so that these times are the tool's.
#[global_allocator]
static GLOBAL: rex_alloc::Mimalloc = rex_alloc::Mimalloc;

/// About 1,000 and 10,000 lines.
const SIZES: [usize; 2] = [143, 1430];
const RUNS: usize = 101;
const URI: &str = "file:///bench.rex";

/// `functions` seven-line `fn`s calling their predecessor, then a result expression.
fn program(functions: usize) -> String {
    let mut s = String::new();
    for i in 0..functions {
        let callee = if i == 0 {
            "x".to_string()
        } else {
            format!("step_{} x", i - 1)
        };
        s.push_str(&format!(
            "fn step_{i} : i32 -> i32 = \\x ->\n  let y = {callee} + {i} in\n  let label = if y > 100 then \"big\" else \"small\" in\n  match (Some y)\n    when Some v -> v * 2\n    when None -> 0\n\n"
        ));
    }
    s.push_str(&format!("step_{} 1\n", functions - 1));
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
    for functions in SIZES {
        run(functions);
        println!();
    }
}

fn run(functions: usize) {
    let text = program(functions);
    let lines = text.lines().count();
    // The `2` of `+ 62` in `step_62`.
    let needle = "step_61 x + 62 in";
    let call = text.find(needle).expect("the edited line");
    let digit = call + "step_61 x + 6".len();
    let line = text[..digit].matches('\n').count() as u32;
    let character = (digit - text[..digit].rfind('\n').map_or(0, |i| i + 1)) as u32;
    let range = Range {
        start: Position::new(line, character),
        end: Position::new(line, character + 1),
    };

    let mut ws = Workspace::new();
    let t = Instant::now();
    ws.open(URI, text.clone(), 1);
    let doc = ws.document(URI).expect("open");
    let first = convert::diagnostics(&ws, doc);
    let cold_open = t.elapsed();
    assert!(first.is_empty(), "the generated program checks: {first:?}");

    let mut edits = Vec::new();
    let mut apply = Vec::new();
    let mut query = Vec::new();
    for run in 0..RUNS {
        // `62` -> `63` -> `62` ...: one character, inside one `fn` body.
        let digit = if run % 2 == 0 { "3" } else { "2" };
        let change = TextDocumentContentChangeEvent {
            range: Some(range),
            range_length: None,
            text: digit.to_string(),
        };
        let t = Instant::now();
        ws.change(URI, run as i32 + 2, vec![change]);
        let changed = t.elapsed();
        let doc = ws.document(URI).expect("open");
        let checked = ws.diagnostics(doc).len();
        let queried = t.elapsed();
        let diags = convert::diagnostics(&ws, doc);
        edits.push(t.elapsed());
        apply.push(changed);
        query.push(queried - changed);
        assert!(diags.is_empty() && checked == 0);
    }

    let mut colds = Vec::new();
    for _ in 0..5 {
        let mut fresh = Workspace::new();
        let t = Instant::now();
        fresh.open(URI, text.clone(), 1);
        let doc = fresh.document(URI).expect("open");
        let _ = convert::diagnostics(&fresh, doc).len();
        colds.push(t.elapsed());
    }

    // For comparison: parsing the whole file (a re-check re-parses only the edited item).
    let mut parses = Vec::new();
    for _ in 0..11 {
        let t = Instant::now();
        let parsed = rex_compiler::syntax::parser::parse_text(&text);
        parses.push(t.elapsed());
        assert!(parsed.diagnostics.is_empty());
    }

    // Requests right after an edit, at the edited spot: completion (every candidate's type
    // fit) and hover.
    // The cursor after `step_6` of that line's call.
    let offset = call + "step_6".len();
    let mut completions = Vec::new();
    let mut hovers = Vec::new();
    for _ in 0..21 {
        let doc = ws.document(URI).expect("open");
        let t = Instant::now();
        let c = rex_ide::completion::completion(&ws.db, doc.file, offset);
        completions.push(t.elapsed());
        assert!(!c.items.is_empty());
        let t = Instant::now();
        let _ = rex_ide::hover::hover(&ws.db, doc.file, offset);
        hovers.push(t.elapsed());
    }

    let edit = median(edits);
    let cold = median(colds);
    println!("edit_to_diagnostics: {lines} lines, {functions} fns");
    println!("  first open + diagnostics      {:8.3} ms", ms(cold_open));
    println!("  cold check (median of 5)      {:8.3} ms", ms(cold));
    println!(
        "  1-char edit -> diagnostics    {:8.3} ms (median of {RUNS})",
        ms(edit)
    );
    println!(
        "    of which: apply the change  {:8.3} ms",
        ms(median(apply))
    );
    println!(
        "    of which: re-check (salsa)  {:8.3} ms",
        ms(median(query))
    );
    println!(
        "  completion at the edit        {:8.3} ms",
        ms(median(completions))
    );
    println!(
        "  hover at the edit             {:8.3} ms",
        ms(median(hovers))
    );
    println!(
        "  whole-file parse alone        {:8.3} ms",
        ms(median(parses))
    );
    println!(
        "  edit / cold                   {:8.3}",
        edit.as_secs_f64() / cold.as_secs_f64()
    );
}

//! How much work the parser's recovery does: an item is read by the grammar once, and once
//! more (the one fallback) when the grammar rejected it; a layout group that is cut into
//! items, or joined to the item before it, pays for one more reading of each side. So a
//! piece takes at most `2 × MAX_GRAMMAR_RUNS_PER_ITEM` grammar runs per item it yields and
//! per layout group in it. Checked on every single-token deletion and stray-token insertion
//! of the conformance programs and the examples, counted with the parser's grammar-run
//! counter.

mod common;
use common::{conformance_dir, rex_files};

use std::path::PathBuf;

use rex_compiler::syntax::layout;
use rex_compiler::syntax::lexer::lex;
use rex_compiler::syntax::parser::{grammar_runs, parse_piece, split, MAX_GRAMMAR_RUNS_PER_ITEM};

/// The grammar runs of every piece of `text` with the items and layout groups it holds.
fn runs_per_piece(text: &str) -> Vec<(usize, usize, usize)> {
    let split = split(text);
    split
        .pieces
        .iter()
        .map(|piece| {
            let piece_text = piece.text(text);
            let (tokens, _) = lex(piece_text);
            let groups = layout::bounds(&layout::place(piece_text, &tokens, piece.origin)).len();
            let before = grammar_runs();
            let parsed = parse_piece(piece_text, piece.origin);
            (grammar_runs() - before, parsed.items.len(), groups)
        })
        .collect()
}

#[test]
fn a_piece_takes_a_bounded_number_of_grammar_runs_per_item() {
    const STRAY: [&str; 4] = [")", "(", "=", "in"];
    let Some(dir) = conformance_dir() else {
        return;
    };
    let mut files = rex_files(&dir);
    files.extend(rex_files(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples"),
    ));
    let (mut pieces, mut runs, mut items, mut most) = (0usize, 0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable program");
        for (i, t) in lex(&text).0.iter().enumerate() {
            let (s, e) = (t.span.start as usize, t.span.end as usize);
            let edits = [
                format!("{}{}", &text[..s], &text[e..]),
                format!("{}{} {}", &text[..s], STRAY[i % STRAY.len()], &text[s..]),
            ];
            for edited in edits {
                for (r, n, groups) in runs_per_piece(&edited) {
                    pieces += 1;
                    runs += r;
                    items += n;
                    most = most.max(r);
                    if r > 2 * MAX_GRAMMAR_RUNS_PER_ITEM * (n + groups) {
                        failures.push(format!(
                            "{}: {r} grammar runs for {n} items in {groups} groups",
                            path.display()
                        ));
                    }
                }
            }
        }
    }
    println!(
        "{pieces} pieces, {items} items, {runs} grammar runs ({:.3} per item), at most {most} for one piece",
        runs as f64 / items.max(1) as f64
    );
    assert!(pieces > 1000, "too few pieces: {pieces}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

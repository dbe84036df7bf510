//! Robustness of the parser under single-token edits.
//!
//! For every corpus program (the conformance programs and the repository's examples) and
//! every token in it, the token is deleted (or typed twice, or a stray token is inserted
//! before it) and the result re-parsed. The parse must never panic, must report few
//! diagnostics per fault (at most 2 on average), and must leave every top-level item that
//! the edit does not touch exactly as it was (damage stays local). Items the unedited
//! program already reports errors in are exempt from the last check: their extent is itself
//! a product of recovery, not something an edit elsewhere must preserve.

mod common;
use common::{conformance_dir, rex_files};

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use rex_compiler::syntax::ast::Item;
use rex_compiler::syntax::lexer::lex;
use rex_compiler::syntax::parser::{parse_text, ParsedFile};
use rex_compiler::Span;

/// The most error diagnostics one edit may cause on average.
const MAX_AVERAGE_ERRORS: f64 = 2.0;

/// None when the conformance programs are not there (the test then skips).
fn corpus() -> Option<Vec<(String, String)>> {
    let examples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let dir = conformance_dir()?;
    let mut files = rex_files(&dir);
    assert!(
        files.len() > 100,
        "expected the conformance programs in {}",
        dir.display()
    );
    files.extend(rex_files(&examples));
    let programs = files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable program");
            let name = p.file_name().unwrap_or_default().to_string_lossy().into();
            (name, text)
        })
        .collect();
    Some(programs)
}

/// True when `a` and `b` are the same item: same tree, same relative spans.
fn same_item(a: &Item, b: &Item) -> bool {
    a.kind == b.kind && a.arena == b.arena && a.span == b.span
}

/// True when the parse reports an error inside `span`.
fn has_errors_in(parsed: &ParsedFile, span: Span) -> bool {
    parsed
        .diagnostics
        .iter()
        .any(|d| d.is_error() && d.span.start <= span.end && d.span.end >= span.start)
}

/// One edit: the text at `at..at + removed` is replaced by `inserted`.
struct Edit {
    at: usize,
    removed: usize,
    inserted: String,
}

/// What a family of edits over the whole corpus did.
struct Outcome {
    edits: usize,
    errors: usize,
    failures: Vec<String>,
}

impl Outcome {
    fn average(&self) -> f64 {
        self.errors as f64 / self.edits.max(1) as f64
    }
}

/// Applies every edit `edits_of` proposes for each corpus program, and checks that parsing
/// never panics and that every item the edit does not touch is parsed identically (at its
/// shifted offset when it comes after the edit). None when there is no corpus to edit.
fn run_edits(edits_of: impl Fn(&str) -> Vec<Edit>) -> Option<Outcome> {
    let mut outcome = Outcome {
        edits: 0,
        errors: 0,
        failures: Vec::new(),
    };
    for (name, text) in corpus()? {
        let original = parse_text(&text);
        for edit in edits_of(&text) {
            let (start, end) = (edit.at, edit.at + edit.removed);
            let edited = format!("{}{}{}", &text[..start], edit.inserted, &text[end..]);
            let Ok(parsed) = catch_unwind(AssertUnwindSafe(|| parse_text(&edited))) else {
                outcome
                    .failures
                    .push(format!("{name}: editing {start}..{end} panics"));
                continue;
            };
            outcome.edits += 1;
            outcome.errors += parsed.diagnostics.iter().filter(|d| d.is_error()).count();
            let by_offset: HashMap<u32, &Item> =
                parsed.items.iter().map(|i| (i.offset, i)).collect();
            let shift = edit.inserted.len() as i64 - edit.removed as i64;
            for item in &original.items {
                let abs = item.abs(item.span);
                let (item_start, item_end) = (abs.start as usize, abs.end as usize);
                let touched = start <= item_end && end >= item_start;
                if touched || has_errors_in(&original, abs) {
                    continue;
                }
                let offset = if item_start >= end {
                    (item.offset as i64 + shift) as u32
                } else {
                    item.offset
                };
                if !by_offset.get(&offset).is_some_and(|i| same_item(i, item)) {
                    outcome.failures.push(format!(
                        "{name}: replacing `{}` at {start}..{end} by `{}` damages the item at {}..{}",
                        &text[start..end],
                        edit.inserted,
                        item_start,
                        item_end
                    ));
                }
            }
        }
    }
    Some(outcome)
}

fn assert_local(what: &str, outcome: &Outcome) {
    println!(
        "{what}: {} edits, {} error diagnostics, {:.3} per edit",
        outcome.edits,
        outcome.errors,
        outcome.average()
    );
    assert!(
        outcome.failures.is_empty(),
        "{} failures:\n{}",
        outcome.failures.len(),
        outcome.failures.join("\n")
    );
    assert!(outcome.edits > 1000, "too few edits: {}", outcome.edits);
}

#[test]
fn single_token_deletions_stay_local() {
    let Some(outcome) = run_edits(|text| {
        lex(text)
            .0
            .iter()
            .map(|t| Edit {
                at: t.span.start as usize,
                removed: t.span.len(),
                inserted: String::new(),
            })
            .collect()
    }) else {
        return;
    };
    assert_local("deletions", &outcome);
    assert!(
        outcome.average() <= MAX_AVERAGE_ERRORS,
        "{:.3} error diagnostics per deletion (at most {MAX_AVERAGE_ERRORS})",
        outcome.average()
    );
}

#[test]
fn single_token_duplications_stay_local() {
    let Some(outcome) = run_edits(|text| {
        lex(text)
            .0
            .iter()
            .map(|t| Edit {
                at: t.span.end as usize,
                removed: 0,
                inserted: format!(" {}", &text[t.span.range()]),
            })
            .collect()
    }) else {
        return;
    };
    assert_local("duplications", &outcome);
    assert!(
        outcome.average() <= MAX_AVERAGE_ERRORS,
        "{:.3} error diagnostics per duplication (at most {MAX_AVERAGE_ERRORS})",
        outcome.average()
    );
}

#[test]
fn stray_token_insertions_stay_local() {
    const STRAY: [&str; 8] = [")", "(", "=", ",", "in", "when", "]", "->"];
    let Some(outcome) = run_edits(|text| {
        lex(text)
            .0
            .iter()
            .enumerate()
            .map(|(i, t)| Edit {
                at: t.span.start as usize,
                removed: 0,
                inserted: format!("{} ", STRAY[i % STRAY.len()]),
            })
            .collect()
    }) else {
        return;
    };
    assert_local("insertions", &outcome);
    assert!(
        outcome.average() <= MAX_AVERAGE_ERRORS,
        "{:.3} error diagnostics per insertion (at most {MAX_AVERAGE_ERRORS})",
        outcome.average()
    );
}

//! Robustness of the parser under single-token deletions.
//!
//! For every corpus program (the conformance programs and the repository's examples) and
//! every token in it, the token's text is deleted and the result re-parsed. The parse must
//! never panic, must report few diagnostics per fault, and must leave every top-level item
//! that did not contain the deleted token exactly as it was (damage stays local). Items the
//! unedited program already reports syntax errors in are exempt from the last check: their
//! extent is itself a product of recovery, not something an edit elsewhere must preserve.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use rex_compiler::syntax::ast::Item;
use rex_compiler::syntax::lexer::lex;
use rex_compiler::syntax::parser::{parse_text, ParsedFile};
use rex_compiler::Span;

/// The most error diagnostics one deleted token may cause on average.
const MAX_AVERAGE_ERRORS: f64 = 2.0;

fn conformance_dir() -> PathBuf {
    std::env::var_os("REX_CONFORMANCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance")
        })
}

fn rex_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("rex"))
        .collect();
    files.sort();
    files
}

fn corpus() -> Vec<(String, String)> {
    let examples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut files = rex_files(&conformance_dir());
    assert!(
        files.len() > 100,
        "expected the conformance programs in {}",
        conformance_dir().display()
    );
    files.extend(rex_files(&examples));
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable program");
            let name = p.file_name().unwrap_or_default().to_string_lossy().into();
            (name, text)
        })
        .collect()
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

#[test]
fn single_token_deletions_stay_local() {
    let mut deletions = 0usize;
    let mut errors = 0usize;
    let mut failures: Vec<String> = Vec::new();
    for (name, text) in corpus() {
        let original = parse_text(&text);
        let (tokens, _) = lex(&text);
        for tok in &tokens {
            let (start, end) = (tok.span.start as usize, tok.span.end as usize);
            let edited = format!("{}{}", &text[..start], &text[end..]);
            let Ok(parsed) = catch_unwind(AssertUnwindSafe(|| parse_text(&edited))) else {
                failures.push(format!("{name}: deleting {start}..{end} panics"));
                continue;
            };
            deletions += 1;
            errors += parsed.diagnostics.iter().filter(|d| d.is_error()).count();
            let by_offset: HashMap<u32, &Item> =
                parsed.items.iter().map(|i| (i.offset, i)).collect();
            let removed = (end - start) as u32;
            for item in &original.items {
                let abs = item.abs(item.span);
                let (item_start, item_end) = (abs.start as usize, abs.end as usize);
                if (start >= item_start && end <= item_end) || has_errors_in(&original, abs) {
                    continue;
                }
                let offset = if item_start >= end {
                    item.offset - removed
                } else {
                    item.offset
                };
                if !by_offset.get(&offset).is_some_and(|i| same_item(i, item)) {
                    failures.push(format!(
                        "{name}: deleting `{}` at {start}..{end} damages the item at {}..{}",
                        &text[start..end],
                        item_start,
                        item_end
                    ));
                }
            }
        }
    }
    let average = errors as f64 / deletions.max(1) as f64;
    println!("{deletions} deletions, {errors} error diagnostics, {average:.3} per deletion");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(deletions > 1000, "too few deletions: {deletions}");
    assert!(
        average <= MAX_AVERAGE_ERRORS,
        "{average:.3} error diagnostics per deletion (at most {MAX_AVERAGE_ERRORS})"
    );
}

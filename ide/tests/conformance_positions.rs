//! The assists over ordinary programs: every position command at every token of every
//! conformance program and example answers (no internal error), and the semantic loop at
//! every hole that can be cut from them (a name, a call or a parenthesised group replaced
//! by `?`) answers with fills that type-check when written in.
//!
//! The conformance programs live in `../shared/conformance` beside the repository; without
//! them only the examples are used, and the test says so.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use rex_compiler::db::Database;
use rex_compiler::syntax::ast::ExprKind;
use rex_compiler::syntax::lexer::lex;
use rex_compiler::syntax::parser::parse_text;
use rex_compiler::LineIndex;
use rex_ide::commands::{execute, COMMANDS};
use rex_ide::semantic_loop::semantic_loop_step;
use serde_json::json;

const URI: &str = "file:///program.rex";

/// The programs: `(name, text)` of the examples and, when present, the conformance set.
fn programs() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut dirs = vec![root.join("examples")];
    let shared = root.join("../shared/conformance");
    if shared.is_dir() {
        dirs.push(shared);
    } else {
        println!("skipped: ../shared/conformance not found; only the examples are used");
    }
    let mut out = Vec::new();
    for dir in dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.sort();
        for f in files {
            if f.extension().is_some_and(|e| e == "rex") {
                if let Ok(text) = std::fs::read_to_string(&f) {
                    out.push((f.display().to_string(), text));
                }
            }
        }
    }
    out
}

/// The commands that answer about a position (the two that apply fixes are exercised by
/// the fuzzers and the quick-fix tests).
fn position_commands() -> impl Iterator<Item = &'static str> {
    COMMANDS
        .iter()
        .copied()
        .filter(|c| !c.contains("Apply") && !c.contains("holesExpectedTypes"))
}

#[test]
fn every_position_command_answers_at_every_token_of_every_program() {
    let mut failures = Vec::new();
    let mut requests = 0usize;
    for (name, text) in programs() {
        let mut db = Database::new();
        let file = db.add_file("program.rex", text.clone());
        let lines = LineIndex::new(&text);
        let (tokens, _) = lex(&text);
        for t in &tokens {
            let offset = t.span.start as usize;
            let pos = lines.position(&text, offset);
            for command in position_commands() {
                requests += 1;
                let args = json!({"uri": URI, "line": pos.line, "character": pos.character});
                let out = catch_unwind(AssertUnwindSafe(|| execute(&mut db, file, command, &args)));
                match out {
                    Ok(Ok(_)) => {}
                    Ok(Err(e)) => failures.push(format!("{name} {command} at {offset}: {e}")),
                    Err(_) => failures.push(format!("{name} {command} at {offset}: panicked")),
                }
            }
            requests += 2;
            let hover = catch_unwind(AssertUnwindSafe(|| {
                rex_ide::hover::hover(&db, file, offset);
                rex_ide::completion::completion(&db, file, offset);
            }));
            if hover.is_err() {
                failures.push(format!("{name} hover/completion at {offset}: panicked"));
            }
        }
    }
    println!("{requests} requests, {} failed", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The spans (absolute byte ranges) a hole can be cut at: every name, call and
/// parenthesised group of every item.
fn cut_sites(text: &str) -> Vec<(usize, usize)> {
    let parsed = parse_text(text);
    let mut out = Vec::new();
    for item in &parsed.items {
        for e in &item.arena.exprs {
            let span = item.abs(e.span);
            let (s, t) = (span.start as usize, span.end as usize);
            let parenthesised = s > 0
                && text.as_bytes().get(s - 1) == Some(&b'(')
                && text.as_bytes().get(t) == Some(&b')');
            match e.kind {
                ExprKind::Var(_) | ExprKind::App(..) => out.push((s, t)),
                _ => {}
            }
            if parenthesised {
                out.push((s - 1, t + 1));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn error_count(db: &Database, file: rex_compiler::db::SourceFile) -> usize {
    db.diagnostics(file).iter().filter(|d| d.is_error()).count()
}

#[test]
fn the_semantic_loop_answers_at_every_cut_hole_with_fills_that_check() {
    let mut failures = Vec::new();
    let (mut cuts, mut fills) = (0usize, 0usize);
    for (name, text) in programs() {
        for (s, t) in cut_sites(&text) {
            let cut = format!("{}?{}", &text[..s], &text[t..]);
            let db = Database::new();
            let file = db.add_file("program.rex", cut.clone());
            cuts += 1;
            let step = catch_unwind(AssertUnwindSafe(|| semantic_loop_step(&db, file, s, URI)));
            let Ok(step) = step else {
                failures.push(format!(
                    "{name}: loop step panicked at the hole cut at {s}..{t}"
                ));
                continue;
            };
            let baseline = error_count(&db, file);
            for c in &step.hole_fill_candidates {
                fills += 1;
                let filled = format!("{}({}){}", &cut[..s], c.replacement, &cut[s + 1..]);
                let check = Database::new();
                let f = check.add_file("program.rex", filled);
                let after = error_count(&check, f);
                if after > baseline {
                    failures.push(format!(
                        "{name}: fill `{}` for the hole cut at {s}..{t} has {after} errors (the hole: {baseline})",
                        c.replacement
                    ));
                }
            }
        }
    }
    println!(
        "{cuts} holes cut, {fills} fills verified, {} failed",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

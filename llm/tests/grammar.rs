//! The per-hole grammar accepts every expression of the conformance programs at its own
//! position: each expression is cut to a hole and checked against the grammar built for
//! that hole (the names in scope there), byte by byte, without a model.

use std::path::Path;

use rex_compiler::db::Database;
use rex_compiler::syntax::parser::parse_text;
use rex_compiler::LineIndex;
use rex_ide::context::Context;
use rex_llm::grammar::{accepts, lark, scope_at};

#[test]
fn every_conformance_expression_parses_under_the_grammar_of_its_hole() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!("skipped: ../shared/conformance not found");
        return;
    };
    let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    let (mut checked, mut refused) = (0usize, Vec::new());
    for f in files {
        if f.extension().is_none_or(|e| e != "rex") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        // Programs that do not check on their own (rejected ones, ones that import
        // modules) name what no scope offers.
        let whole = Database::new();
        let whole_file = whole.add_file("whole.rex", text.clone());
        if whole.diagnostics(whole_file).iter().any(|d| d.is_error()) {
            continue;
        }
        let parsed = parse_text(&text);
        for item in &parsed.items {
            for e in &item.arena.exprs {
                let span = item.abs(e.span);
                let (s, t) = (span.start as usize, span.end as usize);
                let original = &text[s..t];
                // Text that is not an expression by itself (a span inside parentheses it
                // does not close) and holes (a fill never writes one) are left out.
                if original.contains('?') || rex_llm::oracle::closing(original).is_none() {
                    continue;
                }
                let cut = format!("{}?{}", &text[..s], &text[t..]);
                let db = Database::new();
                let file = db.add_file("cut.rex", cut.clone());
                let pos = LineIndex::new(&cut).position(&cut, s);
                let ctx = Context::new(&db, file, pos);
                if ctx.at.as_ref().and_then(|a| a.hole()).is_none() {
                    continue;
                }
                let grammar = lark(&scope_at(&ctx));
                checked += 1;
                if !accepts(&grammar, original).unwrap_or(false) {
                    refused.push(format!(
                        "{}: `{original}`",
                        f.file_name().unwrap_or_default().to_string_lossy()
                    ));
                }
            }
        }
    }
    println!("{checked} expressions checked, {} refused", refused.len());
    assert!(refused.is_empty(), "{}", refused.join("\n"));
}

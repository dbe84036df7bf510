//! Every expression node the parser builds for a clean file is part of its item's tree:
//! an editor that finds the node at a position must never land on one that no analysis
//! visits (a negative literal once left its positive twin behind).

mod common;
use std::path::PathBuf;

use common::{conformance_dir, rex_files};
use rex_compiler::syntax::ast::{ExprId, Item, ItemKind};
use rex_compiler::syntax::parser::parse_text;

/// The expressions an item's tree holds, from its roots down.
fn reached(item: &Item) -> Vec<bool> {
    let mut seen = vec![false; item.arena.exprs.len()];
    let mut todo: Vec<ExprId> = match &item.kind {
        ItemKind::Fn(f) => vec![f.body],
        ItemKind::Instance(i) => i.methods.iter().map(|m| m.body).collect(),
        ItemKind::Expr(e) => vec![*e],
        _ => vec![],
    };
    while let Some(e) = todo.pop() {
        if !std::mem::replace(&mut seen[e.index()], true) {
            item.arena.expr(e).kind.for_each_child(|c| todo.push(c));
        }
    }
    seen
}

#[test]
fn every_expression_node_of_a_clean_file_is_in_its_tree() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files: Vec<PathBuf> = ["examples", "stdlib", "bench"]
        .iter()
        .flat_map(|d| rex_files(&root.join(d)))
        .collect();
    let repository = files.len();
    let conformance = conformance_dir();
    files.extend(conformance.as_deref().map(rex_files).unwrap_or_default());
    let mut clean = 0;
    let mut stray = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable");
        let parsed = parse_text(&text);
        if !parsed.diagnostics.is_empty() {
            continue;
        }
        clean += 1;
        for item in &parsed.items {
            for (i, seen) in reached(item).into_iter().enumerate() {
                if !seen {
                    let span = item.arena.exprs[i].span;
                    let at = (item.offset + span.start) as usize..(item.offset + span.end) as usize;
                    stray.push(format!("{}: `{}`", path.display(), &text[at]));
                }
            }
        }
    }
    // Without ../shared (a clone on its own) the repository's programs are the corpus, and
    // every one of them is clean.
    if conformance.is_some() {
        assert!(clean > 10, "only {clean} clean files among {}", files.len());
    } else {
        assert!(
            repository > 0 && clean == repository,
            "only {clean} clean files among the repository's {repository}"
        );
    }
    assert!(
        stray.is_empty(),
        "nodes outside the tree:\n{}",
        stray.join("\n")
    );
}

#[test]
fn a_negative_literal_is_one_node() {
    let parsed = parse_text("let x = -1 in x - -2.5\n");
    assert!(parsed.diagnostics.is_empty());
    let item = &parsed.items[0];
    assert!(reached(item).into_iter().all(|seen| seen));
}

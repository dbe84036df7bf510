//! Property: in a well-typed program, replacing one well-typed subexpression whose type is
//! known and ground with a literal of another type gives exactly one error diagnostic, and
//! every other top-level item keeps its types.
//!
//! The programs are the conformance programs expected `ok` and `examples/`. A subexpression
//! qualifies when it is a literal, a variable or an application, was checked against an
//! expected type equal to its inferred one, and that type is ground, not a function and
//! free of the unknown type. Its type must also be known from the context alone: a hole put
//! in its place gets that same type and the program stays error-free (in `id 1` the `1`
//! fixes its own type, so it does not qualify). Candidates are sampled deterministically
//! (evenly spaced over each program), so a failure always reproduces.

mod common;
use common::{conformance_dir, rex_files};

use std::path::PathBuf;

use rex_compiler::check::ItemTypes;
use rex_compiler::db::{file_holes, file_items, item_key, item_types, parse, Database, SourceFile};
use rex_compiler::syntax::ast::ExprKind;
use rex_compiler::types::Ty;
use salsa::Setter;

/// How many subexpressions are replaced per program, at most.
const PER_PROGRAM: usize = 12;

/// Conformance programs whose expected status is `ok`, then the examples.
/// None when the conformance programs are not there (the test then skips).
fn corpus() -> Option<Vec<(String, String)>> {
    let dir = conformance_dir()?;
    let mut files: Vec<PathBuf> = rex_files(&dir)
        .into_iter()
        .filter(|p| {
            std::fs::read_to_string(p.with_extension("expected"))
                .is_ok_and(|e| e.lines().next() == Some("ok"))
        })
        .collect();
    assert!(
        files.len() > 50,
        "expected the conformance programs in {}",
        dir.display()
    );
    files.extend(rex_files(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples"),
    ));
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

/// A replaceable subexpression: absolute byte range and its type.
struct Candidate {
    item: usize,
    start: usize,
    end: usize,
    ty: Ty,
}

fn qualifies(ty: &Ty) -> bool {
    ty.is_ground() && !ty.contains_unknown() && !matches!(ty, Ty::Fun(..))
}

fn candidates(db: &Database, file: SourceFile) -> Vec<Candidate> {
    let mut out = Vec::new();
    for (index, item) in parse(db, file).items.iter().enumerate() {
        let Some(key) = item_key(db, file, index) else {
            continue;
        };
        let types = item_types(db, db.prelude(), key);
        for (id, expr) in item.arena.exprs.iter().enumerate() {
            if !matches!(
                expr.kind,
                ExprKind::Lit(_) | ExprKind::Var(_) | ExprKind::App(..)
            ) {
                continue;
            }
            let (Some(inferred), Some(Some(expected))) =
                (types.expr_types.get(id), types.expected.get(id))
            else {
                continue;
            };
            if inferred == expected && qualifies(inferred) {
                let span = item.abs(expr.span);
                out.push(Candidate {
                    item: index,
                    start: span.start as usize,
                    end: span.end as usize,
                    ty: inferred.clone(),
                });
            }
        }
    }
    out
}

/// Evenly spaced picks, at most `n`.
fn sample<T>(all: Vec<T>, n: usize) -> Vec<T> {
    let len = all.len();
    if len <= n {
        return all;
    }
    all.into_iter()
        .enumerate()
        .filter(|(i, _)| i * n / len != (i + 1) * n / len)
        .map(|(_, c)| c)
        .collect()
}

/// A literal whose type differs from `ty`.
fn wrong_literal(ty: &Ty) -> &'static str {
    if *ty == Ty::con("string") {
        "true"
    } else {
        "\"wrong\""
    }
}

/// The type of `wrong_literal(ty)`.
fn wrong_type(ty: &Ty) -> &'static str {
    if *ty == Ty::con("string") {
        "bool"
    } else {
        "string"
    }
}

fn all_item_types(db: &Database, file: SourceFile) -> Vec<ItemTypes> {
    file_items(db, file)
        .iter()
        .map(|key| item_types(db, db.prelude(), *key).clone())
        .collect()
}

/// True when the context alone fixes the type at `c`: a hole there expects exactly `c.ty`
/// and nothing else breaks, and a hole ascribed the wrong literal's type is rejected (a type
/// that only defaulting chose, as in `\\x y -> x + y`, would accept a string as well).
fn context_fixes_type(db: &mut Database, file: SourceFile, text: &str, c: &Candidate) -> bool {
    let replace = |db: &mut Database, with: &str| {
        file.set_text(db)
            .to(format!("{}{with}{}", &text[..c.start], &text[c.end..]));
        let errors = db.diagnostics(file).iter().filter(|d| d.is_error()).count();
        let hole = file_holes(db, db.prelude(), file)
            .iter()
            .find(|h| h.span.start as usize == c.start)
            .map(|h| h.expected.clone());
        (errors, hole)
    };
    let (errors, hole) = replace(db, "?");
    let fixed = errors == 0 && hole.as_ref() == Some(&c.ty);
    let rejects_wrong = fixed && replace(db, &format!("(? is {})", wrong_type(&c.ty))).0 > 0;
    file.set_text(db).to(text.to_string());
    rejects_wrong
}

#[test]
fn one_wrong_literal_gives_one_error_and_leaves_other_items_alone() {
    let mut db = Database::new();
    let mut cases = 0;
    let mut failures = Vec::new();
    let Some(corpus) = corpus() else {
        return;
    };
    for (name, text) in corpus {
        let file = db.add_file(name.clone(), text.clone());
        let errors = db.diagnostics(file).iter().filter(|d| d.is_error()).count();
        assert_eq!(errors, 0, "{name} is expected to check cleanly");
        let before = all_item_types(&db, file);
        let known: Vec<Candidate> = candidates(&db, file)
            .into_iter()
            .filter(|c| context_fixes_type(&mut db, file, &text, c))
            .collect();
        for c in sample(known, PER_PROGRAM) {
            let literal = wrong_literal(&c.ty);
            let mutated = format!("{}{literal}{}", &text[..c.start], &text[c.end..]);
            file.set_text(&mut db).to(mutated);
            cases += 1;
            let errors: Vec<String> = db
                .diagnostics(file)
                .iter()
                .filter(|d| d.is_error())
                .map(|d| format!("{} {}", d.code.as_str(), d.message))
                .collect();
            let after = all_item_types(&db, file);
            let changed: Vec<usize> = (0..before.len())
                .filter(|i| *i != c.item && before.get(*i) != after.get(*i))
                .collect();
            if errors.len() != 1 || !changed.is_empty() {
                failures.push(format!(
                    "{name}: `{}` ({}) -> {literal}: {} error(s) {errors:?}, other items \
                     changed: {changed:?}",
                    &text[c.start..c.end],
                    c.ty,
                    errors.len()
                ));
            }
        }
        file.set_text(&mut db).to(text);
    }
    println!("{cases} wrong-literal cases checked");
    assert!(cases > 300, "only {cases} cases");
    assert!(
        failures.is_empty(),
        "{} of {cases} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

//! Editing the body of one `fn` re-infers that item only (observed through salsa's log of
//! executed queries).

use std::sync::{Arc, Mutex};

use rex_compiler::db::Database;
use salsa::Setter;

fn executed(log: &Arc<Mutex<Vec<String>>>, query: &str) -> usize {
    let mut log = log.lock().unwrap();
    let n = log.iter().filter(|l| l.starts_with(query)).count();
    log.clear();
    n
}

/// The error diagnostics of `file`.
fn errors(db: &Database, file: rex_compiler::db::SourceFile) -> Vec<rex_compiler::Diagnostic> {
    db.diagnostics(file)
        .iter()
        .filter(|d| d.is_error())
        .cloned()
        .collect()
}

#[test]
fn editing_one_fn_body_reinfers_only_that_item() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut db = Database::with_execution_log(log.clone());
    let before = "fn a : i32 -> i32 = \\x -> x + 1\n\nfn b : i32 -> i32 = \\y -> a y\n\nfn c : i32 -> bool = \\z -> z == 0\n\nb 41\n";
    let file = db.add_file("inc.rex", before);
    assert!(db.diagnostics(file).iter().all(|d| !d.is_error()));
    assert_eq!(
        executed(&log, "item_types"),
        4,
        "first check infers every item"
    );

    // Change the body of `a` (and its length, shifting every later item).
    let after = before.replace("x + 1", "x + 100");
    file.set_text(&mut db).to(after);
    assert!(db.diagnostics(file).iter().all(|d| !d.is_error()));
    assert_eq!(executed(&log, "item_types"), 1, "only `a` is re-inferred");

    // A type error in `c` is reported, and again only `c` is re-inferred.
    // (`a` goes back to its first body at the same time, so two items change.)
    let broken = before.replace("z == 0", "z == \"zero\"");
    file.set_text(&mut db).to(broken.clone());
    let errors = errors(&db, file);
    assert_eq!(
        executed(&log, "item_types"),
        2,
        "only `a` and `c` are re-inferred"
    );
    assert_eq!(errors.len(), 1, "{errors:?}");
    let at = broken.find("\"zero\"").unwrap() as u32;
    assert!(
        errors[0].span.start <= at && at < errors[0].span.end,
        "the reused items' spans are made absolute at their new offsets: {errors:?}"
    );
}

#[test]
fn moving_an_item_keeps_its_types_and_absolute_positions_right() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut db = Database::with_execution_log(log.clone());
    let before = "fn a : i32 -> i32 = \\x -> x\n\nfn b : i32 -> string = \\y -> ?h\n";
    let file = db.add_file("move.rex", before);
    let hole_at = |text: &str| text.find("?h").unwrap() as u32;
    let holes = rex_compiler::db::file_holes(&db, db.prelude(), file);
    assert_eq!(holes[0].span.start, hole_at(before));
    executed(&log, "item_types");

    // A longer body for `a` moves `b`: `b` is reused, its hole reported at the new place.
    let after = before.replace("x -> x", "x -> x + x * x");
    file.set_text(&mut db).to(after.clone());
    let holes = rex_compiler::db::file_holes(&db, db.prelude(), file);
    assert_eq!(holes.len(), 1);
    assert_eq!(holes[0].span.start, hole_at(&after));
    assert_eq!(holes[0].expected_type, "string");
    assert_eq!(executed(&log, "item_types"), 1, "only `a` is re-inferred");
}

#[test]
fn editing_a_module_function_body_re_infers_that_item_only() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut db = Database::with_execution_log(log.clone());
    let dep = "pub fn first : i32 -> i32 = \\x -> x\n\npub fn second : i32 -> i32 = \\x -> x + 1\n";
    db.set_modules(vec![("dep.rex".into(), dep.into())], vec![]);
    let main = db.add_file(
        "main.rex",
        "import dep (first, second)\n\n(first 1, second \"x\")\n",
    );
    let errors = |db: &Database| {
        rex_compiler::db::module_diagnostics(db, db.prelude(), main)
            .iter()
            .map(|(_, _, ds)| ds.iter().filter(|d| d.is_error()).count())
            .sum::<usize>()
            + db.diagnostics(main).iter().filter(|d| d.is_error()).count()
    };
    assert_eq!(errors(&db), 1, "`second \"x\"` is a mismatch");
    executed(&log, "item_types");

    // Loading the modules again with one body edited: that item alone is re-inferred
    // (main's items and the other module item are reused).
    let edited = dep.replace("x + 1", "x * 2");
    db.set_modules(vec![("dep.rex".into(), edited)], vec![]);
    assert_eq!(errors(&db), 1);
    assert_eq!(
        executed(&log, "item_types"),
        1,
        "only `second` is re-inferred"
    );
}

/// How many times each query ran since the last call, by name (`item_types_in`, ...).
fn executed_by_query(log: &Arc<Mutex<Vec<String>>>) -> std::collections::BTreeMap<String, usize> {
    let mut log = log.lock().unwrap();
    let mut out = std::collections::BTreeMap::new();
    for line in log.drain(..) {
        let name = line.split('(').next().unwrap_or_default().to_string();
        *out.entry(name).or_insert(0) += 1;
    }
    out
}

/// The queries a body edit must re-run: the split of the item's chunk, the item's parse,
/// declaration, names and inference, and the file-wide ones that cut the text into pieces
/// and gather the diagnostics.
fn assert_only_the_edited_item_reran(ran: &std::collections::BTreeMap<String, usize>) {
    let per_item = [
        "split_chunk",
        "parse_piece",
        "item_declaration",
        "item_names",
        "item_values",
        "item_types_in",
    ];
    let file_wide = ["file_syntax", "file_items", "file_diagnostics"];
    for (query, n) in ran {
        if per_item.contains(&query.as_str()) {
            assert_eq!(*n, 1, "{query} ran for more than the edited item: {ran:?}");
        } else {
            assert!(
                file_wide.contains(&query.as_str()),
                "{query} ran after a body edit: {ran:?}"
            );
        }
    }
    assert_eq!(ran.get("split_chunk"), Some(&1), "{ran:?}");
    assert_eq!(ran.get("parse_piece"), Some(&1), "{ran:?}");
    assert_eq!(ran.get("item_types_in"), Some(&1), "{ran:?}");
}

#[test]
fn a_body_edit_reparses_and_reinfers_that_item_only_also_after_an_insertion_above() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut db = Database::with_execution_log(log.clone());
    let mut text = String::new();
    for i in 0..50 {
        text.push_str(&format!(
            "fn f{i} : i32 -> i32 = \\x ->\n  let y = x + {i} in\n  y * 2\n\n"
        ));
    }
    text.push_str("f49 1\n");
    let file = db.add_file("many.rex", text.clone());
    assert!(db.diagnostics(file).iter().all(|d| !d.is_error()));
    executed_by_query(&log);

    // One character inside the body of `f30`.
    let edited = text.replace("x + 30 in", "x + 31 in");
    file.set_text(&mut db).to(edited.clone());
    assert!(db.diagnostics(file).iter().all(|d| !d.is_error()));
    assert_only_the_edited_item_reran(&executed_by_query(&log));

    // A new declaration above every other item: it is parsed (the only new piece) and the
    // program's environment is rebuilt, since a name was added; no other item is parsed
    // or checked again (none spells `g`).
    let inserted = format!("fn g : i32 -> i32 = \\x -> x\n\n{edited}");
    file.set_text(&mut db).to(inserted.clone());
    let found = errors(&db, file);
    assert!(found.is_empty(), "{found:?}");
    let ran = executed_by_query(&log);
    assert_eq!(ran.get("parse_piece"), Some(&1), "{ran:?}");
    assert_eq!(
        ran.get("item_types_in"),
        Some(&1),
        "only `g` is checked: {ran:?}"
    );

    // After it, a body edit again re-runs that item alone, now at its new place.
    let again = inserted.replace("x + 10 in", "x + 11 in");
    file.set_text(&mut db).to(again.clone());
    assert!(errors(&db, file).is_empty());
    assert_only_the_edited_item_reran(&executed_by_query(&log));

    // The reused items' results are at the right places: a type error in the last item is
    // reported where it now stands.
    let broken = again.replace("x + 45 in", "x + \"s\" in");
    file.set_text(&mut db).to(broken.clone());
    let errors = errors(&db, file);
    assert_only_the_edited_item_reran(&executed_by_query(&log));
    let at = broken.find("\"s\"").unwrap() as u32;
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].span.start <= at && at < errors[0].span.end,
        "{errors:?}"
    );
}

#[test]
fn a_new_or_retyped_declaration_re_checks_only_the_items_that_spell_its_name() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut db = Database::with_execution_log(log.clone());
    let mut text = String::new();
    for i in 0..20 {
        text.push_str(&format!("fn f{i} : i32 -> i32 = \\x -> x + {i}\n\n"));
    }
    text.push_str("fn user : i32 -> i32 = \\x -> helper x\n\n");
    text.push_str("user 1\n");
    let file = db.add_file("names.rex", text.clone());
    let unknown: Vec<_> = errors(&db, file).iter().map(|d| d.code).collect();
    assert_eq!(unknown.len(), 1, "`helper` is unknown: {unknown:?}");
    executed_by_query(&log);

    // Declaring `helper` at the top: it is checked, and so is `user`, which spells it and
    // now type-checks; the twenty others are not checked again.
    let declared = format!("fn helper : i32 -> i32 = \\x -> x\n\n{text}");
    file.set_text(&mut db).to(declared.clone());
    assert!(errors(&db, file).is_empty(), "{:?}", errors(&db, file));
    let ran = executed_by_query(&log);
    assert_eq!(
        ran.get("item_types_in"),
        Some(&2),
        "`helper` and `user`: {ran:?}"
    );

    // Giving `helper` another type re-checks `helper` and `user` (now a mismatch) only.
    let retyped = declared.replace(
        "fn helper : i32 -> i32 = \\x -> x",
        "fn helper : i32 -> string = \\x -> \"s\"",
    );
    file.set_text(&mut db).to(retyped.clone());
    let found = errors(&db, file);
    assert_eq!(found.len(), 1, "{found:?}");
    let at = retyped.find("helper x").unwrap() as u32;
    assert!(
        found[0].span.start <= at + 8 && at <= found[0].span.end,
        "{found:?}"
    );
    let ran = executed_by_query(&log);
    assert_eq!(
        ran.get("item_types_in"),
        Some(&2),
        "`helper` and `user`: {ran:?}"
    );
}

#[test]
fn editing_the_result_expression_rebuilds_no_environment() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut db = Database::with_execution_log(log.clone());
    let mut text = String::new();
    for i in 0..20 {
        text.push_str(&format!("fn f{i} : i32 -> i32 = \\x -> x + {i}\n\n"));
    }
    let file = db.add_file("result.rex", format!("{text}f19 1\n"));
    assert!(errors(&db, file).is_empty());
    executed_by_query(&log);

    file.set_text(&mut db).to(format!("{text}f19 (f3 100)\n"));
    assert!(errors(&db, file).is_empty());
    let ran = executed_by_query(&log);
    assert_eq!(ran.get("program"), None, "{ran:?}");
    assert_eq!(ran.get("item_types_in"), Some(&1), "{ran:?}");
}

#[test]
fn a_declaration_inserted_in_the_root_file_re_checks_no_module_item() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut db = Database::with_execution_log(log.clone());
    let mut dep = String::new();
    for i in 0..5 {
        dep.push_str(&format!("pub fn d{i} : i32 -> i32 = \\x -> x + {i}\n\n"));
    }
    db.set_modules(vec![("dep.rex".into(), dep)], vec![]);
    let text = "import dep (d0, d4)\n\nfn user : i32 -> i32 = \\x -> d0 (d4 x)\n\nuser 1\n";
    let main = db.add_file("main.rex", text);
    let module_errors = |db: &Database| {
        rex_compiler::db::module_diagnostics(db, db.prelude(), main)
            .iter()
            .map(|(_, _, ds)| ds.iter().filter(|d| d.is_error()).count())
            .sum::<usize>()
    };
    assert!(errors(&db, main).is_empty());
    assert_eq!(module_errors(&db), 0);
    let first = executed_by_query(&log);
    assert_eq!(
        first.get("item_types_in"),
        Some(&8),
        "the import, `user`, the result and the five module items: {first:?}"
    );

    // A new `fn` in the root file is checked; `user` and the five module items are not.
    let inserted = text.replace("fn user", "fn other : i32 -> i32 = \\x -> x\n\nfn user");
    main.set_text(&mut db).to(inserted);
    assert!(errors(&db, main).is_empty());
    assert_eq!(module_errors(&db), 0);
    let ran = executed_by_query(&log);
    assert_eq!(ran.get("item_types_in"), Some(&1), "`other` only: {ran:?}");
}

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
    let errors: Vec<_> = db
        .diagnostics(file)
        .iter()
        .filter(|d| d.is_error())
        .cloned()
        .collect();
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

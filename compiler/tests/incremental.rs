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
#[ignore = "known gap (issue 3): every item_types query still re-executes after an edit; \
            item syntax and the environment compare equal, so the cause is in how the \
            per-item keys are interned"]
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
    let broken = before.replace("z == 0", "z == \"zero\"");
    file.set_text(&mut db).to(broken);
    assert!(db.diagnostics(file).iter().any(|d| d.is_error()));
    assert!(executed(&log, "item_types") <= 2);
}

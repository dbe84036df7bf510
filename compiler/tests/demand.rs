//! A run checks and lowers only the prelude items its program uses (`eval::demand`),
//! and every dictionary it builds still finds its instance's methods, also those reached
//! only through a superclass or an instance's context.

use std::sync::{Arc, Mutex};

use rex_compiler::db::{parse, Database};
use rex_compiler::eval::{run_file, Limits};

/// The value `code` runs to, and how many prelude items the run checked.
fn run_counting(code: &str) -> (String, usize) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let db = Database::with_execution_log(log.clone());
    let file = db.add_file("main.rex", code);
    let outcome = run_file(&db, file, &Limits::default()).unwrap_or_else(|e| panic!("{e}"));
    let checked = log
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.starts_with("prelude_item_types"))
        .count();
    (outcome.value, checked)
}

fn prelude_items() -> usize {
    let db = Database::new();
    parse(&db, db.prelude().file(&db)).items.len()
}

#[test]
fn a_run_checks_only_the_prelude_items_it_uses() {
    let all = prelude_items();
    let (value, checked) = run_counting("1 + 2");
    assert_eq!(value, "3i32");
    assert!(
        checked < all / 10,
        "{checked} of {all} prelude items checked"
    );
    // More of the prelude in use, more of it checked, still far from all.
    let (value, more) = run_counting("(count [1, 2, 3], show [true], sum [1.5, 2.5])");
    assert_eq!(value, "(3i32, \"[true]\", 4f32)");
    assert!(checked < more && more < all / 2, "{more} of {all}");
}

#[test]
fn dictionaries_reached_through_superclasses_and_contexts_have_their_methods() {
    // `==` inside `same` comes from `Ord a`'s superclass `Eq a`: no lowered code names the
    // `Eq` instances, only the `Ord` ones' superclass codes do.
    let same = "fn same : a -> a -> bool where Ord a = \\x y -> x == y\n";
    let (value, _) = run_counting(&format!(
        "{same}(same (1 is i64) 1, same 2.5 3.0, same \"a\" \"a\")"
    ));
    assert_eq!(value, "(true, false, true)");
    // `show` on a list of options builds `Show (List a)` from `Show (Option a)` from
    // `Show i32`: the inner instances are reached only as arguments of the outer.
    let (value, _) = run_counting("show [Some 1, None]");
    assert_eq!(value, "\"[Some(1), None]\"");
    // A user's instance of a prelude class, with a prelude superclass.
    let user = "type Color = Red | Green\n\
        instance Eq Color\n\
        \x20 == = \\a b -> match (a, b) when (Red, Red) -> true when (Green, Green) -> true when _ -> false\n\
        \x20 != = \\a b -> if a == b then false else true\n\
        instance Ord Color\n\
        \x20 cmp = \\a b -> 0\n\
        \x20 < = \\a b -> false\n\
        \x20 <= = \\a b -> a == b\n\
        \x20 > = \\a b -> false\n\
        \x20 >= = \\a b -> a == b\n";
    let (value, _) = run_counting(&format!("{user}{same}(same Red Red, same Red Green)"));
    assert_eq!(value, "(true, false)");
}

//! The prelude is declared once (`check::declare_prelude`) and every program's environment
//! starts from it: a program that declares a prelude name again gets its error on its own
//! item, and the prelude's meaning of the name is the one the rest of the program sees.

mod common;

use common::errors;

#[test]
fn declaring_a_prelude_name_again_is_reported_on_the_program_and_the_prelude_keeps_it() {
    let program = "type Option a = Nothing | Just a
class Show a
  show : a -> string
instance Eq i32
  (==) = \\a b -> true
fn map : i32 -> i32 = \\x -> x
type Shape = Circle i32
instance Show Shape
  show = \\s -> \"circle\"
(Some 1 == Some 1, show (Circle 2), Just 3)
";
    let found = errors(program);
    let expected = [
        ("E0205", "Option"),
        ("E0205", "Show"),
        ("E0311", "Eq"),
        ("E0309", "Eq i32"),
        ("E0205", "map"),
        // The program's `Option` was not declared, so neither is its constructor.
        ("E0201", "Just"),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(c, at)| (c.to_string(), at.to_string()))
        .collect();
    assert_eq!(found, expected);
    // The prelude's `Some`, `==` and `Show` are untouched: nothing else is reported.
    assert!(errors("(Some 1 == Some 1, show (Some 2))\n").is_empty());
}

#[test]
fn an_instance_overlapping_only_the_prelude_is_reported_once() {
    let program = "instance Show i32\n  show = \\n -> \"n\"\n\ninstance Show bool\n  show = \\b -> \"b\"\n\nshow 1\n";
    let found = errors(program);
    let overlaps: Vec<&str> = found
        .iter()
        .filter(|(c, _)| c == "E0309")
        .map(|(_, at)| at.as_str())
        .collect();
    assert_eq!(overlaps, vec!["Show i32", "Show bool"]);
}

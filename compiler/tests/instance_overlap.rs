//! Instances of one class overlap when their heads unify. `check_overlap` tells most
//! pairs apart by their heads' outer constructors before it unifies: that shortcut must
//! report exactly what unifying every pair reports.

mod common;

use common::errors;

#[test]
fn instances_overlap_exactly_when_their_heads_unify() {
    let program = "class Size a
  size : a -> i32
instance Size (List a)
  size = \\x -> 0
instance Size (Option i32)
  size = \\x -> 0
instance Size (Option bool)
  size = \\x -> 0
instance Size (a, b)
  size = \\x -> 0
instance Size (a, b, c)
  size = \\x -> 0
instance Size (i32 -> i32)
  size = \\x -> 0
instance Size (a -> b)
  size = \\x -> 0
instance Size (Result e a)
  size = \\x -> 0
instance Size (Result i32 (List a))
  size = \\x -> 0
instance Size (Option a)
  size = \\x -> 0
instance Size i32
  size = \\x -> 0
0
";
    let overlaps: Vec<String> = errors(program)
        .into_iter()
        .filter(|(c, _)| c == "E0309")
        .map(|(_, at)| at)
        .collect();
    // Same outer constructor but apart inside (`Option i32`, `Option bool`), tuples of two
    // lengths and a list are apart; a function type unifies with a more general one, a
    // `Result` with one whose parts are variables, `Option a` with both earlier options.
    // (A head's span ends inside its closing parenthesis: the parser's span of a
    // parenthesised type.)
    assert_eq!(
        overlaps,
        vec![
            "Size (a -> b",
            "Size (Result i32 (List a)",
            "Size (Option a"
        ]
    );
}

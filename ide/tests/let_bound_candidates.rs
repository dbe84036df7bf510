//! Let-bound values in scope are hole-fill candidates like top-level functions, whether
//! generalisation made them polymorphic (with class constraints) or an annotation fixed
//! their type.

mod common;

use common::*;
use rex_ide::semantic_loop::semantic_loop_step;

fn first_fills(source: &str) -> Vec<String> {
    let f = fixture(source);
    let step = semantic_loop_step(&f.db, f.file, f.offset, URI);
    step.hole_fill_candidates
        .iter()
        .take(3)
        .map(|c| c.replacement.clone())
        .collect()
}

#[test]
fn a_generalised_let_binding_with_a_class_constraint_is_offered() {
    let fills = first_fills(
        "let\n  is_even = \\x -> (x % 2) == 0\nin\n  filter <CURSOR>? [1, 2, 3, 4, 5, 6]\n",
    );
    assert!(fills.contains(&"is_even".to_string()), "{fills:?}");
}

#[test]
fn an_annotated_let_binding_is_offered() {
    let fills = first_fills(
        "let\n  is_even : i32 -> bool = \\x -> (x % 2) == 0\nin\n  filter <CURSOR>? [1, 2]\n",
    );
    assert!(fills.contains(&"is_even".to_string()), "{fills:?}");
}

#[test]
fn a_polymorphic_let_binding_is_applied_to_values_in_scope() {
    let fills = first_fills(
        "let\n  twice = \\x -> x + x,\n  n : i32 = 4\nin\n  let r : i32 = <CURSOR>? in r\n",
    );
    assert!(fills.contains(&"twice n".to_string()), "{fills:?}");
}

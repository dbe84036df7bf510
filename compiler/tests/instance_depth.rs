//! How far instance contexts are followed: as deep as the types go (a 40-deep `Option`
//! is shown), and an instance whose context loops through ever larger types is E0313, not
//! a missing instance or a hang.

mod common;

use common::errors;

#[test]
fn a_constraint_on_a_deeply_nested_type_is_resolved() {
    let depth = 40;
    let value = format!("{}1{}", "(Some ".repeat(depth), ")".repeat(depth));
    assert_eq!(errors(&format!("show {value}\n")), vec![]);
    assert_eq!(errors(&format!("{value} == {value}\n")), vec![]);
}

#[test]
fn an_instance_whose_context_loops_is_a_recursion_limit() {
    let program = "class Size a\n  size : a -> i32\n\ntype Box a = Box a\n\ninstance Size (Box a) <= Size (Box (Box a))\n  size = \\b -> 0\n\nsize (Box 1)\n";
    let found = errors(program);
    assert_eq!(found, vec![("E0313".to_string(), "size".to_string())]);
}

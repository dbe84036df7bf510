//! One fault, one diagnostic: the checker marks the node that disagrees, and the
//! constraints, ambiguities and arms that only echo it stay quiet.

mod common;

use common::errors;

fn one(text: &str, code: &str, at: &str) {
    assert_eq!(
        errors(text),
        vec![(code.to_string(), at.to_string())],
        "in {text:?}"
    );
}

#[test]
fn a_wrong_argument_is_marked_not_the_call() {
    one(
        "fn inc : i32 -> i32 = \\x -> x + \"one\"\n",
        "E0301",
        "\"one\"",
    );
}

#[test]
fn a_literal_that_disagrees_with_a_variable_is_the_one_marked() {
    one(
        "fn f : i32 -> i32 = \\x -> \"one\" + x\n",
        "E0301",
        "\"one\"",
    );
    one(
        "let d = ({ a = 1, b = 2 }) is Dict i32 in\nmatch d\n  when {a, b} -> \"a\" + b\n  when {a} -> a\n  when {} -> 0\n",
        "E0301",
        "\"a\"",
    );
}

#[test]
fn literals_of_one_list_fail_their_class_once() {
    one("let xs = [1, \"two\", 3] in xs\n", "E0304", "1");
}

#[test]
fn an_operator_on_the_wrong_type_is_reported_on_the_operator() {
    one("let y = 3 in \"wrong\" * y\n", "E0304", "*");
}

#[test]
fn a_mismatch_leaves_no_ambiguity_behind() {
    one(
        "fn inc : i32 -> i32 = \\x -> x + 1\n\nmap inc \"wrong\"\n",
        "E0301",
        "\"wrong\"",
    );
    one("true + \"rocks\"\n", "E0301", "\"rocks\"");
}

#[test]
fn every_binding_of_a_let_rec_group_keeps_the_group_constraints() {
    let program = |call: &str| {
        format!(
            "let rec\n  even = \\n -> if n == 0 then true else odd (n - 1),\n  \
             odd = \\n -> if n == 0 then false else even (n - 1)\nin\n  {call}\n"
        )
    };
    one(&program("(even 10, odd \"wrong\")"), "E0304", "odd");
    one(&program("(even \"wrong\", odd 1)"), "E0304", "even");
    assert_eq!(errors(&program("(even 10, odd 11)")), vec![]);
}

/// Every diagnostic but hole notes, as (code, the text it points at).
fn reported(text: &str) -> Vec<(String, String)> {
    let db = rex_compiler::db::Database::new();
    let file = db.add_file("test.rex", text);
    db.diagnostics(file)
        .iter()
        .filter(|d| d.code != rex_compiler::diagnostic::Code::HoleInfo)
        .map(|d| {
            let at = &text[d.span.start as usize..d.span.end as usize];
            (d.code.as_str().to_string(), at.to_string())
        })
        .collect()
}

#[test]
fn a_misspelled_constructor_pattern_does_not_make_the_next_arm_redundant() {
    let program = "fn f : Option i32 -> i32 = \\o ->\n  match o\n    when Som x -> x\n    when None -> 0\n\nf (Some 1)\n";
    assert_eq!(reported(program), vec![("E0204".into(), "Som".into())]);
    // An arm the good arms before it cover is still redundant, a broken arm between them
    // or not.
    let program = "fn f : Option i32 -> i32 = \\o ->\n  match o\n    when Some x -> x\n    when Som y -> y\n    when Some z -> z\n    when None -> 0\n\nf (Some 1)\n";
    assert_eq!(
        reported(program),
        vec![
            ("E0204".into(), "Som".into()),
            ("W0301".into(), "Some z".into())
        ]
    );
}

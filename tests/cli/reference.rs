//! Programs written the way the reference's documentation and tests write them, run through
//! the real `rex run`, with the output or the error the reference gives
//! (`../shared/reference/OBSERVED.md`: "Layout", "Records", "Printed values", "Ambiguity").

mod support;

use support::{run_code, stderr, stdout, value, TempDir};

/// Runs `code`, expects exit 1 (errors) and returns what `rex run` printed on stderr.
fn errors(code: &str) -> String {
    let o = run_code(code, &[]);
    assert_eq!(o.status.code(), Some(1), "{code}\nstderr: {}", stderr(&o));
    stderr(&o)
}

const PERSON: &str = "type Person = Person { name: string, age: i32 }\n";

#[test]
fn constructor_arguments_print_without_parentheses() {
    let program = format!(
        "{PERSON}type T = A i32 | B T | C Person\n\
         let p = Person {{ name = \"Bo\", age = 40 }} in\n\
         (Err (Some 1), B (A 1), C p, B (C p), Some [Some 1], Ok (Some (Some 2)), Some (1, 2))"
    );
    assert_eq!(
        value(&program),
        "(Err Some 1i32, B A 1i32, C Person {age = 40i32, name = \"Bo\"}, \
         B C Person {age = 40i32, name = \"Bo\"}, Some [Some 1i32], Ok Some Some 2i32, \
         Some (1i32, 2i32))"
    );
}

#[test]
fn holes_print_in_the_same_positions() {
    assert_eq!(
        value("(Ok (Some ?a) is Result (Option i32) string, Some [Some ?], Some (? + 1 is i32))"),
        "(Ok Some ?a, Some [Some ?], Some (? + 1i32))"
    );
    // An overloaded method applied to a hole: the method is named, not `<overloaded:…>`.
    assert_eq!(value("show ?"), "show ?");
}

#[test]
fn a_closing_bracket_in_column_1_continues_the_declaration() {
    let program = "type Box = Box {\n  width: i32,\n  height: i32\n}\n\n\
                   fn area : Box -> i32 = (\\b ->\n  b.width * b.height\n)\n\n\
                   area (Box { width = 3, height = 4 })\n";
    assert_eq!(value(program), "12i32");
}

#[test]
fn a_program_indented_as_a_whole_is_laid_out_from_its_first_line() {
    let program =
        "  type P = P { x: i32 }\n\n  fn getx : P -> i32 = \\p -> p.x\n\n  getx (P { x = 4 })\n";
    assert_eq!(value(program), "4i32");
}

#[test]
fn a_class_needs_a_type_parameter() {
    let err = errors("class C\n  c : i32\n\n1");
    assert!(
        err.contains("error[E0310]: class `C` needs a type parameter"),
        "{err}"
    );
}

#[test]
fn a_runaway_program_runs_out_of_gas_by_default() {
    let o = run_code(
        "let rec even = \\n -> odd n, odd = \\n -> even n in (even 0, odd 1)",
        &[],
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("ran out of gas"), "{}", stderr(&o));
}

const OLDER: &str =
    "let\n  older = \\p -> { p with { age = p.age + 2 } },\n  label = \\p -> p.name\nin\n";

#[test]
fn fields_of_a_value_whose_type_is_fixed_later() {
    let program = format!(
        "{PERSON}{OLDER}  (older (Person {{ name = \"Bo\", age = 40 }}), label (Person {{ name = \"Cy\", age = 3 }}))"
    );
    assert_eq!(
        value(&program),
        "(Person {age = 42i32, name = \"Bo\"}, \"Cy\")"
    );
    // A field of a type that never becomes known is still reported.
    let err = errors("let f = \\p -> p.zzz in 1");
    assert!(
        err.contains("error[E0307]: field `zzz` is not definitely available on `'a`"),
        "{err}"
    );
}

#[test]
fn a_hole_beside_a_deferred_field_shows_the_resolved_type() {
    let dir = TempDir::new("reference");
    let program = format!(
        "{PERSON}let older = \\p -> {{ p with {{ age = p.age + ?n }} }} in\nolder (Person {{ name = \"Bo\", age = 40 }})\n"
    );
    dir.file("main.rex", &program);
    let o = dir.rex(&["check", "--json", "main.rex"]);
    let out = stdout(&o);
    assert!(out.contains("hole `?n` expects `i32`"), "{out}");
    assert!(!out.contains("E0307"), "{out}");
}

#[test]
fn the_expected_type_reaches_a_record_update() {
    let program = "type A = A { x: i32, y: i32 }\n\n\
                   instance Default A\n  default = A { x = 1, y = 2 }\n\n\
                   let a: A = { default with { x = 9 } } in a";
    assert_eq!(value(program), "A {x = 9i32, y = 2i32}");
}

#[test]
fn dictionary_literals_are_dictionaries_unless_a_record_is_expected() {
    let err = errors("{a = 1, b = true}");
    assert!(
        err.contains("error[E0304]: no instance `Integral bool`"),
        "{err}"
    );
    let err = errors("({a = 1, b = 2}).a");
    assert!(
        err.contains("error[E0307]: field `a` is not definitely available on `Dict"),
        "{err}"
    );
    assert_eq!(value("{b = 2, a = 1}"), "{a = 1i32, b = 2i32}");
    // As a record constructor's payload, or where a record type is expected: a record.
    assert_eq!(
        value("let r: {a: i32, b: bool} = {a = 1, b = true} in r.b"),
        "true"
    );
    assert_eq!(
        value(&format!(
            "{PERSON}(Person {{ name = \"Bo\", age = 40 }}).age"
        )),
        "40i32"
    );
}

#[test]
fn an_overloaded_value_nothing_resolves_is_not_an_ambiguity() {
    assert_eq!(
        value("(show [], let g = map ((+) 1) in g)"),
        "(\"[]\", <overloaded:map>)"
    );
}

const DESCRIBE: &str = "class Describe a\n  describe : a -> string\n\n\
                        instance Describe i32\n  describe = \\_ -> \"int\"\n\n\
                        instance Describe (Option a) <= Describe a\n  describe = \\o -> match o\n    \
                        when Some x -> \"some \" + describe x\n    when None -> \"none\"\n\n";

#[test]
fn an_instance_context_nothing_needs_is_not_an_ambiguity() {
    let program = format!("{DESCRIBE}(describe (Some 1), describe None)");
    assert_eq!(value(&program), "(\"some int\", \"none\")");
}

#[test]
fn a_non_function_value_nothing_fixes_is_still_ambiguous() {
    let err = errors("show default");
    assert!(
        err.contains("error[E0305]: ambiguous type: nothing fixes the type in `Default 'a`"),
        "{err}"
    );
}

#[test]
fn a_binding_that_keeps_a_constrained_variable_its_type_does_not_mention_is_ambiguous() {
    assert_eq!(
        value("let xs = [10, 20, 30] in (get 0 xs, get 2 xs)"),
        "(10i32, 30i32)"
    );
    let err = errors("let xs = [10, 20, 30], a = get 0 xs, b = get 2 xs in (a, b)");
    assert!(
        err.contains(
            "error[E0305]: ambiguous type: nothing fixes the type in `Indexable (List 'a) 'b` \
             with `Integral 'a`, which the type of `a` does not mention; annotate the binding (`a: T`)"
        ),
        "{err}"
    );
    assert_eq!(
        value("let xs = [10, 20, 30], a: i32 = get 0 xs, b: i32 = get 2 xs in (a, b)"),
        "(10i32, 30i32)"
    );

    let builder = "class Builder a\n  make_adder : a -> i32 -> i32\n\n\
                   instance Builder i32\n  make_adder = \\a b -> a + b\n\n";
    assert_eq!(value(&format!("{builder}make_adder 5 37")), "42i32");
    let err = errors(&format!("{builder}let add5 = make_adder 5 in add5 37"));
    assert!(
        err.contains(
            "error[E0305]: ambiguous type: nothing fixes the type in `Builder 'a` with `Integral 'a`, \
             which the type of `add5` does not mention"
        ),
        "{err}"
    );
    assert_eq!(
        value(&format!(
            "{builder}let add5: i32 -> i32 = make_adder 5 in add5 37"
        )),
        "42i32"
    );
    // A variable SPEC.md's defaulting fixes is not ambiguous.
    assert_eq!(value("let n = count [1, 2, 3] in n"), "3i32");
}

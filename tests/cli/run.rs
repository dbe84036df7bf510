//! `rex run` driven through the real binary: printed values, holes, limits, runtime
//! errors and exit statuses.

mod support;

use std::io::Write;
use std::process::{Command, Stdio};

use support::{rex, run_code, stderr, stdout, value};

#[test]
fn prints_values_as_the_reference_does() {
    assert_eq!(value("1 + 2"), "3i32");
    assert_eq!(value("2.5"), "2.5f32");
    assert_eq!(value("\"hi\""), "\"hi\"");
    assert_eq!(value("[1, 2]"), "[1i32, 2i32]");
    assert_eq!(value("(1, true)"), "(1i32, true)");
    assert_eq!(value("Some 2"), "Some 2i32");
    assert_eq!(value("{ b = 2, a = 1 }"), "{a = 1i32, b = 2i32}");
    assert_eq!(value("\\x -> x"), "<closure>");
    assert_eq!(value("()"), "()");
    assert_eq!(
        value("(Ok 1 is Result i32 string, Err \"boom\" is Result i32 string)"),
        "(Ok 1i32, Err \"boom\")"
    );
    assert_eq!(
        value("(4 is u8, 4 is i64, -3 is i16, 1.5 is f64)"),
        "(4u8, 4i64, -3i16, 1.5f64)"
    );
    assert_eq!(value("[] is List i32"), "[]");
    assert_eq!(value("Some (Some 1)"), "Some Some 1i32");
    assert_eq!(
        value("(true && false, false || true, (&&) true true)"),
        "(false, true, true)"
    );
}

#[test]
fn prints_user_types_and_records() {
    let program = "type Bar = Bar { z: f32, a: i32 }\ntype Pair a b = Pair a b\n(Bar { z = 0.0, a = 1 }, Pair 1 \"x\")";
    assert_eq!(
        value(program),
        "(Bar {a = 1i32, z = 0f32}, Pair 1i32 \"x\")"
    );
}

#[test]
fn class_methods_dispatch_through_dictionaries() {
    // A constrained function, a constrained local, superclasses and the prelude's folds.
    let program = "fn twice : a -> a where AdditiveMonoid a = \\x -> x + x\n\
                   let f = \\x -> x == x in\n\
                   (twice 2, twice 1.5, twice \"ab\", f 3, max [3, 9, 2], sum [1, 2, 3], show ([1, 2] is List i32))";
    assert_eq!(
        value(program),
        "(4i32, 3f32, \"abab\", true, 9i32, 6i32, \"[1, 2]\")"
    );
    let instances = "class Size a\n  size : a -> i32\n\ninstance Size (List t)\n  size = \\xs ->\n    match xs\n      when Empty -> 0\n      when Cons _ rest -> 1 + size rest\n\nsize [7, 8, 9]";
    assert_eq!(value(instances), "3i32");
}

#[test]
fn mutually_recursive_lets_share_their_dictionaries() {
    let program = "let rec\n  even = \\n -> if n == 0 then true else odd (n - 1),\n  odd = \\n -> if n == 0 then false else even (n - 1)\nin\n  (even 10, odd 11)";
    assert_eq!(value(program), "(true, true)");
}

#[test]
fn a_file_with_only_declarations_prints_unit() {
    assert_eq!(value("fn inc : i32 -> i32 = \\x -> x + 1"), "()");
}

#[test]
fn holes_evaluate_to_indeterminate_values() {
    assert_eq!(value("Ok ?q is Result i32 string"), "Ok ?q");
    assert_eq!(value("1 + ?"), "1i32 + ?");
    assert_eq!(value("(1 + 2, ?later)"), "(3i32, ?later)");
    assert_eq!(
        value("match (? is Option i32) when Some x -> x when None -> 0"),
        "match ? ..."
    );
    assert_eq!(value("if ?c then 1 else 2"), "if ?c then ... else ...");
}

#[test]
fn a_match_arm_pattern_shadows_the_scrutinee_variable() {
    // Inside the arm, `x` is the pattern's `i32`, for the checker as for evaluation.
    let program = "fn f : Option i32 -> i32 = \\x ->\n  match x\n    when Some x -> x + 1\n    when None -> 0\n\nf (Some 2)";
    assert_eq!(value(program), "3i32");
}

#[test]
fn a_constructor_two_types_declare_is_the_one_the_expected_type_names() {
    // `A` and `K` are constructors of `T` and of `U`; where a `U` is expected they are `U`'s
    // (before: `T`'s, the first declared, and a type error).
    let program = "type T = A | B | K i32\n\ntype U = A | C | K i32\n\n\
                   fn f : U -> i32 = \\u -> match u\n  when K n -> n\n  when A -> 1\n  when C -> 2\n\n\
                   (A is U, f A, f (K 3), map K [1, 2] is List U)";
    assert_eq!(value(program), "(A, 1i32, 3i32, [K 1i32, K 2i32])");
}

#[test]
fn cons_syntax_takes_the_cons_of_the_expected_type() {
    // `x :: xs` is `Cons x xs`: where the file declares its own `Cons`, a list is expected
    // here, so it is the prelude's (before: the file's, and a type error); with nothing
    // expected the file's own (`constructors_run_as_the_checker_chose_them`).
    let program = "type Stream = Cons i32 Stream | Nil\n\n\
                   fn total : Stream -> i32 = \\s -> match s\n  when Cons h t -> h + total t\n  when Nil -> 0\n\n\
                   let xs: List i32 = 1 :: [2, 3] in (sum xs, total (4 :: Cons 5 Nil))";
    assert_eq!(value(program), "(6i32, 9i32)");
}

#[test]
fn holes_flag_lists_each_hole_with_its_environment() {
    let o = run_code("let x = 1 in\nlet y = \"s\" in\nx + ?h", &["--holes"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("1i32 + ?h\n"), "{out}");
    assert!(out.contains("holes reached: 1"), "{out}");
    assert!(out.contains("?h at <code>:3:5"), "{out}");
    assert!(out.contains("    y = \"s\"\n"), "{out}");
    assert!(out.contains("    x = 1i32\n"), "{out}");
}

#[test]
fn generalised_local_functions_run_and_show_holes_alike_used_at_one_type_or_two() {
    // `go`, `twice` and `probe`'s loop are used at one type each (lowered for it), `up` at
    // two; `boom` is not a function and never used. Values and hole environments are
    // those of the dictionary-passing form (checked against the binary before the change).
    let program = "fn count_to : i32 -> List i32 = \\n ->\n  \
                   let rec go = \\k acc -> if k == 0 then acc else go (k - 1) (Cons k acc)\n  \
                   in go n Empty\n\n\
                   let\n  twice = \\x -> x + x,\n  boom = 1 / 0,\n  \
                   both = (let rec up = \\k acc -> if k == 0 then acc else up (k - 1) (acc + k) in (up 4 0 is i32, up 4 0 is i64)),\n  \
                   probe = (let rec go = \\k -> if k == 0 then ?h else go (k - 1) in (go (2 is i32), ?after))\n\
                   in\n  (count_to 3, twice 2 is i64, both, probe)";
    let o = run_code(program, &["--holes"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "([1i32, 2i32, 3i32], 4i64, (10i32, 10i64), (?h, ?after))\n\
         holes reached: 2\n  \
         ?h at <code>:9:46\n    k = 0i32\n    both = (10i32, 10i64)\n  \
         ?after at <code>:9:84\n    both = (10i32, 10i64)\n"
    );
}

#[test]
fn programs_with_errors_report_them_and_exit_1() {
    let o = run_code("if true then \"yes\" else 0", &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("error"), "{}", stderr(&o));
    // Evaluation goes around the marked node; `--allow-errors` keeps exit 0.
    let o = run_code("(1 + 1, undefined_name)", &["--allow-errors"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o).trim_end(), "(2i32, ?)");
}

#[test]
fn gas_stops_an_infinite_loop_with_exit_3() {
    let o = run_code(
        "fn spin : i32 -> i32 = \\n -> spin n\nspin 0",
        &["--gas", "100000"],
    );
    assert_eq!(o.status.code(), Some(3));
    assert!(stderr(&o).contains("ran out of gas"), "{}", stderr(&o));
}

#[test]
fn timeout_stops_an_infinite_loop_with_exit_3() {
    let o = run_code(
        "fn spin : i32 -> i32 = \\n -> spin n\nspin 0",
        &["--no-gas", "--timeout", "0.3"],
    );
    assert_eq!(o.status.code(), Some(3));
    assert!(stderr(&o).contains("stopped after"), "{}", stderr(&o));
}

const RANGE: &str = "fn range : i32 -> List i32 = \\n ->\n  let rec go = \\k acc -> if k == 0 then acc else go (k - 1) (Cons k acc)\n  in go n Empty\n";

#[test]
fn a_million_element_fold_completes() {
    let program = format!(
        "{RANGE}let xs = range 1000000 in\n(foldl (\\acc _ -> acc + 1) 0 xs, foldr (\\_ acc -> acc + 1) 0 xs, count (map (\\x -> x * 2) xs))"
    );
    assert_eq!(value(&program), "(1000000i32, 1000000i32, 1000000i32)");
}

#[test]
fn deep_non_tail_recursion_completes() {
    let program =
        "fn sum_to : i64 -> i64 = \\n -> if n == 0 then 0 else n + sum_to (n - 1)\nsum_to 100000";
    assert_eq!(value(program), "5000050000i64");
}

#[test]
fn constructors_run_as_the_checker_chose_them() {
    // `x :: xs` is `Cons x xs` with whichever `Cons` the checker chose: here the file's
    // own, which the evaluator once replaced with the prelude's list cell.
    let stack = "type Stack = Cons i32 Stack | Nil\n\n\
                 fn size s: Stack -> i32 =\n  match s\n    when Nil -> 0\n    when Cons _ rest -> 1 + size rest\n\n\
                 let s = 1 :: 2 :: Nil in (s, size s)";
    assert_eq!(value(stack), "(Cons 1i32 Cons 2i32 Nil, 2i32)");
    // Two types of one file share a constructor name: each pattern takes the one of its
    // scrutinee's type, each expression the one the checker typed it as.
    let shared = "type T = A i32 | B\ntype U = A string | C\n\n\
                  fn f x: U -> string =\n  match x\n    when A s -> s\n    when C -> \"c\"\n\n\
                  fn g x: T -> i32 =\n  match x\n    when A n -> n\n    when B -> 0\n\n\
                  (g (A 1), g B, f C, [1, 2])";
    assert_eq!(value(shared), "(1i32, 0i32, \"c\", [1i32, 2i32])");
}

#[test]
fn a_cons_pattern_is_the_cons_of_its_scrutinee() {
    // `h :: t` in a pattern is `Cons h t` (LANGUAGE.md): on a type with its own `Cons` it
    // takes that one apart (it was checked, matched and covered as the prelude's list
    // cell, so this was a type error), and on a list the prelude's.
    let stack = [
        "type Stack = Cons i32 Stack | Nil",
        "",
        "fn size s: Stack -> i32 =",
        "  match s",
        "    when Nil -> 0",
        "    when _ :: rest -> 1 + size rest",
        "",
        "fn first xs: List i32 -> i32 =",
        "  match xs",
        "    when x :: _ -> x",
        "    when [] -> 0",
        "",
        "(size (1 :: 2 :: Nil), first [7, 8])",
    ]
    .join("\n");
    let o = run_code(&stack, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim_end(), "(2i32, 7i32)");
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn runtime_errors_exit_4_with_a_message() {
    let o = run_code("5 % 0", &[]);
    assert_eq!(o.status.code(), Some(4));
    assert!(stderr(&o).contains("division by zero"), "{}", stderr(&o));
    let o = run_code("get 5 [1, 2]", &[]);
    assert_eq!(o.status.code(), Some(4));
    assert!(stderr(&o).contains("out of range"), "{}", stderr(&o));
    let o = run_code("unwrap (None is Option i32)", &[]);
    assert_eq!(o.status.code(), Some(4));
    assert!(stderr(&o).contains("None"), "{}", stderr(&o));
    let o = run_code("2147483647 + 1", &[]);
    assert_eq!(o.status.code(), Some(4));
    assert!(stderr(&o).contains("overflow"), "{}", stderr(&o));
}

#[test]
fn reads_files_and_stdin() {
    let dir = std::env::temp_dir().join(format!("rex-cli-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("main.rex");
    std::fs::write(&path, "fn inc : i32 -> i32 = \\x -> x + 1\n\ninc 41\n").expect("write");
    let o = rex(&["run", path.to_str().expect("utf-8 path")]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(stdout(&o), "42i32\n");

    let mut child = Command::new(env!("CARGO_BIN_EXE_rex"))
        .args(["run", "--stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn rex");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"([1, 2] is List i32) == [1, 2]")
        .expect("write stdin");
    let o = child.wait_with_output().expect("wait");
    assert_eq!(stdout(&o), "true\n");

    let o = rex(&["run", "/nonexistent/file.rex"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn literals_inside_structures_default_through_instance_contexts() {
    // `Show (List a)` and `Eq (List a)` reduce to constraints on `a` by their instances,
    // so the literals default to i32 instead of being ambiguous.
    assert_eq!(value("show [1, 2]"), "\"[1, 2]\"");
    assert_eq!(value("[1, 2] == [1, 2]"), "true");
    assert_eq!(
        value("let xs = [1, 2] in (xs == xs, show (Some 3))"),
        "(true, \"Some(3)\")"
    );
}

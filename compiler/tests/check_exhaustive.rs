//! Match exhaustiveness over whole pattern matrices: the missing values are named as
//! patterns in one diagnostic (with the structured `missing` list), and arms that earlier
//! arms make unreachable are warnings.

use rex_compiler::db::Database;
use rex_compiler::{Code, DiagnosticData, Severity};

const SHAPE: &str = "type Shape = Circle f32 | Rect { w: f32, h: f32 } | Dot\n\n";

/// The `missing` list of every non-exhaustive match in `text`, and the number of other
/// errors.
fn missing(text: &str) -> (Vec<Vec<String>>, usize) {
    let db = Database::new();
    let file = db.add_file("match.rex", format!("{SHAPE}{text}"));
    let mut found = Vec::new();
    let mut other = 0;
    for d in db.diagnostics(file).iter().filter(|d| d.is_error()) {
        match &d.data {
            DiagnosticData::NonExhaustiveMatch { missing } => {
                assert_eq!(d.code, Code::NonExhaustiveMatch);
                found.push(missing.clone());
            }
            _ => other += 1,
        }
    }
    (found, other)
}

fn missing_in(ty: &str, arms: &[&str]) -> Vec<String> {
    let text = format!(
        "fn f : {ty} -> i32 = \\x ->\n  match x\n{}\n",
        arms.iter()
            .map(|a| format!("    when {a} -> 0"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let (mut found, other) = missing(&text);
    assert_eq!(other, 0, "no other error in {text}");
    assert!(found.len() <= 1, "one diagnostic per match: {found:?}");
    found.pop().unwrap_or_default()
}

#[test]
fn nested_constructors() {
    assert_eq!(
        missing_in("Option (List i32)", &["Some []", "None"]),
        ["Some (Cons _ _)"]
    );
    assert_eq!(
        missing_in("Result (Option i32) string", &["Ok (Some _)", "Err _"]),
        ["Ok None"]
    );
    assert_eq!(
        missing_in("Option (List i32)", &["Some []", "Some (h::_)", "None"]),
        Vec::<String>::new()
    );
}

#[test]
fn top_level_constructors_all_named() {
    assert_eq!(missing_in("Shape", &["Rect {w}"]), ["Circle _", "Dot"]);
}

#[test]
fn tuples_and_booleans() {
    assert_eq!(
        missing_in("(bool, bool)", &["(true, _)", "(false, true)"]),
        ["(false, false)"]
    );
    assert_eq!(
        missing_in("(bool, Option i32)", &["(_, Some _)", "(true, None)"]),
        ["(false, None)"]
    );
}

#[test]
fn lists_by_shape() {
    assert_eq!(
        missing_in("List (Option bool)", &["[]", "[Some true]", "None::_"]),
        ["Cons (Some false) _"]
    );
    assert_eq!(
        missing_in("List i32", &["[]", "[_]", "_::_::_"]),
        Vec::<String>::new()
    );
}

#[test]
fn literals_need_a_fallback() {
    assert_eq!(missing_in("i32", &["0", "1"]), ["_"]);
    assert_eq!(missing_in("string", &["\"a\"", "_"]), Vec::<String>::new());
}

#[test]
fn record_payload_fields() {
    assert_eq!(
        missing_in("Option { a: bool, b: i32 }", &["Some {a: true}", "None"]),
        ["Some {a: false}"]
    );
}

#[test]
fn broken_patterns_do_not_add_a_second_error() {
    // `Circl` is unknown: that is the one error, the match is not also incomplete.
    let (found, other) =
        missing("fn f : Shape -> i32 = \\s ->\n  match s\n    when Circl _ -> 0\n");
    assert_eq!((found.len(), other), (0, 1));
}

#[test]
fn unreachable_arms_are_warnings() {
    let db = Database::new();
    let text = "fn f : Option i32 -> i32 = \\o ->\n  match o\n    when _ -> 1\n    when None -> 0\n\n\
                fn g : i32 -> i32 = \\n ->\n  match n\n    when 1 -> 1\n    when 1 -> 2\n    when _ -> 3\n\n\
                fn h : Option i32 -> i32 = \\o ->\n  match o\n    when Some 1 -> 1\n    when Some _ -> 2\n    when None -> 0\n";
    let file = db.add_file("redundant.rex", text);
    let warnings: Vec<&str> = db
        .diagnostics(file)
        .iter()
        .inspect(|d| assert!(!d.is_error(), "{d:?}"))
        .filter(|d| d.severity == Severity::Warning)
        .map(|d| {
            assert_eq!(d.code.as_str(), "W0301");
            &text[d.span.start as usize..d.span.end as usize]
        })
        .collect();
    assert_eq!(warnings, ["None", "1"]);
}

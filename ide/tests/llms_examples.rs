//! The two examples of LLMS.md, through the command dispatcher: the pH program's hole
//! expects `Result string string` and is best filled with
//! `qc_label_from_sensor sensor_reading`; the `mk` program offers `mk x` among its first
//! three fills. Every fill offered type-checks once inserted in the whole program.

mod common;

use common::*;
use rex_compiler::db::Database;
use rex_compiler::LineIndex;
use rex_ide::commands::{execute, SEMANTIC_LOOP_STEP};
use serde_json::{json, Value};

const CONTRACT_KEYS: &[&str] = &[
    "expectedType",
    "inferredType",
    "inScopeValues",
    "functionCandidates",
    "holeFillCandidates",
    "functionsAcceptingInferredType",
    "adaptersFromInferredToExpectedType",
    "functionsCompatibleWithInScopeValues",
    "localDiagnostics",
    "quickFixes",
    "quickFixTitles",
    "holes",
];

fn step(source: &str) -> (Fixture, Value) {
    let mut f = fixture(source);
    let args = json!({"uri": URI, "line": f.pos.line, "character": f.pos.character});
    let out = execute(&mut f.db, f.file, SEMANTIC_LOOP_STEP, &args).expect("the step answers");
    (f, out)
}

fn replacements(step: &Value) -> Vec<String> {
    step["holeFillCandidates"]
        .as_array()
        .expect("holeFillCandidates is an array")
        .iter()
        .map(|c| {
            c["replacement"]
                .as_str()
                .expect("a replacement")
                .to_string()
        })
        .collect()
}

fn errors(text: &str) -> Vec<String> {
    let db = Database::new();
    let file = db.add_file("filled.rex", text.to_string());
    db.diagnostics(file)
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.clone())
        .collect()
}

/// Every fill, put in place of the hole, adds no error to the program (whose other items
/// may have errors of their own).
fn assert_fills_check(f: &Fixture, fills: &[String]) {
    let hole = LineIndex::new(&f.text).offset(&f.text, f.pos);
    assert_eq!(&f.text[hole..hole + 1], "?");
    let before = errors(&f.text);
    for fill in fills {
        let text = format!("{}{}{}", &f.text[..hole], fill, &f.text[hole + 1..]);
        assert_eq!(errors(&text), before, "`{fill}` does not check:\n{text}");
    }
}

#[test]
fn ph_hole_step_has_every_key_and_the_sensor_call_first() {
    let (f, out) = step(PH_PROGRAM);
    let keys: Vec<&str> = out
        .as_object()
        .expect("an object")
        .keys()
        .map(|k| k.as_str())
        .collect();
    for key in CONTRACT_KEYS {
        assert!(keys.contains(key), "missing key {key}");
    }
    assert_eq!(keys.len(), CONTRACT_KEYS.len());
    assert_eq!(out["expectedType"], "Result string string");
    let fills = replacements(&out);
    assert_eq!(
        fills.first().map(String::as_str),
        Some("qc_label_from_sensor sensor_reading")
    );
    assert_eq!(
        out["quickFixTitles"][0],
        "Fill hole with `qc_label_from_sensor sensor_reading`"
    );
    assert_fills_check(&f, &fills);
}

#[test]
fn mk_hole_offers_mk_x_among_the_first_three() {
    let (f, out) = step(MK_PROGRAM);
    assert_eq!(out["expectedType"], "string");
    let fills = replacements(&out);
    assert!(
        fills.iter().take(3).any(|r| r == "mk x"),
        "first fills: {fills:?}"
    );
    assert_fills_check(&f, &fills);
}

/// In this example `parse_i32`'s own body does not check (`Result` is written success
/// first, so its `Ok 42` is a string slot); the fills must still add no error.
#[test]
fn plus1_example_fills_check() {
    let (f, out) = step(
        r#"fn parse_i32 : string -> Result string i32 = \s ->
  if s == "42" then Ok 42 else Err "bad-int"

fn plus1 : i32 -> i32 = \n -> n + 1

let input = "42" in
let out : Result string i32 = <CURSOR>? in
out
"#,
    );
    let fills = replacements(&out);
    assert_eq!(fills.first().map(String::as_str), Some("parse_i32 input"));
    assert_fills_check(&f, &fills);
}

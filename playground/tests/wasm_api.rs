//! The JavaScript-facing API called from Rust: every method answers a JSON string, and bad
//! input is an `{"error": ...}` object, never a trap.

use rex_playground::wasm::Playground;
use serde_json::Value;

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("every answer is JSON")
}

#[test]
fn every_answer_is_json() {
    let mut playground = Playground::new();
    playground.set_text("let x = 1 in\nlet y : string = ? in\ny\n");
    let analysis = json(&playground.analyze());
    assert_eq!(analysis["holes"][0]["expectedType"], "string");
    assert_eq!(json(&playground.hover(0, 4))["code"], "x : i32");
    assert!(json(&playground.hover(40, 0)).is_null());
    assert!(json(&playground.completion(2, 0))["items"].is_array());
    assert_eq!(json(&playground.run())["value"], "?");

    let args = format!(r#"{{"uri": "{}"}}"#, playground.document_uri());
    let holes = json(&playground.execute("rex.holesExpectedTypes", &args));
    assert_eq!(holes["result"]["holes"][0]["expectedType"], "string");
}

#[test]
fn bad_command_input_is_an_error_object() {
    let mut playground = Playground::new();
    for (command, args) in [
        ("rex.semanticLoopStep", "not json"),
        ("rex.semanticLoopStep", "{}"),
        (
            "rex.semanticLoopStep",
            r#"{"uri": "file:///playground.rex", "line": -1}"#,
        ),
        ("rex.nothing", r#"{"uri": "file:///playground.rex"}"#),
    ] {
        let answer = json(&playground.execute(command, args));
        assert!(answer["error"].is_string(), "{command} {args}: {answer}");
    }
}

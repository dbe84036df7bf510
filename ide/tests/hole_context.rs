//! `rex.holeContext`: the static context of a hole for a model.

mod common;

use common::*;
use rex_ide::hole_context::hole_context;

#[test]
fn the_ph_hole_has_its_producing_function_first() {
    let f = fixture(PH_PROGRAM);
    let c = hole_context(&f.db, f.file, f.offset);
    assert_eq!(c.expected_type.as_deref(), Some("Result string string"));
    assert_eq!(
        c.relevant_headers.first().map(String::as_str),
        Some("qc_label_from_sensor : string -> Result string string")
    );
    assert!(c
        .in_scope_values
        .contains(&"sensor_reading : string".to_string()));
    assert!(c.relevant_headers.len() <= 8);
}

#[test]
fn types_reachable_through_fields_are_included() {
    let f = fixture(
        "type Todo = Todo { title: string, done: bool }\n\
         type Model = Model { todos: List Todo, filter: string }\n\
         type Unused = Unused { x: i32 }\n\n\
         fn add_todo : Model -> string -> Model = \\m t -> <CURSOR>?\n\n\
         add_todo (Model { todos = [], filter = \"all\" }) \"x\"\n",
    );
    let c = hole_context(&f.db, f.file, f.offset);
    assert_eq!(c.expected_type.as_deref(), Some("Model"));
    // Nearest first: `Model` is the expected type, `Todo` is reached through its field.
    assert_eq!(
        c.relevant_types,
        [
            "type Model = Model { todos: List Todo, filter: string }",
            "type Todo = Todo { title: string, done: bool }"
        ]
    );
}

#[test]
fn the_error_report_lists_the_errors_and_asks_for_a_round() {
    let f = fixture("let x : i32 = \"no\" in x + <CURSOR>?\n");
    let report = rex_ide::chatlsp::error_report(&f.db, f.file, f.offset);
    assert!(report.contains("E0301"), "{report}");
    assert!(
        report.ends_with("1 error; fix it before continuing."),
        "{report}"
    );
    let clean = fixture("let x : i32 = 1 in x + <CURSOR>?\n");
    let report = rex_ide::chatlsp::error_report(&clean.db, clean.file, clean.offset);
    assert!(report.starts_with("No errors"), "{report}");
}

#[test]
fn the_tutorial_is_ours_and_short() {
    let t = rex_ide::chatlsp::AI_TUTORIAL;
    assert!(t.lines().count() < 80);
    assert!(t.contains("typed hole"));
}

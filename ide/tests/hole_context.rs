//! `rex.holeContext`: the static context of a hole for a model.

mod common;

use common::*;
use rex_ide::hole_context::hole_context;

#[test]
fn the_ph_hole_has_its_producing_function_first() {
    let f = fixture(PH_PROGRAM);
    let c = hole_context(&f.db, f.file, f.pos);
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
    let c = hole_context(&f.db, f.file, f.pos);
    assert_eq!(c.expected_type.as_deref(), Some("Model"));
    assert_eq!(
        c.relevant_types,
        [
            "type Todo = Todo { title: string, done: bool }",
            "type Model = Model { todos: List Todo, filter: string }"
        ]
    );
}

//! Quick fixes from structured diagnostic data, one fixture per kind: the fixes offered at
//! the cursor, and what bulk repair makes of the text (a dry run: the document stays as it
//! is).

mod common;

use common::*;
use rex_ide::commands::{
    execute, SEMANTIC_LOOP_APPLY_BEST_QUICK_FIXES_AT, SEMANTIC_LOOP_APPLY_QUICK_FIX_AT,
    SEMANTIC_LOOP_STEP,
};
use serde_json::{json, Value};

/// The fix titles at the cursor, then the dry-run repair: its stop reason and text.
fn repair(source: &str) -> String {
    let mut f = fixture(source);
    let at = json!({"uri": URI, "line": f.pos.line, "character": f.pos.character});
    let step = execute(&mut f.db, f.file, SEMANTIC_LOOP_STEP, &at).expect("step");
    let mut bulk_args = at.clone();
    bulk_args["dryRun"] = json!(true);
    bulk_args["maxSteps"] = json!(5);
    let bulk = execute(
        &mut f.db,
        f.file,
        SEMANTIC_LOOP_APPLY_BEST_QUICK_FIXES_AT,
        &bulk_args,
    )
    .expect("bulk");
    assert_eq!(f.file.text(&f.db), &f.text, "a dry run leaves the document");
    let titles: Vec<&str> = step["quickFixTitles"]
        .as_array()
        .expect("titles")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    format!(
        "fixes: {titles:#?}\nstopped: {} ({})\napplied: {}\n---\n{}",
        bulk["stoppedReason"],
        bulk["stoppedReasonDetail"],
        bulk["appliedCount"],
        bulk["updatedText"].as_str().unwrap_or_default()
    )
}

#[test]
fn misspelled_function_is_repaired_by_a_dry_run() {
    let source = "fn double : i32 -> i32 = \\n -> n * 2\n\ndoubel<CURSOR> 21\n";
    let mut f = fixture(source);
    let args = json!([URI, f.pos.line, f.pos.character, 5, "conservative", true]);
    let bulk = execute(
        &mut f.db,
        f.file,
        SEMANTIC_LOOP_APPLY_BEST_QUICK_FIXES_AT,
        &args,
    )
    .expect("bulk");
    assert_eq!(
        bulk["updatedText"],
        "fn double : i32 -> i32 = \\n -> n * 2\n\ndouble 21\n"
    );
    assert_eq!(bulk["stoppedReason"], "clean");
    assert_eq!(bulk["dryRun"], true);
    assert_eq!(bulk["appliedCount"], 1);
    assert_eq!(bulk["steps"][0]["diagnosticsDelta"], -1);
    // The document is untouched, in the database and in what it reports.
    assert_eq!(f.file.text(&f.db), &f.text);
    assert!(f.db.diagnostics(f.file).iter().any(|d| d.is_error()));
    insta::assert_snapshot!(serde_json::to_string_pretty(&bulk).expect("json"));
}

#[test]
fn unknown_name() {
    insta::assert_snapshot!(repair(
        "fn double : i32 -> i32 = \\n -> n * 2\n\ndoubel<CURSOR> 21\n"
    ));
}

#[test]
fn fat_arrow_in_an_arm() {
    insta::assert_snapshot!(repair(
        "fn f : Option i32 -> i32 = \\o ->\n  match o\n    when Some x =<CURSOR>> x\n    when None -> 0\n\nf (Some 1)\n"
    ));
}

#[test]
fn missing_in() {
    insta::assert_snapshot!(repair("let x = 1<CURSOR>\nx + 1\n"));
}

#[test]
fn missing_match_arms() {
    insta::assert_snapshot!(repair(
        "type Light = Red | Amber | Green\n\nfn go : Light -> bool = \\l ->\n  ma<CURSOR>tch l\n    when Green -> true\n\ngo Red\n"
    ));
}

#[test]
fn wrap_in_some() {
    insta::assert_snapshot!(repair(
        "fn f : i32 -> Option i32 = \\n -> n<CURSOR> + 1\n\nf 1\n"
    ));
}

#[test]
fn wrap_in_ok() {
    insta::assert_snapshot!(repair(
        "fn f : i32 -> Result i32 string = \\n -> n<CURSOR>\n\nf 1\n"
    ));
}

#[test]
fn missing_argument_becomes_a_hole() {
    insta::assert_snapshot!(repair(
        "fn mk : i32 -> string = \\n -> \"v\"\nlet y : string = mk<CURSOR> in\ny\n"
    ));
}

#[test]
fn surplus_argument_is_dropped() {
    insta::assert_snapshot!(repair(
        "fn mk : i32 -> string = \\n -> \"v\"\nlet y : string = mk 1 2<CURSOR> in\ny\n"
    ));
}

#[test]
fn constructor_pattern_arity() {
    insta::assert_snapshot!(repair(
        "fn f : Option i32 -> i32 = \\o ->\n  match o\n    when Some x y<CURSOR> -> x\n    when None -> 0\n\nf (Some 1)\n"
    ));
}

#[test]
fn ambiguous_type_gets_an_annotation() {
    insta::assert_snapshot!(repair("show default<CURSOR>\n"));
}

#[test]
fn ambiguous_binding_gets_an_annotation() {
    insta::assert_snapshot!(repair(
        "let xs = [10, 20, 30], a<CURSOR> = get 0 xs in\na\n"
    ));
}

#[test]
fn ambiguous_binding_of_a_function_gets_its_type() {
    insta::assert_snapshot!(repair(
        "class Builder a\n  make_adder : a -> i32 -> i32\n\ninstance Builder i32\n  make_adder = \\a b -> a + b\n\nlet add5<CURSOR> = make_adder 5 in add5 37\n"
    ));
}

#[test]
fn aggressive_strategy_fills_the_hole() {
    let mut f = fixture(MK_PROGRAM);
    let args = json!({"uri": URI, "line": f.pos.line, "character": f.pos.character,
                      "strategy": "aggressive", "dryRun": true});
    let bulk = execute(
        &mut f.db,
        f.file,
        SEMANTIC_LOOP_APPLY_BEST_QUICK_FIXES_AT,
        &args,
    )
    .expect("bulk");
    assert_eq!(bulk["strategy"], "aggressive");
    assert!(bulk["updatedText"]
        .as_str()
        .is_some_and(|t| t.contains("let y : string = mk x in")));
    // The conservative strategy never invents a hole's contents.
    let args = json!({"uri": URI, "line": f.pos.line, "character": f.pos.character});
    let bulk = execute(
        &mut f.db,
        f.file,
        SEMANTIC_LOOP_APPLY_BEST_QUICK_FIXES_AT,
        &args,
    )
    .expect("bulk");
    assert_eq!(bulk["stoppedReason"], "clean");
    assert_eq!(bulk["updatedText"].as_str(), Some(f.text.as_str()));
}

#[test]
fn max_steps_is_clamped_and_repeated_fixes_never_loop() {
    // Two misspellings: one step per run at most when maxSteps is 0 (clamped to 1).
    let source = "fn double : i32 -> i32 = \\n -> n * 2\n\ndoubel (doubel<CURSOR> 1)\n";
    let mut f = fixture(source);
    let args = json!([URI, f.pos.line, f.pos.character, 0, null, true]);
    let bulk = execute(
        &mut f.db,
        f.file,
        SEMANTIC_LOOP_APPLY_BEST_QUICK_FIXES_AT,
        &args,
    )
    .expect("bulk");
    assert_eq!(bulk["appliedCount"], 1);
    assert_eq!(bulk["stoppedReason"], "maxSteps");
    let args = json!([URI, f.pos.line, f.pos.character, 1000, null, true]);
    let bulk = execute(
        &mut f.db,
        f.file,
        SEMANTIC_LOOP_APPLY_BEST_QUICK_FIXES_AT,
        &args,
    )
    .expect("bulk");
    assert_eq!(bulk["stoppedReason"], "clean");
    assert_eq!(bulk["appliedCount"], 2);
    assert_eq!(bulk["seenStatesCount"], 3);
}

#[test]
fn apply_quick_fix_by_id_returns_the_fix_seen_in_the_step() {
    let mut f = fixture("fn double : i32 -> i32 = \\n -> n * 2\n\ndoubel<CURSOR> 21\n");
    let at = json!([URI, f.pos.line, f.pos.character]);
    let step = execute(&mut f.db, f.file, SEMANTIC_LOOP_STEP, &at).expect("step");
    let fix = &step["quickFixes"][0];
    let id = fix["id"].as_str().expect("an id");
    let args = json!([URI, f.pos.line, f.pos.character, id]);
    let applied =
        execute(&mut f.db, f.file, SEMANTIC_LOOP_APPLY_QUICK_FIX_AT, &args).expect("apply");
    assert_eq!(&applied["quickFix"], fix);
    let args = json!([
        URI,
        f.pos.line,
        f.pos.character,
        "replaceName-0000000000000000"
    ]);
    let none = execute(&mut f.db, f.file, SEMANTIC_LOOP_APPLY_QUICK_FIX_AT, &args).expect("apply");
    assert_eq!(none, Value::Null);
}

//! The dispatcher: both argument forms give the same answer; bad arguments are errors.

mod common;

use common::*;
use rex_ide::commands::{execute, CommandError, COMMANDS};
use serde_json::{json, Value};

fn run(source: &str, command: &str, args: impl Fn(&str, u32, u32) -> Value) -> Value {
    let mut f = fixture(source);
    let a = args(URI, f.pos.line, f.pos.character);
    execute(&mut f.db, f.file, command, &a).unwrap_or_else(|e| panic!("{command}: {e}"))
}

#[test]
fn object_array_and_positional_forms_agree_for_every_command() {
    for command in COMMANDS {
        let extra_named = |m: &mut serde_json::Map<String, Value>| {
            if command.ends_with("ApplyQuickFixAt") {
                m.insert("id".into(), json!("no-such-fix"));
            }
            if command.ends_with("ApplyBestQuickFixesAt") {
                m.insert("dryRun".into(), json!(true));
            }
        };
        let object = run(PH_PROGRAM, command, |u, l, c| {
            let mut m = serde_json::Map::new();
            m.insert("uri".into(), json!(u));
            m.insert("line".into(), json!(l));
            m.insert("character".into(), json!(c));
            extra_named(&mut m);
            Value::Object(m)
        });
        let wrapped = run(PH_PROGRAM, command, |u, l, c| {
            let mut m = serde_json::Map::new();
            m.insert("uri".into(), json!(u));
            m.insert("line".into(), json!(l));
            m.insert("character".into(), json!(c));
            extra_named(&mut m);
            json!([Value::Object(m)])
        });
        let positional = run(PH_PROGRAM, command, |u, l, c| {
            if command.ends_with("ApplyQuickFixAt") {
                json!([u, l, c, "no-such-fix"])
            } else if command.ends_with("ApplyBestQuickFixesAt") {
                json!([u, l, c, null, null, true])
            } else {
                json!([u, l, c])
            }
        });
        assert_eq!(object, positional, "{command}");
        assert_eq!(object, wrapped, "{command}");
    }
}

#[test]
fn bad_arguments_are_errors_not_panics() {
    let mut f = fixture(PH_PROGRAM);
    let cases = [
        ("rex.expectedTypeAt", json!(42)),
        ("rex.expectedTypeAt", json!({})),
        (
            "rex.expectedTypeAt",
            json!({"uri": URI, "line": -1, "character": 0}),
        ),
        ("rex.expectedTypeAt", json!([URI, "1", 0])),
        ("rex.expectedTypeAt", json!([URI, 1])),
        ("rex.expectedTypeAt", json!([URI, 1u64 << 40, 0])),
        ("rex.holesExpectedTypes", json!([7])),
        ("rex.semanticLoopApplyQuickFixAt", json!([URI, 1, 1])),
        (
            "rex.semanticLoopApplyBestQuickFixesAt",
            json!([URI, 1, 1, -3]),
        ),
        (
            "rex.semanticLoopApplyBestQuickFixesAt",
            json!([URI, 1, 1, 2, "reckless"]),
        ),
        (
            "rex.semanticLoopApplyBestQuickFixesAt",
            json!([URI, 1, 1, 2, "aggressive", "yes"]),
        ),
    ];
    for (command, args) in cases {
        match execute(&mut f.db, f.file, command, &args) {
            Err(CommandError::InvalidArguments(_)) => {}
            other => panic!("{command} {args}: {other:?}"),
        }
    }
    assert!(matches!(
        execute(&mut f.db, f.file, "rex.noSuchThing", &json!([URI, 0, 0])),
        Err(CommandError::UnknownCommand(_))
    ));
}

#[test]
fn positions_past_the_end_are_clamped_not_errors() {
    let mut f = fixture(PH_PROGRAM);
    for command in COMMANDS {
        let args = json!({"uri": URI, "line": 9999, "character": 9999, "id": "x"});
        assert!(
            execute(&mut f.db, f.file, command, &args).is_ok(),
            "{command}"
        );
    }
}

/// The contract of every command, on the pH program at its hole (the positional form was
/// shown above to give the same JSON).
#[test]
fn contract_snapshots() {
    for command in COMMANDS {
        let mut f = fixture(PH_PROGRAM);
        let mut args = json!({"uri": URI, "line": f.pos.line, "character": f.pos.character});
        if command.ends_with("ApplyQuickFixAt") {
            let step = execute(&mut f.db, f.file, "rex.semanticLoopStep", &args).expect("step");
            args["id"] = step["quickFixes"][0]["id"].clone();
        }
        if command.ends_with("ApplyBestQuickFixesAt") {
            args["strategy"] = json!("aggressive");
            args["dryRun"] = json!(true);
        }
        let out = execute(&mut f.db, f.file, command, &args).expect("answer");
        let name = command.trim_start_matches("rex.");
        insta::assert_snapshot!(name, serde_json::to_string_pretty(&out).expect("json"));
    }
}

//! The `rex.*` execute commands through the real server: the LLMS.md examples, bulk repair
//! with and without a dry run, code actions, and bad arguments.

use serde_json::{json, Value};

use crate::client::{position_of, Client};

const PH_URI: &str = "file:///project/ph.rex";

/// The pH program of LLMS.md (conformance LLMS__00).
const PH_PROGRAM: &str = r#"fn parse_ph : string -> Result f32 string = \raw ->
  if raw == "7.3" then Ok 7.3 else Err "bad reading"

fn classify_ph : f32 -> string = \ph ->
  if ph < 6.8 then "acidic"
  else if ph > 7.8 then "alkaline"
  else "stable"

fn qc_label_from_sensor : string -> Result string string = \raw ->
  match (parse_ph raw)
    when Ok ph -> Ok (classify_ph ph)
    when Err e -> Err e

let sensor_reading = "7.3" in
let qc_label : Result string string = ? in
qc_label
"#;

const MK_PROGRAM: &str = "fn mk : i32 -> string = \\n -> \"value\"
let x = 1 in
let y : string = ? in
y
";

const MISSPELLED: &str = "fn double : i32 -> i32 = \\n -> n * 2

let base = 7 in
doubel base
";

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

fn open(client: &mut Client, uri: &str, text: &str, version: i64) -> Value {
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "rex", "version": version, "text": text}}),
    );
    client.wait_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == uri && p["version"] == version
    })
}

fn replace_all(client: &mut Client, uri: &str, text: &str, version: i64) -> Value {
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
    );
    client.wait_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == uri && p["version"] == version
    })
}

fn error_count(published: &Value) -> usize {
    published["diagnostics"]
        .as_array()
        .map_or(0, |ds| ds.iter().filter(|d| d["severity"] == 1).count())
}

fn command(client: &mut Client, name: &str, arguments: Value) -> Result<Value, Value> {
    client.request(
        "workspace/executeCommand",
        json!({"command": name, "arguments": arguments}),
    )
}

fn replacements(step: &Value) -> Vec<String> {
    step["holeFillCandidates"]
        .as_array()
        .expect("holeFillCandidates")
        .iter()
        .filter_map(|c| c["replacement"].as_str().map(str::to_string))
        .collect()
}

/// Every candidate, written in place of the hole, leaves a program without errors.
fn every_fill_type_checks(client: &mut Client, uri: &str, text: &str, fills: &[String]) {
    let hole = text.find('?').expect("a hole");
    for (i, fill) in fills.iter().enumerate() {
        let filled = format!("{}{fill}{}", &text[..hole], &text[hole + 1..]);
        let published = replace_all(client, uri, &filled, 100 + i as i64);
        assert_eq!(
            error_count(&published),
            0,
            "`{fill}` does not check: {published}"
        );
    }
}

#[test]
fn ph_example_semantic_loop_step() {
    let (mut client, _) = Client::start();
    open(&mut client, PH_URI, PH_PROGRAM, 1);
    let hole = position_of(PH_PROGRAM, "= ?", 0, 2);
    let object_form = command(
        &mut client,
        "rex.semanticLoopStep",
        json!([{"uri": PH_URI, "line": hole["line"], "character": hole["character"]}]),
    )
    .expect("semanticLoopStep");
    let positional = command(
        &mut client,
        "rex.semanticLoopStep",
        json!([PH_URI, hole["line"], hole["character"]]),
    )
    .expect("semanticLoopStep, positional");
    assert_eq!(object_form, positional);
    let keys: Vec<&str> = object_form
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    for key in CONTRACT_KEYS {
        assert!(keys.contains(key), "missing `{key}` in {keys:?}");
    }
    assert_eq!(object_form["expectedType"], "Result string string");
    let fills = replacements(&object_form);
    assert_eq!(
        fills.first().map(String::as_str),
        Some("qc_label_from_sensor sensor_reading"),
        "{fills:?}"
    );
    every_fill_type_checks(&mut client, PH_URI, PH_PROGRAM, &fills);
    assert!(client.shutdown().success());
}

#[test]
fn mk_example_offers_mk_x_among_the_first_three() {
    let (mut client, _) = Client::start();
    let uri = "file:///project/mk.rex";
    open(&mut client, uri, MK_PROGRAM, 1);
    let hole = position_of(MK_PROGRAM, "= ?", 0, 2);
    let step = command(
        &mut client,
        "rex.semanticLoopStep",
        json!([uri, hole["line"], hole["character"]]),
    )
    .expect("semanticLoopStep");
    let fills = replacements(&step);
    assert!(
        fills.iter().take(3).any(|f| f == "mk x"),
        "`mk x` is not among the first three: {fills:?}"
    );
    every_fill_type_checks(&mut client, uri, MK_PROGRAM, &fills);
    assert!(client.shutdown().success());
}

#[test]
fn bulk_repair_dry_run_leaves_the_document_alone() {
    let (mut client, _) = Client::start();
    let uri = "file:///project/misspelled.rex";
    let published = open(&mut client, uri, MISSPELLED, 1);
    assert_eq!(error_count(&published), 1, "{published}");
    let at = position_of(MISSPELLED, "doubel", 0, 2);
    let dry = command(
        &mut client,
        "rex.semanticLoopApplyBestQuickFixesAt",
        json!([{"uri": uri, "line": at["line"], "character": at["character"], "dryRun": true}]),
    )
    .expect("bulk repair");
    assert_eq!(dry["dryRun"], true);
    let updated = dry["updatedText"].as_str().expect("updatedText");
    assert!(
        updated.contains("double base") && !updated.contains("doubel"),
        "{updated}"
    );
    assert!(client.applied_edits.is_empty(), "a dry run asked to edit");
    // The server's copy is unchanged: the misspelling is still reported there.
    let step = command(
        &mut client,
        "rex.semanticLoopStep",
        json!([uri, at["line"], at["character"]]),
    )
    .expect("step");
    assert!(
        step["localDiagnostics"].to_string().contains("doubel"),
        "{step}"
    );

    // Without a dry run the client is asked to apply the repaired text.
    let applied = command(
        &mut client,
        "rex.semanticLoopApplyBestQuickFixesAt",
        json!([uri, at["line"], at["character"], 5, "conservative", false]),
    )
    .expect("bulk repair");
    assert_eq!(applied["dryRun"], false);
    let edit = client.applied_edits.first().expect("an applyEdit request");
    assert_eq!(edit["changes"][uri][0]["newText"], applied["updatedText"]);
    assert!(client.shutdown().success());
}

#[test]
fn quick_fixes_as_code_actions_and_by_id() {
    let (mut client, _) = Client::start();
    let uri = "file:///project/fix.rex";
    open(&mut client, uri, MISSPELLED, 1);
    let at = position_of(MISSPELLED, "doubel", 0, 2);
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": {"start": at, "end": at},
                   "context": {"diagnostics": []}}),
        )
        .expect("code actions");
    let first = &actions[0];
    assert_eq!(first["kind"], "quickfix");
    assert_eq!(
        first["title"], "Replace `doubel` with `double`",
        "{actions}"
    );
    assert_eq!(first["edit"]["changes"][uri][0]["newText"], "double");

    let id = first["data"].as_str().expect("the fix id");
    let chosen = command(
        &mut client,
        "rex.semanticLoopApplyQuickFixAt",
        json!([uri, at["line"], at["character"], id]),
    )
    .expect("apply by id");
    assert_eq!(chosen["quickFix"]["id"], id);
    let edit = client.applied_edits.first().expect("an applyEdit request");
    assert_eq!(edit["changes"][uri][0]["newText"], "double");
    assert!(client.shutdown().success());
}

#[test]
fn bad_command_arguments_are_errors_not_crashes() {
    let (mut client, _) = Client::start();
    open(&mut client, PH_URI, PH_PROGRAM, 1);
    let bad = [
        ("rex.semanticLoopStep", json!([])),
        ("rex.semanticLoopStep", json!([PH_URI, "fourteen", 3])),
        (
            "rex.semanticLoopStep",
            json!([{"uri": PH_URI, "line": -1, "character": 0}]),
        ),
        (
            "rex.expectedTypeAt",
            json!([{"uri": "file:///not/open.rex", "line": 0, "character": 0}]),
        ),
        (
            "rex.semanticLoopApplyBestQuickFixesAt",
            json!([PH_URI, 0, 0, 3, "reckless"]),
        ),
        ("rex.holesExpectedTypes", json!([42])),
        ("rex.unknownCommand", json!([PH_URI])),
    ];
    for (name, arguments) in bad {
        let answer = command(&mut client, name, arguments.clone());
        let err = answer.expect_err(&format!("{name} {arguments} should fail"));
        assert!(err["code"].is_i64(), "{err}");
    }
    let holes =
        command(&mut client, "rex.holesExpectedTypes", json!([PH_URI])).expect("still serving");
    assert_eq!(holes["holes"][0]["expectedType"], "Result string string");
    assert!(client.shutdown().success());
}

#[test]
fn the_tutorial_needs_no_document_nor_position() {
    let (mut client, _) = Client::start();
    for arguments in [json!([]), json!([{"uri": "file:///never/opened.rex"}])] {
        let tutorial = command(&mut client, "rex.aiTutorial", arguments.clone())
            .unwrap_or_else(|e| panic!("rex.aiTutorial {arguments}: {e}"));
        let text = tutorial.as_str().expect("the tutorial is a string");
        assert_eq!(text, rex_ide::chatlsp::AI_TUTORIAL);
    }
    assert!(client.shutdown().success());
}

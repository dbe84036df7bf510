//! `rex.fillHoleWithModel` over LSP with the real model: the command returns the fills of
//! the hole (each type-checks; the pH hole's call among them), the code action is offered
//! on a hole when the initialization options configure a model, applying it asks the
//! client to write the best fill, and work-done progress is reported. Skipped with a line
//! where the model is not installed.

mod client;

use client::Client;
use rex_llm::model::find_model;
use serde_json::json;

const PH: &str = include_str!("../../examples/holes.rex");
const URI: &str = "file:///ph.rex";

#[test]
fn fill_hole_with_model_over_lsp() {
    if let Err(e) = find_model(None) {
        println!("skipped: model not installed ({e})");
        return;
    }
    let (mut c, init) = Client::start_with(json!({
        "processId": null, "rootUri": null, "capabilities": {},
        "initializationOptions": {"model": {"samples": 1, "maxTokens": 24}}
    }));
    let commands = &init["capabilities"]["executeCommandProvider"]["commands"];
    assert!(commands
        .as_array()
        .is_some_and(|a| a.contains(&json!("rex.fillHoleWithModel"))));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "rex", "version": 1, "text": PH}}),
    );
    let line = PH
        .lines()
        .position(|l| l.contains("= ?"))
        .expect("the hole's line");
    let character = PH.lines().nth(line).and_then(|l| l.find('?')).unwrap_or(0);
    let range = json!({"start": {"line": line, "character": character},
                       "end": {"line": line, "character": character}});
    let actions = c
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": URI}, "range": range, "context": {"diagnostics": []}}),
        )
        .expect("code actions");
    let fill_action = actions
        .as_array()
        .and_then(|a| a.iter().find(|x| x["title"] == "Fill hole with model"))
        .cloned()
        .expect("the model's code action is offered on the hole");
    let result = c
        .request(
            "workspace/executeCommand",
            json!({"command": "rex.fillHoleWithModel",
                   "arguments": [{"uri": URI, "line": line, "character": character}],
                   "workDoneToken": "fill-1"}),
        )
        .expect("the command answers");
    let fills: Vec<String> = result["fills"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|f| f["text"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let normal: Vec<String> = fills.iter().map(|f| f.replace(['(', ')'], "")).collect();
    assert!(
        normal
            .iter()
            .any(|f| f == "qc_label_from_sensor sensor_reading"),
        "{result}"
    );
    let progress = c.wait_notification("$/progress", |p| p["token"] == "fill-1");
    assert_eq!(progress["value"]["kind"], "begin");
    // The code action's command applies the best fill through the client.
    let command = &fill_action["command"];
    c.request(
        "workspace/executeCommand",
        json!({"command": command["command"], "arguments": command["arguments"]}),
    )
    .expect("the code action's command answers");
    assert!(!c.applied_edits.is_empty(), "the best fill is applied");
    // A position off any hole is an error, not a crash.
    let off = c.request(
        "workspace/executeCommand",
        json!({"command": "rex.fillHoleWithModel",
               "arguments": [{"uri": URI, "line": 0, "character": 0}]}),
    );
    assert!(off.is_err());
    assert!(c.shutdown().success());
}

//! `rex.fillHoleWithModel` over LSP with the real model: the command returns the fills of
//! the hole (each type-checks; the pH hole's call among them), the code action is offered
//! on a hole when the initialization options configure a model, applying it asks the
//! client to write the best fill, and work-done progress is reported. Skipped with a line
//! where the model is not installed. With the options naming a server (the remote engine)
//! that is down, the command is one clear error.

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
    let (line, character) = ph_hole();
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

/// The initialization options can point the command at a server instead (the remote
/// engine; `tests/cli/fill_remote.rs` runs it against a real one): a server that is not
/// running is one clear error naming its URL, and the language server goes on.
#[test]
fn a_model_server_that_is_down_is_a_clear_error_over_lsp() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let (mut c, _) = Client::start_with(json!({
        "processId": null, "rootUri": null, "capabilities": {},
        "initializationOptions": {"model": {"engine": "openai", "url": url,
                                            "name": "gemma-3-270m", "server": "llamacpp",
                                            "apiKey": "sk-lsp-test-secret"}}
    }));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "rex", "version": 1, "text": PH}}),
    );
    let (line, character) = ph_hole();
    let error = c
        .request(
            "workspace/executeCommand",
            json!({"command": "rex.fillHoleWithModel",
                   "arguments": [{"uri": URI, "line": line, "character": character}]}),
        )
        .expect_err("no server answers");
    let message = error["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("connection refused") && message.contains(&url),
        "{error}"
    );
    assert!(!error.to_string().contains("sk-lsp-test-secret"), "{error}");
    // The server still answers.
    c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character}}),
    )
    .expect("hover after the failed fill");
    assert!(c.shutdown().success());
}

/// The line and character of the pH program's hole.
fn ph_hole() -> (usize, usize) {
    let line = PH
        .lines()
        .position(|l| l.contains("= ?"))
        .expect("the hole's line");
    let character = PH.lines().nth(line).and_then(|l| l.find('?')).unwrap_or(0);
    (line, character)
}

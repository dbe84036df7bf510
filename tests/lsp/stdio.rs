//! `rex lsp` end to end: the real binary as a subprocess, spoken to over stdio.

mod client;
mod modules;
mod semantic_commands;

use client::{position_of, Client};
use serde_json::{json, Value};

const URI: &str = "file:///project/main.rex";

const PROGRAM: &str = "fn double : i32 -> i32 = \\n -> n * 2

fn describe : i32 -> string = \\n -> if n > 10 then \"big\" else \"small\"

let base = 7 in
let doubled = double base in
describe doubled
";

fn open(client: &mut Client, text: &str) -> Value {
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "rex", "version": 1, "text": text}}),
    );
    client.wait_notification("textDocument/publishDiagnostics", |p| p["uri"] == URI)
}

fn at(position: Value) -> Value {
    json!({"textDocument": {"uri": URI}, "position": position})
}

fn errors(diagnostics: &Value) -> Vec<String> {
    diagnostics["diagnostics"]
        .as_array()
        .expect("diagnostics array")
        .iter()
        .filter(|d| d["severity"] == 1)
        .map(|d| format!("{} {}", d["code"].as_str().unwrap_or("?"), d["message"]))
        .collect()
}

#[test]
fn initialize_advertises_capabilities_and_exit_is_clean() {
    let (client, init) = Client::start();
    let caps = &init["capabilities"];
    insta::assert_snapshot!(serde_json::to_string_pretty(caps).expect("json"));
    assert_eq!(init["serverInfo"]["name"], "rex");
    let status = client.shutdown();
    assert!(status.success(), "exit status {status:?}");
}

#[test]
fn diagnostics_are_published_on_open_and_after_every_change() {
    let (mut client, _) = Client::start();
    let broken = PROGRAM.replace("describe doubled", "descrbe doubled");
    let first = open(&mut client, &broken);
    assert_eq!(first["version"], 1);
    let errs = errors(&first);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].starts_with("E0201"), "{errs:?}");

    // Incremental: insert the missing `i` of `describe` in the last line.
    let fix_at = position_of(&broken, "descrbe doubled", 0, 5);
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": URI, "version": 2},
            "contentChanges": [{"range": {"start": fix_at, "end": fix_at}, "text": "i"}]
        }),
    );
    let second = client.wait_notification("textDocument/publishDiagnostics", |p| p["version"] == 2);
    assert_eq!(errors(&second), Vec::<String>::new());

    // Broken text still gets diagnostics, and an undamaged item keeps its types.
    let cut_from = position_of(PROGRAM, "let doubled", 0, 0);
    let cut_to = position_of(PROGRAM, "let doubled", 0, 11);
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": URI, "version": 3},
            "contentChanges": [{"range": {"start": cut_from, "end": cut_to}, "text": "let = ("}]
        }),
    );
    let third = client.wait_notification("textDocument/publishDiagnostics", |p| p["version"] == 3);
    assert!(!errors(&third).is_empty(), "{third}");
    let hover = client
        .request(
            "textDocument/hover",
            at(position_of(PROGRAM, "double :", 0, 1)),
        )
        .expect("hover");
    assert!(
        hover["contents"]["value"]
            .as_str()
            .is_some_and(|v| v.contains("double : i32 -> i32")),
        "{hover}"
    );

    // Whole-document replacement.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 4}, "contentChanges": [{"text": "let x : i32 = \"s\" in x"}]}),
    );
    let fourth = client.wait_notification("textDocument/publishDiagnostics", |p| p["version"] == 4);
    let errs = errors(&fourth);
    assert_eq!(errs.len(), 1, "{fourth}");
    assert!(errs[0].starts_with("E0301"), "{errs:?}");
    assert!(client.shutdown().success());
}

#[test]
fn hover_completion_signature_help_and_inlay_hints() {
    let (mut client, _) = Client::start();
    open(&mut client, PROGRAM);

    let hover = client
        .request(
            "textDocument/hover",
            at(position_of(PROGRAM, "doubled", 1, 2)),
        )
        .expect("hover");
    insta::assert_snapshot!("hover", serde_json::to_string_pretty(&hover).expect("json"));

    let completion = client
        .request(
            "textDocument/completion",
            at(position_of(PROGRAM, "describe doubled", 0, 9)),
        )
        .expect("completion");
    let labels: Vec<&str> = completion["items"]
        .as_array()
        .expect("items")
        .iter()
        .take(3)
        .filter_map(|i| i["label"].as_str())
        .collect();
    // `describe` wants an i32: the i32 locals come first, innermost first.
    assert_eq!(labels, ["doubled", "base", "double"], "{completion}");

    let help = client
        .request(
            "textDocument/signatureHelp",
            at(position_of(PROGRAM, "double base", 0, 7)),
        )
        .expect("signature help");
    assert_eq!(
        help["signatures"][0]["label"], "double : i32 -> i32",
        "{help}"
    );
    assert_eq!(help["activeParameter"], 0);

    let hints = client
        .request(
            "textDocument/inlayHint",
            json!({"textDocument": {"uri": URI}, "range": {
                "start": {"line": 0, "character": 0}, "end": {"line": 10, "character": 0}}}),
        )
        .expect("inlay hints");
    let labels: Vec<&str> = hints
        .as_array()
        .expect("hints")
        .iter()
        .filter_map(|h| h["label"].as_str())
        .collect();
    assert_eq!(labels, [": i32", ": i32"], "{hints}");
    assert!(client.shutdown().success());
}

#[test]
fn definition_references_rename_and_symbols() {
    let (mut client, _) = Client::start();
    open(&mut client, PROGRAM);

    let definition = client
        .request(
            "textDocument/definition",
            at(position_of(PROGRAM, "double base", 0, 2)),
        )
        .expect("definition");
    assert_eq!(definition["uri"], URI);
    assert_eq!(
        definition["range"]["start"],
        position_of(PROGRAM, "double :", 0, 0)
    );

    let mut params = at(position_of(PROGRAM, "base", 0, 1));
    params["context"] = json!({"includeDeclaration": true});
    let references = client
        .request("textDocument/references", params)
        .expect("references");
    assert_eq!(references.as_array().map(Vec::len), Some(2), "{references}");

    let mut params = at(position_of(PROGRAM, "doubled", 0, 0));
    params["newName"] = json!("twice");
    let rename = client
        .request("textDocument/rename", params)
        .expect("rename");
    assert_eq!(
        rename["changes"][URI].as_array().map(Vec::len),
        Some(2),
        "{rename}"
    );

    let prepared = client
        .request(
            "textDocument/prepareRename",
            at(position_of(PROGRAM, "doubled", 1, 3)),
        )
        .expect("prepare rename");
    assert_eq!(prepared["placeholder"], "doubled", "{prepared}");
    let declared = client.request(
        "textDocument/prepareRename",
        at(position_of(PROGRAM, "describe doubled", 0, 1)),
    );
    assert!(
        declared.is_ok(),
        "a top-level declaration of the file can be renamed"
    );

    let mut params = at(position_of(PROGRAM, "doubled", 0, 0));
    params["newName"] = json!("in");
    let refused = client.request("textDocument/rename", params);
    assert!(refused.is_err(), "{refused:?}");

    let symbols = client
        .request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": URI}}),
        )
        .expect("symbols");
    let names: Vec<&str> = symbols
        .as_array()
        .expect("symbols")
        .iter()
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert_eq!(names, ["double", "describe"]);
    assert!(client.shutdown().success());
}

#[test]
fn bad_requests_get_errors_and_the_server_survives() {
    let (mut client, _) = Client::start();
    open(&mut client, PROGRAM);
    let unknown = client.request(
        "workspace/executeCommand",
        json!({"command": "rex.noSuchCommand", "arguments": []}),
    );
    assert!(unknown.is_err(), "{unknown:?}");
    let far = client
        .request(
            "textDocument/hover",
            at(json!({"line": 9999, "character": 9999})),
        )
        .expect("a position past the end is answered");
    assert_eq!(far, Value::Null);
    let not_open = client
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": "file:///nowhere.rex"}, "position": {"line": 0, "character": 0}}),
        )
        .expect("hover on a closed document");
    assert_eq!(not_open, Value::Null);
    let malformed = client.request("textDocument/hover", json!({"textDocument": {"uri": URI}}));
    assert!(malformed.is_err(), "{malformed:?}");
    let still = client
        .request("textDocument/hover", at(position_of(PROGRAM, "base", 1, 0)))
        .expect("hover after errors");
    assert!(still["contents"]["value"]
        .as_str()
        .is_some_and(|v| v.contains("base : i32")));
    assert!(client.shutdown().success());
}

#[test]
fn malformed_messages_get_error_replies_and_the_session_goes_on() {
    let (mut client, _) = Client::start();
    open(&mut client, PROGRAM);
    let framed = |body: &str| format!("Content-Length: {}\r\n\r\n{body}", body.len());
    let cases: [(String, i64, Value); 5] = [
        (framed("{not json"), -32700, Value::Null),
        (
            framed(r#"{"jsonrpc":"2.0","id":"x","method":7}"#),
            -32600,
            json!("x"),
        ),
        (framed("[]"), -32600, Value::Null),
        ("X-Junk: 1\r\n\r\n".to_string(), -32700, Value::Null),
        (
            "Content-Length: many\r\n\r\n".to_string(),
            -32700,
            Value::Null,
        ),
    ];
    for (bytes, code, id) in cases {
        client.send_raw(bytes.as_bytes());
        let reply = client.next_response();
        assert_eq!(reply["error"]["code"], json!(code), "{bytes}: {reply}");
        assert_eq!(reply["id"], id, "{bytes}: {reply}");
    }
    // A notification whose parameters do not fit is dropped without a reply.
    client.send_raw(
        framed(r#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":3}"#).as_bytes(),
    );
    let still = client
        .request("textDocument/hover", at(position_of(PROGRAM, "base", 1, 0)))
        .expect("hover after malformed messages");
    assert!(still["contents"]["value"]
        .as_str()
        .is_some_and(|v| v.contains("base : i32")));
    assert!(client.shutdown().success());
}

#[test]
fn deeply_nested_text_is_answered_not_crashed() {
    let (mut client, _) = Client::start();
    let texts = [
        "(".repeat(100_000) + "1",
        "let x = 1 in\n".repeat(900) + "x",
        "\\x -> ".repeat(5_000) + "x",
    ];
    for (version, text) in texts.iter().enumerate() {
        let version = version as i64 + 1;
        client.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": URI, "languageId": "rex", "version": version, "text": text}}),
        );
        client.wait_notification("textDocument/publishDiagnostics", |p| {
            p["version"] == version
        });
        for method in [
            "textDocument/hover",
            "textDocument/completion",
            "textDocument/definition",
        ] {
            let answer = client.request(method, at(json!({"line": 5, "character": 4})));
            assert!(answer.is_ok(), "{method}: {answer:?}");
        }
    }
    assert!(client.shutdown().success());
}

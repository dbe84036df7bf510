//! `rex mcp` over its real transport, spoken here as plain JSON-RPC lines (no client
//! library): the handshake, the tool list and its schemas, the guide resource, the same
//! JSON as `rex ide`, writes only when asked, files followed on disk, bad input answered as
//! a tool error with its reason (the server alive afterwards), a slow run that does not
//! hold up other calls, and `fill_hole_with_model` with the installed model (skipped with a
//! line where it is not installed) and with a server that is down.

#[path = "../cli/support.rs"]
mod support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use rex_llm::model::find_model;
use serde_json::{json, Value};
use support::{stdout, TempDir};

const MISSPELLED: &str = "fn double : i32 -> i32 = \\n -> n * 2

let base = 7 in
doubel base
";

const NEVER_ENDS: &str = "fn spin : i32 -> i32 = \\n -> spin (n + 1)\nspin 0\n";

/// A `rex mcp` process and the messages it writes.
struct Server {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    /// The notifications received so far.
    notifications: Vec<Value>,
    next_id: u64,
}

impl Server {
    fn start(dir: &TempDir) -> Server {
        Server::start_with(dir, &["mcp", "--no-model"])
    }

    fn start_with(dir: &TempDir, args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rex"))
            .args(args)
            .current_dir(&dir.0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start rex mcp");
        let stdin = child.stdin.take().expect("stdin");
        let out = BufReader::new(child.stdout.take().expect("stdout"));
        let (tx, messages) = channel();
        std::thread::spawn(move || {
            for line in out.lines().map_while(Result::ok) {
                let message = serde_json::from_str(&line).expect("every line is JSON");
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        let mut server = Server {
            child,
            stdin,
            messages,
            notifications: Vec::new(),
            next_id: 0,
        };
        let init = server.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "rex-test", "version": "0"}
            }),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "rex", "{init}");
        server.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server
    }

    fn send(&mut self, message: Value) {
        writeln!(self.stdin, "{message}").expect("write to rex mcp");
        self.stdin.flush().expect("flush");
    }

    /// Sends a request and returns its id, without waiting.
    fn send_request(&mut self, method: &str, params: Value) -> u64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// The next response, whichever request it answers.
    fn next_response(&mut self) -> Value {
        loop {
            let message = self
                .messages
                .recv_timeout(Duration::from_secs(600))
                .expect("rex mcp answers within ten minutes");
            if message.get("id").is_some() {
                return message;
            }
            self.notifications.push(message);
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        let response = self.next_response();
        assert_eq!(response["id"], id, "{response}");
        response
    }

    /// A tool call's result (`content`, `structuredContent`, `isError`).
    fn call(&mut self, tool: &str, args: Value) -> Value {
        let response = self.request("tools/call", json!({"name": tool, "arguments": args}));
        response
            .get("result")
            .cloned()
            .unwrap_or_else(|| panic!("{tool}: {response}"))
    }

    /// The JSON of a call that must succeed.
    fn ok(&mut self, tool: &str, args: Value) -> Value {
        let result = self.call(tool, args.clone());
        assert_eq!(result["isError"], false, "{tool} {args}: {result}");
        let text = result["content"][0]["text"].as_str().expect("text content");
        serde_json::from_str(text).expect("the text is the JSON")
    }

    /// The message of a call that must be a tool error.
    fn tool_error(&mut self, tool: &str, args: Value) -> String {
        let result = self.call(tool, args.clone());
        assert_eq!(result["isError"], true, "{tool} {args}: {result}");
        result["content"][0]["text"]
            .as_str()
            .expect("text content")
            .to_string()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn position_of(text: &str, needle: &str) -> (u32, u32) {
    let offset = text.find(needle).expect("needle");
    let before = &text[..offset];
    let line = before.matches('\n').count() as u32;
    let character = before
        .rsplit('\n')
        .next()
        .unwrap_or("")
        .encode_utf16()
        .count() as u32;
    (line, character)
}

#[test]
fn tools_schemas_and_the_guide_are_listed() {
    let dir = TempDir::new("mcp-list");
    let mut server = Server::start(&dir);
    let tools = server.request("tools/list", json!({}));
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "check",
            "semantic_loop_step",
            "apply_quick_fix",
            "apply_best_quick_fixes",
            "hole_fill_candidates",
            "hole_context",
            "expected_type_at",
            "run"
        ]
    );
    for tool in tools["result"]["tools"].as_array().expect("tools") {
        let props = &tool["inputSchema"]["properties"];
        assert!(
            props["path"].is_object() && props["text"].is_object(),
            "{tool}"
        );
        let writes = props.get("write").is_some();
        assert_eq!(tool["annotations"]["readOnlyHint"], !writes, "{tool}");
    }
    let listed = server.request("resources/list", json!({}));
    let uri = listed["result"]["resources"][0]["uri"].clone();
    assert_eq!(uri, "rex://guide/writing-rex");
    let read = server.request("resources/read", json!({"uri": uri}));
    let text = read["result"]["contents"][0]["text"].as_str().unwrap_or("");
    assert!(text.contains("typed hole"), "{read}");
    let missing = server.request("resources/read", json!({"uri": "rex://nothing"}));
    assert!(missing["error"]["message"]
        .as_str()
        .unwrap_or("")
        .contains("no resource"));
}

#[test]
fn tools_return_what_rex_ide_prints() {
    let dir = TempDir::new("mcp-same");
    let file = dir.file("same.rex", MISSPELLED);
    let path = file.display().to_string();
    let (line, character) = position_of(MISSPELLED, "doubel");
    let mut server = Server::start(&dir);
    for (tool, command) in [
        ("semantic_loop_step", "semantic-loop-step"),
        ("hole_context", "hole-context"),
        ("expected_type_at", "expected-type-at"),
    ] {
        let from_mcp = server.ok(
            tool,
            json!({"path": path, "line": line, "character": character}),
        );
        let out = dir.rex(&[
            "ide",
            command,
            &path,
            &line.to_string(),
            &character.to_string(),
        ]);
        let from_cli: Value = serde_json::from_str(&stdout(&out)).expect("rex ide prints JSON");
        assert_eq!(from_mcp, from_cli, "{tool}");
    }
    let checked = server.ok("check", json!({"path": "same.rex"}));
    let out = dir.rex(&["check", "--json", "same.rex"]);
    let mut from_cli: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    // The server names files by their absolute path.
    from_cli["diagnostics"][0]["file"] = json!(path);
    assert_eq!(checked, from_cli);
}

#[test]
fn files_are_written_only_when_asked_and_read_again_when_changed() {
    let dir = TempDir::new("mcp-write");
    let file = dir.file("fix.rex", MISSPELLED);
    let path = file.display().to_string();
    let (line, character) = position_of(MISSPELLED, "doubel");
    let at = json!({"path": path, "line": line, "character": character});
    let mut server = Server::start(&dir);
    let step = server.ok("semantic_loop_step", at.clone());
    let id = step["quickFixes"][0]["id"].clone();
    let mut fix = at.clone();
    fix["id"] = id;
    let applied = server.ok("apply_quick_fix", fix.clone());
    assert!(applied["quickFix"]["edit"].is_object() && applied.get("written").is_none());
    let mut bulk = at.clone();
    bulk["dryRun"] = json!(true);
    bulk["write"] = json!(true);
    let predicted = server.ok("apply_best_quick_fixes", bulk);
    assert!(predicted["updatedText"]
        .as_str()
        .unwrap_or("")
        .contains("double base"));
    assert_eq!(std::fs::read_to_string(&file).expect("read"), MISSPELLED);

    fix["write"] = json!(true);
    let written = server.ok("apply_quick_fix", fix);
    assert_eq!(written["written"], json!(path));
    let fixed = std::fs::read_to_string(&file).expect("read");
    assert!(fixed.contains("double base"), "{fixed}");
    let clean = server.ok("check", json!({"path": path}));
    assert_eq!(clean["diagnostics"], json!([]));

    // Changed behind the server's back: the next call sees it.
    std::fs::write(&file, "1 + true\n").expect("write");
    let broken = server.ok("check", json!({"path": path}));
    assert_eq!(broken["diagnostics"][0]["severity"], "error", "{broken}");
    let ran = server.ok("run", json!({"text": "let y = 20 in y + 1"}));
    assert_eq!(ran["value"], "21i32");
    let missing_path = server.tool_error(
        "apply_best_quick_fixes",
        json!({"text": MISSPELLED, "line": line, "character": character, "write": true}),
    );
    assert!(
        missing_path.contains("`write` needs `path`"),
        "{missing_path}"
    );
}

#[test]
fn bad_input_is_a_tool_error_and_the_server_lives_on() {
    let dir = TempDir::new("mcp-bad");
    let mut server = Server::start(&dir);
    let cases = [
        (
            "check",
            json!({"path": "nope.rex"}),
            "cannot read `nope.rex`: No such file or directory",
        ),
        ("check", json!({"path": "."}), "it is not a regular file"),
        ("check", json!({}), "give `path` (a Rex file) or `text`"),
        ("check", json!({"text": 7}), "invalid arguments"),
        (
            "check",
            json!({"text": "1", "dryrun": true}),
            "unknown argument `dryrun`",
        ),
        (
            "semantic_loop_step",
            json!({"text": "1"}),
            "missing field `line`",
        ),
        (
            "semantic_loop_step",
            json!({"text": "1", "line": 1, "character": 0}),
            "line 1 is past the end",
        ),
        (
            "hole_context",
            json!({"text": "1", "line": 0, "character": 2}),
            "character 2 is past the end of line 0",
        ),
        (
            "expected_type_at",
            json!({"text": "1", "line": -3, "character": 0}),
            "invalid arguments",
        ),
        (
            "apply_quick_fix",
            json!({"text": "1", "line": 0, "character": 0, "id": "nope"}),
            "no quick fix with id `nope`",
        ),
        (
            "apply_best_quick_fixes",
            json!({"text": "1", "line": 0, "character": 0, "strategy": "reckless"}),
            "unknown variant `reckless`",
        ),
        (
            "run",
            json!({"text": "1", "timeoutSeconds": 0}),
            "`timeoutSeconds` must be above 0",
        ),
        (
            "run",
            json!({"text": "1", "gas": 0}),
            "`gas` must be at least 1",
        ),
        (
            "run",
            json!({"text": NEVER_ENDS, "gas": 100000}),
            "ran out of gas after 100000 steps",
        ),
        (
            "run",
            json!({"text": "let x = 10 in x % 0"}),
            "division by zero",
        ),
    ];
    for (tool, args, expected) in cases {
        let message = server.tool_error(tool, args.clone());
        assert!(message.contains(expected), "{tool} {args}: {message}");
    }
    let unknown = server.request(
        "tools/call",
        json!({"name": "fill_hole_with_model", "arguments": {}}),
    );
    assert!(
        unknown["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("unknown tool"),
        "{unknown}"
    );
    let fine = server.ok("run", json!({"text": "map (\\x -> x + 1) [1, 2]"}));
    assert_eq!(fine["value"], "[2i32, 3i32]");
}

#[test]
fn a_slow_run_does_not_hold_up_other_calls() {
    let dir = TempDir::new("mcp-slow");
    let mut server = Server::start(&dir);
    let run = server.send_request(
        "tools/call",
        json!({"name": "run", "arguments": {"text": NEVER_ENDS, "gas": 1_000_000_000_000_000u64, "timeoutSeconds": 5}}),
    );
    std::thread::sleep(Duration::from_millis(300));
    let check = server.send_request(
        "tools/call",
        json!({"name": "check", "arguments": {"text": MISSPELLED}}),
    );
    let first = server.next_response();
    assert_eq!(first["id"], check, "check waited for the run: {first}");
    let second = server.next_response();
    assert_eq!(second["id"], run);
    assert_eq!(second["result"]["isError"], true, "{second}");
    let text = second["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or("");
    assert!(text.contains("stopped after 5 s"), "{text}");
}

const PH: &str = include_str!("../../examples/holes.rex");

#[test]
fn fill_hole_with_model_fills_the_ph_hole_with_progress() {
    if let Err(e) = find_model(None) {
        println!("skipped: model not installed ({e})");
        return;
    }
    let dir = TempDir::new("mcp-fill");
    let file = dir.file("ph.rex", PH);
    let path = file.display().to_string();
    let args = ["mcp", "--samples", "1", "--max-tokens", "24"];
    let mut server = Server::start_with(&dir, &args);
    let tools = server.request("tools/list", json!({}));
    let offered = tools["result"]["tools"].as_array().expect("tools");
    assert!(offered.iter().any(|t| t["name"] == "fill_hole_with_model"));
    let (line, character) = position_of(PH, "= ?");
    let call = json!({
        "name": "fill_hole_with_model",
        "arguments": {"path": path, "line": line, "character": character + 2, "write": true},
        "_meta": {"progressToken": "fill-1"}
    });
    let response = server.request("tools/call", call);
    let result = &response["result"];
    assert_eq!(result["isError"], false, "{response}");
    let fills = &result["structuredContent"]["fills"];
    let texts: Vec<String> = fills
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|f| f["text"].as_str())
                .map(|t| t.replace(['(', ')'], ""))
                .collect()
        })
        .unwrap_or_default();
    assert!(
        texts
            .iter()
            .any(|t| t == "qc_label_from_sensor sensor_reading"),
        "{response}"
    );
    assert_eq!(result["structuredContent"]["written"], json!(path));
    let checked = server.ok("check", json!({"path": path}));
    assert_eq!(checked["holes"], json!([]), "{checked}");
    assert!(
        checked["diagnostics"]
            .as_array()
            .is_some_and(|d| d.iter().all(|d| d["severity"] != "error")),
        "{checked}"
    );
    assert!(
        server
            .notifications
            .iter()
            .any(|n| n["method"] == "notifications/progress"
                && n["params"]["progressToken"] == "fill-1"),
        "no progress: {:?}",
        server.notifications
    );
}

#[test]
fn fill_hole_with_model_names_a_server_that_is_down() {
    let dir = TempDir::new("mcp-fill-down");
    let args = [
        "mcp",
        "--engine",
        "openai",
        "--url",
        "http://127.0.0.1:9",
        "--model",
        "m",
        "--timeout",
        "5",
    ];
    let mut server = Server::start_with(&dir, &args);
    let (line, character) = position_of(PH, "= ?");
    let message = server.tool_error(
        "fill_hole_with_model",
        json!({"text": PH, "line": line, "character": character + 2}),
    );
    assert!(message.contains("127.0.0.1:9"), "{message}");
}

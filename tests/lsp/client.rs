//! A small JSON-RPC client that drives the real `rex lsp` binary over stdio, the way an
//! editor does: `Content-Length` framing, requests with ids, notifications, and answers
//! to the server's own requests (`workspace/applyEdit` is recorded and accepted).

#![allow(dead_code)]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

use serde_json::{json, Value};

/// How long to wait for one message before calling the server hung.
const PATIENCE: Duration = Duration::from_secs(180);

pub struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications not consumed yet, oldest first.
    notifications: VecDeque<Value>,
    /// Every `workspace/applyEdit` the server asked for (its `edit` parameter).
    pub applied_edits: Vec<Value>,
    /// Every request the server sent (method and parameters), in order.
    pub server_requests: Vec<(String, Value)>,
}

impl Client {
    /// Starts `rex lsp` and performs the `initialize` handshake; returns the client and the
    /// `initialize` result.
    pub fn start() -> (Client, Value) {
        Client::start_with(json!({"processId": null, "rootUri": null, "capabilities": {}}))
    }

    /// `start` with these `initialize` parameters.
    pub fn start_with(initialize: Value) -> (Client, Value) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rex"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start rex lsp");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(msg) = read_message(&mut reader) {
                if tx.send(msg).is_err() {
                    return;
                }
            }
        });
        let mut client = Client {
            child,
            stdin,
            incoming,
            next_id: 0,
            notifications: VecDeque::new(),
            applied_edits: Vec::new(),
            server_requests: Vec::new(),
        };
        let init = client
            .request("initialize", initialize)
            .expect("initialize succeeds");
        client.notify("initialized", json!({}));
        (client, init)
    }

    fn send(&mut self, msg: &Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    /// Writes `bytes` to the server as they are (for malformed input).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("write");
        self.stdin.flush().expect("flush");
    }

    /// The next response, whatever its id.
    pub fn next_response(&mut self) -> Value {
        loop {
            if let Some(msg) = self.receive() {
                return msg;
            }
        }
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and waits for its response: `Ok(result)` or `Err(error object)`.
    pub fn request(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let Some(msg) = self.receive() else {
                continue;
            };
            if msg.get("id") == Some(&json!(id)) {
                return match msg.get("error") {
                    Some(e) => Err(e.clone()),
                    None => Ok(msg.get("result").cloned().unwrap_or(Value::Null)),
                };
            }
        }
    }

    /// The next notification `method` for which `keep` holds (earlier ones are dropped).
    pub fn wait_notification(&mut self, method: &str, keep: impl Fn(&Value) -> bool) -> Value {
        loop {
            while let Some(n) = self.notifications.pop_front() {
                if n["method"] == method && keep(&n["params"]) {
                    return n["params"].clone();
                }
            }
            if let Some(msg) = self.receive() {
                panic!("unexpected response while waiting for {method}: {msg}");
            }
        }
    }

    /// Receives one message: a response is returned; a notification is queued and a
    /// server request answered, and then `None` is returned.
    fn receive(&mut self) -> Option<Value> {
        let msg = match self.incoming.recv_timeout(PATIENCE) {
            Ok(m) => m,
            Err(RecvTimeoutError::Timeout) => panic!("rex lsp sent nothing for {PATIENCE:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("rex lsp closed its output"),
        };
        match (msg.get("id"), msg.get("method")) {
            (Some(id), Some(method)) => {
                let method_name = method.as_str().unwrap_or_default().to_string();
                self.server_requests
                    .push((method_name, msg["params"].clone()));
                let result = if method == "workspace/applyEdit" {
                    self.applied_edits.push(msg["params"]["edit"].clone());
                    json!({"applied": true})
                } else {
                    Value::Null
                };
                let reply = json!({"jsonrpc": "2.0", "id": id.clone(), "result": result});
                self.send(&reply);
                None
            }
            (None, Some(_)) => {
                self.notifications.push_back(msg);
                None
            }
            _ => Some(msg),
        }
    }

    /// `shutdown`, `exit`, and the server's exit status.
    pub fn shutdown(mut self) -> std::process::ExitStatus {
        self.request("shutdown", Value::Null)
            .expect("shutdown succeeds");
        self.notify("exit", Value::Null);
        self.child.wait().expect("rex lsp exits")
    }
}

fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length:") {
            length = v.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// The 0-based LSP position of the `nth` occurrence of `needle` in `text`, moved `delta`
/// characters to the right (ASCII text).
pub fn position_of(text: &str, needle: &str, nth: usize, delta: usize) -> Value {
    let offset = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("`{needle}` occurs {} times", nth + 1))
        .0
        + delta;
    let line = text[..offset].matches('\n').count();
    let character = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": character})
}

//! The server's document loop without the transport: a sequence of opens, incremental
//! changes (ranges anywhere, even out of the text) and requests, with JSON arguments taken
//! from the input whether well-formed or not. Every request gets an answer or a JSON-RPC
//! error, never an internal error or a panic; a command never changes the document.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rex_lsp::commands::{code_actions, execute, COMMANDS};
use rex_lsp::workspace::Workspace;
use serde_json::Value;
use tower_lsp_server::jsonrpc::ErrorCode;
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent, Uri};

const URI: &str = "file:///fuzz.rex";

fuzz_target!(|data: &[u8]| {
    let mut ws = Workspace::new();
    let uri: Uri = URI.parse().expect("a valid uri");
    let mut version = 0;
    // Operations are separated by 0xFF; the first byte of each says what it is.
    for op in data.split(|b| *b == 0xFF) {
        let Some((&kind, rest)) = op.split_first() else {
            continue;
        };
        let text = String::from_utf8_lossy(rest).into_owned();
        version += 1;
        match kind % 4 {
            0 => {
                ws.open(URI, text, version);
            }
            1 => {
                let n = |i: usize| u32::from(*rest.get(i).unwrap_or(&0) % 16);
                let range = Range {
                    start: Position::new(n(0), n(1)),
                    end: Position::new(n(0) + n(2) % 2, n(3)),
                };
                let change = TextDocumentContentChangeEvent {
                    range: Some(range),
                    range_length: None,
                    text: text.chars().skip(4).collect(),
                };
                ws.change(URI, version, vec![change]);
            }
            2 => {
                let before = ws.document(URI).map(|d| ws.text(d).to_string());
                let command = COMMANDS[rest.first().map_or(0, |b| *b as usize) % COMMANDS.len()];
                // Arguments: whatever JSON the rest reads as, or positional numbers.
                let args = match serde_json::from_slice::<Value>(rest.get(1..).unwrap_or(&[])) {
                    Ok(Value::Array(items)) => items,
                    Ok(v) => vec![v],
                    Err(_) => {
                        let n = |i: usize| u64::from(*rest.get(i).unwrap_or(&0) % 32);
                        vec![Value::from(URI), Value::from(n(1)), Value::from(n(2))]
                    }
                };
                if let Err(e) = execute(&mut ws, command, args) {
                    assert_ne!(e.code, ErrorCode::InternalError, "{command}: {e:?}");
                }
                let after = ws.document(URI).map(|d| ws.text(d).to_string());
                assert_eq!(before, after, "{command} changed the document");
            }
            _ => {
                let n = |i: usize| u32::from(*rest.get(i).unwrap_or(&0) % 32);
                let range = Range {
                    start: Position::new(n(0), n(1)),
                    end: Position::new(n(0), n(2)),
                };
                if let Err(e) = code_actions(&ws, &uri, range) {
                    assert_ne!(e.code, ErrorCode::InternalError, "code actions: {e:?}");
                }
            }
        }
    }
});

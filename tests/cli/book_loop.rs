//! The semantic loop chapter's samples are what the binary answers: each ```json block that
//! holds a command's `{"command", "arguments"}` is replayed with `rex ide` on the chapter's
//! programs (the snippets marked `as=NAME.rex`), and the ```json block after it must equal
//! the JSON printed (`rex ide` prints exactly the `result` of the LSP command). The chapter
//! shows the files as `file:///home/me/NAME.rex`; here they live in a scratch directory.

#[path = "../book/snippets.rs"]
mod snippets;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const CHAPTER: &str = "book/src/semantic-loop.md";
const SHOWN_DIR: &str = "file:///home/me/";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `rex.semanticLoopStep` -> `semantic-loop-step`.
fn kebab(command: &str) -> String {
    let name = command.trim_start_matches("rex.");
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// The arguments as one object, whichever form the sample uses.
fn object_form(arguments: &Value) -> serde_json::Map<String, Value> {
    match &arguments[0] {
        Value::Object(map) => map.clone(),
        _ => ["uri", "line", "character"]
            .iter()
            .zip(arguments.as_array().into_iter().flatten())
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    }
}

/// The JSON `rex ide` prints for the sample's command, run in `dir`; `None` when it exits
/// with status 2 (arguments it refuses).
fn replay(dir: &Path, request: &Value) -> Option<Value> {
    let command = request["command"].as_str().expect("a command name");
    let mut args = object_form(&request["arguments"]);
    let uri = args
        .remove("uri")
        .and_then(|u| u.as_str().map(str::to_string));
    let file = uri
        .as_deref()
        .and_then(|u| u.strip_prefix(SHOWN_DIR))
        .expect("the sample's uri names a file of /home/me/");
    let mut cli = Command::new(env!("CARGO_BIN_EXE_rex"));
    cli.current_dir(dir)
        .args(["ide", &kebab(command), file])
        .env("NO_COLOR", "1");
    for key in ["line", "character"] {
        match args.remove(key) {
            Some(Value::Number(n)) => {
                cli.arg(n.to_string());
            }
            Some(other) => {
                cli.arg(other.to_string());
            }
            None => {}
        }
    }
    if !args.is_empty() {
        cli.args(["--args", &Value::Object(args).to_string()]);
    }
    let out = cli.output().expect("run rex ide");
    if out.status.code() == Some(2) {
        return None;
    }
    assert_eq!(
        out.status.code(),
        Some(0),
        "{command}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).expect("rex ide prints JSON"))
}

#[test]
fn semantic_loop_samples_are_what_rex_answers() {
    let chapter = std::fs::read_to_string(repo().join(CHAPTER)).expect("the chapter");
    let dir = std::env::temp_dir().join(format!("rex-book-loop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let programs: Vec<_> = snippets::snippets(&chapter)
        .expect("the chapter's snippets")
        .into_iter()
        .filter_map(|s| s.name.map(|name| (name, s.body)))
        .collect();
    assert!(programs.len() >= 4, "programs named with as=: {programs:?}");
    for (name, body) in &programs {
        std::fs::write(dir.join(name), body).expect("write program");
    }
    let actual_dir = format!("file://{}/", dir.display());

    let fences = snippets::fences(&chapter);
    let mut replayed = 0;
    for (i, fence) in fences.iter().enumerate() {
        let Ok(request) = serde_json::from_str::<Value>(&fence.body) else {
            continue;
        };
        if request.get("command").is_none() || request.get("arguments").is_none() {
            continue;
        }
        let shown = fences.get(i + 1).expect("a reply after each request");
        let shown: Value = serde_json::from_str(&shown.body.replace(SHOWN_DIR, &actual_dir))
            .unwrap_or_else(|e| panic!("line {}: the reply is not JSON: {e}", fence.line));
        match replay(&dir, &request) {
            Some(actual) => assert_eq!(actual, shown, "{CHAPTER}:{}", fence.line),
            // Refused arguments: the chapter shows the JSON-RPC error the server sends.
            None => assert_eq!(shown["code"], -32602, "{CHAPTER}:{}", fence.line),
        }
        replayed += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(replayed >= 10, "replayed {replayed} samples");
}

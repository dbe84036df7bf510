//! `rex ide`: the semantic-assist commands from the command line print exactly what the
//! language server's execute command returns for the same document.

mod client;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use client::{position_of, Client};
use serde_json::{json, Value};

const PROGRAM: &str = "fn double : i32 -> i32 = \\n -> n * 2

let base = 7 in
let answer : i32 = ? in
doubel answer
";

/// A file in a fresh temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> TempFile {
        let dir = std::env::temp_dir().join(format!("rex-ide-cli-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        TempFile(std::fs::canonicalize(&path).expect("canonical path"))
    }

    fn uri(&self) -> String {
        format!("file://{}", self.0.display())
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

fn rex_ide(args: &[&str], file: &Path) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rex"));
    cmd.arg("ide").arg(args[0]).arg(file).args(&args[1..]);
    cmd.output().expect("run rex ide")
}

fn json_of(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "rex ide failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("rex ide prints JSON")
}

#[test]
fn prints_what_the_language_server_returns() {
    let file = TempFile::new("same.rex", PROGRAM);
    let hole = position_of(PROGRAM, "= ?", 0, 2);
    let misspelled = position_of(PROGRAM, "doubel", 0, 1);
    let (line, character) = (hole["line"].to_string(), hole["character"].to_string());
    let (mline, mchar) = (
        misspelled["line"].to_string(),
        misspelled["character"].to_string(),
    );

    let (mut server, _) = Client::start();
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": file.uri(), "languageId": "rex", "version": 1, "text": PROGRAM}}),
    );
    let mut via_lsp = |command: &str, arguments: Value| {
        server
            .request(
                "workspace/executeCommand",
                json!({"command": command, "arguments": arguments}),
            )
            .expect("execute command")
    };
    let cases: Vec<(Vec<&str>, &str, Value)> = vec![
        (
            vec!["semantic-loop-step", &line, &character],
            "rex.semanticLoopStep",
            json!([file.uri(), hole["line"], hole["character"]]),
        ),
        (
            vec!["expected-type-at", &line, &character],
            "rex.expectedTypeAt",
            json!([file.uri(), hole["line"], hole["character"]]),
        ),
        (
            vec!["holes-expected-types"],
            "rex.holesExpectedTypes",
            json!([file.uri()]),
        ),
        (
            vec![
                "semantic-loop-apply-best-quick-fixes-at",
                &mline,
                &mchar,
                "--args",
                r#"{"dryRun": true, "maxSteps": 3}"#,
            ],
            "rex.semanticLoopApplyBestQuickFixesAt",
            json!([{"uri": file.uri(), "line": misspelled["line"], "character": misspelled["character"], "dryRun": true, "maxSteps": 3}]),
        ),
    ];
    for (cli_args, lsp_command, lsp_args) in cases {
        let from_cli = json_of(&rex_ide(&cli_args, &file.0));
        let from_lsp = via_lsp(lsp_command, lsp_args);
        assert_eq!(from_cli, from_lsp, "{lsp_command}");
    }
    assert_eq!(
        json_of(&rex_ide(&["expected-type-at", &line, &character], &file.0))["expectedType"],
        "i32"
    );
    assert!(server.shutdown().success());
}

#[test]
fn write_applies_a_bulk_repair_to_the_file() {
    let file = TempFile::new("write.rex", PROGRAM);
    let at = position_of(PROGRAM, "doubel", 0, 1);
    let (line, character) = (at["line"].to_string(), at["character"].to_string());
    let dry = rex_ide(
        &[
            "semantic-loop-apply-best-quick-fixes-at",
            &line,
            &character,
            "--args",
            r#"{"dryRun": true}"#,
            "--write",
        ],
        &file.0,
    );
    json_of(&dry);
    assert_eq!(std::fs::read_to_string(&file.0).expect("read"), PROGRAM);
    let out = rex_ide(
        &[
            "semantic-loop-apply-best-quick-fixes-at",
            &line,
            &character,
            "--write",
        ],
        &file.0,
    );
    let result = json_of(&out);
    let written = std::fs::read_to_string(&file.0).expect("read");
    assert_eq!(
        written,
        result["updatedText"].as_str().expect("updatedText")
    );
    assert!(written.contains("double answer"), "{written}");
}

#[test]
fn usage_errors_exit_2() {
    let file = TempFile::new("usage.rex", PROGRAM);
    let bad: [&[&str]; 4] = [
        &["semantic-loop-step", "3"],
        &["semantic-loop-step", "3", "x"],
        &["semantic-loop-step", "3", "1", "--args", "[1]"],
        &["semantic-loop-apply-quick-fix-at", "3", "1"],
    ];
    for args in bad {
        let out = rex_ide(args, &file.0);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.stderr.is_empty());
    }
    let missing = rex_ide(
        &["semantic-loop-step", "0", "0"],
        Path::new("/nonexistent/x.rex"),
    );
    assert_eq!(missing.status.code(), Some(2));
}

/// Fenced blocks of a Markdown text as (info string, body).
fn fences(markdown: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in markdown.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => open = Some((info.trim().to_string(), String::new())),
            (Some(_), Some(rest)) if rest.trim().is_empty() => blocks.extend(open.take()),
            (Some((_, body)), _) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    blocks
}

#[test]
fn editors_chapter_samples_are_real() {
    let chapter_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/src/editors.md");
    let chapter = std::fs::read_to_string(chapter_path).expect("book/src/editors.md");
    let blocks = fences(&chapter);
    let at = blocks
        .iter()
        .position(|(info, _)| info == "rex")
        .expect("the pH program");
    let program = &blocks[at].1;
    // The `rex ide` samples: the JSON blocks after the program (the editor configurations
    // before it are tested with the server, in `modules.rs`).
    let samples: Vec<Value> = blocks[at..]
        .iter()
        .filter(|(info, _)| info == "json")
        .map(|(_, body)| serde_json::from_str(body).expect("a JSON sample"))
        .collect();
    let file = TempFile::new("ph.rex", program);
    let hole = position_of(program, "= ?", 0, 2);
    assert_eq!(
        hole,
        json!({"line": 14, "character": 38}),
        "the chapter's position"
    );
    let expected = json_of(&rex_ide(&["expected-type-at", "14", "38"], &file.0));
    assert_eq!(expected, samples[0]);
    let holes = json_of(&rex_ide(&["holes-expected-types"], &file.0));
    assert_eq!(holes, samples[1]);
    let step = json_of(&rex_ide(&["semantic-loop-step", "14", "38"], &file.0));
    assert_eq!(
        step["functionsCompatibleWithInScopeValues"][0],
        "qc_label_from_sensor sensor_reading"
    );
}

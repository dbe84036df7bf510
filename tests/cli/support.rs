//! A temporary directory of Rex files and running the real `rex` binary in it.

// Each test binary that includes this module uses a part of it.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "rex-cli-{tag}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(name);
        std::fs::create_dir_all(&path).expect("create temp dir");
        TempDir(path)
    }

    pub fn file(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create parent dirs");
        }
        std::fs::write(&path, text).expect("write temp file");
        path
    }

    /// Runs `rex ARGS...` with this directory as the working directory.
    pub fn rex(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_rex"))
            .current_dir(&self.0)
            .args(args)
            .output()
            .expect("run rex")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `rex ARGS...` from the current directory, without colour.
pub fn rex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rex"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run rex")
}

/// Runs `rex run EXTRA... -c CODE`.
pub fn run_code(code: &str, extra: &[&str]) -> Output {
    let mut args = vec!["run"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["-c", code]);
    rex(&args)
}

/// Runs `code`, expects exit 0 and returns the printed value (one line).
pub fn value(code: &str) -> String {
    let o = run_code(code, &[]);
    assert_eq!(o.status.code(), Some(0), "{code}\nstderr: {}", stderr(&o));
    stdout(&o).trim_end().to_string()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The fills of the first hole of a `rex fill --json` `report` on `text`, each written into
/// the hole's range (in brackets) and checked with `rex check`: a fill that does not
/// type-check fails the test.
pub fn fills_checked_in(
    dir: &TempDir,
    text: &str,
    report: &serde_json::Value,
) -> Vec<serde_json::Value> {
    let hole = &report["holes"][0];
    let (start, end) = (&hole["range"]["start"], &hole["range"]["end"]);
    let (line, from, to) = (
        start["line"].as_u64().unwrap_or(0) as usize,
        start["character"].as_u64().unwrap_or(0) as usize,
        end["character"].as_u64().unwrap_or(0) as usize,
    );
    let fills = hole["fills"].as_array().cloned().unwrap_or_default();
    for f in &fills {
        let fill = f["text"].as_str().unwrap_or_default();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines[line].replace_range(from..to, &format!("({fill})"));
        let filled = dir.file("filled.rex", &(lines.join("\n") + "\n"));
        let check = dir.rex(&["check", &filled.display().to_string()]);
        assert!(
            check.status.success(),
            "the fill `{fill}` does not type-check:\n{}",
            stderr(&check)
        );
    }
    fills
}

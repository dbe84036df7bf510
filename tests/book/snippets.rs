//! The book's Rex snippets and how each is checked through the real `rex` binary. Shared by
//! the CI runner (`rex-book`, `tests/book/main.rs`) and the `docs` test of the `rex` package.
//!
//! A fenced block whose info string starts with `rex` is a snippet; what follows the comma
//! says how it is checked (the list is in `book/README.md`):
//!
//! * `rex`: `rex run` exits 0; when the next fenced block is an `output` block, what the
//!   program prints equals it exactly.
//! * `rex,holes`: the same with `rex run --holes`.
//! * `rex,check-only`: `rex check` finds no error (fragments without a result expression).
//! * `rex,fails=CODE`: `rex check` exits 1 and reports `CODE`; a following `output` block is
//!   what it prints on stderr (`--color never`).
//! * `rex,reports=CODE`: `rex check` exits 0 and reports `CODE` (warnings and hole reports);
//!   a following `output` block is compared as for `fails`.
//! * `rex,file=NAME.rex`: a module that the chapter's later snippets import, written as
//!   `NAME.rex` beside them; `rex check` finds no error in it.
//!
//! Any of them may add `as=NAME.rex`, a name by which other tests find the program (the
//! semantic loop chapter's JSON samples are replayed against the programs so named).
//! Each chapter's snippets run in order in one scratch directory, as `example.rex`.

// Each test binary that includes this module uses a part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// What a snippet's fence asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Run { holes: bool },
    CheckOnly,
    Fails(String),
    Reports(String),
    File(String),
}

#[derive(Clone, Debug)]
pub struct Snippet {
    /// 1-based line of the opening fence.
    pub line: usize,
    pub kind: Kind,
    pub body: String,
    /// The `output` block right after the snippet, if there is one.
    pub output: Option<String>,
    /// The `as=NAME.rex` of its fence.
    pub name: Option<String>,
}

/// The file every snippet is written to in its chapter's scratch directory.
pub const SNIPPET_FILE: &str = "example.rex";

/// A fenced block: the line of its opening fence (1-based), its info string and its text.
pub struct Fence {
    pub line: usize,
    pub info: String,
    pub body: String,
}

pub fn fences(markdown: &str) -> Vec<Fence> {
    let mut blocks = Vec::new();
    let mut open: Option<Fence> = None;
    for (index, line) in markdown.lines().enumerate() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => {
                open = Some(Fence {
                    line: index + 1,
                    info: info.trim().to_string(),
                    body: String::new(),
                })
            }
            (Some(_), Some(rest)) if rest.trim().is_empty() => blocks.extend(open.take()),
            (Some(fence), _) => {
                fence.body.push_str(line);
                fence.body.push('\n');
            }
            (None, None) => {}
        }
    }
    blocks
}

/// A `.rex` file name that stays inside the scratch directory.
fn file_name(name: &str) -> Result<String, String> {
    let plain = name.ends_with(".rex")
        && name != SNIPPET_FILE
        && !name.starts_with(['.', '/'])
        && !name.contains("..");
    if plain {
        Ok(name.to_string())
    } else {
        Err(format!("`{name}` is not a plain .rex file name"))
    }
}

fn code(text: &str) -> Result<String, String> {
    let valid = text.len() == 5
        && text.starts_with(['E', 'W', 'I'])
        && text[1..].chars().all(|c| c.is_ascii_digit());
    valid
        .then(|| text.to_string())
        .ok_or_else(|| format!("`{text}` is not a diagnostic code"))
}

/// The kind and the `as=` name of a `rex` fence; `None` for other languages.
fn kind(info: &str) -> Option<Result<(Kind, Option<String>), String>> {
    let mut parts = info.split(',').map(str::trim);
    if parts.next() != Some("rex") {
        return None;
    }
    let mut kind = None;
    let mut name = None;
    let mut set = |k: Kind| match kind.replace(k) {
        None => Ok(()),
        Some(_) => Err(format!("more than one check in `{info}`")),
    };
    for part in parts {
        let step = match part.split_once('=') {
            None if part == "holes" => set(Kind::Run { holes: true }),
            None if part == "check-only" => set(Kind::CheckOnly),
            Some(("fails", c)) => code(c).and_then(|c| set(Kind::Fails(c))),
            Some(("reports", c)) => code(c).and_then(|c| set(Kind::Reports(c))),
            Some(("file", f)) => file_name(f).and_then(|f| set(Kind::File(f))),
            Some(("as", n)) => file_name(n).map(|n| name = Some(n)),
            _ => Err(format!("unknown snippet marker `{part}` in `{info}`")),
        };
        if let Err(e) = step {
            return Some(Err(e));
        }
    }
    Some(Ok((kind.unwrap_or(Kind::Run { holes: false }), name)))
}

/// The snippets of one chapter, in order; `Err` names a fence with an unknown marker.
pub fn snippets(markdown: &str) -> Result<Vec<Snippet>, String> {
    let blocks = fences(markdown);
    let mut found = Vec::new();
    for (i, fence) in blocks.iter().enumerate() {
        let Some(kind) = kind(&fence.info) else {
            continue;
        };
        let (kind, name) = kind.map_err(|e| format!("line {}: {e}", fence.line))?;
        let output = blocks
            .get(i + 1)
            .filter(|next| next.info == "output")
            .map(|next| next.body.clone());
        found.push(Snippet {
            line: fence.line,
            kind,
            body: fence.body.clone(),
            output,
            name,
        });
    }
    Ok(found)
}

fn rex(rex: &Path, dir: &Path, args: &[&str]) -> Result<Output, String> {
    Command::new(rex)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .map_err(|e| format!("cannot run `{}`: {e}", rex.display()))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn codes(output: &Output) -> Result<Vec<String>, String> {
    let report: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("`rex check --json` printed no JSON ({e})"))?;
    Ok(report["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["code"].as_str().map(str::to_string))
        .collect())
}

fn same(what: &str, expected: &str, actual: &str) -> Result<(), String> {
    if expected == actual {
        Ok(())
    } else {
        Err(format!(
            "{what} differs\n--- the book shows\n{expected}--- rex prints\n{actual}"
        ))
    }
}

fn status(output: &Output, expected: i32, command: &str) -> Result<(), String> {
    match output.status.code() {
        Some(code) if code == expected => Ok(()),
        code => Err(format!(
            "`{command}` exited with {code:?}, not {expected}\n{}{}",
            text(&output.stdout),
            text(&output.stderr)
        )),
    }
}

/// Checks one snippet in `dir` (its chapter's scratch directory, which keeps the chapter's
/// modules); `Err` says what differs.
pub fn check(rex_bin: &Path, dir: &Path, snippet: &Snippet) -> Result<(), String> {
    let file = match &snippet.kind {
        Kind::File(name) => name.as_str(),
        _ => SNIPPET_FILE,
    };
    let path = dir.join(file);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::write(&path, &snippet.body)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    match &snippet.kind {
        Kind::Run { holes } => {
            let mut args = vec!["run", "--timeout", "30"];
            if *holes {
                args.push("--holes");
            }
            args.push(file);
            let out = rex(rex_bin, dir, &args)?;
            status(&out, 0, &args.join(" "))?;
            match &snippet.output {
                Some(expected) => same("the output", expected, &text(&out.stdout)),
                None => Ok(()),
            }
        }
        Kind::CheckOnly | Kind::File(_) => {
            let out = rex(rex_bin, dir, &["check", file])?;
            status(&out, 0, &format!("rex check {file}"))
        }
        Kind::Fails(code) | Kind::Reports(code) => {
            let fails = matches!(snippet.kind, Kind::Fails(_));
            let out = rex(rex_bin, dir, &["check", "--json", file])?;
            status(&out, if fails { 1 } else { 0 }, "rex check --json")?;
            let reported = codes(&out)?;
            if !reported.contains(code) {
                return Err(format!("`rex check` reports {reported:?}, not {code}"));
            }
            match &snippet.output {
                Some(expected) => {
                    let out = rex(rex_bin, dir, &["check", "--color", "never", file])?;
                    same("the diagnostics", expected, &text(&out.stderr))
                }
                None => Ok(()),
            }
        }
    }
}

/// One checked snippet: where it is and what went wrong, if anything.
pub struct Verdict {
    /// `chapter.md:LINE`.
    pub place: String,
    pub result: Result<(), String>,
}

/// Checks every snippet of every chapter (`*.md`) in `src`, chapters in name order.
pub fn check_book(rex_bin: &Path, src: &Path) -> Result<Vec<Verdict>, String> {
    let mut chapters: Vec<PathBuf> = std::fs::read_dir(src)
        .map_err(|e| format!("cannot read {}: {e}", src.display()))?
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().and_then(|e| e.to_str()) == Some("md"))
        .collect();
    chapters.sort();
    let mut verdicts = Vec::new();
    for chapter in chapters {
        let name = chapter
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let markdown = std::fs::read_to_string(&chapter)
            .map_err(|e| format!("cannot read {}: {e}", chapter.display()))?;
        let found = snippets(&markdown).map_err(|e| format!("{name}: {e}"))?;
        if found.is_empty() {
            continue;
        }
        let dir = std::env::temp_dir().join(format!(
            "rex-book-{}-{}",
            std::process::id(),
            name.trim_end_matches(".md")
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for snippet in &found {
            verdicts.push(Verdict {
                place: format!("{name}:{}", snippet.line),
                result: check(rex_bin, &dir, snippet),
            });
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(verdicts)
}

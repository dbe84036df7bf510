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
//! Each chapter's snippets run in order in one scratch directory, as `example.rex`.

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
}

/// The file every snippet is written to in its chapter's scratch directory.
pub const SNIPPET_FILE: &str = "example.rex";

struct Fence {
    line: usize,
    info: String,
    body: String,
}

fn fences(markdown: &str) -> Vec<Fence> {
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

fn kind(info: &str) -> Option<Result<Kind, String>> {
    let (language, marker) = match info.split_once(',') {
        Some((language, marker)) => (language, Some(marker.trim())),
        None => (info, None),
    };
    if language.trim() != "rex" {
        return None;
    }
    let code = |rest: &str| {
        let valid = rest.len() == 5
            && rest.starts_with(['E', 'W', 'I'])
            && rest[1..].chars().all(|c| c.is_ascii_digit());
        valid
            .then(|| rest.to_string())
            .ok_or_else(|| format!("`{rest}` is not a diagnostic code"))
    };
    Some(match marker {
        None => Ok(Kind::Run { holes: false }),
        Some("holes") => Ok(Kind::Run { holes: true }),
        Some("check-only") => Ok(Kind::CheckOnly),
        Some(m) if m.starts_with("fails=") => code(&m["fails=".len()..]).map(Kind::Fails),
        Some(m) if m.starts_with("reports=") => code(&m["reports=".len()..]).map(Kind::Reports),
        Some(m) if m.starts_with("file=") => {
            let name = &m["file=".len()..];
            let plain = name.ends_with(".rex")
                && name != SNIPPET_FILE
                && !name.starts_with(['.', '/'])
                && !name.contains("..");
            if plain {
                Ok(Kind::File(name.to_string()))
            } else {
                Err(format!("`{name}` is not a module file name"))
            }
        }
        Some(m) => Err(format!("unknown snippet marker `rex,{m}`")),
    })
}

/// The snippets of one chapter, in order; `Err` names a fence with an unknown marker.
pub fn snippets(markdown: &str) -> Result<Vec<Snippet>, String> {
    let blocks = fences(markdown);
    let mut found = Vec::new();
    for (i, fence) in blocks.iter().enumerate() {
        let Some(kind) = kind(&fence.info) else {
            continue;
        };
        let kind = kind.map_err(|e| format!("line {}: {e}", fence.line))?;
        let output = blocks
            .get(i + 1)
            .filter(|next| next.info == "output")
            .map(|next| next.body.clone());
        found.push(Snippet {
            line: fence.line,
            kind,
            body: fence.body.clone(),
            output,
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

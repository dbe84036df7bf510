//! The documentation is tested: README's commands match CI, every `rex` snippet of the book
//! runs or fails as its fence says (the runner CI uses, `tests/book/snippets.rs`), every
//! diagnostic code has an example in the reference chapter, and the sample outputs in
//! `book/src/cli.md` are what `rex` prints.

#[path = "../book/snippets.rs"]
mod snippets;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(repo().join(relative))
        .unwrap_or_else(|e| panic!("cannot read {relative}: {e}"))
}

/// Fenced blocks as (info string, body).
fn fences(markdown: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in markdown.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => open = Some((info.trim().to_string(), String::new())),
            (Some(_), Some(rest)) if rest.trim().is_empty() => {
                blocks.extend(open.take());
            }
            (Some((_, body)), _) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    blocks
}

/// A scratch directory holding `name` with `text`; `rex` runs inside it so paths print short.
fn check_in_scratch(name: &str, text: &str, args: &[&str]) -> Output {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "rex-docs-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    std::fs::write(dir.join(name), text).expect("write snippet");
    let out = Command::new(env!("CARGO_BIN_EXE_rex"))
        .arg("check")
        .args(args)
        .arg(name)
        .current_dir(&dir)
        .output()
        .expect("run rex");
    let _ = std::fs::remove_dir_all(&dir);
    out
}

#[test]
fn readme_opens_with_the_run_and_test_commands_ci_uses() {
    let readme = read("README.md");
    let (info, body) = fences(&readme).into_iter().next().expect("a fenced block");
    assert_eq!(info, "sh");
    let commands: Vec<&str> = body.lines().collect();
    assert_eq!(commands.len(), 2, "{body}");
    // The main job on the embedded default: a script that installs what is missing and
    // fills the holes of an example.
    assert_eq!(commands[0], "bash scripts/quickstart.sh");
    let script = read("scripts/quickstart.sh");
    let example = script
        .split_whitespace()
        .find(|w| w.starts_with("examples/") && w.ends_with(".rex"))
        .expect("the quickstart fills an example");
    assert!(repo().join(example).is_file(), "{example} exists");
    assert!(script.contains(" fill "), "the quickstart runs `rex fill`");
    assert_eq!(commands[1], "cargo test --workspace --release");

    let ci = read(".ci/run");
    for command in commands {
        assert!(
            ci.lines().any(|l| l.trim() == command),
            ".ci/run runs README's command `{command}` verbatim"
        );
    }
}

#[test]
fn book_snippets_run_as_their_fences_say() {
    let rex = Path::new(env!("CARGO_BIN_EXE_rex"));
    let verdicts =
        snippets::check_book(rex, &repo().join("book/src")).expect("the book's snippets");
    let failures: Vec<String> = verdicts
        .iter()
        .filter_map(|v| {
            v.result
                .as_ref()
                .err()
                .map(|why| format!("{}: {why}", v.place))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(
        verdicts.len() >= 50,
        "the book has {} rex snippets",
        verdicts.len()
    );
}

/// The codes `compiler/src/diagnostic.rs` publishes (`Code::as_str`).
fn diagnostic_codes() -> Vec<String> {
    let source = read("compiler/src/diagnostic.rs");
    let mut codes: Vec<String> = source
        .split('"')
        .filter(|word| {
            word.len() == 5
                && word.starts_with(['E', 'W', 'I'])
                && word[1..].chars().all(|c| c.is_ascii_digit())
        })
        .map(str::to_string)
        .collect();
    codes.sort();
    codes.dedup();
    codes
}

/// Every code appears in the reference chapter with an example that CI checks reports it;
/// codes the checker does not report yet are listed in the chapter's closing
/// `<!-- not reported yet: ... -->` comment instead, and described in words.
#[test]
fn every_diagnostic_code_has_an_example_in_the_reference_chapter() {
    let codes = diagnostic_codes();
    assert!(codes.len() >= 30, "codes found: {codes:?}");
    let chapter = read("book/src/diagnostics.md");
    let shown: Vec<String> = snippets::snippets(&chapter)
        .expect("the chapter's snippets")
        .into_iter()
        .filter_map(|s| match s.kind {
            snippets::Kind::Fails(code) | snippets::Kind::Reports(code) => Some(code),
            _ => None,
        })
        .collect();
    let not_reported: Vec<&str> = chapter
        .split_once("<!-- not reported yet:")
        .and_then(|(_, rest)| rest.split_once("-->"))
        .map(|(list, _)| list.split_whitespace().collect())
        .unwrap_or_default();
    for code in &codes {
        assert!(
            chapter.contains(&format!("### {code}: ")),
            "book/src/diagnostics.md has no section `### {code}: ...`"
        );
        let has_example = shown.contains(code);
        let listed = not_reported.contains(&code.as_str());
        assert!(
            has_example != listed,
            "{code}: either an example (`rex,fails={code}` or `rex,reports={code}`) or the \
             not-reported-yet list, exactly one (example: {has_example}, listed: {listed})"
        );
    }
    for code in &not_reported {
        assert!(codes.iter().any(|c| c == code), "{code} is not a code");
    }
}

/// Every chapter file is in the book's table of contents, and every entry there exists.
#[test]
fn summary_lists_every_chapter() {
    let summary = read("book/src/SUMMARY.md");
    let listed: Vec<&str> = summary
        .split("](")
        .skip(1)
        .filter_map(|rest| rest.split_once(')').map(|(target, _)| target))
        .collect();
    let dir = repo().join("book/src");
    for target in &listed {
        assert!(
            dir.join(target).is_file(),
            "SUMMARY.md lists missing {target}"
        );
    }
    for entry in std::fs::read_dir(&dir).expect("book/src").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") && name != "SUMMARY.md" {
            assert!(
                listed.contains(&name.as_str()),
                "SUMMARY.md does not list {name}"
            );
        }
    }
}

#[test]
fn cli_chapter_sample_outputs_are_real() {
    let chapter = read("book/src/cli.md");
    let blocks = fences(&chapter);
    let (_, program) = blocks
        .iter()
        .find(|(info, _)| info.starts_with("rex,fails="))
        .expect("an erroneous example");
    let sample_text = &blocks
        .iter()
        .find(|(info, _)| info == "text")
        .expect("a text sample")
        .1;
    let sample_json = &blocks
        .iter()
        .find(|(info, _)| info == "json")
        .expect("a JSON sample")
        .1;

    let out = check_in_scratch("wrong.rex", program, &["--color", "never"]);
    assert_eq!(String::from_utf8_lossy(&out.stderr), *sample_text);

    let out = check_in_scratch("wrong.rex", program, &["--json"]);
    let actual: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let documented: serde_json::Value = serde_json::from_str(sample_json).expect("JSON sample");
    assert_eq!(actual, documented);
}

#[test]
fn hole_sample_in_cli_chapter_is_real() {
    let chapter = read("book/src/cli.md");
    let blocks = fences(&chapter);
    let (_, program) = blocks
        .iter()
        .find(|(info, body)| info == "rex" && body.contains('?'))
        .expect("a hole example");
    let sample = &blocks
        .iter()
        .filter(|(info, _)| info == "text")
        .nth(1)
        .expect("a second text sample")
        .1;
    let out = check_in_scratch("holes.rex", program, &["--color", "never"]);
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with(sample.as_str()), "{stderr}");
}

#[test]
fn hole_json_sample_in_cli_chapter_is_real() {
    let chapter = read("book/src/cli.md");
    let program = chapter
        .split_once("`holes.rex` that holds `")
        .and_then(|(_, rest)| rest.split_once("`, it is:"))
        .map(|(program, _)| format!("{program}\n"))
        .expect("the hole JSON example names its program");
    let sample = &fences(&chapter)
        .into_iter()
        .filter(|(info, _)| info == "json")
        .nth(1)
        .expect("a second JSON sample")
        .1;
    let out = check_in_scratch("holes.rex", &program, &["--json"]);
    let actual: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let documented: serde_json::Value = serde_json::from_str(sample).expect("JSON sample");
    assert_eq!(actual["holes"], documented);
}

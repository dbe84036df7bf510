//! ARCHITECTURE.md stays true to the tree: every repository path it writes in backticks
//! exists, and its code map names every top-level folder of the repository and every
//! folder under the crates' sources that newcomers navigate first (`compiler/src`,
//! `ide/src`, `llm/src`, `cli/src`, at any depth). A folder added, moved or removed there
//! fails this test until the document says so.
//!
//! The folders are the repository's own: git's list of tracked and unignored files where
//! git is at hand, otherwise a walk of the tree that leaves out `.git` and what the root
//! `.gitignore` names.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Folders every one of whose subfolders, at any depth, must be named in the code map.
const MAPPED_IN_FULL: &[&str] = &["compiler/src", "ide/src", "llm/src", "cli/src"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits in the repository")
        .to_path_buf()
}

fn document(root: &Path) -> String {
    fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md at the root")
}

/// The text of the `## Code map` section (up to the next `## ` heading).
fn code_map(doc: &str) -> &str {
    let start = doc
        .find("\n## Code map")
        .expect("ARCHITECTURE.md has a `## Code map` section");
    let rest = &doc[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    &rest[..end]
}

/// Every text between backticks (inline code spans), in order.
fn code_spans(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else { break };
        out.push(&after[..close]);
        rest = &after[close + 1..];
    }
    out
}

/// A code span that reads as a path inside the repository: no spaces or wildcards, a `/`
/// in it, and not absolute, home- or parent-relative, or a URL.
fn repo_path(span: &str) -> Option<&str> {
    let plain = span
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._-/".contains(c));
    let outside = span.starts_with('/')
        || span.starts_with("../")
        || span.starts_with('.') && !span.starts_with(".ci");
    (plain && span.contains('/') && !outside).then_some(span)
}

/// Paths the root `.gitignore` anchors at the root (`/target`, `/playground/dist`).
fn ignored(root: &Path) -> Vec<String> {
    fs::read_to_string(root.join(".gitignore"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().strip_prefix('/'))
        .map(|l| l.trim_end_matches('/').to_string())
        .collect()
}

/// Every folder of the repository, relative, with `/` separators.
fn folders(root: &Path) -> BTreeSet<String> {
    let listed = Command::new("git")
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .current_dir(root)
        .output()
        .ok()
        .filter(|o| o.status.success() && !o.stdout.is_empty());
    let mut out = BTreeSet::new();
    match listed {
        Some(output) => {
            for file in String::from_utf8_lossy(&output.stdout).split('\0') {
                // A file deleted but not yet committed is still listed: skip it.
                if file.is_empty() || !root.join(file).exists() {
                    continue;
                }
                let mut dir = Path::new(file).parent();
                while let Some(d) = dir.filter(|d| !d.as_os_str().is_empty()) {
                    out.insert(d.to_string_lossy().replace('\\', "/"));
                    dir = d.parent();
                }
            }
        }
        None => walk(root, Path::new(""), &ignored(root), &mut out),
    }
    out
}

fn walk(root: &Path, rel: &Path, ignored: &[String], out: &mut BTreeSet<String>) {
    let Ok(entries) = fs::read_dir(root.join(rel)) else {
        return;
    };
    for entry in entries.flatten() {
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let path = rel.join(entry.file_name());
        let name = path.to_string_lossy().replace('\\', "/");
        if name == ".git" || ignored.contains(&name) {
            continue;
        }
        out.insert(name);
        walk(root, &path, ignored, out);
    }
}

#[test]
fn every_path_the_document_writes_exists() {
    let root = root();
    let doc = document(&root);
    let missing: Vec<&str> = code_spans(&doc)
        .into_iter()
        .filter_map(repo_path)
        .filter(|p| {
            let path = root.join(p.trim_end_matches('/'));
            if p.ends_with('/') {
                !path.is_dir()
            } else {
                !path.exists()
            }
        })
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names paths that do not exist (mend the document): {missing:?}"
    );
}

#[test]
fn the_code_map_names_every_folder_that_must_be_mapped() {
    let root = root();
    let doc = document(&root);
    let named: BTreeSet<&str> = code_spans(code_map(&doc))
        .into_iter()
        .filter_map(repo_path)
        .filter_map(|p| p.strip_suffix('/'))
        .collect();
    let all = folders(&root);
    assert!(
        all.contains("compiler/src"),
        "the folder listing found no compiler/src: {all:?}"
    );
    let must: Vec<&String> = all
        .iter()
        .filter(|f| {
            !f.contains('/')
                || MAPPED_IN_FULL
                    .iter()
                    .any(|m| f.strip_prefix(m).is_some_and(|r| r.starts_with('/')))
        })
        .collect();
    let unnamed: Vec<&&String> = must
        .iter()
        .filter(|f| !named.contains(f.as_str()))
        .collect();
    assert!(
        unnamed.is_empty(),
        "folders the code map of ARCHITECTURE.md does not name (write each whole, as \
         `path/`, in the `## Code map` section): {unnamed:?}"
    );
}

#[test]
fn code_spans_and_paths_are_read_as_meant() {
    assert_eq!(code_spans("a `x/y/` b `z` c `unclosed"), vec!["x/y/", "z"]);
    assert_eq!(repo_path("compiler/src/db.rs"), Some("compiler/src/db.rs"));
    assert_eq!(repo_path(".ci/run"), Some(".ci/run"));
    assert_eq!(repo_path("../shared/conformance/"), None);
    assert_eq!(repo_path("bench/*.rex"), None);
    assert_eq!(repo_path("text -> tokens"), None);
    assert_eq!(repo_path("Vec<Span>"), None);
    let map = code_map("intro\n## Code map\n`a/`\n### `b/`\n## Invariants\n`c/`\n");
    assert!(map.contains("`b/`") && !map.contains("`c/`"));
}

//! Helpers shared by the compiler's integration tests. Each test binary includes the module
//! and uses only some of them.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use rex_compiler::db::Database;

/// The conformance programs: `REX_CONFORMANCE_DIR`, else `../shared/conformance` beside the
/// repository. None, after a `skipped:` line, when the directory is not there: a clone
/// without `../shared` still passes its tests.
pub fn conformance_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("REX_CONFORMANCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance")
        });
    if dir.is_dir() {
        Some(dir)
    } else {
        println!(
            "skipped: the conformance programs are not at {}",
            dir.display()
        );
        None
    }
}

/// The files directly in `dir` (none when it cannot be read), sorted by path.
pub fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// The `.rex` files directly in `dir`, sorted by path.
pub fn rex_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = files_in(dir);
    files.retain(|p| p.extension().is_some_and(|e| e == "rex"));
    files
}

/// The error diagnostics of the program `text` as (code, the text they point at).
pub fn errors(text: &str) -> Vec<(String, String)> {
    let db = Database::new();
    let file = db.add_file("test.rex", text);
    db.diagnostics(file)
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let at = text
                .get(d.span.start as usize..d.span.end as usize)
                .unwrap_or("");
            (d.code.as_str().to_string(), at.to_string())
        })
        .collect()
}

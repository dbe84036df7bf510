//! The conformance programs the model-side tests walk: `../shared/conformance` beside the
//! repository. Absent, the tests that need them say they skipped.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Every `.rex` program of the conformance directory with its text, sorted by path; None
/// (after printing a `skipped:` line) when the directory is not there.
pub fn conformance_programs() -> Option<Vec<(PathBuf, String)>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!("skipped: ../shared/conformance not found");
        return None;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|f| f.extension().is_some_and(|e| e == "rex"))
        .collect();
    files.sort();
    Some(
        files
            .into_iter()
            .filter_map(|f| std::fs::read_to_string(&f).ok().map(|text| (f, text)))
            .collect(),
    )
}

//! Loading the modules a program imports from the file system: the compiler walks the
//! imports (`rex_compiler::modules::load`); this is the reader it walks them with.

use std::path::Path;

use rex_compiler::modules::normalize;

/// Every module file reachable from `sources` (path, text), as (normalised path, text).
/// Files that cannot be read are left out: the checker reports those imports missing.
pub fn load(sources: &[(String, String)], include_roots: &[String]) -> Vec<(String, String)> {
    rex_compiler::modules::load(sources, include_roots, &mut read_regular_file)
}

/// The text of the regular file at `path` (not a directory, device or fifo, which could
/// block or never end), if it is readable UTF-8.
fn read_regular_file(path: &str) -> Option<String> {
    let path = Path::new(path);
    if !path.is_file() {
        return None;
    }
    std::fs::read_to_string(path).ok()
}

/// The include roots as the compiler compares paths.
pub fn roots(dirs: &[std::path::PathBuf]) -> Vec<String> {
    dirs.iter()
        .map(|d| normalize(&d.display().to_string()))
        .collect()
}

//! Helpers shared by the compiler's integration tests.

use std::path::PathBuf;

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

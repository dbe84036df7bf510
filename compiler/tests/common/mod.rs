//! Helpers shared by the compiler's integration tests.

use std::path::PathBuf;

/// The conformance programs: `REX_CONFORMANCE_DIR`, else `../shared/conformance` beside the
/// repository.
pub fn conformance_dir() -> PathBuf {
    std::env::var_os("REX_CONFORMANCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance")
        })
}

//! Program files on disk, for the native front doors (`rex check`/`run`/`ide`, `rex mcp`):
//! the modules a program imports, read with the compiler's walk over the imports
//! (`rex_compiler::modules::load`), and how a file that cannot be read is worded. The
//! browser playground has no files and never calls this.

use std::path::Path;

/// Every module file reachable from `sources` (path, text), as (normalised path, text).
/// Files that cannot be read are left out: the checker reports those imports missing.
pub fn load_modules(
    sources: &[(String, String)],
    include_roots: &[String],
) -> Vec<(String, String)> {
    rex_compiler::modules::load(sources, include_roots, &mut read_regular_file)
}

/// The text of the regular file at `path` (not a directory, device or fifo, which could
/// block or never end), if it is readable UTF-8.
pub fn read_regular_file(path: &str) -> Option<String> {
    let path = Path::new(path);
    if !path.is_file() {
        return None;
    }
    std::fs::read_to_string(path).ok()
}

/// The OS message without the trailing ` (os error N)` that `io::Error` appends.
pub fn describe_io_error(err: &std::io::Error) -> String {
    if err.kind() == std::io::ErrorKind::InvalidData {
        return "the file is not valid UTF-8".to_string();
    }
    let text = err.to_string();
    match text.rfind(" (os error ") {
        Some(cut) if text.ends_with(')') => text[..cut].to_string(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_messages_drop_the_os_error_number() {
        let err = std::io::Error::from_raw_os_error(2);
        assert_eq!(describe_io_error(&err), "No such file or directory");
    }

    #[test]
    fn invalid_utf8_is_named() {
        let err = std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        );
        assert_eq!(describe_io_error(&err), "the file is not valid UTF-8");
    }
}

//! Discovery of conformance programs and parsing of their `.expected` files.

use std::path::{Path, PathBuf};

/// What a program must do, from the first line of its `.expected` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expectation {
    /// Runs and prints exactly `output` (the remaining lines, one trailing newline trimmed).
    Ok { output: String },
    /// Is rejected with a diagnostic.
    Error,
    /// Has typed holes; runs and prints an indeterminate result.
    Hole,
    /// A first line this runner does not know; the case fails with this text.
    Unknown(String),
}

#[derive(Clone, Debug)]
pub struct Case {
    /// File stem, e.g. `LANGUAGE__00`.
    pub name: String,
    pub program: PathBuf,
    pub expectation: Expectation,
}

/// Every `NAME.rex` in `dir` that has a `NAME.expected`, sorted by name.
pub fn discover(dir: &Path) -> Result<Vec<Case>, String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read conformance directory `{}`: {e}", dir.display()))?;
    let mut cases = Vec::new();
    for entry in entries {
        let program = entry
            .map_err(|e| format!("cannot list `{}`: {e}", dir.display()))?
            .path();
        if program.extension().and_then(|e| e.to_str()) != Some("rex") {
            continue;
        }
        let expected_path = program.with_extension("expected");
        let Ok(expected) = std::fs::read_to_string(&expected_path) else {
            continue;
        };
        let name = program
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        cases.push(Case {
            name,
            program,
            expectation: parse_expected(&expected),
        });
    }
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(cases)
}

pub fn parse_expected(text: &str) -> Expectation {
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    match first.trim_end_matches('\r').trim() {
        "ok" => Expectation::Ok {
            output: trim_one_newline(rest).to_string(),
        },
        "error" => Expectation::Error,
        "hole" => Expectation::Hole,
        other => Expectation::Unknown(other.to_string()),
    }
}

/// Drops one trailing `\n` (or `\r\n`), so files with and without a final newline compare
/// the same.
pub fn trim_one_newline(text: &str) -> &str {
    let text = text.strip_suffix('\n').unwrap_or(text);
    text.strip_suffix('\r').unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_each_kind() {
        assert_eq!(
            parse_expected("ok\n[2i32, 3i32]\n"),
            Expectation::Ok {
                output: "[2i32, 3i32]".into()
            }
        );
        assert_eq!(
            parse_expected("ok\na\n\nb\n"),
            Expectation::Ok {
                output: "a\n\nb".into()
            }
        );
        assert_eq!(
            parse_expected("ok"),
            Expectation::Ok {
                output: String::new()
            }
        );
        assert_eq!(parse_expected("error\n"), Expectation::Error);
        assert_eq!(parse_expected("hole\nOk ?\n"), Expectation::Hole);
        assert_eq!(
            parse_expected("maybe\n"),
            Expectation::Unknown("maybe".into())
        );
    }

    #[test]
    fn trims_exactly_one_newline() {
        assert_eq!(trim_one_newline("a\n\n"), "a\n");
        assert_eq!(trim_one_newline("a\r\n"), "a");
        assert_eq!(trim_one_newline("a"), "a");
    }
}

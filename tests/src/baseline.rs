//! The committed pass count: CI fails when fewer programs pass than it records.

use std::path::Path;
use std::process::ExitCode;

/// Compares `passed` with the baseline file; with `update`, writes `passed` into it.
pub fn compare(path: &Path, passed: usize, update: bool) -> Result<ExitCode, String> {
    let recorded = match std::fs::read_to_string(path) {
        Ok(text) => Some(parse(&text).ok_or_else(|| {
            format!(
                "baseline `{}` does not hold a pass count (one number)",
                path.display()
            )
        })?),
        Err(e) if update && e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("cannot read baseline `{}`: {e}", path.display())),
    };

    if update && recorded != Some(passed) {
        std::fs::write(path, format!("{passed}\n"))
            .map_err(|e| format!("cannot write baseline `{}`: {e}", path.display()))?;
        println!("baseline `{}` set to {passed}", path.display());
        return Ok(ExitCode::SUCCESS);
    }
    let Some(recorded) = recorded else {
        return Ok(ExitCode::SUCCESS);
    };
    if passed < recorded {
        println!(
            "conformance regressed: {passed} passed, but the baseline `{}` records {recorded}",
            path.display()
        );
        return Ok(ExitCode::FAILURE);
    }
    if passed > recorded {
        println!(
            "conformance improved: {passed} passed, baseline `{}` records {recorded}; \
             raise it (rerun with --update-baseline) and commit it",
            path.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The first line that is neither blank nor a `#` comment, as a number.
fn parse(text: &str) -> Option<usize> {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_number_with_optional_comments() {
        assert_eq!(parse("192\n"), Some(192));
        assert_eq!(parse("# passes\n\n 7 \n"), Some(7));
        assert_eq!(parse("many"), None);
        assert_eq!(parse(""), None);
    }

    #[test]
    fn fewer_passes_fail_and_update_writes() {
        let path = std::env::temp_dir().join(format!("rex-baseline-{}.txt", std::process::id()));
        std::fs::write(&path, "10\n").unwrap_or_default();
        assert_eq!(compare(&path, 9, false), Ok(ExitCode::FAILURE));
        assert_eq!(compare(&path, 10, false), Ok(ExitCode::SUCCESS));
        assert_eq!(compare(&path, 11, false), Ok(ExitCode::SUCCESS));
        assert_eq!(compare(&path, 12, true), Ok(ExitCode::SUCCESS));
        assert_eq!(std::fs::read_to_string(&path).ok().as_deref(), Some("12\n"));
        let _ = std::fs::remove_file(&path);
        assert!(compare(&path, 1, false).is_err(), "missing baseline");
        assert_eq!(compare(&path, 3, true), Ok(ExitCode::SUCCESS));
        assert_eq!(std::fs::read_to_string(&path).ok().as_deref(), Some("3\n"));
        let _ = std::fs::remove_file(&path);
    }
}

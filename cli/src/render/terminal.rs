//! Human-readable diagnostics on stderr, rendered by codespan-reporting.

use std::io::{self, IsTerminal, Write};
use std::ops::Range;

use codespan_reporting::diagnostic::{Diagnostic as Report, Label, Severity as ReportSeverity};
use codespan_reporting::files::{self, SimpleFiles};
use codespan_reporting::term::termcolor::{BufferedStandardStream, ColorChoice};
use codespan_reporting::term::{self, Config};
use rex_compiler::{Diagnostic, Severity};

use super::{ColorMode, FileReport};

/// At most this many diagnostics are rendered per file; each one repeats its source line, so
/// a pathological file (one long line, thousands of errors) would otherwise flood the
/// terminal. `--json` always lists every diagnostic.
pub const MAX_RENDERED_PER_FILE: usize = 100;

pub fn write_report(reports: &[FileReport], color: ColorMode) -> io::Result<()> {
    let mut stream = BufferedStandardStream::stderr(color_choice(color));
    let config = Config::default();
    let mut files = SimpleFiles::new();
    for report in reports {
        let id = files.add(report.path.as_str(), report.text.as_str());
        for d in report.diagnostics.iter().take(MAX_RENDERED_PER_FILE) {
            let rendered = to_codespan(id, &report.text, d);
            term::emit_to_write_style(&mut stream, &config, &files, &rendered)
                .map_err(into_io_error)?;
        }
        let hidden = report
            .diagnostics
            .len()
            .saturating_sub(MAX_RENDERED_PER_FILE);
        if hidden > 0 {
            writeln!(
                stream,
                "note: {hidden} more {} in `{}` not shown (`rex check --json` lists them all)\n",
                if hidden == 1 {
                    "diagnostic"
                } else {
                    "diagnostics"
                },
                report.path
            )?;
        }
    }
    writeln!(stream, "{}", summary(reports))?;
    stream.flush()
}

fn color_choice(mode: ColorMode) -> ColorChoice {
    match mode {
        ColorMode::Always => ColorChoice::Always,
        ColorMode::Never => ColorChoice::Never,
        // termcolor's `Auto` honours `TERM=dumb` and `NO_COLOR`, but not redirection.
        ColorMode::Auto if io::stderr().is_terminal() => ColorChoice::Auto,
        ColorMode::Auto => ColorChoice::Never,
    }
}

fn to_codespan(file: usize, text: &str, d: &Diagnostic) -> Report<usize> {
    let severity = match d.severity {
        Severity::Error => ReportSeverity::Error,
        Severity::Warning => ReportSeverity::Warning,
        Severity::Info => ReportSeverity::Note,
    };
    Report::new(severity)
        .with_code(d.code.as_str())
        .with_message(&d.message)
        .with_labels(vec![Label::primary(file, byte_range(text, d.span.range()))])
        .with_notes(d.notes.clone())
}

/// The span clamped to the text and widened to character boundaries, so the renderer can slice.
fn byte_range(text: &str, range: Range<usize>) -> Range<usize> {
    let mut start = range.start.min(text.len());
    let mut end = range.end.clamp(start, text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    while !text.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

fn into_io_error(err: files::Error) -> io::Error {
    match err {
        files::Error::Io(err) => err,
        other => io::Error::other(other.to_string()),
    }
}

/// One closing line, e.g. `checked 2 files: 1 error, 0 warnings`.
fn summary(reports: &[FileReport]) -> String {
    let count = |severity: Severity| {
        reports
            .iter()
            .flat_map(|r| &r.diagnostics)
            .filter(|d| d.severity == severity)
            .count()
    };
    let files = plural(reports.len(), "file");
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
    if errors == 0 && warnings == 0 {
        format!("checked {files}: no errors")
    } else {
        format!(
            "checked {files}: {}, {}",
            plural(errors, "error"),
            plural(warnings, "warning")
        )
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_clamped_to_char_boundaries() {
        let text = "aλb";
        assert_eq!(byte_range(text, 2..2), 1..3);
        assert_eq!(byte_range(text, 0..2), 0..3);
        assert_eq!(byte_range(text, 10..20), 4..4);
        assert_eq!(byte_range(text, Range { start: 3, end: 1 }), 3..3);
    }

    #[test]
    fn summary_counts_errors_and_warnings() {
        assert_eq!(summary(&[]), "checked 0 files: no errors");
        assert_eq!(plural(1, "error"), "1 error");
        assert_eq!(plural(2, "file"), "2 files");
    }
}

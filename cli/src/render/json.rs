//! The `--json` report: one object `{"diagnostics": [...]}`, positions as LSP counts them
//! (0-based lines, UTF-16 code units), so editors and agents can use them directly.

use std::io::{self, Write};

use rex_compiler::{Diagnostic, Position};
use serde::Serialize;

use super::positions::Positions;
use super::FileReport;

#[derive(Serialize)]
struct Report<'a> {
    diagnostics: Vec<JsonDiagnostic<'a>>,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    file: &'a str,
    code: &'static str,
    severity: &'static str,
    category: &'static str,
    message: &'a str,
    range: JsonRange,
    notes: &'a [String],
}

#[derive(Serialize)]
struct JsonRange {
    start: JsonPosition,
    end: JsonPosition,
}

#[derive(Serialize)]
struct JsonPosition {
    line: u32,
    character: u32,
}

impl From<Position> for JsonPosition {
    fn from(p: Position) -> JsonPosition {
        JsonPosition {
            line: p.line,
            character: p.character,
        }
    }
}

fn diagnostic<'a>(
    file: &'a FileReport,
    index: &Positions,
    d: &'a Diagnostic,
) -> JsonDiagnostic<'a> {
    JsonDiagnostic {
        file: &file.path,
        code: d.code.as_str(),
        severity: d.severity.as_str(),
        category: d.category.as_str(),
        message: &d.message,
        range: JsonRange {
            start: index.position(d.span.start as usize).into(),
            end: index.position(d.span.end as usize).into(),
        },
        notes: &d.notes,
    }
}

/// The report as a JSON value (one line when serialised).
pub fn report(files: &[FileReport]) -> serde_json::Value {
    let mut diagnostics = Vec::new();
    for file in files {
        let index = Positions::new(&file.text);
        diagnostics.extend(file.diagnostics.iter().map(|d| diagnostic(file, &index, d)));
    }
    serde_json::to_value(Report { diagnostics }).unwrap_or(serde_json::Value::Null)
}

pub fn write_report(out: &mut impl Write, files: &[FileReport]) -> io::Result<()> {
    serde_json::to_writer(&mut *out, &report(files))?;
    writeln!(out)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rex_compiler::{Code, Span};

    #[test]
    fn positions_count_utf16_units() {
        let text = "let s = \"λ𝔸\" in $".to_string();
        let at = text.find('$').unwrap_or(0);
        let file = FileReport {
            path: "a.rex".into(),
            diagnostics: vec![Diagnostic::error(
                Code::InvalidCharacter,
                Span::new(at, at + 1),
                "bad",
            )],
            text,
        };
        let value = report(&[file]);
        let d = &value["diagnostics"][0];
        assert_eq!(d["code"], "E0103");
        assert_eq!(d["file"], "a.rex");
        assert_eq!(d["severity"], "error");
        assert_eq!(d["category"], "syntax");
        // `let s = "` is 9 units, λ is 1, 𝔸 is 2, then `" in ` is 5.
        assert_eq!(d["range"]["start"]["character"], 17);
        assert_eq!(d["range"]["end"]["character"], 18);
        assert_eq!(d["notes"], serde_json::json!([]));
    }
}

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

fn build(files: &[FileReport]) -> Report<'_> {
    let mut diagnostics = Vec::new();
    for file in files {
        let index = Positions::new(&file.text);
        diagnostics.extend(file.diagnostics.iter().map(|d| diagnostic(file, &index, d)));
    }
    Report { diagnostics }
}

/// Writes the report as one line of JSON; keys keep the documented order
/// (`file`, `code`, `severity`, `category`, `message`, `range`, `notes`).
pub fn write_report(out: &mut impl Write, files: &[FileReport]) -> io::Result<()> {
    serde_json::to_writer(&mut *out, &build(files))?;
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
        let mut out = Vec::new();
        write_report(&mut out, &[file]).unwrap_or_default();
        let text = String::from_utf8_lossy(&out);
        assert!(text.starts_with("{\"diagnostics\":[{\"file\":\"a.rex\",\"code\""));
        let value: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
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

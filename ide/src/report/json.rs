//! The JSON report: one object `{"diagnostics": [...], "holes": [...]}`, positions as
//! LSP counts them (0-based lines, UTF-16 code units), so editors and agents can use them
//! directly. `rex check --json` prints it; the `check` tool of `rex mcp` returns it.

use std::io::{self, Write};

use rex_compiler::check::HoleInfo;
use rex_compiler::{Diagnostic, DiagnosticData, Position, Span};
use serde::Serialize;

use super::positions::Positions;
use super::FileReport;

/// The report of some files, serialised in the documented key order.
#[derive(Serialize)]
pub struct Report<'a> {
    diagnostics: Vec<JsonDiagnostic<'a>>,
    holes: Vec<JsonHole<'a>>,
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
    /// The structured facts (`DiagnosticData`), `null` when there are none.
    data: JsonData<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonHole<'a> {
    file: &'a str,
    /// `null` for an anonymous `?`, else the name after `?`.
    name: Option<&'a str>,
    range: JsonRange,
    expected_type: &'a str,
    /// The typing context, innermost binding first.
    context: Vec<JsonBinding<'a>>,
}

#[derive(Serialize)]
struct JsonBinding<'a> {
    name: &'a str,
    #[serde(rename = "type")]
    ty: &'a str,
}

/// A range of the file, 0-based lines and UTF-16 characters as LSP counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct JsonRange {
    pub start: JsonPosition,
    pub end: JsonPosition,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct JsonPosition {
    pub line: u32,
    pub character: u32,
}

impl From<Position> for JsonPosition {
    fn from(p: Position) -> JsonPosition {
        JsonPosition {
            line: p.line,
            character: p.character,
        }
    }
}

/// The range of `span` in the text `index` was built from.
pub fn range(index: &Positions, span: Span) -> JsonRange {
    JsonRange {
        start: index.position(span.start as usize).into(),
        end: index.position(span.end as usize).into(),
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
        range: range(index, d.span),
        notes: &d.notes,
        data: data(index, &d.data),
    }
}

/// The compiler's `DiagnosticData` as it serialises itself (`kind` first), except that the
/// parser's skipped byte spans become ranges like every other position in the report.
#[derive(Serialize)]
#[serde(untagged)]
enum JsonData<'a> {
    None,
    Data(&'a DiagnosticData),
    #[serde(rename_all = "camelCase")]
    UnexpectedToken {
        kind: &'static str,
        found: &'a str,
        expected: &'a [String],
        expected_tokens: &'a [String],
        skipped: Vec<JsonRange>,
    },
}

fn data<'a>(index: &Positions, data: &'a DiagnosticData) -> JsonData<'a> {
    match data {
        DiagnosticData::None => JsonData::None,
        DiagnosticData::UnexpectedToken {
            found,
            expected,
            expected_tokens,
            skipped,
        } => JsonData::UnexpectedToken {
            kind: "unexpectedToken",
            found,
            expected,
            expected_tokens,
            skipped: skipped.iter().map(|s| range(index, *s)).collect(),
        },
        data => JsonData::Data(data),
    }
}

fn hole<'a>(file: &'a FileReport, index: &Positions, h: &'a HoleInfo) -> JsonHole<'a> {
    JsonHole {
        file: &file.path,
        name: h.name.as_deref(),
        range: range(index, h.span),
        expected_type: &h.expected_type,
        context: h
            .context
            .iter()
            .map(|(name, ty)| JsonBinding { name, ty })
            .collect(),
    }
}

/// The report of `files`, in order.
pub fn build(files: &[FileReport]) -> Report<'_> {
    let mut diagnostics = Vec::new();
    let mut holes = Vec::new();
    for file in files {
        let index = Positions::new(&file.text);
        diagnostics.extend(file.diagnostics.iter().map(|d| diagnostic(file, &index, d)));
        holes.extend(file.holes.iter().map(|h| hole(file, &index, h)));
    }
    Report { diagnostics, holes }
}

/// Writes the report as one line of JSON; keys keep the documented order (`file`, `code`,
/// `severity`, `category`, `message`, `range`, `notes`, `data`; for holes `file`, `name`,
/// `range`, `expectedType`, `context`).
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
            holes: vec![],
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
        assert_eq!(d["data"], serde_json::Value::Null);
        assert_eq!(value["holes"], serde_json::json!([]));
    }
}

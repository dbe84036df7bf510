//! Text edits: the contract's `WorkspaceEdit`, and applying edits to a text.

use std::collections::BTreeMap;

use rex_compiler::{Position, Span};
use serde::Serialize;

use crate::locate::Document;

/// A 0-based LSP position (UTF-16 characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LspPosition {
    pub line: u32,
    pub character: u32,
}

impl From<Position> for LspPosition {
    fn from(p: Position) -> LspPosition {
        LspPosition {
            line: p.line,
            character: p.character,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LspRange {
    pub start: LspPosition,
    pub end: LspPosition,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TextEdit {
    pub range: LspRange,
    pub new_text: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WorkspaceEdit {
    pub changes: BTreeMap<String, Vec<TextEdit>>,
}

/// A replacement of a byte range of the document.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Replace {
    pub span: Span,
    pub text: String,
}

impl Replace {
    pub fn new(span: Span, text: impl Into<String>) -> Replace {
        Replace {
            span,
            text: text.into(),
        }
    }

    pub fn to_lsp(&self, doc: &Document<'_>) -> TextEdit {
        TextEdit {
            range: LspRange {
                start: doc.position(self.span.start as usize).into(),
                end: doc.position(self.span.end as usize).into(),
            },
            new_text: self.text.clone(),
        }
    }
}

/// `text` with non-overlapping replacements applied (spans refer to the original text).
/// Spans outside the text or cutting a character are clamped to character boundaries.
pub fn apply(text: &str, edits: &[Replace]) -> String {
    let mut sorted: Vec<&Replace> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0usize;
    for e in sorted {
        let start = floor_char(text, (e.span.start as usize).max(at));
        let end = floor_char(text, (e.span.end as usize).max(start));
        out.push_str(&text[at..start]);
        out.push_str(&e.text);
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

fn floor_char(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

//! Conversion between byte offsets and the positions the page speaks: 0-based line and
//! UTF-16 column (as LSP and CodeMirror's line-relative offsets count them).

use rex_compiler::{LineIndex, Position, Span};

use crate::report::{JsonPosition, JsonRange};

/// A text with its line index, built once per text version.
pub struct Positions {
    text: String,
    lines: LineIndex,
}

impl Positions {
    pub fn new(text: &str) -> Positions {
        Positions {
            text: text.to_string(),
            lines: LineIndex::new(text),
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn position(&self, offset: usize) -> JsonPosition {
        let Position { line, character } = self.lines.position(&self.text, offset);
        JsonPosition { line, character }
    }

    pub fn range(&self, span: Span) -> JsonRange {
        JsonRange {
            start: self.position(span.start as usize),
            end: self.position(span.end as usize),
        }
    }

    /// The byte offset of a line/character position, clamped into the text.
    pub fn offset(&self, line: u32, character: u32) -> usize {
        self.lines.offset(&self.text, Position { line, character })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_columns_round_trip() {
        let p = Positions::new("let s = \"λ𝔸\" in\ns");
        // `𝔸` is two UTF-16 units and four bytes; the closing quote follows it.
        let quote = p.text().rfind('"').unwrap_or_default();
        let pos = p.position(quote);
        assert_eq!((pos.line, pos.character), (0, 12));
        assert_eq!(p.offset(pos.line, pos.character), quote);
        assert_eq!(p.offset(1, 0), p.text().len() - 1);
        assert_eq!(p.offset(7, 3), p.text().len());
    }
}

//! Byte offset -> LSP position in O(log n) per lookup.
//!
//! `LineIndex::position` walks the line from its start, which is quadratic when a long line
//! carries many diagnostics (100,000 unclosed `(` on one line took minutes). This keeps
//! `LineIndex` for lines and a prefix count of UTF-16 units for columns; at character
//! boundaries the results are those of `LineIndex::position` (tested below).

use rex_compiler::{LineIndex, Position};

pub struct Positions {
    lines: LineIndex,
    /// `units[i]`: UTF-16 code units before byte `i`; a byte inside a character counts as the
    /// start of that character (rounded down, as `LineIndex::position` documents).
    units: Vec<u32>,
}

impl Positions {
    pub fn new(text: &str) -> Positions {
        let mut units = Vec::with_capacity(text.len() + 1);
        let mut count = 0u32;
        for ch in text.chars() {
            for _ in 0..ch.len_utf8() {
                units.push(count);
            }
            count += ch.len_utf16() as u32;
        }
        units.push(count);
        Positions {
            lines: LineIndex::new(text),
            units,
        }
    }

    pub fn position(&self, offset: usize) -> Position {
        let offset = offset.min(self.units.len() - 1);
        let line = self.lines.line_of(offset);
        let start = self.lines.line_start(line);
        Position {
            line: line as u32,
            character: self.units[offset] - self.units[start],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_line_index_everywhere() {
        let text = "ab\nλx → x\r\n\n𝔸z\u{feff}q\nlast";
        let fast = Positions::new(text);
        let slow = LineIndex::new(text);
        let boundaries =
            (0..text.len() + 3).filter(|&i| i >= text.len() || text.is_char_boundary(i));
        for offset in boundaries {
            assert_eq!(
                fast.position(offset),
                slow.position(text, offset),
                "offset {offset}"
            );
        }
    }

    #[test]
    fn offsets_inside_a_character_round_down() {
        let text = "a𝔸b";
        let fast = Positions::new(text);
        for offset in 1..5 {
            assert_eq!(fast.position(offset).character, 1);
        }
        assert_eq!(fast.position(5).character, 3);
    }

    #[test]
    fn empty_text() {
        let fast = Positions::new("");
        assert_eq!(fast.position(0), Position::default());
        assert_eq!(fast.position(5), Position::default());
    }
}

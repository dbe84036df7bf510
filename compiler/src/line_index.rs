//! Conversion between byte offsets and 0-based LSP positions (line, UTF-16 code unit).

/// A 0-based position as LSP counts it: line, and character in UTF-16 code units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Position {
    pub line: u32,
    pub character: u32,
}

/// Line starts of a text, for offset <-> position conversion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    line_starts: Vec<u32>,
    len: u32,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        // (`match_indices` finds each newline with `memchr`, not a byte at a time.)
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i as u32 + 1));
        LineIndex {
            line_starts,
            len: text.len() as u32,
        }
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The 0-based line holding `offset` (offsets past the end map to the last line).
    pub fn line_of(&self, offset: usize) -> usize {
        let offset = offset.min(self.len as usize) as u32;
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts.get(line).copied().unwrap_or(self.len) as usize
    }

    /// Byte column of `offset` within its line.
    pub fn byte_column(&self, offset: usize) -> usize {
        offset - self.line_start(self.line_of(offset))
    }

    /// The LSP position of a byte offset. Offsets inside a multi-byte character are rounded
    /// down to the character's start.
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let line = self.line_of(offset);
        let start = self.line_start(line);
        let mut character = 0u32;
        for (i, ch) in text[start..].char_indices() {
            if start + i >= offset || ch == '\n' {
                break;
            }
            character += ch.len_utf16() as u32;
        }
        Position {
            line: line as u32,
            character,
        }
    }

    /// The byte offset of an LSP position; positions past a line's end clamp to its end, and
    /// lines past the end clamp to the end of the text.
    pub fn offset(&self, text: &str, pos: Position) -> usize {
        if pos.line as usize >= self.line_starts.len() {
            return text.len();
        }
        let start = self.line_start(pos.line as usize);
        let mut units = 0u32;
        for (i, ch) in text[start..].char_indices() {
            if units >= pos.character || ch == '\n' {
                return start + i;
            }
            units += ch.len_utf16() as u32;
        }
        text.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_ascii_and_utf16() {
        let text = "ab\nλx → x\n\n𝔸z";
        let idx = LineIndex::new(text);
        assert_eq!(
            idx.position(text, 0),
            Position {
                line: 0,
                character: 0
            }
        );
        assert_eq!(
            idx.position(text, 3),
            Position {
                line: 1,
                character: 0
            }
        );
        // 'λ' is 2 bytes, 1 UTF-16 unit
        let x = text.find('x').unwrap();
        assert_eq!(
            idx.position(text, x),
            Position {
                line: 1,
                character: 1
            }
        );
        // '→' is 3 bytes, 1 unit
        let last_x = text.rfind('x').unwrap();
        assert_eq!(
            idx.position(text, last_x),
            Position {
                line: 1,
                character: 5
            }
        );
        // '𝔸' is 4 bytes, 2 units
        let z = text.find('z').unwrap();
        assert_eq!(
            idx.position(text, z),
            Position {
                line: 3,
                character: 2
            }
        );
        for off in [0, 3, x, last_x, z, text.len()] {
            assert_eq!(idx.offset(text, idx.position(text, off)), off);
        }
        assert_eq!(
            idx.offset(
                text,
                Position {
                    line: 0,
                    character: 99
                }
            ),
            2
        );
        assert_eq!(
            idx.offset(
                text,
                Position {
                    line: 99,
                    character: 0
                }
            ),
            text.len()
        );
    }
}

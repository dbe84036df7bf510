//! Splitting a file a chunk at a time, so that an edit lexes and lays out again only the
//! chunk it changed (`db::file_syntax` keeps each chunk's split under its text).
//!
//! A *chunk* starts at the file's start or at a line that begins with a declaration
//! keyword in column 1 (`fn`, `type`, `class`, `instance`, `import`, `pub`). Such a
//! keyword ends the item before it and resets the layout wherever it stands (see
//! `layout::bounds`), and a token in column 1 begins a lexeme, unless the line is inside
//! a string or a comment that an earlier line opened, or follows `pub`. So when every
//! chunk but the last ends outside strings and comments and not after `pub`, the chunks'
//! splits, each shifted to where its chunk starts, are the file's split; otherwise the
//! file is split whole. A chunk's lexer says which: a string or comment still open at its
//! end is one it reports as never closed.

use std::borrow::Borrow;

use super::parser::{self, Split};
use super::token::Tok;
use crate::diagnostic::Code;

/// Declaration keywords, each followed by what ends a word.
const KEYWORDS: [&str; 6] = ["fn", "type", "class", "instance", "import", "pub"];

/// Where each chunk of `text` starts: 0, then every line whose first byte begins a
/// declaration keyword.
pub fn starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    for (i, _) in text.match_indices('\n') {
        let rest = &bytes[i + 1..];
        // Most lines start with a space or a letter no keyword starts with.
        if !matches!(rest.first(), Some(b'f' | b't' | b'c' | b'i' | b'p')) {
            continue;
        }
        let keyword = KEYWORDS.iter().any(|k| {
            rest.starts_with(k.as_bytes())
                && !rest
                    .get(k.len())
                    .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
        });
        if keyword {
            starts.push(i + 1);
        }
    }
    starts
}

/// One chunk's split, with chunk-relative spans.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkSplit {
    pub split: Split,
    /// The column of its first token (0 without tokens): the file's base column when the
    /// chunk is the file's first.
    pub base: u32,
    /// Whether the text after it splits on its own: it ends outside any string or comment
    /// and not after `pub`.
    pub closed: bool,
}

/// Splits one chunk. `base` is the file's base column (`None` for the first chunk, which
/// sets it).
pub fn split_chunk(text: &str, base: Option<u32>) -> ChunkSplit {
    let (split, tokens) = parser::split_tokens(text, base);
    let open = split
        .diagnostics
        .iter()
        .any(|d| matches!(d.code, Code::UnterminatedString | Code::UnterminatedComment));
    let after_pub = tokens.last().is_some_and(|t| t.tok == Tok::Pub);
    ChunkSplit {
        split,
        base: super::layout::base_column(text, &tokens),
        closed: !open && !after_pub,
    }
}

/// `text` split as `parser::split` splits it, from the splits of its chunks that
/// `split_chunk` gives (the database's memo, or `split_chunk` itself).
pub fn split<S: Borrow<ChunkSplit>>(
    text: &str,
    mut split_chunk: impl FnMut(&str, Option<u32>) -> S,
) -> Split {
    let starts = starts(text);
    if starts.len() < 2 {
        return parser::split(text);
    }
    let mut out = Split {
        pieces: Vec::new(),
        diagnostics: Vec::new(),
    };
    let mut base = None;
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(text.len());
        let chunk = split_chunk(&text[start..end], base);
        let chunk = chunk.borrow();
        if !chunk.closed && end < text.len() {
            return parser::split(text);
        }
        base.get_or_insert(chunk.base);
        let delta = start as i64;
        out.pieces
            .extend(chunk.split.pieces.iter().map(|p| parser::Piece {
                span: p.span.shift(delta),
                origin: p.origin,
            }));
        out.diagnostics.extend(
            chunk
                .split
                .diagnostics
                .iter()
                .map(|d| d.clone().shifted(delta)),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_chunks(text: &str) -> Split {
        split(text, split_chunk)
    }

    #[test]
    fn chunks_start_at_declaration_keywords_in_column_one() {
        let text = "fn a : i32 = 1\n  fn b\nfnord = 2\ntype T = A\npub fn c : i32 = 3\nimport\n";
        let starts = starts(text);
        let at = |s: &str| text.find(s).unwrap();
        assert_eq!(
            starts,
            vec![0, at("type T"), at("pub fn"), at("import")],
            "{text:?}"
        );
    }

    #[test]
    fn chunks_split_as_the_whole_file() {
        let texts = [
            "fn a : i32 = 1\n\nfn b : i32 = a + 1\n\nb\n",
            // A result expression between declarations, a tentative group after one.
            "fn a : i32 -> i32 = \\x ->\n    x\n  + 1\n\na 1\n\nfn b : i32 = 2\n",
            // A program indented as a whole: its base column is its first token's.
            "  fn a : i32 = 1\nfn b : i32 = 2\n  b\n",
            // A record type's closing brace in column 1 continues it.
            "type R = R {\n  x: i32\n}\nfn f : R -> i32 = \\r -> r.x\n",
            // A string that spans a declaration line: the file is split whole.
            "fn a : string = \"one\nfn b\"\nfn c : i32 = 1\n",
            // A comment that spans one, and one never closed.
            "{- a\nfn b -}\nfn c : i32 = 1\n",
            "fn a : i32 = 1\n{- open\nfn c : i32 = 1\n",
            "fn a : i32 = 1 \"open\nfn c : i32 = 1\n",
            // `pub` at a line's end joins the declaration on the next line.
            "fn a : i32 = 1\npub\nfn c : i32 = 1\n",
            // Unbalanced brackets do not cross a declaration keyword.
            "fn a : i32 = (1 +\nfn c : i32 = 1)\n",
            "",
            "\n\nfn a : i32 = 1",
        ];
        for text in texts {
            assert_eq!(by_chunks(text), parser::split(text), "{text:?}");
        }
    }

    #[test]
    fn chunks_split_as_the_whole_file_for_the_prelude_and_after_edits() {
        let prelude = crate::db::PRELUDE_SOURCE;
        assert_eq!(by_chunks(prelude), parser::split(prelude));
        // Every edit that inserts one of the characters that open or close something, at
        // a spread of places.
        for insert in ["\"", "{-", "-}", "(", ")", "}", "pub\n", "\nfn ", "\n"] {
            for at in (0..prelude.len()).step_by(389) {
                if !prelude.is_char_boundary(at) {
                    continue;
                }
                let text = format!("{}{insert}{}", &prelude[..at], &prelude[at..]);
                assert_eq!(by_chunks(&text), parser::split(&text), "{insert:?} at {at}");
            }
        }
    }
}

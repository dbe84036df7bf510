//! What a fill's text may look like as it is written: where it ends, when it has fallen
//! into a loop, and the plain spacing the decoder holds it to.

/// Keywords that cannot go on an expression: a model that writes one after a complete
/// expression has ended the fill (`let x = <fill> in ...`).
pub(super) const ENDING_KEYWORDS: &[&str] = &["in", "then", "else"];

/// Whether the token `bytes` ends the fill rather than continuing it.
pub(super) fn ends_fill(bytes: &[u8], after: &str) -> bool {
    if bytes.first() == Some(&b'\n') {
        return true;
    }
    let Ok(s) = std::str::from_utf8(bytes) else {
        return false;
    };
    let word = s.trim();
    if word.is_empty() {
        return false;
    }
    let after = after.trim_start();
    // The token writes the first word of what follows the hole, whole.
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let writes_after = after.starts_with(word)
        && !(word.ends_with(ident) && after[word.len()..].starts_with(ident));
    ENDING_KEYWORDS.contains(&word) || writes_after
}

/// A sample whose text ends with the same piece this many times running is in a loop.
pub const LOOP_REPEATS: usize = 4;

/// The longest piece (bytes) a loop is looked for with.
pub(super) const LOOP_PIECE: usize = 24;

/// Whether `bytes` ends with one piece written `LOOP_REPEATS` times running (`(if (if (if
/// (if`, `:: x :: x :: x :: x`). A piece is 2 to `LOOP_PIECE` bytes with two different
/// bytes, one of them not a blank, so runs of one character are left alone.
pub(super) fn repeating(bytes: &[u8]) -> bool {
    (2..=LOOP_PIECE).any(|n| {
        let Some(start) = bytes.len().checked_sub(n * LOOP_REPEATS) else {
            return false;
        };
        let run = &bytes[start..];
        let piece = &run[..n];
        piece.iter().any(|c| !c.is_ascii_whitespace())
            && piece.iter().any(|c| *c != piece[0])
            && run.chunks(n).all(|c| c == piece)
    })
}

/// Whether `token` keeps the fill plain: one line, single spaces, no space just inside an
/// opening bracket, no comments. A small model whose likely tokens are all refused
/// otherwise drifts into runs of blanks or comments that the grammar and the oracle both
/// accept (they change nothing) and that lead it nowhere; and a model that has seen an
/// injected signature comment would copy it into the fill.
pub(super) fn spacing_ok(bytes: &[u8], token: &[u8]) -> bool {
    if token
        .iter()
        .any(|c| matches!(c, b'\n' | b'\r' | b'\t' | b'\x0c'))
    {
        return false;
    }
    let mut joined: Vec<u8> = bytes.last().copied().into_iter().collect();
    joined.extend_from_slice(token);
    if joined.windows(2).any(|w| w == b"{-") {
        return false;
    }
    // More than two opening brackets in a row lead nowhere a fill goes.
    let opening = |c: &u8| matches!(c, b'(' | b'[');
    if token.iter().any(opening) && longest_run(bytes, token, opening) > 2 {
        return false;
    }
    if token.first() == Some(&b' ') {
        if matches!(bytes.last(), Some(b' ' | b'(' | b'[')) {
            return false;
        }
        // A run of blanks in the token itself.
        if token.len() > 1 && token.iter().all(|c| *c == b' ') {
            return false;
        }
    }
    true
}

/// The longest run of bytes satisfying `f` in the last bytes of `bytes` and `token`.
pub(super) fn longest_run(bytes: &[u8], token: &[u8], f: impl Fn(&u8) -> bool) -> usize {
    let tail = &bytes[bytes.len().saturating_sub(3)..];
    let (mut best, mut run) = (0, 0);
    for c in tail.iter().chain(token) {
        run = if f(c) { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// A token of blanks only.
pub(super) fn blank(token: &[u8]) -> bool {
    token.iter().all(u8::is_ascii_whitespace)
}

/// Whether the word `bytes` ends with began at or after byte `at` (the last token started
/// it).
pub(super) fn word_started_at(bytes: &[u8], at: usize) -> bool {
    let word = trailing_word(bytes).len();
    word > 0 && bytes.len() - word >= at
}

/// The identifier characters at the end of `bytes`.
pub(super) fn trailing_word(bytes: &[u8]) -> String {
    let n = bytes
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count();
    String::from_utf8_lossy(&bytes[bytes.len() - n..]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fill_ends_where_the_program_goes_on() {
        assert!(ends_fill(b" in", ""));
        assert!(ends_fill(b")", ") + 1"));
        assert!(ends_fill(b"\n", "x"));
        assert!(!ends_fill(b" index", " in x"));
        assert!(!ends_fill(b" ", " in x"));
        assert!(!ends_fill(b" i", " in x"));
    }

    #[test]
    fn loops_are_seen_and_ordinary_code_is_not() {
        assert!(repeating(b"double (if (if (if (if "));
        assert!(repeating(b"f :: x :: x :: x :: x"));
        assert!(repeating(
            b"double (inc (double (inc (double (inc (double (inc (double (inc "
        ));
        assert!(!repeating(b"double (if (if (if "));
        assert!(!repeating(b"inc (inc (inc 1))"));
        assert!(!repeating(b"\\x -> x + 1"));
        assert!(!repeating(b"\"----------------------------"));
        assert!(!repeating(b"f x        "));
    }

    #[test]
    fn a_word_started_by_the_last_token_is_seen() {
        assert!(word_started_at(b"f (i", 3));
        assert!(word_started_at(b"f is", 1));
        assert!(!word_started_at(b"f is", 3));
        assert!(!word_started_at(b"f (", 2));
    }

    #[test]
    fn spacing_stays_plain() {
        assert!(spacing_ok(b"", b" qc"));
        assert!(spacing_ok(b"f", b" x"));
        assert!(spacing_ok(b"{", b" p"));
        assert!(!spacing_ok(b"f ", b" x"));
        assert!(!spacing_ok(b"f (", b" x"));
        assert!(!spacing_ok(b"f", b"  "));
        assert!(!spacing_ok(b"f", b"\t"));
        assert!(!spacing_ok(b"f", b" x\n"));
        // The fill is written on the line of the hole (a leading new line, tried, cost
        // the constrained benchmark row five tasks).
        assert!(!spacing_ok(b"", b"\n"));
        assert!(!spacing_ok(b"", b"\t"));
        assert!(!spacing_ok(b"f {", b"-"));
        assert!(!spacing_ok(b"f ", b"{- x"));
        assert!(spacing_ok(b"f ", b"{ p"));
        assert!(spacing_ok(b"f (", b"(g"));
        assert!(!spacing_ok(b"f ((", b"(g"));
        assert!(!spacing_ok(b"", b"((("));
        assert!(!spacing_ok(b"x is ((", b"("));
        assert!(spacing_ok(b"x is ((", b"List"));
    }
}

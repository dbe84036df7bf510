//! Common syntax slips: `=>` where an arm's `->` belongs, and a `let` whose `in` is
//! missing. Read from the parser's expected tokens and the text it met; kept only if the
//! document then has fewer syntax errors.

use rex_compiler::{Code, Diagnostic, DiagnosticData, Span};

use super::{Fix, FixKind};
use crate::edit::Replace;
use crate::limits::MAX_MISSING_IN_SITES;
use crate::locate::Document;
use crate::verify::syntax_errors_with;

pub fn fixes(doc: &Document<'_>, d: &Diagnostic, out: &mut Vec<Fix>) {
    let expected = match &d.data {
        DiagnosticData::UnexpectedToken {
            expected_tokens, ..
        }
        | DiagnosticData::UnexpectedEof {
            expected_tokens, ..
        } => expected_tokens,
        _ => return,
    };
    let expects = |t: &str| expected.iter().any(|e| e == t);
    let found = doc.text.get(d.span.start as usize..d.span.end as usize);
    let Some(before) = syntax_errors_with(doc, &[]) else {
        return;
    };
    let helps = |edits: &[Replace]| syntax_errors_with(doc, edits).is_some_and(|n| n < before);
    if d.code == Code::UnexpectedToken && found == Some("=>") && expects("->") {
        let edit = vec![Replace::new(d.span, "->")];
        if helps(&edit) {
            out.push(Fix::new(
                FixKind::ReplaceArrow,
                "Replace `=>` with `->`",
                edit,
            ));
        }
    }
    if expects("in") {
        if let Some(edit) = missing_in(doc, d.span, &helps) {
            out.push(Fix::new(
                FixKind::InsertIn,
                "Insert the missing `in`",
                vec![edit],
            ));
        }
    }
}

/// Where the `in` of the nearest `let` before the error goes: the first line end after the
/// `let` (up to the error) at which inserting it reads better.
fn missing_in(doc: &Document<'_>, at: Span, helps: &dyn Fn(&[Replace]) -> bool) -> Option<Replace> {
    let text = doc.text;
    let end = (at.start as usize).min(text.len());
    let let_at = last_keyword(&text[..end], "let")?;
    let mut tried = 0;
    let mut i = let_at;
    while let Some(nl) = text[i..end].find('\n') {
        let line_end = i + nl;
        let edit = Replace::new(Span::empty(line_end), " in");
        if helps(std::slice::from_ref(&edit)) {
            return Some(edit);
        }
        tried += 1;
        if tried >= MAX_MISSING_IN_SITES {
            return None;
        }
        i = line_end + 1;
    }
    // The error is on the `let`'s own line: the `in` goes right before it.
    let edit = Replace::new(Span::empty(end), " in");
    helps(std::slice::from_ref(&edit)).then_some(edit)
}

/// The byte offset of the last occurrence of `word` as a whole word.
fn last_keyword(text: &str, word: &str) -> Option<usize> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut end = text.len();
    while let Some(i) = text[..end].rfind(word) {
        let before_ok = text[..i].chars().next_back().is_none_or(|c| !is_ident(c));
        let after_ok = text[i + word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !is_ident(c));
        if before_ok && after_ok {
            return Some(i);
        }
        end = i;
    }
    None
}

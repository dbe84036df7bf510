//! Bracket-local recovery, for the item parser's fallback reading: when the grammar failed
//! inside a bracket pair, the comma-separated element holding the failure is replaced by
//! one `Skipped` token (an error node wherever an atom may stand). The damage of a fault
//! inside brackets so stays inside them, where the grammar's own recovery would unwind to
//! the nearest binding or arm and report the rest of the item again.

use std::ops::Range;

use super::brackets::{Nesting, Step};
use super::lexer::Token;
use super::token::Tok;
use crate::span::Span;

/// One replacement of tokens by a `Skipped` token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collapse {
    /// The token indices replaced (empty: a missing element, inserted before `range.start`).
    pub range: Range<usize>,
    /// The text the `Skipped` token stands for.
    pub span: Span,
    /// The token index of the pair's opener.
    pub opener: usize,
}

/// Plans the collapse for a failure at `error` (a token's span, or an empty span where a
/// virtual token stands) in balanced tokens; `None` when it is not inside brackets.
pub fn plan(tokens: &[Token<'_>], error: Span) -> Option<Collapse> {
    let e = tokens
        .iter()
        .position(|t| t.span == error)
        .unwrap_or_else(|| tokens.partition_point(|t| t.span.start < error.start));
    if e >= tokens.len() {
        return None;
    }
    // The innermost pair around the failure, its closer, and the commas and the last
    // introducer before the failure directly inside it.
    let mut nesting = Nesting::default();
    let mut enclosing: Vec<Option<usize>> = Vec::with_capacity(tokens.len());
    let mut close = None;
    for (i, t) in tokens.iter().enumerate() {
        enclosing.push(nesting.innermost());
        if let Step::Close(opener) = nesting.step(i, t.tok) {
            nesting.closed_inside(opener);
            if i >= e && Some(opener) == enclosing[e] {
                close = Some(i);
                break;
            }
        }
    }
    let o = enclosing[e]?;
    let c = close?;
    let direct = |i: usize| enclosing[i] == Some(o);
    let a = (o + 1..e)
        .rev()
        .find(|&i| direct(i) && tokens[i].tok == Tok::Comma)
        .unwrap_or(o);
    let z = (e..c)
        .find(|&i| direct(i) && tokens[i].tok == Tok::Comma)
        .unwrap_or(c);
    // Within the element, keep what comes before the last token that introduces a missing or
    // broken part (`b = _`, `x: _`, `\x -> _`, `1 + _`): only the part after it is lost.
    let introducer = (a + 1..e)
        .rev()
        .find(|&i| direct(i) && introduces(tokens[i].tok));
    let range = introducer.unwrap_or(a) + 1..z;
    let span = if range.is_empty() {
        Span::empty(tokens[z].span.start as usize)
    } else {
        tokens[range.start].span.cover(tokens[z - 1].span)
    };
    Some(Collapse {
        range,
        span,
        opener: o,
    })
}

/// Tokens after which an operand, value or type must follow.
fn introduces(tok: Tok<'_>) -> bool {
    matches!(
        tok,
        Tok::Eq
            | Tok::Colon
            | Tok::Arrow
            | Tok::Then
            | Tok::Else
            | Tok::In
            | Tok::Op(_)
            | Tok::Minus
            | Tok::Star
            | Tok::LtEq
            | Tok::ColonColon
    )
}

/// Applies a planned collapse.
pub fn apply(tokens: &mut Vec<Token<'_>>, c: &Collapse) {
    tokens.splice(
        c.range.clone(),
        [Token {
            tok: Tok::Skipped,
            span: c.span,
        }],
    );
}

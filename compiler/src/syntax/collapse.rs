//! Bracket-local recovery. When the grammar fails inside a bracket pair, the driver replaces
//! the comma-separated element holding the failure with one `Skipped` token (an error node
//! wherever an atom may stand) and parses again; a second failure in the same pair replaces
//! the whole pair. The damage of a fault inside brackets so stays inside them, where the
//! grammar's own recovery would unwind to the nearest binding or arm and report the rest of
//! the item again.

use std::ops::Range;

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
    /// Where the pair's opener starts: identifies the pair across collapses.
    pub opener: u32,
    /// The whole pair, brackets included, is replaced.
    pub whole: bool,
}

/// Plans the collapse for a failure at `error` (a token's span, or an empty span where a
/// virtual token stands). `collapsed` lists the openers of pairs already collapsed once.
pub fn plan(tokens: &[Token<'_>], error: Span, collapsed: &[u32]) -> Option<Collapse> {
    let e = tokens
        .iter()
        .position(|t| t.span == error)
        .unwrap_or_else(|| tokens.partition_point(|t| t.span.start < error.start));
    if e >= tokens.len() {
        return None;
    }
    let mut open = Vec::new();
    for (i, t) in tokens[..e].iter().enumerate() {
        if t.tok.opens() {
            open.push(i);
        } else if t.tok.closes() {
            open.pop();
        }
    }
    let o = *open.last()?;
    let mut depth = 0usize;
    let mut commas = Vec::new();
    let mut close = None;
    for (i, t) in tokens.iter().enumerate().skip(o + 1) {
        if t.tok.opens() {
            depth += 1;
        } else if t.tok.closes() {
            if depth == 0 {
                close = Some(i);
                break;
            }
            depth -= 1;
        } else if depth == 0 && t.tok == Tok::Comma {
            commas.push(i);
        }
    }
    let c = close?;
    let opener = tokens[o].span.start;
    if collapsed.contains(&opener) {
        return Some(Collapse {
            range: o..c + 1,
            span: tokens[o].span.cover(tokens[c].span),
            opener,
            whole: true,
        });
    }
    let a = commas.iter().rev().copied().find(|&i| i < e).unwrap_or(o);
    let z = commas.iter().copied().find(|&i| i >= e).unwrap_or(c);
    // Within the element, keep what comes before the last token that introduces a missing or
    // broken part (`b = _`, `x: _`, `\x -> _`, `1 + _`): only the part after it is lost.
    let mut depth = 0usize;
    let mut introducer = None;
    for (i, t) in tokens.iter().enumerate().take(e).skip(a + 1) {
        if t.tok.opens() {
            depth += 1;
        } else if t.tok.closes() {
            depth = depth.saturating_sub(1);
        } else if depth == 0 && introduces(t.tok) {
            introducer = Some(i);
        }
    }
    let range = introducer.unwrap_or(a) + 1..z;
    let span = if range.is_empty() {
        Span::empty(tokens[z].span.start as usize)
    } else {
        tokens[range.start].span.cover(tokens[z - 1].span)
    };
    Some(Collapse {
        range,
        span,
        opener,
        whole: false,
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

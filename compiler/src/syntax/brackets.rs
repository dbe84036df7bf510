//! Brackets: the one place where bracket nesting is counted. [`Nesting`] follows the open
//! brackets of a token stream (the layout rules ask it whether a closer continues an item);
//! [`balance`] makes an item's brackets whole before the grammar sees them, so the
//! grammar's bracket-level error productions can always resynchronise:
//!
//! * a closer with no opener is dropped (and reported);
//! * an opener never closed gets a virtual closer (and is reported): before the first later
//!   line that starts at or left of the opener's column (such a line is not inside the
//!   bracket, unless it starts with a comma or an operator or the line before it ends
//!   with one), else before the closer of an enclosing bracket, a member line or the end of
//!   the item, whichever comes first;
//! * in a class or instance body, a separator goes before each member line (a line after the
//!   header starting at or left of the first such line); it closes every bracket still open,
//!   so an unclosed bracket damages one member only.

use super::layout::{self, Laid};
use super::lexer::Token;
use super::token::Tok;
use crate::diagnostic::{Code, Diagnostic, DiagnosticData};
use crate::span::Span;

/// The deepest bracket nesting an item may have. Deeper input is reported, not parsed, so
/// no later pass can exhaust the stack on it.
pub const MAX_BRACKET_DEPTH: usize = 256;

/// How many closers without an opener explain the grammar errors before them (each looks
/// back through its bracket, so an item of nothing but stray closers stays linear).
const MAX_EXPLAINING_STRAYS: usize = 8;

/// The brackets open at a point of a token stream, innermost last, with their token indices.
#[derive(Clone, Debug, Default)]
pub struct Nesting<'a> {
    open: Vec<(usize, Tok<'a>)>,
    /// How many of each kind are open (`(`, `[`, `{`): a closer of a kind not open is stray
    /// without a search, so no input makes the matching quadratic.
    count: [usize; 3],
}

/// What one token did to the nesting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Not a bracket.
    Other,
    /// An opener, now the innermost open bracket.
    Open,
    /// A closer matching the opener at this token index; the brackets opened inside that
    /// one and still open were closed with it (see [`Nesting::closed_inside`]).
    Close(usize),
    /// A closer that matches no open bracket.
    Stray,
}

impl<'a> Nesting<'a> {
    /// How many brackets are open.
    pub fn depth(&self) -> usize {
        self.open.len()
    }

    /// Whether the opener at token index `index` is still open.
    pub fn is_open(&self, index: usize) -> bool {
        self.open.iter().any(|(i, _)| *i == index)
    }

    /// The token index of the innermost open bracket.
    pub fn innermost(&self) -> Option<usize> {
        self.open.last().map(|(i, _)| *i)
    }

    /// Takes token `index` into account. A closer matches the innermost open bracket of its
    /// kind; one that matches none is stray and changes nothing.
    pub fn step(&mut self, index: usize, tok: Tok<'a>) -> Step {
        if tok.opens() {
            self.open.push((index, tok));
            self.count[kind(tok)] += 1;
            Step::Open
        } else if tok.closes() {
            if self.count[kind(tok)] == 0 {
                return Step::Stray;
            }
            match self.open.iter().rposition(|(_, o)| closer_for(*o) == tok) {
                Some(pos) => Step::Close(self.open[pos].0),
                None => Step::Stray,
            }
        } else {
            Step::Other
        }
    }

    /// After a [`Step::Close`] of the opener at `opener`: pops it and returns the openers
    /// left open inside it, innermost first.
    pub fn closed_inside(&mut self, opener: usize) -> Vec<(usize, Tok<'a>)> {
        // The usual case, without a search or an allocation.
        if self.innermost() == Some(opener) {
            self.pop();
            return Vec::new();
        }
        let Some(pos) = self.open.iter().rposition(|(i, _)| *i == opener) else {
            return Vec::new();
        };
        let mut inside = self.open.split_off(pos + 1);
        self.pop();
        for (_, tok) in &inside {
            self.count[kind(*tok)] -= 1;
        }
        inside.reverse();
        inside
    }

    /// Closes everything still open, innermost first.
    pub fn close_all(&mut self) -> Vec<(usize, Tok<'a>)> {
        self.count = [0; 3];
        let mut all = std::mem::take(&mut self.open);
        all.reverse();
        all
    }

    fn pop(&mut self) -> Option<(usize, Tok<'a>)> {
        let popped = self.open.pop();
        if let Some((_, tok)) = popped {
            self.count[kind(tok)] -= 1;
        }
        popped
    }
}

/// The kind of a bracket, opener or closer: 0 for parentheses, 1 for square brackets, 2 for
/// braces.
fn kind(tok: Tok<'_>) -> usize {
    match tok {
        Tok::LParen | Tok::RParen => 0,
        Tok::LBracket | Tok::RBracket => 1,
        _ => 2,
    }
}

/// The closer that matches an opener.
pub fn closer_for(open: Tok<'_>) -> Tok<'static> {
    match open {
        Tok::LParen => Tok::RParen,
        Tok::LBracket => Tok::RBracket,
        _ => Tok::RBrace,
    }
}

/// An item's tokens with whole brackets, ready for the grammar.
#[derive(Debug)]
pub struct Balanced<'a> {
    pub tokens: Vec<Token<'a>>,
    /// From the first to the last real token.
    pub span: Span,
    /// Unclosed and unmatched brackets, nesting too deep.
    pub diagnostics: Vec<Diagnostic>,
    /// Set when the item nests too deeply to be parsed safely.
    pub too_deep: bool,
    /// Positions of the tokens whose grammar errors a closer without an opener explains:
    /// those before it in its bracket (back to the bracket's opener, or the item's start),
    /// outside brackets nested in between. A missing opener makes the grammar fail there;
    /// the stray closer is the diagnostic that says what is wrong.
    pub explained: Vec<u32>,
    /// For each token (by index), the innermost bracket open around it; empty when the
    /// brackets were whole already (then [`enclosing`] gives it).
    pub enclosing: Vec<Option<usize>>,
    /// The openers that got a virtual closer, by token index.
    pub unclosed: Vec<usize>,
}

/// Balances the brackets of an item's tokens and separates its members (see the module
/// comment).
pub fn balance<'a>(tokens: &[Laid<'a>], close_before: &[(usize, usize)]) -> Balanced<'a> {
    let span = match (tokens.first(), tokens.last()) {
        (Some(f), Some(l)) => f.token.span.cover(l.token.span),
        _ => Span::default(),
    };
    let separators = member_lines(tokens);
    if close_before.is_empty() {
        if let Some(whole) = already_whole(tokens, &separators, span) {
            return whole;
        }
    }
    let matched = matched_openers(tokens, &separators);
    let mut out = Balanced {
        tokens: Vec::with_capacity(tokens.len() + 4),
        span,
        diagnostics: Vec::new(),
        too_deep: false,
        explained: Vec::new(),
        enclosing: Vec::with_capacity(tokens.len()),
        unclosed: Vec::new(),
    };
    let mut nesting = Nesting::default();
    let mut next_sep = separators.iter().peekable();
    let mut strays = 0;
    for (i, laid) in tokens.iter().enumerate() {
        let at = laid.token.span.start;
        for &(opener, _) in close_before.iter().filter(|(_, before)| *before == i) {
            out.close_through(&mut nesting, tokens, opener, at);
        }
        if next_sep.next_if_eq(&&i).is_some() {
            for (opener, _) in nesting.close_all() {
                out.close(tokens, opener, at);
            }
            out.tokens.push(virtual_token(Tok::Sep, at));
        } else if laid.line_start
            && !continues(laid.token.tok)
            && !i
                .checked_sub(1)
                .is_some_and(|p| expects_more(tokens[p].token.tok))
        {
            // Unclosed brackets end before a line that is not inside them.
            while let Some(opener) = nesting.innermost() {
                if matched[opener] || tokens[opener].col < laid.col {
                    break;
                }
                nesting.pop();
                out.close(tokens, opener, at);
            }
        }
        out.enclosing.push(nesting.innermost());
        match nesting.step(i, laid.token.tok) {
            Step::Other => out.tokens.push(laid.token),
            Step::Open => {
                if nesting.depth() > MAX_BRACKET_DEPTH && !out.too_deep {
                    out.too_deep = true;
                    out.diagnostics.push(too_deep(laid.token.span));
                }
                out.tokens.push(laid.token);
            }
            Step::Close(opener) => {
                for (inner, _) in nesting.closed_inside(opener) {
                    out.close(tokens, inner, at);
                }
                out.tokens.push(laid.token);
            }
            Step::Stray => {
                out.diagnostics.push(stray(laid.token));
                strays += 1;
                if strays > MAX_EXPLAINING_STRAYS {
                    continue;
                }
                let reach = out.enclosing[i];
                let enclosing = &out.enclosing;
                out.explained.extend(
                    (0..i)
                        .rev()
                        .take_while(|&j| Some(j) != reach)
                        .filter(|&j| enclosing[j] == reach)
                        .map(|j| tokens[j].token.span.start),
                );
            }
        }
    }
    for (opener, _) in nesting.close_all() {
        out.close(tokens, opener, span.end);
    }
    out.explained.sort_unstable();
    out
}

impl Balanced<'_> {
    /// A virtual closer for `opener` at `at`, reported (but past the nesting limit the item
    /// is not analysed, and one diagnostic says so).
    fn close(&mut self, tokens: &[Laid<'_>], index: usize, at: u32) {
        self.unclosed.push(index);
        let opener = tokens[index].token;
        let closer = closer_for(opener.tok);
        if !self.too_deep {
            self.diagnostics.push(
                Diagnostic::error(
                    Code::UnexpectedEof,
                    opener.span,
                    format!("{} is never closed; add {closer}", opener.tok),
                )
                .with_data(DiagnosticData::UnexpectedEof {
                    expected: vec![closer.to_string()],
                    expected_tokens: closer.fixed_text().into_iter().map(Into::into).collect(),
                }),
            );
        }
        self.tokens.push(virtual_token(closer, at));
    }

    /// Closes the opener at token index `opener` (and those opened inside it) at `at`, if
    /// it is still open.
    fn close_through(
        &mut self,
        nesting: &mut Nesting<'_>,
        tokens: &[Laid<'_>],
        opener: usize,
        at: u32,
    ) {
        if !nesting.is_open(opener) {
            return;
        }
        for (inner, _) in nesting.closed_inside(opener) {
            self.close(tokens, inner, at);
        }
        self.close(tokens, opener, at);
    }
}

/// The common case in one pass: when every bracket is closed by its own closer within its
/// member (and nests no deeper than the limit), the tokens are only copied, with the member
/// separators; `None` otherwise.
fn already_whole<'a>(
    tokens: &[Laid<'a>],
    separators: &[usize],
    span: Span,
) -> Option<Balanced<'a>> {
    let mut out = Vec::with_capacity(tokens.len() + separators.len());
    let mut nesting = Nesting::default();
    let mut next_sep = separators.iter().peekable();
    for (i, laid) in tokens.iter().enumerate() {
        if next_sep.next_if_eq(&&i).is_some() {
            if nesting.depth() > 0 {
                return None;
            }
            out.push(virtual_token(Tok::Sep, laid.token.span.start));
        }
        let innermost = nesting.innermost();
        match nesting.step(i, laid.token.tok) {
            Step::Other => {}
            Step::Open if nesting.depth() <= MAX_BRACKET_DEPTH => {}
            Step::Close(opener) if Some(opener) == innermost => {
                nesting.closed_inside(opener);
            }
            Step::Open | Step::Close(_) | Step::Stray => return None,
        }
        out.push(laid.token);
    }
    (nesting.depth() == 0).then_some(Balanced {
        tokens: out,
        span,
        diagnostics: Vec::new(),
        too_deep: false,
        explained: Vec::new(),
        // Only a rejected item asks (see `enclosing`).
        enclosing: Vec::new(),
        unclosed: Vec::new(),
    })
}

/// For each token (by index), the innermost bracket open around it: what `balance` records,
/// for tokens whose brackets are already whole.
pub fn enclosing(tokens: &[Laid<'_>]) -> Vec<Option<usize>> {
    let mut nesting = Nesting::default();
    tokens
        .iter()
        .enumerate()
        .map(|(i, laid)| {
            let around = nesting.innermost();
            if let Step::Close(opener) = nesting.step(i, laid.token.tok) {
                nesting.closed_inside(opener);
            }
            around
        })
        .collect()
}

/// Which openers a real closer matches, by token index, given where the member separators
/// go (a separator closes every bracket still open).
fn matched_openers(tokens: &[Laid<'_>], separators: &[usize]) -> Vec<bool> {
    let mut matched = vec![false; tokens.len()];
    let mut nesting = Nesting::default();
    let mut next_sep = separators.iter().peekable();
    for (i, laid) in tokens.iter().enumerate() {
        if next_sep.next_if_eq(&&i).is_some() {
            nesting.close_all();
        }
        if let Step::Close(opener) = nesting.step(i, laid.token.tok) {
            nesting.closed_inside(opener);
            matched[opener] = true;
        }
    }
    matched
}

/// The token indices before which a class or instance body takes a member separator.
fn member_lines(tokens: &[Laid<'_>]) -> Vec<usize> {
    let Some(member_col) = layout::member_column(tokens) else {
        return Vec::new();
    };
    let header_line = tokens.first().map_or(0, |t| t.line);
    (0..tokens.len())
        .filter(|&i| {
            let t = &tokens[i];
            t.line_start && t.line != header_line && t.col <= member_col
        })
        .collect()
}

/// Tokens after which a line break cannot end a bracket's contents: a comma, an operator,
/// an opener, or a word that something must follow.
fn expects_more(tok: Tok<'_>) -> bool {
    tok.opens()
        || continues(tok)
        || matches!(
            tok,
            Tok::Eq
                | Tok::Colon
                | Tok::FatArrow
                | Tok::Backslash
                | Tok::Let
                | Tok::In
                | Tok::If
                | Tok::Then
                | Tok::Else
                | Tok::Match
                | Tok::When
                | Tok::With
        )
}

/// Tokens that continue the text before them when they start a line (a leading comma or
/// operator), so such a line is inside any bracket open before it.
fn continues(tok: Tok<'_>) -> bool {
    matches!(
        tok,
        Tok::Comma
            | Tok::Op(_)
            | Tok::Minus
            | Tok::Star
            | Tok::LtEq
            | Tok::ColonColon
            | Tok::Bar
            | Tok::Dot
            | Tok::Arrow
    )
}

fn too_deep(at: Span) -> Diagnostic {
    Diagnostic::error(
        Code::NestingTooDeep,
        at,
        format!("brackets nest more than {MAX_BRACKET_DEPTH} deep here; this item is not analysed"),
    )
    .with_data(DiagnosticData::NestingTooDeep {
        limit: MAX_BRACKET_DEPTH,
    })
}

fn stray(tok: Token<'_>) -> Diagnostic {
    Diagnostic::error(
        Code::UnexpectedToken,
        tok.span,
        format!("{} has no matching opening bracket", tok.tok),
    )
    .with_data(DiagnosticData::UnexpectedToken {
        found: tok.tok.to_string(),
        expected: vec![],
        expected_tokens: vec![],
        skipped: vec![tok.span],
    })
}

fn virtual_token(tok: Tok<'static>, at: u32) -> Token<'static> {
    Token {
        tok,
        span: Span { start: at, end: at },
    }
}

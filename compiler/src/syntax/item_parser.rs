//! Parsing one item: brackets balanced, the grammar run once with its own error recovery
//! (lalrpop's `!` productions at bracket, binding, arm, member and item level), and one
//! fallback reading; then one fault, one diagnostic.
//!
//! * The fallback, only for an item the grammar rejected: the grammar runs once more on a
//!   repaired token stream and the reading with fewer diagnostics is kept. The repair uses
//!   what the first run found: each bracket left unclosed is closed right before the first
//!   failure inside it (rather than where the layout rules put its closer), and in each
//!   bracket pair with a failure, the comma-separated element holding the first one is
//!   replaced by one `Skipped` token (see `collapse.rs`), so its damage stays inside the
//!   pair where the grammar's recovery would unwind to the nearest binding or arm. So an item
//!   takes at most [`MAX_GRAMMAR_RUNS_PER_ITEM`] grammar runs.
//! * Cascades are folded: one diagnostic per line, and a bracket diagnostic (unclosed or
//!   unmatched) stands for the grammar errors on its line, since they are its consequence;
//!   a closer without an opener also stands for the grammar errors before it in its bracket.
//! * Deep nesting is refused after the parse (which itself never recurses): an item nested
//!   deeper than [`MAX_EXPR_DEPTH`] becomes an error item with one diagnostic.

use std::cell::Cell;
use std::collections::HashSet;

use lalrpop_util::ParseError;

use super::ast::{Arena, Item, ItemKind};
use super::brackets::{self, Balanced};
use super::builder::{Builder, Recovery};
use super::collapse;
use super::expected;
use super::grammar::ItemParser;
use super::layout::Laid;
use super::lexer::Token;
use super::token::Tok;
use crate::diagnostic::{Code, Diagnostic, DiagnosticData};
use crate::span::Span;

/// The deepest nesting of expressions, patterns or types accepted; deeper items are reported
/// and not analysed, so no later pass can exhaust the stack on them.
pub const MAX_EXPR_DEPTH: usize = 1000;

/// The grammar runs one parse of an item takes at most: the reading and the fallback.
pub const MAX_GRAMMAR_RUNS_PER_ITEM: usize = 2;

/// At most this many syntax diagnostics are reported per item; the rest are noise.
const MAX_DIAGNOSTICS_PER_ITEM: usize = 8;

thread_local! {
    /// Grammar runs on this thread so far (see [`grammar_runs`]).
    static GRAMMAR_RUNS: Cell<usize> = const { Cell::new(0) };
}

/// How many times the grammar has run on this thread: what a test reads to bound the
/// recovery's work.
pub fn grammar_runs() -> usize {
    GRAMMAR_RUNS.with(Cell::get)
}

/// One item as parsed, with the tokens it came from.
pub(crate) struct ParsedItem<'a> {
    pub tokens: Vec<Laid<'a>>,
    pub item: Item,
    /// Absolute spans, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// The absolute position of the first error the grammar met outside brackets, if any
    /// (one inside brackets is confined to them: no other cut into items would help).
    pub first_error: Option<u32>,
    /// How many errors the grammar met (some may be folded into one diagnostic).
    pub errors: usize,
}

impl ParsedItem<'_> {
    pub fn is_clean(&self) -> bool {
        self.diagnostics.is_empty()
    }

    /// Fewer diagnostics first; among equals, fewer grammar errors behind them (folding may
    /// hide them behind another diagnostic, but the tree still suffers).
    pub fn cost(&self) -> (usize, usize) {
        (self.diagnostics.len(), self.errors)
    }
}

/// Parses an item's tokens: one reading, and the fallback when the grammar rejected it
/// (see the module comment).
pub(crate) fn parse_item<'a>(tokens: &[Laid<'a>]) -> ParsedItem<'a> {
    let first = read(tokens, &[], &[]);
    if first.faults.is_empty() {
        return first.parsed;
    }
    let close_before: Vec<(usize, usize)> = first
        .unclosed
        .iter()
        .filter_map(|&opener| {
            first_failure_inside(tokens, opener, &first.enclosing, &first.failures)
                .map(|at| (opener, at))
        })
        .collect();
    // Without an unclosed bracket or a fault inside brackets, the repair would change
    // nothing.
    let in_brackets = |f: &Diagnostic| {
        let i = tokens.partition_point(|t| t.token.span.start < f.span.start);
        tokens
            .get(i)
            .is_some_and(|t| first.enclosing[i].is_some() || t.token.tok.closes())
    };
    if first.unclosed.is_empty() && !first.faults.iter().any(in_brackets) {
        return first.parsed;
    }
    let second = read(tokens, &close_before, &first.faults);
    if second.parsed.cost() <= first.parsed.cost() {
        second.parsed
    } else {
        first.parsed
    }
}

/// The index of the first token directly inside the bracket opened at `opener` (not inside
/// a bracket nested in it) where the grammar failed (`failures` is sorted).
fn first_failure_inside(
    tokens: &[Laid<'_>],
    opener: usize,
    enclosing: &[Option<usize>],
    failures: &[u32],
) -> Option<usize> {
    (opener + 1..tokens.len())
        .take_while(|&i| enclosing[i].is_some_and(|o| o >= opener))
        .find(|&i| {
            enclosing[i] == Some(opener)
                && failures.binary_search(&tokens[i].token.span.start).is_ok()
        })
}

/// One reading of an item, with what the fallback needs to know about it.
struct Reading<'a> {
    parsed: ParsedItem<'a>,
    /// The grammar's errors (absolute spans, sorted).
    faults: Vec<Diagnostic>,
    /// Where the grammar failed (absolute, sorted).
    failures: Vec<u32>,
    /// From balancing: see [`Balanced`].
    enclosing: Vec<Option<usize>>,
    unclosed: Vec<usize>,
}

/// Balances the tokens (each `close_before` pair: an unclosed opener's closer goes before
/// that token), collapses the elements around `collapse_at` that lie inside brackets,
/// runs the grammar once, and folds the diagnostics.
fn read<'a>(
    tokens: &[Laid<'a>],
    close_before: &[(usize, usize)],
    collapse_at: &[Diagnostic],
) -> Reading<'a> {
    let mut balanced = brackets::balance(tokens, close_before);
    let explained = std::mem::take(&mut balanced.explained);
    let mut enclosing = std::mem::take(&mut balanced.enclosing);
    let unclosed = std::mem::take(&mut balanced.unclosed);
    let parse = parse_balanced(balanced, collapse_at);
    // `parse.grammar` is sorted and has one error per position.
    let failures: Vec<u32> = parse.grammar.iter().map(|d| d.span.start).collect();
    if !failures.is_empty() && enclosing.is_empty() {
        enclosing = brackets::enclosing(tokens);
    }
    let first_error = failures.iter().copied().find(|&at| {
        let i = tokens.partition_point(|t| t.token.span.start < at);
        enclosing.get(i).is_none_or(Option::is_none)
    });
    let faults = parse.grammar.clone();
    let mut grammar = parse.grammar;
    grammar.retain(|d| explained.binary_search(&d.span.start).is_err());
    let mut diagnostics = fold_cascades(tokens, parse.layout, grammar);
    diagnostics.truncate(MAX_DIAGNOSTICS_PER_ITEM);
    Reading {
        parsed: ParsedItem {
            tokens: tokens.to_vec(),
            item: parse.item,
            diagnostics,
            first_error,
            errors: failures.len(),
        },
        faults,
        failures,
        enclosing,
        unclosed,
    }
}

/// One diagnostic per line: a layout diagnostic (an unclosed or unmatched bracket, nesting
/// too deep) stands for the grammar errors on its line, and otherwise the line's first
/// grammar error stands for the rest.
fn fold_cascades(
    tokens: &[Laid<'_>],
    layout: Vec<Diagnostic>,
    grammar: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let line_of = |d: &Diagnostic| {
        let i = tokens.partition_point(|t| t.token.span.start < d.span.start);
        tokens.get(i).or(tokens.last()).map_or(0, |t| {
            if t.token.span.start > d.span.start && i > 0 {
                // Between tokens: the error belongs with the token before.
                tokens[i - 1].line
            } else {
                t.line
            }
        })
    };
    let mut taken: HashSet<u32> = layout.iter().map(line_of).collect();
    let mut out = layout;
    for d in grammar {
        if taken.insert(line_of(&d)) {
            out.push(d);
        }
    }
    out.sort_by_key(|d| (d.span.start, d.span.end));
    out
}

/// An item parsed from balanced tokens: diagnostics with absolute spans, kept apart by
/// origin.
struct BalancedParse {
    item: Item,
    /// From balancing (brackets) and depth checks.
    layout: Vec<Diagnostic>,
    /// From the grammar, sorted, one per position.
    grammar: Vec<Diagnostic>,
}

/// Runs the grammar on balanced tokens, with the element around `collapse_at` (an error of
/// an earlier reading) replaced by a `Skipped` token when it lies inside brackets. The
/// item's tree uses spans relative to its start, so an edit elsewhere in the file leaves it
/// equal (and analyses of it reusable).
fn parse_balanced(balanced: Balanced<'_>, collapse_at: &[Diagnostic]) -> BalancedParse {
    let offset = balanced.span.start;
    let mut layout = balanced.diagnostics;
    let rel = |s: Span| Span {
        start: s.start.saturating_sub(offset),
        end: s.end.saturating_sub(offset),
    };
    let error_item = || Item {
        kind: ItemKind::Error,
        offset,
        span: rel(balanced.span),
        arena: Arena::default(),
    };
    if balanced.too_deep || balanced.tokens.is_empty() {
        return BalancedParse {
            item: error_item(),
            layout,
            grammar: Vec::new(),
        };
    }
    let mut tokens: Vec<Token<'_>> = balanced
        .tokens
        .iter()
        .map(|t| Token {
            tok: t.tok,
            span: rel(t.span),
        })
        .collect();
    let end = rel(balanced.span).end as usize;
    let shift = offset as i64;
    let mut grammar: Vec<Diagnostic> = Vec::new();
    // One collapse per bracket pair, for its first fault; later faults inside text already
    // skipped are the same fault seen again.
    let mut collapses: Vec<collapse::Collapse> = Vec::new();
    for fault in collapse_at {
        let fault = fault.clone().shifted(-shift);
        if collapses.iter().any(|c| inside(fault.span, c.span)) {
            continue;
        }
        let Some(c) = collapse::plan(&tokens, fault.span) else {
            continue;
        };
        let overlaps = |p: &collapse::Collapse| {
            p.opener == c.opener || (p.range.start <= c.range.end && c.range.start <= p.range.end)
        };
        if collapses.iter().any(overlaps) {
            continue;
        }
        grammar.push(fault);
        collapses.push(c);
    }
    collapses.sort_by_key(|c| std::cmp::Reverse(c.range.start));
    for c in &collapses {
        collapse::apply(&mut tokens, c);
    }
    let (kind, arena, mut found) = run_grammar(&tokens, end);
    found.retain(|d| !collapses.iter().any(|c| inside(d.span, c.span)));
    grammar.extend(found);
    let grammar: Vec<Diagnostic> = deduplicate(grammar)
        .into_iter()
        .map(|d| d.shifted(shift))
        .collect();
    let deepest = [
        ("expressions", arena.max_expr_depth()),
        ("patterns", arena.max_pat_depth()),
        ("types", arena.max_type_depth()),
    ]
    .into_iter()
    .find(|(_, depth)| *depth > MAX_EXPR_DEPTH);
    if let Some((what, _)) = deepest {
        layout.push(
            Diagnostic::error(
                Code::NestingTooDeep,
                balanced.span,
                format!(
                    "{what} nest more than {MAX_EXPR_DEPTH} deep in this item; it is not analysed"
                ),
            )
            .with_data(DiagnosticData::NestingTooDeep {
                limit: MAX_EXPR_DEPTH,
            }),
        );
        return BalancedParse {
            item: error_item(),
            layout,
            grammar,
        };
    }
    BalancedParse {
        item: Item {
            kind,
            offset,
            span: rel(balanced.span),
            arena,
        },
        layout,
        grammar,
    }
}

/// Runs the grammar over item-relative tokens: the item kind, its nodes and the errors it
/// recovered from (item-relative spans, one per position).
fn run_grammar(tokens: &[Token<'_>], end: usize) -> (ItemKind, Arena, Vec<Diagnostic>) {
    GRAMMAR_RUNS.with(|c| c.set(c.get() + 1));
    let mut builder = Builder::default();
    let result = ItemParser::new().parse(
        &mut builder,
        tokens
            .iter()
            .map(|t| Ok::<_, ()>((t.span.start as usize, t.tok, t.span.end as usize))),
    );
    let mut diags: Vec<Diagnostic> = builder
        .recoveries
        .iter()
        .filter(|rec| !at_invalid_character(&rec.error))
        .map(|rec| recovery_diagnostic(rec, end))
        .collect();
    let kind = match result {
        Ok(kind) => kind,
        Err(err) => {
            if !at_invalid_character(&err) {
                diags.push(error_diagnostic(&err, end, &[]));
            }
            ItemKind::Error
        }
    };
    diags.append(&mut builder.faults);
    (kind, builder.arena, deduplicate(diags))
}

/// True for the grammar's error at an invalid character: the lexer has reported it
/// (E0103), and saying "unexpected" again would be the same fault twice.
fn at_invalid_character(err: &ParseError<usize, Tok<'_>, ()>) -> bool {
    matches!(
        err,
        ParseError::UnrecognizedToken {
            token: (_, Tok::Invalid, _),
            ..
        }
    )
}

/// True when `span` starts within `region` (an empty region holds only its own position).
fn inside(span: Span, region: Span) -> bool {
    region.start <= span.start && span.start <= region.end
}

/// Errors at the same place describe one fault: keeps the first of each position, in
/// source order.
fn deduplicate(mut diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diags.sort_by_key(|d| d.span.start);
    diags.dedup_by_key(|d| d.span.start);
    diags
}

fn recovery_diagnostic(rec: &Recovery<'_>, end: usize) -> Diagnostic {
    let skipped: Vec<Span> = rec
        .dropped_tokens
        .iter()
        .map(|(s, _, e)| Span::new(*s, *e))
        .collect();
    error_diagnostic(&rec.error, end, &skipped)
}

fn error_diagnostic(
    err: &ParseError<usize, Tok<'_>, ()>,
    end: usize,
    skipped: &[Span],
) -> Diagnostic {
    match err {
        ParseError::UnrecognizedToken {
            token: (l, tok, r),
            expected: names,
        } => {
            let expected = expected::describe(names);
            let message = if *tok == Tok::Sep {
                format!(
                    "this member line starts before the previous one is complete; expected {}",
                    expected::one_of(&expected)
                )
            } else {
                format!("unexpected {tok}; expected {}", expected::one_of(&expected))
            };
            Diagnostic::error(Code::UnexpectedToken, Span::new(*l, (*r).max(*l)), message)
                .with_data(DiagnosticData::UnexpectedToken {
                    found: tok.to_string(),
                    expected,
                    expected_tokens: expected::texts(names),
                    skipped: skipped.to_vec(),
                })
        }
        ParseError::UnrecognizedEof {
            location,
            expected: names,
        } => {
            let expected = expected::describe(names);
            let at = (*location).min(end);
            Diagnostic::error(
                Code::UnexpectedEof,
                Span::new(at, at),
                format!(
                    "this item ends too early; expected {}",
                    expected::one_of(&expected)
                ),
            )
            .with_data(DiagnosticData::UnexpectedEof {
                expected,
                expected_tokens: expected::texts(names),
            })
        }
        ParseError::ExtraToken { token: (l, tok, r) } => Diagnostic::error(
            Code::UnexpectedToken,
            Span::new(*l, *r),
            format!("unexpected {tok} after a complete item"),
        )
        .with_data(DiagnosticData::UnexpectedToken {
            found: tok.to_string(),
            expected: vec![],
            expected_tokens: vec![],
            skipped: skipped.to_vec(),
        }),
        ParseError::InvalidToken { location } => Diagnostic::error(
            Code::InvalidCharacter,
            Span::new(*location, *location),
            "invalid token",
        ),
        ParseError::User { .. } => {
            Diagnostic::error(Code::UnexpectedToken, Span::new(0, 0), "syntax error")
        }
    }
}

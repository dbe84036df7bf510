//! The parser driver: lex, split into items, parse each with the grammar, and turn every
//! recovered error into a diagnostic. Parsing is total: any text gives a list of items.

use lalrpop_util::ParseError;

use super::ast::{Arena, Item, ItemKind};
use super::builder::{Builder, Recovery};
use super::grammar::ItemParser;
use super::layout::{self, Chunk};
use super::lexer::{self, Token};
use super::token::Tok;
use crate::diagnostic::{Code, Diagnostic, DiagnosticData};
use crate::span::Span;

/// The deepest expression nesting accepted; deeper items are reported and not analysed.
pub const MAX_EXPR_DEPTH: usize = 1000;

/// At most this many syntax diagnostics are reported per item; the rest are noise.
const MAX_DIAGNOSTICS_PER_ITEM: usize = 8;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedFile {
    pub items: Vec<Item>,
    /// Syntax diagnostics, with absolute spans, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

pub fn parse_text(text: &str) -> ParsedFile {
    let (tokens, mut diagnostics) = lexer::lex(text);
    let chunks = layout::split(text, &tokens);
    let mut items = Vec::with_capacity(chunks.len());
    for chunk in chunks {
        let (item, diags) = parse_chunk(chunk);
        diagnostics.extend(diags);
        items.push(item);
    }
    check_result_expressions(&items, &mut diagnostics);
    diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
    ParsedFile { items, diagnostics }
}

/// Parses one item. The item's tree uses spans relative to its start, so an edit elsewhere
/// in the file leaves it equal (and analyses of it reusable).
fn parse_chunk(chunk: Chunk<'_>) -> (Item, Vec<Diagnostic>) {
    let offset = chunk.span.start;
    let mut diags = chunk.diagnostics;
    let rel = |s: Span| Span {
        start: s.start.saturating_sub(offset),
        end: s.end.saturating_sub(offset),
    };
    let error_item = |arena| Item {
        kind: ItemKind::Error,
        offset,
        span: rel(chunk.span),
        arena,
    };
    if chunk.too_deep {
        return (error_item(Arena::default()), diags);
    }
    let tokens: Vec<Token<'_>> = chunk
        .tokens
        .iter()
        .map(|t| Token {
            tok: t.tok,
            span: rel(t.span),
        })
        .collect();
    let end = rel(chunk.span).end as usize;
    let mut builder = Builder::default();
    let result = ItemParser::new().parse(
        &mut builder,
        tokens
            .iter()
            .map(|t| Ok::<_, ()>((t.span.start as usize, t.tok, t.span.end as usize))),
    );
    let mut item_diags: Vec<Diagnostic> = Vec::new();
    for rec in std::mem::take(&mut builder.recoveries) {
        push_deduplicated(&mut item_diags, recovery_diagnostic(&rec, end));
    }
    let kind = match result {
        Ok(kind) => kind,
        Err(err) => {
            push_deduplicated(&mut item_diags, error_diagnostic(&err, end, &[]));
            ItemKind::Error
        }
    };
    item_diags.truncate(MAX_DIAGNOSTICS_PER_ITEM);
    let shift = offset as i64;
    diags.extend(item_diags.into_iter().map(|mut d| {
        d.span = d.span.shift(shift);
        if let DiagnosticData::UnexpectedToken { skipped, .. } = &mut d.data {
            for s in skipped {
                *s = s.shift(shift);
            }
        }
        d
    }));
    let arena = builder.arena;
    if arena.max_expr_depth() > MAX_EXPR_DEPTH {
        diags.push(
            Diagnostic::error(
                Code::NestingTooDeep,
                chunk.span,
                format!(
                    "expressions nest more than {MAX_EXPR_DEPTH} deep in this item; it is not analysed"
                ),
            )
            .with_data(DiagnosticData::NestingTooDeep {
                limit: MAX_EXPR_DEPTH,
            }),
        );
        return (error_item(Arena::default()), diags);
    }
    (
        Item {
            kind,
            offset,
            span: rel(chunk.span),
            arena,
        },
        diags,
    )
}

/// Errors at the same place describe one fault: keep the first.
fn push_deduplicated(diags: &mut Vec<Diagnostic>, d: Diagnostic) {
    if diags.iter().any(|prev| prev.span.start == d.span.start) {
        return;
    }
    diags.push(d);
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
            expected,
        } => {
            let expected = describe_expected(expected);
            let message = if *tok == Tok::Sep {
                format!(
                    "this member line starts before the previous one is complete; expected {}",
                    one_of(&expected)
                )
            } else {
                format!("unexpected {tok}; expected {}", one_of(&expected))
            };
            Diagnostic::error(Code::UnexpectedToken, Span::new(*l, (*r).max(*l)), message)
                .with_data(DiagnosticData::UnexpectedToken {
                    found: tok.to_string(),
                    expected,
                    skipped: skipped.to_vec(),
                })
        }
        ParseError::UnrecognizedEof { location, expected } => {
            let expected = describe_expected(expected);
            let at = (*location).min(end);
            Diagnostic::error(
                Code::UnexpectedEof,
                Span::new(at, at),
                format!("this item ends too early; expected {}", one_of(&expected)),
            )
            .with_data(DiagnosticData::UnexpectedEof { expected })
        }
        ParseError::ExtraToken { token: (l, tok, r) } => Diagnostic::error(
            Code::UnexpectedToken,
            Span::new(*l, *r),
            format!("unexpected {tok} after a complete item"),
        )
        .with_data(DiagnosticData::UnexpectedToken {
            found: tok.to_string(),
            expected: vec![],
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

/// Terminal names from the grammar, in words a person reads.
fn describe_expected(expected: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in expected {
        let d = match e.as_str() {
            "IDENT" => "a name".to_string(),
            "UPPER" => "a capitalised name".to_string(),
            "INT" => "an integer".to_string(),
            "FLOAT" => "a number".to_string(),
            "STR" => "a string".to_string(),
            "HOLE" => "a hole".to_string(),
            "OP" => "an operator".to_string(),
            "SEP" => "a new member line".to_string(),
            quoted => {
                let inner = quoted.trim_matches('"').replace("\\\\", "\\");
                format!("`{inner}`")
            }
        };
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
}

fn one_of(expected: &[String]) -> String {
    const SHOWN: usize = 6;
    match expected.len() {
        0 => "something else".to_string(),
        1 => expected[0].clone(),
        n if n <= SHOWN => format!("{} or {}", expected[..n - 1].join(", "), expected[n - 1]),
        _ => format!("{}, ...", expected[..SHOWN].join(", ")),
    }
}

/// A program has at most one result expression.
fn check_result_expressions(items: &[Item], diags: &mut Vec<Diagnostic>) {
    let mut seen = false;
    for item in items {
        if let ItemKind::Expr(_) = item.kind {
            if seen {
                diags.push(Diagnostic::error(
                    Code::MisplacedExpression,
                    item.span.shift(item.offset as i64),
                    "a program has one result expression; this is a second one",
                ));
            }
            seen = true;
        }
    }
}

//! Parsing one item: the grammar, plus the recovery that keeps one fault to one diagnostic.
//!
//! * Faults inside brackets are collapsed bracket-locally (see `collapse.rs`).
//! * An unclosed bracket gets its closer where its contents stop making sense rather than at
//!   the end of the item.
//! * Cascades are folded: one diagnostic per line, and a bracket diagnostic (unclosed or
//!   unmatched) stands for the grammar errors on its line, since they are its consequence;
//!   a closer without an opener also stands for the grammar errors before it in its bracket.
//! * Deep nesting is refused after the parse (which itself never recurses): an item nested
//!   deeper than [`MAX_EXPR_DEPTH`] becomes an error item with one diagnostic.

use std::collections::HashSet;

use lalrpop_util::ParseError;

use super::ast::{Arena, Item, ItemKind};
use super::builder::{Builder, Recovery};
use super::collapse;
use super::grammar::ItemParser;
use super::layout::{self, Chunk, Laid};
use super::lexer::Token;
use super::token::Tok;
use crate::diagnostic::{Code, Diagnostic, DiagnosticData};
use crate::span::Span;

/// The deepest nesting of expressions, patterns or types accepted; deeper items are reported
/// and not analysed, so no later pass can exhaust the stack on them.
pub const MAX_EXPR_DEPTH: usize = 1000;

/// At most this many bracket-local collapses per item before the grammar's own recovery
/// takes what is left.
const MAX_COLLAPSES: usize = 8;

/// At most this many syntax diagnostics are reported per item; the rest are noise.
const MAX_DIAGNOSTICS_PER_ITEM: usize = 8;

/// How many unclosed brackets get their closer moved to a better place (and how many of the
/// innermost are considered each time).
const MAX_CLOSER_MOVES: usize = 4;

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

/// Parses an item's tokens. An unclosed bracket is closed at the end of the item by the
/// layout rules, which makes the grammar fail where the bracket's contents stop making
/// sense and again at the virtual closer. So where the grammar fails inside an unclosed
/// bracket (not inside a bracket nested in it), the closer is moved to the failure, or to
/// the end of the bracket's line, whichever reads with fewer errors.
pub(crate) fn parse_item<'a>(tokens: &[Laid<'a>]) -> ParsedItem<'a> {
    let mut hints: Vec<(usize, usize)> = Vec::new();
    let mut best = parse_hinted(tokens, &hints);
    for _ in 0..MAX_CLOSER_MOVES {
        if best.errors.is_empty() {
            break;
        }
        let Some((opener, at_error)) = best
            .unclosed
            .iter()
            .rev()
            .take(MAX_CLOSER_MOVES)
            .find_map(|&o| error_inside(tokens, o, &best.errors).map(|e| (o, e)))
        else {
            break;
        };
        let line_end = (opener + 1..tokens.len())
            .find(|&i| tokens[i].line_start)
            .unwrap_or(tokens.len());
        let mut improved: Option<(usize, Hinted<'a>)> = None;
        for place in [at_error, line_end] {
            if place >= tokens.len() || place <= opener {
                continue;
            }
            hints.push((opener, place));
            let candidate = parse_hinted(tokens, &hints);
            hints.pop();
            let bar = improved
                .as_ref()
                .map_or(best.parsed.cost(), |(_, c)| c.parsed.cost());
            if candidate.parsed.cost() < bar {
                improved = Some((place, candidate));
            }
        }
        let Some((place, candidate)) = improved else {
            break;
        };
        hints.push((opener, place));
        best = candidate;
    }
    best.parsed
}

/// The index of the first token inside the bracket opened at `opener` (and not inside a
/// bracket nested in it) where the grammar reported an error (`errors` is sorted).
fn error_inside(tokens: &[Laid<'_>], opener: usize, errors: &[u32]) -> Option<usize> {
    let mut depth = 0usize;
    for (i, t) in tokens.iter().enumerate().skip(opener + 1) {
        if depth == 0 && errors.binary_search(&t.token.span.start).is_ok() {
            return Some(i);
        }
        if t.token.tok.opens() {
            depth += 1;
        } else if t.token.tok.closes() {
            if depth == 0 {
                return None;
            }
            depth -= 1;
        }
    }
    None
}

struct Hinted<'a> {
    parsed: ParsedItem<'a>,
    /// Openers closed by the layout rules (see [`Chunk::unclosed`]).
    unclosed: Vec<usize>,
    /// Absolute positions of the grammar's errors.
    errors: Vec<u32>,
}

fn parse_hinted<'a>(tokens: &[Laid<'a>], hints: &[(usize, usize)]) -> Hinted<'a> {
    let chunk = layout::chunk_with(tokens, hints);
    let unclosed = chunk.unclosed.clone();
    let explained = explained_by_stray_closers(tokens, &chunk.stray);
    let parse = parse_chunk(chunk);
    let errors: Vec<u32> = parse.grammar.iter().map(|d| d.span.start).collect();
    let first_error = parse.outside_brackets;
    let mut grammar = parse.grammar;
    grammar.retain(|d| !explained.contains(&d.span.start));
    let mut diagnostics = fold_cascades(tokens, parse.layout, grammar);
    diagnostics.truncate(MAX_DIAGNOSTICS_PER_ITEM);
    Hinted {
        parsed: ParsedItem {
            tokens: tokens.to_vec(),
            item: parse.item,
            diagnostics,
            first_error,
            errors: errors.len(),
        },
        unclosed,
        errors,
    }
}

/// The positions where grammar errors are consequences of a closer without an opener: the
/// tokens before the stray closer, back to the bracket enclosing it (or the item's start),
/// outside brackets nested in between. A missing opener makes the grammar fail somewhere
/// there; the stray closer is the diagnostic that says what is wrong.
fn explained_by_stray_closers(tokens: &[Laid<'_>], stray: &[usize]) -> HashSet<u32> {
    let mut explained = HashSet::new();
    let is_stray: HashSet<usize> = stray.iter().copied().collect();
    for &k in stray.iter().take(MAX_DIAGNOSTICS_PER_ITEM) {
        let mut depth = 0usize;
        let mut start = 0;
        for i in (0..k).rev() {
            let tok = tokens[i].token.tok;
            if tok.closes() && !is_stray.contains(&i) {
                depth += 1;
            } else if tok.opens() {
                if depth == 0 {
                    start = i + 1;
                    break;
                }
                depth -= 1;
            }
        }
        let mut depth = 0usize;
        for (i, t) in tokens.iter().enumerate().take(k).skip(start) {
            if depth == 0 {
                explained.insert(t.token.span.start);
            }
            if t.token.tok.opens() {
                depth += 1;
            } else if t.token.tok.closes() && !is_stray.contains(&i) {
                depth = depth.saturating_sub(1);
            }
        }
    }
    explained
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

/// An item parsed from one chunk: diagnostics with absolute spans, kept apart by origin.
struct ChunkParse {
    item: Item,
    /// The first grammar error not confined to a bracket (absolute).
    outside_brackets: Option<u32>,
    /// From layout (brackets) and depth checks.
    layout: Vec<Diagnostic>,
    /// From the grammar.
    grammar: Vec<Diagnostic>,
}

/// Parses one chunk. The item's tree uses spans relative to its start, so an edit elsewhere
/// in the file leaves it equal (and analyses of it reusable).
fn parse_chunk(chunk: Chunk<'_>) -> ChunkParse {
    let offset = chunk.span.start;
    let mut layout = chunk.diagnostics;
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
    if chunk.too_deep || chunk.tokens.is_empty() {
        return ChunkParse {
            item: error_item(Arena::default()),
            outside_brackets: None,
            layout,
            grammar: Vec::new(),
        };
    }
    let mut tokens: Vec<Token<'_>> = chunk
        .tokens
        .iter()
        .map(|t| Token {
            tok: t.tok,
            span: rel(t.span),
        })
        .collect();
    let end = rel(chunk.span).end as usize;
    let mut reported: Vec<Diagnostic> = Vec::new();
    let mut skipped: Vec<Span> = Vec::new();
    let mut collapsed: Vec<u32> = Vec::new();
    let (kind, arena, mut last) = loop {
        let (kind, arena, diags) = run_grammar(&tokens, end);
        let first = diags.iter().min_by_key(|d| (d.span.start, d.span.end));
        let plan = match first {
            Some(first) if collapsed.len() < MAX_COLLAPSES => {
                collapse::plan(&tokens, first.span, &collapsed).map(|c| (c, first.clone()))
            }
            _ => None,
        };
        let Some((c, first)) = plan else {
            break (kind, arena, diags);
        };
        // A second fault in a pair already collapsed, or one inside text already skipped,
        // is the same fault seen again.
        if !c.whole && !skipped.iter().any(|s| inside(first.span, *s)) {
            reported.push(first);
        }
        collapsed.push(c.opener);
        skipped.push(c.span);
        collapse::apply(&mut tokens, &c);
    };
    last.retain(|d| !skipped.iter().any(|s| inside(d.span, *s)));
    let shift = offset as i64;
    let outside_brackets = last
        .iter()
        .map(|d| (d.span.start as i64 + shift) as u32)
        .min();
    reported.extend(last);
    let grammar: Vec<Diagnostic> = deduplicate(reported)
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
                chunk.span,
                format!(
                    "{what} nest more than {MAX_EXPR_DEPTH} deep in this item; it is not analysed"
                ),
            )
            .with_data(DiagnosticData::NestingTooDeep {
                limit: MAX_EXPR_DEPTH,
            }),
        );
        return ChunkParse {
            item: error_item(Arena::default()),
            outside_brackets,
            layout,
            grammar,
        };
    }
    ChunkParse {
        item: Item {
            kind,
            offset,
            span: rel(chunk.span),
            arena,
        },
        outside_brackets,
        layout,
        grammar,
    }
}

/// Runs the grammar over item-relative tokens: the item kind, its nodes and the errors it
/// recovered from (item-relative spans, one per position).
fn run_grammar(tokens: &[Token<'_>], end: usize) -> (ItemKind, Arena, Vec<Diagnostic>) {
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
        .map(|rec| recovery_diagnostic(rec, end))
        .collect();
    let kind = match result {
        Ok(kind) => kind,
        Err(err) => {
            diags.push(error_diagnostic(&err, end, &[]));
            ItemKind::Error
        }
    };
    diags.append(&mut builder.faults);
    (kind, builder.arena, deduplicate(diags))
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

/// Terminals that can start an expression, a pattern or a type, as the grammar names them.
const EXPRESSION_START: &[&str] = &[
    "IDENT",
    "UPPER",
    "INT",
    "FLOAT",
    "STR",
    "HOLE",
    "SKIPPED",
    "\"-\"",
    "\"\\\\\"",
    "\"(\"",
    "\"[\"",
    "\"{\"",
    "\"let\"",
    "\"if\"",
    "\"match\"",
    "\"true\"",
    "\"false\"",
];
const PATTERN_START: &[&str] = &[
    "IDENT",
    "UPPER",
    "INT",
    "FLOAT",
    "STR",
    "SKIPPED",
    "\"-\"",
    "\"_\"",
    "\"(\"",
    "\"[\"",
    "\"{\"",
    "\"true\"",
    "\"false\"",
];
const TYPE_START: &[&str] = &["IDENT", "UPPER", "SKIPPED", "\"(\"", "\"{\""];

/// Terminal names from the grammar, in words a person reads. Where every way to start an
/// expression (a pattern, a type) is expected, that is said in one word.
fn describe_expected(expected: &[String]) -> Vec<String> {
    let has = |t: &str| expected.iter().any(|e| e == t);
    let (summary, covered): (Option<&str>, &[&str]) = if has("HOLE") && has("\"let\"") {
        (Some("an expression"), EXPRESSION_START)
    } else if has("HOLE") {
        // Where an argument or an operator's operand goes: `let`, `if`, `match` and lambdas
        // need parentheses there.
        (Some("an operand"), EXPRESSION_START)
    } else if has("\"_\"") && has("IDENT") && has("\"[\"") {
        (Some("a pattern"), PATTERN_START)
    } else if has("IDENT") && has("UPPER") && has("\"(\"") && has("\"{\"") && !has("INT") {
        (Some("a type"), TYPE_START)
    } else {
        (None, &[])
    };
    // The operators with a token of their own read as "an operator" too.
    let operators: &[&str] = if has("OP") {
        &["\"-\"", "\"*\"", "\"<=\"", "\"::\""]
    } else {
        &[]
    };
    let mut out: Vec<String> = summary.into_iter().map(str::to_string).collect();
    for e in expected
        .iter()
        .filter(|e| !covered.contains(&e.as_str()) && !operators.contains(&e.as_str()))
    {
        let d = match e.as_str() {
            "IDENT" => "a name".to_string(),
            "UPPER" => "a capitalised name".to_string(),
            "INT" => "an integer".to_string(),
            "FLOAT" => "a number".to_string(),
            "STR" => "a string".to_string(),
            "HOLE" => "a hole".to_string(),
            "OP" => "an operator".to_string(),
            "SEP" => "a new member line".to_string(),
            // Only the driver inserts it; nobody should be told to write it.
            "SKIPPED" => continue,
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

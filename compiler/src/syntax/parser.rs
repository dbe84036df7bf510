//! The parser driver: lex, split the file into pieces, parse each piece on its own (split
//! into items with the grammar), and turn every recovered error into a diagnostic. Parsing
//! is total: any text gives a list of items.
//!
//! A *piece* is a layout group and the tentative groups after it (see `layout.rs`): the
//! parse of a piece depends on its text and where it starts (`Origin`) and on nothing else
//! in the file, so the database parses each piece once and re-parses after an edit only
//! the pieces whose text changed (`db::parse_piece`). `parse_text` goes the same way, so
//! the two cannot disagree.

use super::ast::{Item, ItemKind};
use super::item_parser::{parse_item, ParsedItem};
use super::layout::{self, Group, Laid, Origin};
use super::lexer;
use crate::diagnostic::{Code, Diagnostic};
use crate::span::Span;

pub use super::item_parser::{grammar_runs, MAX_EXPR_DEPTH, MAX_GRAMMAR_RUNS_PER_ITEM};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedFile {
    pub items: Vec<Item>,
    /// Syntax diagnostics, with absolute spans, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

/// A piece of a file that parses on its own: its text's span and where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub span: Span,
    pub origin: Origin,
}

/// A file cut into pieces, and the lexer's diagnostics (absolute spans).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    pub pieces: Vec<Piece>,
    pub diagnostics: Vec<Diagnostic>,
}

/// One piece parsed: its items (position-free: `offset` 0), where each starts in the piece,
/// each one's `Item::label`, whether each parsed without a diagnostic, and the diagnostics
/// (piece-relative spans).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedPiece {
    pub items: Vec<Item>,
    pub offsets: Vec<u32>,
    pub labels: Vec<String>,
    pub clean: Vec<bool>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Cuts a file into pieces: lexes it and groups its tokens by the layout rules.
pub fn split(text: &str) -> Split {
    split_tokens(text, None).0
}

/// `split`, for text that starts a line of its file, where the file's base column is
/// `base` (`None`: the text's first token sets it, as for a whole file); with the tokens.
pub fn split_tokens(text: &str, base: Option<u32>) -> (Split, Vec<lexer::Token<'_>>) {
    let (tokens, diagnostics) = lexer::lex(text);
    let base = base.unwrap_or_else(|| layout::base_column(text, &tokens));
    let origin = Origin {
        base: Some(base),
        ..Origin::FILE
    };
    let laid = layout::place(text, &tokens, origin);
    let mut pieces: Vec<Piece> = Vec::new();
    for group in layout::bounds(&laid) {
        let (Some(first), Some(last)) = (
            laid.get(group.tokens.start),
            group.tokens.end.checked_sub(1).and_then(|i| laid.get(i)),
        ) else {
            continue;
        };
        let span = first.token.span.cover(last.token.span);
        match pieces.last_mut() {
            Some(piece) if group.tentative => piece.span = piece.span.cover(span),
            _ => {
                pieces.push(Piece {
                    span,
                    origin: Origin {
                        col: layout::column_of(text, span.start as usize),
                        base: Some(base),
                        line_start: first.line_start,
                    },
                });
            }
        }
    }
    let split = Split {
        pieces,
        diagnostics,
    };
    (split, tokens)
}

/// Parses the text of one piece, cut from its file where `origin` says.
pub fn parse_piece(text: &str, origin: Origin) -> ParsedPiece {
    // The file's lexer reported this text's faults already.
    let (tokens, _) = lexer::lex(text);
    let mut parsed: Vec<ParsedItem<'_>> = Vec::new();
    for group in layout::group(layout::place(text, &tokens, origin)) {
        parse_group(group, &mut parsed);
    }
    let mut piece = ParsedPiece {
        items: Vec::with_capacity(parsed.len()),
        offsets: Vec::with_capacity(parsed.len()),
        labels: Vec::with_capacity(parsed.len()),
        clean: Vec::with_capacity(parsed.len()),
        diagnostics: Vec::new(),
    };
    for p in parsed {
        piece.clean.push(p.is_clean());
        piece.diagnostics.extend(p.diagnostics);
        let mut item = p.item;
        piece.offsets.push(std::mem::take(&mut item.offset));
        piece.labels.push(item.label());
        piece.items.push(item);
    }
    piece
}

/// A whole file parsed: the same pieces, parsed the same way, as the database does it.
pub fn parse_text(text: &str) -> ParsedFile {
    let split = split(text);
    let mut items = Vec::new();
    let mut clean = Vec::new();
    let mut diagnostics = split.diagnostics;
    for piece in &split.pieces {
        let parsed = parse_piece(piece.text(text), piece.origin);
        let at = piece.span.start;
        diagnostics.extend(parsed.diagnostics.into_iter().map(|d| d.shifted(at as i64)));
        clean.extend(parsed.clean);
        for (mut item, offset) in parsed.items.into_iter().zip(parsed.offsets) {
            item.offset = at + offset;
            items.push(item);
        }
    }
    let results = items
        .iter()
        .zip(&clean)
        .map(|(item, clean)| (counts_as_result(item, *clean), item.abs(item.span)));
    diagnostics.extend(second_results(results));
    diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
    ParsedFile { items, diagnostics }
}

impl Piece {
    /// The piece's text in its file's text.
    pub fn text<'t>(&self, file_text: &'t str) -> &'t str {
        &file_text[self.span.start as usize..self.span.end as usize]
    }
}

/// Parses one layout group into one or more items. The group is parsed as one item; when
/// the grammar fails outside brackets, the layout's guess is checked once, because an edit
/// that removes a declaration's first token glues the rest of its text onto a neighbour:
///
/// * a tentative group (a dedented line) that cannot stand alone is joined to the item
///   before when the joined text parses cleanly, or when the item before is itself broken
///   and the joined text reads with no more errors;
/// * otherwise the group is cut once: before the least indented line after the first and up
///   to the first error's (in a class or instance, member lines only after a blank line),
///   else before the first column-1 line after the error. The cut stands when the text
///   before it parses cleanly, or, for a cut after the error, reads no worse than the whole
///   group. The text after a cut goes through the same steps as a group of its own.
///
/// Each side of a cut or a join is read once more (`parse_item`: at most
/// `MAX_GRAMMAR_RUNS_PER_ITEM` grammar runs), and the text after an accepted cut is not read
/// again, so a group takes at most `2 × MAX_GRAMMAR_RUNS_PER_ITEM` runs per item it yields,
/// plus that many for a join (`tests/syntax_grammar_runs.rs`). The tokens read while
/// checking cuts are bounded by a budget proportional to the group.
fn parse_group<'a>(group: Group<'a>, out: &mut Vec<ParsedItem<'a>>) {
    let mut budget = Budget {
        left: RESPLIT_BUDGET_FACTOR * group.tokens.len() + RESPLIT_BUDGET_BASE,
    };
    let mut rest: &[Laid<'a>] = &group.tokens;
    let mut tentative = group.tentative;
    let mut ahead: Option<ParsedItem<'a>> = None;
    while !rest.is_empty() {
        let parsed = match ahead.take() {
            Some(parsed) => parsed,
            None => budget.parse(rest),
        };
        let Some(error_at) = parsed.first_error else {
            out.push(parsed);
            return;
        };
        if tentative {
            if let Some(prev) = out.last() {
                let mut joined = prev.tokens.clone();
                joined.extend_from_slice(rest);
                let joined = budget.parse(&joined);
                // A clean item stays as it is unless the joined text is clean too; a broken
                // one takes the line back when that reads with no more errors.
                let separate = (
                    prev.diagnostics.len() + parsed.diagnostics.len(),
                    prev.errors + parsed.errors,
                );
                if joined.is_clean() || (!prev.is_clean() && joined.cost() <= separate) {
                    out.pop();
                    out.push(joined);
                    return;
                }
            }
        }
        tentative = false;
        let cut = cut_at(rest, error_at).filter(|_| budget.left >= rest.len());
        if let Some(cut) = cut {
            let head = budget.parse(&rest[..cut.index]);
            if head.is_clean() {
                out.push(head);
                rest = &rest[cut.index..];
                continue;
            }
            if cut.after_error && head.cost() <= parsed.cost() {
                // Only when the text after the cut begins with a clean item.
                let tail = budget.parse(&rest[cut.index..]);
                if starts_clean(&tail) {
                    out.push(head);
                    rest = &rest[cut.index..];
                    ahead = Some(tail);
                    continue;
                }
            }
        }
        out.push(parsed);
        return;
    }
}

/// Tokens that may still be parsed while checking cuts.
struct Budget {
    left: usize,
}

impl Budget {
    fn parse<'a>(&mut self, tokens: &[Laid<'a>]) -> ParsedItem<'a> {
        self.left = self.left.saturating_sub(tokens.len());
        parse_item(tokens)
    }
}

/// Whether an item parsed cleanly up to its second line at least: its first error, if any,
/// lies on a later line than its first token.
fn starts_clean(parsed: &ParsedItem<'_>) -> bool {
    match (parsed.first_error, parsed.tokens.first()) {
        (None, _) => parsed.is_clean(),
        (Some(at), Some(first)) => {
            let i = parsed.tokens.partition_point(|t| t.token.span.start < at);
            parsed.tokens.get(i).is_some_and(|t| t.line > first.line)
        }
        (Some(_), None) => false,
    }
}

/// The parse work a group may spend on cuts: this many times its token count, plus a
/// constant.
const RESPLIT_BUDGET_FACTOR: usize = 16;
const RESPLIT_BUDGET_BASE: usize = 4096;

/// Where a broken group is cut (a token index) and whether that is after its first error.
struct Cut {
    index: usize,
    after_error: bool,
}

/// The one cut tried in a group whose first error outside brackets is at `error_at` (see
/// [`parse_group`]).
fn cut_at(tokens: &[Laid<'_>], error_at: u32) -> Option<Cut> {
    let member_col = layout::member_column(tokens);
    let e = tokens.partition_point(|t| t.token.span.start < error_at);
    // The least indented line up to the error's (the latest of equals): where glued text
    // begins.
    let line = (1..(e + 1).min(tokens.len()))
        .filter(|&i| {
            let t = &tokens[i];
            let after_blank = t.line > tokens[i - 1].line + 1;
            t.line_start && member_col.is_none_or(|col| t.col < col || after_blank)
        })
        .min_by_key(|&i| (tokens[i].col, std::cmp::Reverse(i)));
    if let Some(index) = line {
        return Some(Cut {
            index,
            after_error: false,
        });
    }
    (e.max(1)..tokens.len())
        .find(|&i| tokens[i].line_start && tokens[i].col == 0)
        .map(|index| Cut {
            index,
            after_error: true,
        })
}

/// Whether an item counts as the program's result expression: broken text that happens to
/// read as an expression (a stray bracket, a declaration that lost its keyword) already has
/// its own diagnostic and does not.
pub fn counts_as_result(item: &Item, clean: bool) -> bool {
    clean && matches!(item.kind, ItemKind::Expr(_))
}

/// A program has at most one result expression: a diagnostic on each after the first, given
/// every item's `counts_as_result` and absolute span in source order.
pub fn second_results(items: impl IntoIterator<Item = (bool, Span)>) -> Vec<Diagnostic> {
    items
        .into_iter()
        .filter(|(result, _)| *result)
        .skip(1)
        .map(|(_, span)| {
            Diagnostic::error(
                Code::MisplacedExpression,
                span,
                "a program has one result expression; this is a second one",
            )
        })
        .collect()
}

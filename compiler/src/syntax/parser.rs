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

pub use super::item_parser::MAX_EXPR_DEPTH;

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
/// whether each parsed without a diagnostic, and the diagnostics (piece-relative spans).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedPiece {
    pub items: Vec<Item>,
    pub offsets: Vec<u32>,
    pub clean: Vec<bool>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Cuts a file into pieces: lexes it and groups its tokens by the layout rules.
pub fn split(text: &str) -> Split {
    let (tokens, diagnostics) = lexer::lex(text);
    let base = layout::base_column(text, &tokens);
    let laid = layout::place(text, &tokens, Origin::FILE);
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
    Split {
        pieces,
        diagnostics,
    }
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
        clean: Vec::with_capacity(parsed.len()),
        diagnostics: Vec::new(),
    };
    for p in parsed {
        piece.clean.push(p.is_clean());
        piece.diagnostics.extend(p.diagnostics);
        let mut item = p.item;
        piece.offsets.push(std::mem::take(&mut item.offset));
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

/// How many other ways of cutting a broken group into items are tried before its errors are
/// accepted as they are.
const MAX_RESPLIT_TRIES: usize = 4;

/// Parses one layout group into one or more items. A group the grammar rejects is checked
/// against the layout's guesses, because an edit that removes a declaration's first token
/// glues the rest of its text onto a neighbour:
///
/// * a tentative group (a dedented line) that cannot stand alone is joined to the item
///   before when the joined text parses cleanly, or when the item before is itself broken
///   and the joined text reads with no more errors;
/// * a group whose text up to some line at or before the error parses cleanly is cut there
///   (the least indented such lines are tried first: that is where glued text begins);
/// * a group in which, from some column-1 line at or after the error, the text parses
///   cleanly (or begins with a clean item) is cut there, leaving the error in an item of its
///   own, unless that item alone has more errors than the whole group.
///
/// The work spent on such attempts is bounded by a budget proportional to the group.
fn parse_group<'a>(group: Group<'a>, out: &mut Vec<ParsedItem<'a>>) {
    let mut r = Resplitter {
        budget: RESPLIT_BUDGET_FACTOR * group.tokens.len() + RESPLIT_BUDGET_BASE,
    };
    let mut rest: &[Laid<'a>] = &group.tokens;
    let mut tentative = group.tentative;
    while !rest.is_empty() {
        let parsed = r.parse(rest);
        let Some(error_at) = parsed.first_error else {
            out.push(parsed);
            return;
        };
        if tentative {
            if let Some(prev) = out.last() {
                let mut joined = prev.tokens.clone();
                joined.extend_from_slice(rest);
                let joined = r.parse(&joined);
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
        if let Some((i, head)) = r.clean_prefix(rest, error_at) {
            out.push(head);
            rest = &rest[i..];
            continue;
        }
        if let Some(i) = r.clean_restart(rest, error_at) {
            let head = r.parse(&rest[..i]);
            // Only when the broken text before the cut reads no worse alone.
            if head.cost() <= parsed.cost() {
                out.push(head);
                rest = &rest[i..];
                continue;
            }
        }
        out.push(parsed);
        return;
    }
}

/// The parse work a group may spend on resplitting: this many times its token count, plus
/// a constant.
const RESPLIT_BUDGET_FACTOR: usize = 16;
const RESPLIT_BUDGET_BASE: usize = 4096;

struct Resplitter {
    /// Tokens that may still be parsed while looking for a better cut.
    budget: usize,
}

impl Resplitter {
    fn parse<'a>(&mut self, tokens: &[Laid<'a>]) -> ParsedItem<'a> {
        self.budget = self.budget.saturating_sub(tokens.len());
        parse_item(tokens)
    }

    /// A cut before a line at or before `error_at` leaving a clean item before it. In a
    /// class or instance, a broken member is the member level's to recover (and the header
    /// alone would always read as a clean item), so its member lines are cut at only after a
    /// blank line: that is where text glued on from below begins.
    fn clean_prefix<'a>(
        &mut self,
        tokens: &[Laid<'a>],
        error_at: u32,
    ) -> Option<(usize, ParsedItem<'a>)> {
        let member_col = layout::member_column(tokens);
        let mut lines: Vec<usize> = (1..tokens.len())
            .filter(|&i| {
                let t = &tokens[i];
                let after_blank = t.line > tokens[i - 1].line + 1;
                t.line_start
                    && t.token.span.start <= error_at
                    && member_col.is_none_or(|col| t.col < col || after_blank)
            })
            .collect();
        lines.sort_by_key(|&i| (tokens[i].col, std::cmp::Reverse(i)));
        for i in lines.into_iter().take(MAX_RESPLIT_TRIES) {
            if self.budget < i {
                return None;
            }
            let head = self.parse(&tokens[..i]);
            if head.is_clean() {
                return Some((i, head));
            }
        }
        None
    }

    /// A cut before a column-1 line at or after `error_at` from which the text parses cleanly or
    /// begins with a clean item.
    fn clean_restart(&mut self, tokens: &[Laid<'_>], error_at: u32) -> Option<usize> {
        let lines: Vec<usize> = (1..tokens.len())
            .filter(|&i| {
                let t = &tokens[i];
                t.line_start && t.col == 0 && t.token.span.start >= error_at
            })
            .take(MAX_RESPLIT_TRIES)
            .collect();
        for i in lines {
            if self.budget < tokens.len() - i {
                return None;
            }
            let tail = self.parse(&tokens[i..]);
            match tail.first_error {
                None if tail.is_clean() => return Some(i),
                Some(at) if self.clean_prefix(&tokens[i..], at).is_some() => return Some(i),
                _ => {}
            }
        }
        None
    }
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

//! The parser driver: lex, split into items, parse each with the grammar, and turn every
//! recovered error into a diagnostic. Parsing is total: any text gives a list of items.

use super::ast::{Item, ItemKind};
use super::item_parser::{parse_item, ParsedItem};
use super::layout::{self, Group, Laid};
use super::lexer;
use crate::diagnostic::{Code, Diagnostic};

pub use super::item_parser::MAX_EXPR_DEPTH;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedFile {
    pub items: Vec<Item>,
    /// Syntax diagnostics, with absolute spans, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

pub fn parse_text(text: &str) -> ParsedFile {
    let (tokens, mut diagnostics) = lexer::lex(text);
    let mut parsed: Vec<ParsedItem<'_>> = Vec::new();
    for group in layout::group(text, &tokens) {
        parse_group(group, &mut parsed);
    }
    let mut items = Vec::with_capacity(parsed.len());
    let mut clean = Vec::with_capacity(parsed.len());
    for p in parsed {
        clean.push(p.is_clean());
        diagnostics.extend(p.diagnostics);
        items.push(p.item);
    }
    check_result_expressions(&items, &clean, &mut diagnostics);
    diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
    ParsedFile { items, diagnostics }
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

/// A program has at most one result expression. Broken text that happens to read as an
/// expression (a stray bracket, a declaration that lost its keyword) already has its own
/// diagnostic and does not count as a result.
fn check_result_expressions(items: &[Item], clean: &[bool], diags: &mut Vec<Diagnostic>) {
    let mut seen = false;
    for (item, clean) in items.iter().zip(clean) {
        if let (ItemKind::Expr(_), true) = (&item.kind, clean) {
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

//! Layout: splits a file's tokens into top-level items (the brackets inside an item are
//! balanced by `brackets.rs`).
//!
//! A declaration starts with a keyword in column 1 and ends at the next token in column 1
//! (continuation lines are indented), unless that token closes a bracket the declaration
//! left open: a record type's `}` or a body's `)` in column 1 still belongs to it.
//! Everything else in column 1 belongs to the program's result expression. Parsing each item
//! on its own keeps damage from one broken item out of the others.
//!
//! Columns count from the indentation of the program's first line, so a program indented as
//! a whole (pasted from a Markdown list) is laid out as if it were not.
//!
//! Two more rules keep an edit from gluing text onto a neighbouring item:
//!
//! * a declaration keyword (`fn`, `type`, `class`, `instance`, `import`, `pub`) starts an
//!   item wherever it stands (but right after `pub`), since those words mean nothing inside
//!   an item;
//! * a line indented less than the item's first continuation line (outside brackets) starts a
//!   *tentative* item: the parser joins it back to the item before when it cannot stand alone
//!   and the joined text parses cleanly (see `parser.rs`).

use super::brackets::Nesting;
use super::lexer::Token;
use super::token::Tok;

pub use super::brackets::MAX_BRACKET_DEPTH;

/// A token with its place in the text's lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Laid<'a> {
    pub token: Token<'a>,
    /// 0-based line.
    pub line: u32,
    /// 0-based byte column, counted from the column of the text's first token (a line
    /// indented less than that counts as column 0).
    pub col: u32,
    /// True for the first token of its line.
    pub line_start: bool,
}

/// The tokens of one top-level item, as the layout rules group them.
#[derive(Clone, Debug)]
pub struct Group<'a> {
    pub tokens: Vec<Laid<'a>>,
    /// The group starts at a dedented line rather than in column 1 or at a keyword: it may
    /// belong to the item before.
    pub tentative: bool,
}

/// Where a text to be laid out sits in its file: a file's own text starts at the start of a
/// line, and a piece cut from a file (see `parser::split`) wherever its first token stood.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Origin {
    /// The byte column of the text's first byte in its file's line.
    pub col: u32,
    /// The column that counts as 0: the file's first token's. `None` for a whole file, whose
    /// first token sets it.
    pub base: Option<u32>,
    /// Whether the text's first token is the first of its line in the file.
    pub line_start: bool,
}

impl Origin {
    /// A whole file.
    pub const FILE: Origin = Origin {
        col: 0,
        base: None,
        line_start: true,
    };
}

/// Gives every token its line and column, in one pass over the text. Columns are relative
/// to the base column (see `Origin`); lines to the text's first.
pub fn place<'a>(text: &str, tokens: &[Token<'a>], origin: Origin) -> Vec<Laid<'a>> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(tokens.len());
    let (mut pos, mut line, mut line_begin) = (0usize, 0u32, 0usize);
    let mut prev_line = if origin.line_start { u32::MAX } else { 0 };
    let mut base: Option<usize> = origin.base.map(|b| b as usize);
    for tok in tokens {
        let start = (tok.span.start as usize).min(bytes.len());
        while pos < start {
            if bytes[pos] == b'\n' {
                line += 1;
                line_begin = pos + 1;
            }
            pos += 1;
        }
        let col = start - line_begin + if line == 0 { origin.col as usize } else { 0 };
        let base = *base.get_or_insert(col);
        out.push(Laid {
            token: *tok,
            line,
            col: col.saturating_sub(base) as u32,
            line_start: line != prev_line,
        });
        prev_line = line;
    }
    out
}

/// The base column of a file's layout (its first token's column), 0 for a file without
/// tokens.
pub fn base_column(text: &str, tokens: &[Token<'_>]) -> u32 {
    tokens
        .first()
        .map_or(0, |t| column_of(text, t.span.start as usize))
}

/// The byte column of `offset` in its line of `text`.
pub fn column_of(text: &str, offset: usize) -> u32 {
    let offset = offset.min(text.len());
    let line_begin = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    (offset - line_begin) as u32
}

/// Groups laid-out tokens into items by the layout rules.
pub fn group<'a>(laid: Vec<Laid<'a>>) -> Vec<Group<'a>> {
    bounds(&laid)
        .into_iter()
        .map(|b| Group {
            tokens: laid[b.tokens].to_vec(),
            tentative: b.tentative,
        })
        .collect()
}

/// Where one group lies among the laid-out tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub tokens: std::ops::Range<usize>,
    pub tentative: bool,
}

/// The layout rules: where each item's group begins and ends among the tokens.
pub fn bounds(tokens: &[Laid<'_>]) -> Vec<Bounds> {
    struct Open {
        start: usize,
        tentative: bool,
        is_decl: bool,
        body_col: Option<u32>,
    }
    let mut groups: Vec<Bounds> = Vec::new();
    let mut current: Option<Open> = None;
    let mut nesting = Nesting::default();
    for (i, laid) in tokens.iter().enumerate() {
        let starts_decl = laid.token.tok.starts_declaration();
        let after_pub = current.is_some() && tokens[i - 1].token.tok == Tok::Pub;
        let boundary = match &current {
            None => Some(false),
            Some(_) if starts_decl && !after_pub => Some(false),
            // A closer of a bracket still open continues the item, whatever its column.
            Some(_) if laid.token.tok.closes() && nesting.depth() > 0 => None,
            Some(open) if laid.line_start => {
                if laid.col == 0 && open.is_decl {
                    Some(false)
                } else if laid.col > 0
                    && nesting.depth() == 0
                    && open.body_col.is_some_and(|body| laid.col < body)
                {
                    Some(true)
                } else {
                    None
                }
            }
            Some(_) => None,
        };
        if let Some(tentative) = boundary {
            // A dedented piece of a declaration still ends at the next line in column 1.
            let inherited = tentative && current.as_ref().is_some_and(|open| open.is_decl);
            if let Some(done) = current.take() {
                groups.push(Bounds {
                    tokens: done.start..i,
                    tentative: done.tentative,
                });
            }
            current = Some(Open {
                start: i,
                tentative,
                is_decl: starts_decl || inherited,
                body_col: None,
            });
            nesting = Nesting::default();
        } else if let Some(open) = current.as_mut() {
            if laid.line_start && laid.col > 0 && open.body_col.is_none() {
                open.body_col = Some(laid.col);
            }
        }
        if let super::brackets::Step::Close(opener) = nesting.step(i, laid.token.tok) {
            nesting.closed_inside(opener);
        }
    }
    groups.extend(current.map(|open| Bounds {
        tokens: open.start..tokens.len(),
        tentative: open.tentative,
    }));
    groups
}

/// For a class or instance, the column of its member lines (that of the first line after
/// the header); `None` for other items.
pub fn member_column(tokens: &[Laid<'_>]) -> Option<u32> {
    if !is_member_block(tokens) {
        return None;
    }
    let header_line = tokens.first()?.line;
    tokens
        .iter()
        .find(|t| t.line_start && t.line != header_line)
        .map(|t| t.col)
}

fn is_member_block(tokens: &[Laid<'_>]) -> bool {
    let mut it = tokens.iter().map(|t| t.token.tok);
    match it.next() {
        Some(Tok::Class | Tok::Instance) => true,
        Some(Tok::Pub) => matches!(it.next(), Some(Tok::Class | Tok::Instance)),
        _ => false,
    }
}

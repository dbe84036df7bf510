//! Layout: splits a file's tokens into top-level items, balances brackets within each item
//! and separates class/instance members.
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

use super::lexer::Token;
use super::token::Tok;
use crate::diagnostic::{Code, Diagnostic, DiagnosticData};
use crate::span::Span;

/// The deepest bracket nesting an item may have. Deeper input is reported, not parsed, so
/// no later pass can exhaust the stack on it.
pub const MAX_BRACKET_DEPTH: usize = 256;

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

/// The tokens of one top-level item, ready for the grammar.
#[derive(Debug)]
pub struct Chunk<'a> {
    pub tokens: Vec<Token<'a>>,
    /// From the first to the last real token.
    pub span: Span,
    pub diagnostics: Vec<Diagnostic>,
    /// Set when the item nests too deeply to be parsed safely.
    pub too_deep: bool,
    /// Indices (into the item's tokens) of the openers that were never closed and got a
    /// closer where the balancing rules put one (before a mismatched closer, a member line or
    /// the end of the item), rather than where a hint asked for it.
    pub unclosed: Vec<usize>,
    /// Indices of the closers that had no opener (dropped, and reported).
    pub stray: Vec<usize>,
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
        depth: usize,
    }
    let mut groups: Vec<Bounds> = Vec::new();
    let mut current: Option<Open> = None;
    for (i, laid) in tokens.iter().enumerate() {
        let starts_decl = laid.token.tok.starts_declaration();
        let after_pub = current.is_some() && tokens[i - 1].token.tok == Tok::Pub;
        let boundary = match &current {
            None => Some(false),
            Some(_) if starts_decl && !after_pub => Some(false),
            // A closer of a bracket still open continues the item, whatever its column.
            Some(open) if laid.token.tok.closes() && open.depth > 0 => None,
            Some(open) if laid.line_start => {
                if laid.col == 0 && open.is_decl {
                    Some(false)
                } else if laid.col > 0
                    && open.depth == 0
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
                depth: 0,
            });
        } else if let Some(open) = current.as_mut() {
            if laid.line_start && laid.col > 0 && open.body_col.is_none() {
                open.body_col = Some(laid.col);
            }
        }
        if let Some(open) = current.as_mut() {
            if laid.token.tok.opens() {
                open.depth += 1;
            } else if laid.token.tok.closes() {
                open.depth = open.depth.saturating_sub(1);
            }
        }
    }
    groups.extend(current.map(|open| Bounds {
        tokens: open.start..tokens.len(),
        tentative: open.tentative,
    }));
    groups
}

/// Balances the brackets of an item's tokens and separates its members. Each unclosed
/// opener of `close_before` (opener index, token index) is closed right before the given
/// token instead of where the balancing rules would close it.
pub fn chunk_with<'a>(tokens: &[Laid<'a>], close_before: &[(usize, usize)]) -> Chunk<'a> {
    let span = match (tokens.first(), tokens.last()) {
        (Some(f), Some(l)) => f.token.span.cover(l.token.span),
        _ => Span::default(),
    };
    let mut b = Balancer {
        out: Vec::with_capacity(tokens.len() + 4),
        open: Vec::new(),
        diags: Vec::new(),
        too_deep: false,
        unclosed: Vec::new(),
        stray: Vec::new(),
    };
    let member_lines = is_member_block(tokens);
    let header_line = tokens.first().map_or(0, |t| t.line);
    let mut member_col: Option<u32> = None;
    for (i, laid) in tokens.iter().enumerate() {
        for &(opener, _) in close_before.iter().filter(|(_, before)| *before == i) {
            b.close_through(opener, laid.token.span.start);
        }
        if member_lines && laid.line_start && laid.line != header_line {
            let member_col = *member_col.get_or_insert(laid.col);
            if laid.col <= member_col {
                b.separate(laid.token.span.start);
            }
        }
        b.push(i, laid.token);
    }
    b.close_all(span.end);
    Chunk {
        tokens: b.out,
        span,
        diagnostics: b.diags,
        too_deep: b.too_deep,
        unclosed: b.unclosed,
        stray: b.stray,
    }
}

/// Drops closers with no opener and adds closers for openers left open, so every bracket
/// pair is whole and the grammar's bracket-level recovery can always resynchronise.
///
/// In a class or instance body, a separator goes before each member line: lines after the
/// header that start at (or left of) the column of the first such line. A separator closes
/// every bracket still open, so an unclosed bracket damages one member only.
struct Balancer<'a> {
    out: Vec<Token<'a>>,
    /// Open brackets and their token indices.
    open: Vec<(usize, Token<'a>)>,
    diags: Vec<Diagnostic>,
    too_deep: bool,
    unclosed: Vec<usize>,
    stray: Vec<usize>,
}

impl<'a> Balancer<'a> {
    fn push(&mut self, index: usize, tok: Token<'a>) {
        if tok.tok.opens() {
            self.open.push((index, tok));
            if self.open.len() > MAX_BRACKET_DEPTH && !self.too_deep {
                self.too_deep = true;
                self.diags.push(
                    Diagnostic::error(
                        Code::NestingTooDeep,
                        tok.span,
                        format!(
                            "brackets nest more than {MAX_BRACKET_DEPTH} deep here; this item is not analysed"
                        ),
                    )
                    .with_data(DiagnosticData::NestingTooDeep {
                        limit: MAX_BRACKET_DEPTH,
                    }),
                );
            }
            self.out.push(tok);
        } else if tok.tok.closes() {
            let matching = self
                .open
                .iter()
                .rposition(|(_, o)| closer_for(o.tok) == tok.tok);
            match matching {
                Some(pos) => {
                    while self.open.len() > pos + 1 {
                        self.close_innermost(tok.span.start, true);
                    }
                    self.open.pop();
                    self.out.push(tok);
                }
                None => {
                    self.stray.push(index);
                    self.diags.push(
                        Diagnostic::error(
                            Code::UnexpectedToken,
                            tok.span,
                            format!("{} has no matching opening bracket", tok.tok),
                        )
                        .with_data(DiagnosticData::UnexpectedToken {
                            found: tok.tok.to_string(),
                            expected: vec![],
                            skipped: vec![tok.span],
                        }),
                    );
                }
            }
        } else {
            self.out.push(tok);
        }
    }

    /// Closes the innermost open bracket with a virtual closer at `at`.
    fn close_innermost(&mut self, at: u32, by_rule: bool) {
        if let Some((index, unclosed)) = self.open.pop() {
            // Past the nesting limit the item is not analysed; one diagnostic says so.
            if !self.too_deep {
                report_unclosed(&unclosed, &mut self.diags);
            }
            self.out.push(virtual_token(closer_for(unclosed.tok), at));
            if by_rule {
                self.unclosed.push(index);
            }
        }
    }

    /// Closes the opener at token index `opener` (and any opened inside it) at `at`, if it
    /// is still open.
    fn close_through(&mut self, opener: usize, at: u32) {
        if !self.open.iter().any(|(i, _)| *i == opener) {
            return;
        }
        while let Some(&(index, _)) = self.open.last() {
            self.close_innermost(at, index != opener);
            if index == opener {
                break;
            }
        }
    }

    fn separate(&mut self, at: u32) {
        while !self.open.is_empty() {
            self.close_innermost(at, true);
        }
        self.out.push(virtual_token(Tok::Sep, at));
    }

    fn close_all(&mut self, at: u32) {
        while !self.open.is_empty() {
            self.close_innermost(at, true);
        }
    }
}

fn closer_for(open: Tok<'_>) -> Tok<'static> {
    match open {
        Tok::LParen => Tok::RParen,
        Tok::LBracket => Tok::RBracket,
        _ => Tok::RBrace,
    }
}

fn report_unclosed(open: &Token<'_>, diags: &mut Vec<Diagnostic>) {
    let closer = closer_for(open.tok);
    diags.push(
        Diagnostic::error(
            Code::UnexpectedEof,
            open.span,
            format!("{} is never closed; add {closer}", open.tok),
        )
        .with_data(DiagnosticData::UnexpectedEof {
            expected: vec![closer.to_string()],
        }),
    );
}

fn virtual_token(tok: Tok<'static>, at: u32) -> Token<'static> {
    Token {
        tok,
        span: Span { start: at, end: at },
    }
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

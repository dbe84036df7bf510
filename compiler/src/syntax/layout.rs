//! Layout: splits a file's tokens into top-level items, balances brackets within each item
//! and separates class/instance members.
//!
//! A declaration starts with a keyword in column 1 and ends at the next token in column 1
//! (continuation lines are indented). Everything else in column 1 belongs to the program's
//! result expression. Parsing each item on its own keeps damage from one broken item out of
//! the others.

use super::lexer::Token;
use super::token::Tok;
use crate::diagnostic::{Code, Diagnostic, DiagnosticData};
use crate::line_index::LineIndex;
use crate::span::Span;

/// The deepest bracket nesting an item may have. Deeper input is reported, not parsed, so
/// no later pass can exhaust the stack on it.
pub const MAX_BRACKET_DEPTH: usize = 256;

/// The tokens of one top-level item, ready for the grammar.
#[derive(Debug)]
pub struct Chunk<'a> {
    pub tokens: Vec<Token<'a>>,
    /// From the first to the last real token.
    pub span: Span,
    pub diagnostics: Vec<Diagnostic>,
    /// Set when the item nests too deeply to be parsed safely.
    pub too_deep: bool,
}

pub fn split<'a>(text: &str, tokens: &[Token<'a>]) -> Vec<Chunk<'a>> {
    let index = LineIndex::new(text);
    let mut groups: Vec<(bool, Vec<Token<'a>>)> = Vec::new();
    let mut prev_line = usize::MAX;
    for tok in tokens {
        let line = index.line_of(tok.span.start as usize);
        let first_on_line = line != prev_line;
        prev_line = line;
        let at_margin = first_on_line && index.byte_column(tok.span.start as usize) == 0;
        let starts_decl = tok.tok.starts_declaration();
        let new_group = match groups.last() {
            None => true,
            Some((is_decl, _)) => at_margin && (starts_decl || *is_decl),
        };
        if new_group {
            groups.push((starts_decl, Vec::new()));
        }
        if let Some((_, group)) = groups.last_mut() {
            group.push(*tok);
        }
    }
    groups
        .into_iter()
        .map(|(_, toks)| finish_chunk(&index, toks))
        .collect()
}

fn finish_chunk<'a>(index: &LineIndex, tokens: Vec<Token<'a>>) -> Chunk<'a> {
    let span = match (tokens.first(), tokens.last()) {
        (Some(f), Some(l)) => f.span.cover(l.span),
        _ => Span::default(),
    };
    let mut diagnostics = Vec::new();
    let (tokens, too_deep) = balance(tokens, span, &mut diagnostics);
    let tokens = if is_member_block(&tokens) {
        insert_separators(index, tokens)
    } else {
        tokens
    };
    Chunk {
        tokens,
        span,
        diagnostics,
        too_deep,
    }
}

fn closer_for(open: Tok<'_>) -> Tok<'static> {
    match open {
        Tok::LParen => Tok::RParen,
        Tok::LBracket => Tok::RBracket,
        _ => Tok::RBrace,
    }
}

/// Drops closers with no opener and adds closers for openers left open, so every bracket
/// pair is whole and the grammar's bracket-level recovery can always resynchronise.
fn balance<'a>(
    tokens: Vec<Token<'a>>,
    chunk: Span,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Token<'a>>, bool) {
    let mut out = Vec::with_capacity(tokens.len());
    let mut open: Vec<Token<'a>> = Vec::new();
    let mut too_deep = false;
    for tok in tokens {
        if tok.tok.opens() {
            open.push(tok);
            if open.len() > MAX_BRACKET_DEPTH && !too_deep {
                too_deep = true;
                diags.push(
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
            out.push(tok);
        } else if tok.tok.closes() {
            if let Some(pos) = open.iter().rposition(|o| closer_for(o.tok) == tok.tok) {
                while open.len() > pos + 1 {
                    if let Some(unclosed) = open.pop() {
                        report_unclosed(&unclosed, diags);
                        out.push(virtual_token(closer_for(unclosed.tok), tok.span.start));
                    }
                }
                open.pop();
                out.push(tok);
            } else {
                diags.push(
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
        } else {
            out.push(tok);
        }
    }
    while let Some(unclosed) = open.pop() {
        report_unclosed(&unclosed, diags);
        out.push(virtual_token(closer_for(unclosed.tok), chunk.end));
    }
    (out, too_deep)
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

fn is_member_block(tokens: &[Token<'_>]) -> bool {
    let mut it = tokens.iter().map(|t| t.tok);
    match it.next() {
        Some(Tok::Class | Tok::Instance) => true,
        Some(Tok::Pub) => matches!(it.next(), Some(Tok::Class | Tok::Instance)),
        _ => false,
    }
}

/// Inserts a separator before each member line of a class or instance body: lines after the
/// header that start at (or left of) the column of the first such line.
fn insert_separators<'a>(index: &LineIndex, tokens: Vec<Token<'a>>) -> Vec<Token<'a>> {
    let Some(first) = tokens.first() else {
        return tokens;
    };
    let header_line = index.line_of(first.span.start as usize);
    let mut out = Vec::with_capacity(tokens.len() + 8);
    let mut body_col: Option<usize> = None;
    let mut prev_line = header_line;
    let mut depth = 0usize;
    for tok in tokens {
        let line = index.line_of(tok.span.start as usize);
        if line != prev_line && line != header_line && depth == 0 {
            let col = index.byte_column(tok.span.start as usize);
            let member_col = *body_col.get_or_insert(col);
            if col <= member_col {
                out.push(virtual_token(Tok::Sep, tok.span.start));
            }
        }
        prev_line = line;
        if tok.tok.opens() {
            depth += 1;
        } else if tok.tok.closes() {
            depth = depth.saturating_sub(1);
        }
        out.push(tok);
    }
    out
}

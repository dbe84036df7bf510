//! The lexer: `logos` recognises raw lexemes, this module classifies them into [`Tok`]s and
//! turns lexical faults (stray characters, unterminated strings and comments) into
//! diagnostics while still producing a token stream.

use logos::Logos;

use super::token::{keyword, Tok};
use crate::diagnostic::{Code, Diagnostic};
use crate::span::Span;

#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\f]+")]
enum Raw {
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Word,
    #[regex(r"[0-9]+")]
    Int,
    #[regex(r"[0-9]+\.[0-9]+([eE][+-]?[0-9]+)?")]
    Float,
    #[regex(r#""([^"\\]|\\.)*""#)]
    Str,
    /// A string never closed ends with its line, so the rest of the file still lexes.
    #[regex(r#""([^"\\\n]|\\[^\n])*"#, priority = 1)]
    UnterminatedStr,
    #[regex(r"\?[A-Za-z_][A-Za-z0-9_]*")]
    NamedHole,
    #[token("?")]
    Hole,
    #[regex(r"[!#$%&*+./<=>@^|~:\-]+")]
    Sym,
    #[token("\\")]
    Backslash,
    #[token("λ")]
    Lambda,
    #[token("→")]
    UnicodeArrow,
    #[token("{-")]
    CommentStart,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token(",")]
    Comma,
}

/// A token with its byte span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub tok: Tok<'a>,
    pub span: Span,
}

/// A character as a message names it: itself in backquotes where it can be read there,
/// and always its code point (`€` and `¤` look alike in many fonts).
fn shown(ch: char) -> String {
    let code = format!("U+{:04X}", ch as u32);
    match ch {
        '`' => format!("{code} (a backquote)"),
        c if c.is_control() || c.is_whitespace() => code,
        c => format!("`{c}` ({code})"),
    }
}

/// Lexes the whole text. Never fails: faults become diagnostics; a character no token
/// starts with becomes an `Invalid` token (so the parser recovers around it instead of
/// joining its neighbours), and an unterminated string still yields a string token so the
/// parser sees a value.
pub fn lex(text: &str) -> (Vec<Token<'_>>, Vec<Diagnostic>) {
    let mut tokens = Vec::new();
    let mut diags = Vec::new();
    let mut lexer = Raw::lexer(text);
    while let Some(raw) = lexer.next() {
        let range = lexer.span();
        let span = Span::from(range.clone());
        let slice = lexer.slice();
        let tok = match raw {
            Err(()) => {
                let ch = slice.chars().next().unwrap_or('?');
                diags.push(Diagnostic::error(
                    Code::InvalidCharacter,
                    span,
                    format!("unexpected character {}", shown(ch)),
                ));
                Tok::Invalid
            }
            Ok(Raw::CommentStart) => {
                match lexer.remainder().find("-}") {
                    Some(end) => lexer.bump(end + 2),
                    None => {
                        let rest = lexer.remainder().len();
                        lexer.bump(rest);
                        diags.push(Diagnostic::error(
                            Code::UnterminatedComment,
                            span,
                            "this comment is never closed; add `-}`",
                        ));
                    }
                }
                continue;
            }
            Ok(Raw::Word) => match slice {
                "_" => Tok::Underscore,
                _ => keyword(slice).unwrap_or_else(|| {
                    if slice.starts_with(|c: char| c.is_ascii_uppercase()) {
                        Tok::Upper(slice)
                    } else {
                        Tok::Ident(slice)
                    }
                }),
            },
            Ok(Raw::Int) => Tok::Int(slice),
            Ok(Raw::Float) => Tok::Float(slice),
            Ok(Raw::Str) => {
                unescape(slice, |start, end| {
                    let at = Span {
                        start: span.start + start as u32,
                        end: span.start + end as u32,
                    };
                    let escape = slice.get(start..end).unwrap_or("\\");
                    diags.push(Diagnostic::error(
                        Code::InvalidEscape,
                        at,
                        format!(
                            "`{escape}` is not an escape; write `\\\\` for a backslash (escapes: `\\n` `\\t` `\\r` `\\0` `\\\\` `\\\"` `\\'`)"
                        ),
                    ));
                });
                Tok::Str(slice)
            }
            Ok(Raw::UnterminatedStr) => {
                diags.push(Diagnostic::error(
                    Code::UnterminatedString,
                    span,
                    "this string is never closed; add `\"`",
                ));
                Tok::Str(slice)
            }
            Ok(Raw::NamedHole) => Tok::Hole(Some(&slice[1..])),
            Ok(Raw::Hole) => Tok::Hole(None),
            Ok(Raw::Sym) => classify_symbol(slice),
            Ok(Raw::Backslash) | Ok(Raw::Lambda) => Tok::Backslash,
            Ok(Raw::UnicodeArrow) => Tok::Arrow,
            Ok(Raw::LParen) => Tok::LParen,
            Ok(Raw::RParen) => Tok::RParen,
            Ok(Raw::LBracket) => Tok::LBracket,
            Ok(Raw::RBracket) => Tok::RBracket,
            Ok(Raw::LBrace) => Tok::LBrace,
            Ok(Raw::RBrace) => Tok::RBrace,
            Ok(Raw::Comma) => Tok::Comma,
        };
        tokens.push(Token { tok, span });
    }
    (tokens, diags)
}

fn classify_symbol(s: &str) -> Tok<'_> {
    match s {
        "-" => Tok::Minus,
        "*" => Tok::Star,
        "<=" => Tok::LtEq,
        "::" => Tok::ColonColon,
        ":" => Tok::Colon,
        "=" => Tok::Eq,
        "->" => Tok::Arrow,
        "=>" => Tok::FatArrow,
        "|" => Tok::Bar,
        "." => Tok::Dot,
        _ => Tok::Op(s),
    }
}

/// Decodes the escapes of a string literal token (quotes included). Unknown escapes are kept
/// verbatim and reported through `bad_escape` (their byte offsets within the literal).
pub fn unescape(literal: &str, mut bad_escape: impl FnMut(usize, usize)) -> String {
    let inner = literal.strip_prefix('"').unwrap_or(literal);
    let inner = inner.strip_suffix('"').unwrap_or(inner);
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some((_, 'n')) => out.push('\n'),
            Some((_, 't')) => out.push('\t'),
            Some((_, 'r')) => out.push('\r'),
            Some((_, '0')) => out.push('\0'),
            Some((_, '\\')) => out.push('\\'),
            Some((_, '"')) => out.push('"'),
            Some((_, '\'')) => out.push('\''),
            Some((j, other)) => {
                bad_escape(i + 1, j + 1 + other.len_utf8());
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Tok<'_>> {
        lex(text).0.into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn classifies_words_symbols_and_holes() {
        assert_eq!(
            toks(r"fn f x: i32 -> Foo = \y -> y :: ys ?h ? _ λ →"),
            vec![
                Tok::Fn,
                Tok::Ident("f"),
                Tok::Ident("x"),
                Tok::Colon,
                Tok::Ident("i32"),
                Tok::Arrow,
                Tok::Upper("Foo"),
                Tok::Eq,
                Tok::Backslash,
                Tok::Ident("y"),
                Tok::Arrow,
                Tok::Ident("y"),
                Tok::ColonColon,
                Tok::Ident("ys"),
                Tok::Hole(Some("h")),
                Tok::Hole(None),
                Tok::Underscore,
                Tok::Backslash,
                Tok::Arrow,
            ]
        );
    }

    #[test]
    fn numbers_projection_and_comments() {
        assert_eq!(
            toks("t.1 + 2.5 {- note -} == x.name"),
            vec![
                Tok::Ident("t"),
                Tok::Dot,
                Tok::Int("1"),
                Tok::Op("+"),
                Tok::Float("2.5"),
                Tok::Op("=="),
                Tok::Ident("x"),
                Tok::Dot,
                Tok::Ident("name"),
            ]
        );
    }

    #[test]
    fn lexical_faults_become_diagnostics() {
        let (tokens, diags) = lex("\"abc");
        assert_eq!(tokens.len(), 1);
        assert_eq!(diags[0].code, Code::UnterminatedString);
        let (tokens, _) = lex("\"abc\nlet x");
        assert_eq!(tokens.len(), 3, "an unclosed string ends with its line");
        let (_, diags) = lex("1 {- open");
        assert_eq!(diags[0].code, Code::UnterminatedComment);
        let (tokens, diags) = lex("a ` b");
        assert_eq!(tokens.len(), 3);
        assert_eq!(tokens[1].tok, Tok::Invalid, "the parser sees where it was");
        assert_eq!(diags[0].code, Code::InvalidCharacter);
    }

    #[test]
    fn unescapes_strings() {
        let mut bad = vec![];
        assert_eq!(
            unescape(r#""a\n\"b\q""#, |s, e| bad.push((s, e))),
            "a\n\"b\\q"
        );
        assert_eq!(bad, vec![(7, 9)]);
    }
}

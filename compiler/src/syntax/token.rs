//! The tokens the grammar consumes.

use std::fmt;

/// A token. Text payloads borrow from the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok<'a> {
    /// An identifier starting with a lower-case letter or `_` (but not `_` alone).
    Ident(&'a str),
    /// An identifier starting with an upper-case letter (types, constructors, classes, aliases).
    Upper(&'a str),
    Underscore,
    Int(&'a str),
    Float(&'a str),
    /// A string literal, quotes included, escapes not yet decoded.
    Str(&'a str),
    /// `?` (None) or `?name`.
    Hole(Option<&'a str>),
    /// A user operator: a sequence of symbol characters with no fixed role.
    Op(&'a str),
    Minus,
    Star,
    LtEq,
    ColonColon,
    Colon,
    Eq,
    Arrow,
    FatArrow,
    Bar,
    Dot,
    Backslash,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    /// A virtual separator inserted by the layout pass between class/instance members.
    Sep,
    /// Virtual: stands for a stretch of text inside brackets that the parser gave up on (or
    /// for a missing element). It reads as an error node wherever an atom may stand.
    Skipped,
    /// A character no token starts with. The lexer reports it (E0103); no rule of the
    /// grammar accepts it, so the parser recovers around it as around any stray token.
    Invalid,
    // keywords
    Fn,
    Type,
    Class,
    Instance,
    Import,
    Pub,
    Let,
    Rec,
    In,
    If,
    Then,
    Else,
    Match,
    When,
    Is,
    With,
    Where,
    As,
    True,
    False,
}

impl Tok<'_> {
    /// True for keywords that begin a top-level declaration.
    pub fn starts_declaration(&self) -> bool {
        matches!(
            self,
            Tok::Fn | Tok::Type | Tok::Class | Tok::Instance | Tok::Import | Tok::Pub
        )
    }

    pub fn opens(&self) -> bool {
        matches!(self, Tok::LParen | Tok::LBracket | Tok::LBrace)
    }

    pub fn closes(&self) -> bool {
        matches!(self, Tok::RParen | Tok::RBracket | Tok::RBrace)
    }
}

pub fn keyword(word: &str) -> Option<Tok<'static>> {
    Some(match word {
        "fn" => Tok::Fn,
        "type" => Tok::Type,
        "class" => Tok::Class,
        "instance" => Tok::Instance,
        "import" => Tok::Import,
        "pub" => Tok::Pub,
        "let" => Tok::Let,
        "rec" => Tok::Rec,
        "in" => Tok::In,
        "if" => Tok::If,
        "then" => Tok::Then,
        "else" => Tok::Else,
        "match" => Tok::Match,
        "when" => Tok::When,
        "is" => Tok::Is,
        "with" => Tok::With,
        "where" => Tok::Where,
        "as" => Tok::As,
        "true" => Tok::True,
        "false" => Tok::False,
        _ => return None,
    })
}

impl Tok<'_> {
    /// The exact text of a keyword or symbol token (`->`, `in`, `?`); `None` for tokens
    /// whose text varies (names, literals, operators, named holes) and for virtual ones.
    pub fn fixed_text(&self) -> Option<&'static str> {
        Some(match self {
            Tok::Hole(None) => "?",
            Tok::Underscore => "_",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::LtEq => "<=",
            Tok::ColonColon => "::",
            Tok::Colon => ":",
            Tok::Eq => "=",
            Tok::Arrow => "->",
            Tok::FatArrow => "=>",
            Tok::Bar => "|",
            Tok::Dot => ".",
            Tok::Backslash => "\\",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::Comma => ",",
            Tok::Fn => "fn",
            Tok::Type => "type",
            Tok::Class => "class",
            Tok::Instance => "instance",
            Tok::Import => "import",
            Tok::Pub => "pub",
            Tok::Let => "let",
            Tok::Rec => "rec",
            Tok::In => "in",
            Tok::If => "if",
            Tok::Then => "then",
            Tok::Else => "else",
            Tok::Match => "match",
            Tok::When => "when",
            Tok::Is => "is",
            Tok::With => "with",
            Tok::Where => "where",
            Tok::As => "as",
            Tok::True => "true",
            Tok::False => "false",
            _ => return None,
        })
    }
}

impl fmt::Display for Tok<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(s) | Tok::Upper(s) | Tok::Int(s) | Tok::Float(s) | Tok::Str(s) => {
                write!(f, "`{s}`")
            }
            Tok::Op(s) => write!(f, "operator `{s}`"),
            Tok::Hole(Some(n)) => write!(f, "`?{n}`"),
            Tok::Sep => write!(f, "a new member line"),
            Tok::Skipped => write!(f, "unreadable text"),
            Tok::Invalid => write!(f, "an invalid character"),
            other => write!(f, "`{}`", other.fixed_text().unwrap_or_default()),
        }
    }
}

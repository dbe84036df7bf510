//! A reader for the part of Lark the project's grammars are written in: rules and
//! terminals (`name: alt | alt`, continued on lines that start with `|`), string literals,
//! `/regex/` terminals, `[x]`, `x?`, `x*`, `x+`, parentheses, `%ignore` and the
//! `%llguidance` header (skipped), and `//` comments. Anything else is an error naming it,
//! never a guess: the GBNF converter builds on what this returns.

/// One expansion of a rule, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// Alternatives (two or more).
    Alt(Vec<Expr>),
    /// A sequence (empty: the empty string).
    Seq(Vec<Expr>),
    /// `[x]` or `x?`.
    Opt(Box<Expr>),
    Star(Box<Expr>),
    Plus(Box<Expr>),
    /// A string literal, unescaped.
    Lit(String),
    /// A regex, as written between the slashes.
    Regex(String),
    /// A rule (lower-case name) or a terminal (upper-case name).
    Name(String),
}

/// A rule or terminal definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    pub name: String,
    pub body: Expr,
}

/// A grammar as read: definitions in their order, and what `%ignore` skips.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Grammar {
    pub rules: Vec<Rule>,
    pub ignore: Vec<Expr>,
}

impl Grammar {
    pub fn rule(&self, name: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| r.name == name)
    }
}

/// Whether a name is a terminal's (Lark: upper-case; `_`-prefixed names follow the rest).
pub fn is_terminal(name: &str) -> bool {
    name.trim_start_matches('_')
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_uppercase())
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Name(String),
    Colon,
    Pipe,
    LParen,
    RParen,
    LBrack,
    RBrack,
    Star,
    Plus,
    Question,
    Str(String),
    Regex(String),
    Newline,
    Ignore,
}

/// Reads `text`; an error says what and where (1-based line).
pub fn read(text: &str) -> Result<Grammar, String> {
    let toks = tokenize(text)?;
    let mut p = Parser { toks, at: 0 };
    let mut g = Grammar::default();
    loop {
        p.skip_newlines();
        let Some((tok, line)) = p.peek().cloned() else {
            break;
        };
        match tok {
            Tok::Ignore => {
                p.at += 1;
                let e = p.alternatives()?;
                g.ignore.push(e);
            }
            Tok::Name(name) => {
                p.at += 1;
                if p.next_tok() != Some(Tok::Colon) {
                    return Err(format!("line {line}: `{name}` is not followed by `:`"));
                }
                let body = p.alternatives()?;
                if g.rule(&name).is_some() {
                    return Err(format!("line {line}: `{name}` is defined twice"));
                }
                g.rules.push(Rule { name, body });
            }
            other => return Err(format!("line {line}: unexpected {other:?}")),
        }
    }
    for r in &g.rules {
        check_names(&g, &r.body)?;
    }
    for e in &g.ignore {
        check_names(&g, e)?;
    }
    Ok(g)
}

fn check_names(g: &Grammar, e: &Expr) -> Result<(), String> {
    match e {
        Expr::Name(n) if g.rule(n).is_none() => Err(format!("`{n}` is used but not defined")),
        Expr::Alt(xs) | Expr::Seq(xs) => xs.iter().try_for_each(|x| check_names(g, x)),
        Expr::Opt(x) | Expr::Star(x) | Expr::Plus(x) => check_names(g, x),
        _ => Ok(()),
    }
}

fn tokenize(text: &str) -> Result<Vec<(Tok, usize)>, String> {
    let mut out = Vec::new();
    let mut line = 1;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\n' => {
                out.push((Tok::Newline, line));
                line += 1;
            }
            c if c.is_whitespace() => {}
            '/' if text[i..].starts_with("//") => {
                while chars.peek().is_some_and(|(_, c)| *c != '\n') {
                    chars.next();
                }
            }
            '%' => {
                let rest = &text[i..];
                let word_end = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len());
                match &rest[..word_end] {
                    "%ignore" => {
                        out.push((Tok::Ignore, line));
                        for _ in 1..word_end {
                            chars.next();
                        }
                    }
                    // llguidance's options for the grammar: nothing for other readers.
                    "%llguidance" => {
                        while chars.peek().is_some_and(|(_, c)| *c != '\n') {
                            chars.next();
                        }
                    }
                    other => return Err(format!("line {line}: unsupported directive `{other}`")),
                }
            }
            ':' => out.push((Tok::Colon, line)),
            '|' => out.push((Tok::Pipe, line)),
            '(' => out.push((Tok::LParen, line)),
            ')' => out.push((Tok::RParen, line)),
            '[' => out.push((Tok::LBrack, line)),
            ']' => out.push((Tok::RBrack, line)),
            '*' => out.push((Tok::Star, line)),
            '+' => out.push((Tok::Plus, line)),
            '?' => out.push((Tok::Question, line)),
            '"' => {
                let mut s = String::new();
                loop {
                    match chars.next() {
                        None | Some((_, '\n')) => {
                            return Err(format!("line {line}: a string is not closed"))
                        }
                        Some((_, '"')) => break,
                        Some((_, '\\')) => match chars.next() {
                            Some((_, 'n')) => s.push('\n'),
                            Some((_, 't')) => s.push('\t'),
                            Some((_, 'r')) => s.push('\r'),
                            Some((_, c @ ('"' | '\\'))) => s.push(c),
                            other => {
                                return Err(format!(
                                    "line {line}: unsupported escape in a string: {other:?}"
                                ))
                            }
                        },
                        Some((_, c)) => s.push(c),
                    }
                }
                if chars.peek().is_some_and(|(_, c)| *c == 'i') {
                    return Err(format!(
                        "line {line}: case-insensitive strings are not supported"
                    ));
                }
                out.push((Tok::Str(s), line));
            }
            '/' => {
                let mut s = String::new();
                loop {
                    match chars.next() {
                        None | Some((_, '\n')) => {
                            return Err(format!("line {line}: a regex is not closed"))
                        }
                        Some((_, '/')) => break,
                        Some((_, '\\')) => {
                            let Some((_, e)) = chars.next() else {
                                return Err(format!("line {line}: a regex is not closed"));
                            };
                            // `\/` is a slash; other escapes are the regex's own.
                            if e != '/' {
                                s.push('\\');
                            }
                            s.push(e);
                        }
                        Some((_, c)) => s.push(c),
                    }
                }
                if chars.peek().is_some_and(|(_, c)| c.is_ascii_alphabetic()) {
                    return Err(format!("line {line}: regex flags are not supported"));
                }
                out.push((Tok::Regex(s), line));
            }
            c if c.is_ascii_alphabetic() || c == '_' => {
                let mut s = String::from(c);
                while let Some((_, c)) = chars.peek().copied() {
                    if c.is_ascii_alphanumeric() || c == '_' {
                        s.push(c);
                        chars.next();
                    } else {
                        break;
                    }
                }
                out.push((Tok::Name(s), line));
            }
            other => return Err(format!("line {line}: unexpected character `{other}`")),
        }
    }
    Ok(out)
}

struct Parser {
    toks: Vec<(Tok, usize)>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&(Tok, usize)> {
        self.toks.get(self.at)
    }

    fn next_tok(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.at).map(|(t, _)| t.clone());
        self.at += 1;
        t
    }

    fn line(&self) -> usize {
        self.toks
            .get(self.at.min(self.toks.len().saturating_sub(1)))
            .map_or(0, |(_, l)| *l)
    }

    fn skip_newlines(&mut self) {
        while matches!(self.peek(), Some((Tok::Newline, _))) {
            self.at += 1;
        }
    }

    /// Whether the definition goes on: a `|` here, or on the next non-empty line.
    fn continues_with_pipe(&mut self) -> bool {
        let mut i = self.at;
        while matches!(self.toks.get(i), Some((Tok::Newline, _))) {
            i += 1;
        }
        if matches!(self.toks.get(i), Some((Tok::Pipe, _))) {
            self.at = i + 1;
            true
        } else {
            false
        }
    }

    /// `seq ("|" seq)*`, where a `|` may start a new line (at the top level of a definition).
    fn alternatives(&mut self) -> Result<Expr, String> {
        let mut alts = vec![self.sequence()?];
        while self.continues_with_pipe() {
            alts.push(self.sequence()?);
        }
        Ok(one_or_alt(alts))
    }

    /// Alternatives inside brackets, where new lines are insignificant.
    fn inner_alternatives(&mut self) -> Result<Expr, String> {
        self.skip_newlines();
        let mut alts = vec![self.sequence_inner()?];
        loop {
            self.skip_newlines();
            if matches!(self.peek(), Some((Tok::Pipe, _))) {
                self.at += 1;
                self.skip_newlines();
                alts.push(self.sequence_inner()?);
            } else {
                break;
            }
        }
        Ok(one_or_alt(alts))
    }

    fn sequence(&mut self) -> Result<Expr, String> {
        let mut items = Vec::new();
        while let Some(item) = self.item(false)? {
            items.push(item);
        }
        Ok(one_or_seq(items))
    }

    fn sequence_inner(&mut self) -> Result<Expr, String> {
        let mut items = Vec::new();
        loop {
            self.skip_newlines();
            match self.item(true)? {
                Some(item) => items.push(item),
                None => break,
            }
        }
        Ok(one_or_seq(items))
    }

    fn item(&mut self, inner: bool) -> Result<Option<Expr>, String> {
        let line = self.line();
        let Some((tok, _)) = self.peek().cloned() else {
            return Ok(None);
        };
        let atom = match tok {
            Tok::Str(s) => {
                self.at += 1;
                Expr::Lit(s)
            }
            Tok::Regex(r) => {
                self.at += 1;
                Expr::Regex(r)
            }
            Tok::Name(n) => {
                // A name followed by `:` starts the next definition.
                if !inner && matches!(self.toks.get(self.at + 1), Some((Tok::Colon, _))) {
                    return Ok(None);
                }
                self.at += 1;
                Expr::Name(n)
            }
            Tok::LParen => {
                self.at += 1;
                let e = self.inner_alternatives()?;
                if self.next_tok() != Some(Tok::RParen) {
                    return Err(format!("line {line}: `(` is not closed"));
                }
                e
            }
            Tok::LBrack => {
                self.at += 1;
                let e = self.inner_alternatives()?;
                if self.next_tok() != Some(Tok::RBrack) {
                    return Err(format!("line {line}: `[` is not closed"));
                }
                Expr::Opt(Box::new(e))
            }
            _ => return Ok(None),
        };
        let mut e = atom;
        loop {
            e = match self.peek() {
                Some((Tok::Star, _)) => Expr::Star(Box::new(e)),
                Some((Tok::Plus, _)) => Expr::Plus(Box::new(e)),
                Some((Tok::Question, _)) => Expr::Opt(Box::new(e)),
                _ => break,
            };
            self.at += 1;
        }
        Ok(Some(e))
    }
}

fn one_or_alt(mut alts: Vec<Expr>) -> Expr {
    if alts.len() == 1 {
        alts.pop().unwrap_or(Expr::Seq(Vec::new()))
    } else {
        Expr::Alt(alts)
    }
}

fn one_or_seq(mut items: Vec<Expr>) -> Expr {
    if items.len() == 1 {
        items.pop().unwrap_or(Expr::Seq(Vec::new()))
    } else {
        Expr::Seq(items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rules_terminals_and_continuations() {
        let g = read(
            "%llguidance {}\n// c\nstart: a [\"x\"] b*\n    | \"(\" start \")\"\na: B+ | /[0-9]+/\nb: (a | B)?\nB: \"\\\\\" | \"λ\"\n%ignore /[ \\t]+/\n",
        )
        .unwrap();
        assert_eq!(g.rules.len(), 4);
        assert!(matches!(&g.rule("start").unwrap().body, Expr::Alt(a) if a.len() == 2));
        assert_eq!(
            g.rule("B").unwrap().body,
            Expr::Alt(vec![Expr::Lit("\\".into()), Expr::Lit("λ".into())])
        );
        assert_eq!(g.ignore, vec![Expr::Regex("[ \\t]+".into())]);
    }

    #[test]
    fn what_it_cannot_read_is_an_error() {
        assert!(read("start: x\n").unwrap_err().contains("`x`"));
        assert!(read("start: \"a\"i\n").is_err());
        assert!(read("%import common.WS\n").unwrap_err().contains("%import"));
        assert!(read("start: (\"a\"\n").is_err());
    }
}

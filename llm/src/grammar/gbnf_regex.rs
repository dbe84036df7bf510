//! Regexes as GBNF expressions, for the terminals of the project's Lark grammars: literal
//! characters and escapes, classes (`[a-z_]`, `[^"\\]`, `\d`, `\w`, `\s`), `.`, groups,
//! alternation and the `*`, `+`, `?` quantifiers. Bounded repetition, anchors and
//! look-around have no place in a lexeme here and are refused by name.
//!
//! Each conversion also says which kinds of character (word: ASCII letters, digits, `_`;
//! or other) a match may start and end with, which the GBNF converter needs to know where
//! two lexemes must be kept apart by whitespace.

/// Which kinds of character a text may start or end with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Kinds {
    pub word: bool,
    pub other: bool,
}

impl Kinds {
    pub fn of(c: char) -> Kinds {
        if is_word_char(c) {
            Kinds {
                word: true,
                other: false,
            }
        } else {
            Kinds {
                word: false,
                other: true,
            }
        }
    }

    pub fn union(self, o: Kinds) -> Kinds {
        Kinds {
            word: self.word || o.word,
            other: self.other || o.other,
        }
    }

    const BOTH: Kinds = Kinds {
        word: true,
        other: true,
    };
}

/// The characters Rex's lexer joins into one name or number.
pub fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// A converted regex (or part of one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub text: String,
    pub first: Kinds,
    pub last: Kinds,
    pub nullable: bool,
}

/// A regex as GBNF text (one parenthesised expression) with its first and last kinds.
pub fn convert(pattern: &str) -> Result<Piece, String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut p = Reader { chars, at: 0 };
    let out = p.alternatives()?;
    if p.at < p.chars.len() {
        return Err(format!(
            "unexpected `{}` in the regex /{pattern}/",
            p.chars[p.at]
        ));
    }
    Ok(Piece {
        text: format!("({})", out.text),
        ..out
    })
}

struct Reader {
    chars: Vec<char>,
    at: usize,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn alternatives(&mut self) -> Result<Piece, String> {
        let mut alts = vec![self.sequence()?];
        while self.peek() == Some('|') {
            self.at += 1;
            alts.push(self.sequence()?);
        }
        let mut out = Piece {
            text: String::new(),
            first: Kinds::default(),
            last: Kinds::default(),
            nullable: false,
        };
        let texts: Vec<&str> = alts.iter().map(|a| a.text.as_str()).collect();
        out.text = texts.join(" | ");
        for a in &alts {
            out.first = out.first.union(a.first);
            out.last = out.last.union(a.last);
            out.nullable |= a.nullable;
        }
        Ok(out)
    }

    fn sequence(&mut self) -> Result<Piece, String> {
        let mut items: Vec<Piece> = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let mut atom = self.atom()?;
            while let Some(q @ ('*' | '+' | '?')) = self.peek() {
                self.at += 1;
                if self.peek() == Some('?') {
                    // A lazy quantifier matches the same language.
                    self.at += 1;
                }
                atom.text = format!("{}{q}", atom.text);
                atom.nullable |= q != '+';
                if matches!(self.peek(), Some('*' | '+' | '?')) {
                    atom.text = format!("({})", atom.text);
                }
            }
            if self.peek() == Some('{') {
                return Err("bounded repetition `{n,m}` is not supported in GBNF terminals".into());
            }
            items.push(atom);
        }
        if items.is_empty() {
            return Ok(Piece {
                text: "\"\"".to_string(),
                first: Kinds::default(),
                last: Kinds::default(),
                nullable: true,
            });
        }
        let mut first = Kinds::default();
        for i in &items {
            first = first.union(i.first);
            if !i.nullable {
                break;
            }
        }
        let mut last = Kinds::default();
        for i in items.iter().rev() {
            last = last.union(i.last);
            if !i.nullable {
                break;
            }
        }
        let texts: Vec<&str> = items.iter().map(|i| i.text.as_str()).collect();
        Ok(Piece {
            text: texts.join(" "),
            first,
            last,
            nullable: items.iter().all(|i| i.nullable),
        })
    }

    fn atom(&mut self) -> Result<Piece, String> {
        let Some(c) = self.peek() else {
            return Err("a regex ends early".into());
        };
        self.at += 1;
        let one = |text: String, kinds: Kinds| Piece {
            text,
            first: kinds,
            last: kinds,
            nullable: false,
        };
        match c {
            '(' => {
                if self.peek() == Some('?') {
                    // `(?:...)` is a plain group; other `(?...)` forms are not regular here.
                    if self.chars.get(self.at + 1) == Some(&':') {
                        self.at += 2;
                    } else {
                        return Err("look-around and inline flags are not supported".into());
                    }
                }
                let inner = self.alternatives()?;
                if self.peek() != Some(')') {
                    return Err("a group is not closed".into());
                }
                self.at += 1;
                Ok(Piece {
                    text: format!("({})", inner.text),
                    ..inner
                })
            }
            '[' => self.class(),
            '.' => Ok(one("[^\\x0A]".to_string(), Kinds::BOTH)),
            '^' | '$' => Err(format!("the anchor `{c}` is not supported")),
            '\\' => {
                let e = self.escape()?;
                Ok(match e {
                    Escaped::Char(c) => one(literal(c), Kinds::of(c)),
                    Escaped::Class(s, kinds) => one(format!("[{s}]"), kinds),
                })
            }
            c => Ok(one(literal(c), Kinds::of(c))),
        }
    }

    fn escape(&mut self) -> Result<Escaped, String> {
        let Some(e) = self.peek() else {
            return Err("a regex ends with `\\`".into());
        };
        self.at += 1;
        let word = Kinds {
            word: true,
            other: false,
        };
        let other = Kinds {
            word: false,
            other: true,
        };
        Ok(match e {
            'n' => Escaped::Char('\n'),
            't' => Escaped::Char('\t'),
            'r' => Escaped::Char('\r'),
            'f' => Escaped::Char('\x0C'),
            'v' => Escaped::Char('\x0B'),
            'd' => Escaped::Class("0-9".into(), word),
            'w' => Escaped::Class("0-9A-Za-z\\x5F".into(), word),
            's' => Escaped::Class("\\x20\\x09\\x0A\\x0D\\x0C\\x0B".into(), other),
            c if c.is_ascii_alphanumeric() => {
                return Err(format!("the escape `\\{c}` is not supported"))
            }
            c => Escaped::Char(c),
        })
    }

    fn class(&mut self) -> Result<Piece, String> {
        let mut out = String::from("[");
        let negated = self.peek() == Some('^');
        if negated {
            self.at += 1;
            out.push('^');
        }
        let mut kinds = Kinds::default();
        let mut first = true;
        loop {
            let Some(c) = self.peek() else {
                return Err("a character class is not closed".into());
            };
            if c == ']' && !first {
                self.at += 1;
                break;
            }
            first = false;
            self.at += 1;
            let lo = match c {
                '\\' => match self.escape()? {
                    Escaped::Char(c) => c,
                    Escaped::Class(s, k) => {
                        out.push_str(&s);
                        kinds = kinds.union(k);
                        continue;
                    }
                },
                '[' => return Err("nested character classes are not supported".into()),
                c => c,
            };
            if self.peek() == Some('-') && self.chars.get(self.at + 1).is_some_and(|c| *c != ']') {
                self.at += 1;
                let Some(hi) = self.peek() else {
                    return Err("a character class is not closed".into());
                };
                self.at += 1;
                let hi = if hi == '\\' {
                    match self.escape()? {
                        Escaped::Char(c) => c,
                        Escaped::Class(..) => return Err("a range ends in a class".into()),
                    }
                } else {
                    hi
                };
                kinds = kinds.union(range_kinds(lo, hi));
                out.push_str(&string_char(lo));
                out.push('-');
                out.push_str(&string_char(hi));
            } else {
                kinds = kinds.union(Kinds::of(lo));
                out.push_str(&string_char(lo));
            }
        }
        out.push(']');
        // A negated class matches nearly everything.
        let kinds = if negated { Kinds::BOTH } else { kinds };
        Ok(Piece {
            text: out,
            first: kinds,
            last: kinds,
            nullable: false,
        })
    }
}

/// The kinds of the characters `lo..=hi`.
fn range_kinds(lo: char, hi: char) -> Kinds {
    let mut k = Kinds::default();
    let (lo, hi) = (lo as u32, hi as u32);
    for c in lo..=hi.min(lo + 0x2FF) {
        if let Some(c) = char::from_u32(c) {
            k = k.union(Kinds::of(c));
        }
    }
    if hi > lo + 0x2FF {
        k.other = true;
    }
    k
}

enum Escaped {
    Char(char),
    /// The inside of a GBNF class, and its kinds.
    Class(String, Kinds),
}

/// One character as a GBNF literal.
fn literal(c: char) -> String {
    format!("\"{}\"", string_char(c))
}

/// A character inside a GBNF string literal or class: ASCII punctuation and controls as
/// `\xHH` (llama.cpp reads those everywhere), the rest as itself.
pub fn string_char(c: char) -> String {
    if c.is_ascii_alphanumeric() || c == ' ' || (!c.is_ascii() && !c.is_control()) {
        c.to_string()
    } else {
        format!("\\x{:02X}", c as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::convert;

    fn to_gbnf(pattern: &str) -> Result<String, String> {
        convert(pattern).map(|p| p.text)
    }

    #[test]
    fn converts_the_project_s_lexemes() {
        assert_eq!(to_gbnf("[0-9]+").unwrap(), "([0-9]+)");
        assert_eq!(
            to_gbnf("\"([^\"\\\\]|\\\\.)*\"").unwrap(),
            "(\"\\x22\" ([^\\x22\\x5C] | \"\\x5C\" [^\\x0A])* \"\\x22\")"
        );
        assert_eq!(
            to_gbnf("[0-9]+\\.[0-9]+([eE][+-]?[0-9]+)?").unwrap(),
            "([0-9]+ \"\\x2E\" [0-9]+ ([eE] [\\x2B\\x2D]? [0-9]+)?)"
        );
        assert_eq!(to_gbnf("a|_b").unwrap(), "(\"a\" | \"\\x5F\" \"b\")");
    }

    #[test]
    fn knows_what_a_match_starts_and_ends_with() {
        let name = convert("_[A-Za-z0-9_]+|[a-z][A-Za-z0-9_]*").unwrap();
        assert!(name.first.word && !name.first.other && name.last.word && !name.last.other);
        let string = convert("\"([^\"\\\\]|\\\\.)*\"").unwrap();
        assert!(!string.first.word && !string.last.word);
        let hole = convert("\\?([A-Za-z_][A-Za-z0-9_]*)?").unwrap();
        assert!(!hole.first.word && hole.last.word && hole.last.other);
    }

    #[test]
    fn refuses_what_gbnf_terminals_cannot_say() {
        assert!(to_gbnf("a{2}").is_err());
        assert!(to_gbnf("^a").is_err());
        assert!(to_gbnf("(?=a)").is_err());
        assert!(to_gbnf("\\bx").is_err());
    }
}

//! Which names a grammar may list, how they are quoted, and the identifier lexeme that
//! leaves the keywords out with a plain regex (no llguidance-only operators, so any Lark
//! reader takes it).

use std::collections::BTreeMap;

use super::KEYWORDS;

/// The names that pass `ok`, deduplicated, in their first order.
pub fn valid(names: &[String], ok: fn(&str) -> bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for n in names {
        if ok(n) && seen.insert(n.as_str()) {
            out.push(n.clone());
        }
    }
    out
}

/// A Lark string literal.
pub fn quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    for c in s.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

/// A lower-case identifier Rex reads as a name (not `_`, not a keyword).
pub fn is_lower_ident(s: &str) -> bool {
    let mut cs = s.chars();
    let head_ok = matches!(cs.next(), Some(c) if c.is_ascii_lowercase() || c == '_');
    head_ok
        && s != "_"
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&s)
}

/// An upper-case identifier (a constructor, type or module alias).
pub fn is_upper_ident(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_ascii_uppercase())
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `x` or `M.x`.
pub fn is_value_name(s: &str) -> bool {
    match s.split_once('.') {
        None => is_lower_ident(s),
        Some((m, x)) => is_upper_ident(m) && is_lower_ident(x),
    }
}

/// `C` or `M.C`.
pub fn is_ctor_name(s: &str) -> bool {
    match s.split_once('.') {
        None => is_upper_ident(s),
        Some((m, c)) => is_upper_ident(m) && is_upper_ident(c),
    }
}

pub fn is_field_name(s: &str) -> bool {
    is_lower_ident(s)
}

/// A binary operator Rex's lexer reads as one operator token.
pub fn is_operator(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| "!#$%&*+./<=>@^|~:-".contains(c))
        && !matches!(s, ":" | "=" | "->" | "=>" | "|" | ".")
}

/// A regex for the lower-case identifiers Rex reads as names: `[a-z][A-Za-z0-9_]*` or
/// `_[A-Za-z0-9_]+`, less the keywords. Built from the keywords' trie: at each keyword
/// prefix, either stop (unless the prefix is a keyword), or go on with a character no
/// keyword continues with (then anything), or follow the trie.
pub fn binder_regex() -> String {
    let mut trie = Trie::default();
    for k in KEYWORDS {
        trie.insert(k.as_bytes());
    }
    format!("_[A-Za-z0-9_]+|{}", trie.regex(true))
}

#[derive(Default)]
struct Trie {
    end: bool,
    next: BTreeMap<u8, Trie>,
}

impl Trie {
    fn insert(&mut self, word: &[u8]) {
        match word.split_first() {
            None => self.end = true,
            Some((c, rest)) => self.next.entry(*c).or_default().insert(rest),
        }
    }

    /// The continuations of this prefix that make a name (the root: a whole name).
    fn regex(&self, root: bool) -> String {
        let chars: Vec<u8> = if root {
            (b'a'..=b'z').collect()
        } else {
            (b'0'..=b'9')
                .chain(b'A'..=b'Z')
                .chain(std::iter::once(b'_'))
                .chain(b'a'..=b'z')
                .collect()
        };
        let free: Vec<u8> = chars
            .into_iter()
            .filter(|c| !self.next.contains_key(c))
            .collect();
        if !root && self.end && self.next.is_empty() {
            // A keyword no other keyword extends: one more character at least.
            return "[A-Za-z0-9_]+".to_string();
        }
        let mut alts = Vec::new();
        if !free.is_empty() {
            alts.push(format!("{}[A-Za-z0-9_]*", class(&free)));
        }
        for (c, sub) in &self.next {
            alts.push(format!("{}{}", *c as char, sub.regex(false)));
        }
        let body = alts.join("|");
        match (root, self.end) {
            (true, _) => body,
            // A keyword must go on; any other prefix may stop here.
            (false, true) => format!("({body})"),
            (false, false) => format!("({body})?"),
        }
    }
}

/// A character class of ASCII word characters, with runs written as ranges.
fn class(chars: &[u8]) -> String {
    let mut out = String::from("[");
    let mut i = 0;
    while i < chars.len() {
        let mut j = i;
        while j + 1 < chars.len() && chars[j + 1] == chars[j] + 1 {
            j += 1;
        }
        out.push(chars[i] as char);
        if j > i + 1 {
            out.push('-');
        }
        if j > i {
            out.push(chars[j] as char);
        }
        i = j + 1;
    }
    out.push(']');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The regex against the definition, on every short word over the characters that
    /// matter and on the keywords with one character more or less.
    #[test]
    fn the_binder_regex_is_identifiers_less_keywords() {
        let lark = format!("start: BINDER\nBINDER: /{}/\n", binder_regex());
        let g = crate::grammar::check::ByteChecker::new()
            .and_then(|c| c.compile(&lark))
            .expect("the regex compiles");
        let alphabet: Vec<char> = "abefhilmnrstwyAZ09_x".chars().collect();
        let mut words: Vec<String> = vec![String::new()];
        for k in KEYWORDS {
            words.push(k.to_string());
            words.push(format!("{k}x"));
            words.push(format!("{k}_"));
            words.push(k[..k.len() - 1].to_string());
        }
        let mut layer = vec![String::new()];
        for _ in 0..3 {
            layer = layer
                .iter()
                .flat_map(|w| alphabet.iter().map(move |c| format!("{w}{c}")))
                .collect();
            words.extend(layer.iter().cloned());
        }
        for w in words {
            assert_eq!(g.accepts(&w), is_lower_ident(&w), "`{w}`");
        }
    }
}

//! The project's Lark grammars in GBNF, the grammar format the stock llama.cpp server reads
//! (its `grammar` request field). GBNF has no lexer: it matches characters. Three things
//! follow.
//!
//! * What Lark's `%ignore` skips between lexemes becomes whitespace written before every
//!   lexeme of a rule (never inside a terminal); regex terminals become character-level
//!   rules (`gbnf_regex`).
//! * Two words must not touch: Lark's lexer reads `mkx` as one name, and a GBNF that let
//!   a name end before any letter would make llama.cpp follow every split of every word
//!   (in our measurements that took minutes per token). So each rule is written twice, by
//!   the kind of character before it (`name-o`: the start, a space or a symbol; `name-w`:
//!   a word character), and a lexeme that starts with a word character needs at least one
//!   space after a word character (`wsm`), while it may touch anything else (`f(x)`,
//!   `(mk`). What comes after a rule that may end either way is taken to follow a word,
//!   so `(a)b` must be written `(a) b`; tracking both endings would make llama.cpp keep
//!   one parse per combination of nested endings, which is as slow.
//! * Rules that are left-recursive (`atom: atom "." field | name`), which llama.cpp
//!   refuses, are rewritten as a base followed by repeated tails.
//!
//! What is left of the difference from Lark (a keyword against a name is decided by the
//! names' regex, not by the longest match) only lets more through; the fill loop re-checks
//! every sample with the real lexer and checker.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::gbnf_regex::{convert as convert_regex, string_char, Kinds};
use super::lark_read::{is_terminal, read, Expr, Grammar};

/// The kind of the character before a point: a word character, or anything else (the
/// start, a space, a symbol). Where it could be either, it is taken as a word character.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum St {
    O,
    W,
}

impl St {
    fn letter(self) -> char {
        match self {
            St::O => 'o',
            St::W => 'w',
        }
    }

    fn join(self, o: St) -> St {
        if self == St::W || o == St::W {
            St::W
        } else {
            St::O
        }
    }
}

/// The GBNF text of a Lark grammar (its `start` rule becomes `root`).
pub fn lark_to_gbnf(lark: &str) -> Result<String, String> {
    let g = read(lark)?;
    if g.rule("start").is_none() {
        return Err("the grammar has no `start` rule".into());
    }
    let g = without_direct_left_recursion(g)?;
    check_no_left_recursion(&g)?;
    let mut c = Converter::new(&g)?;
    c.compute_exits();
    let root = c.demand("start", St::O);
    c.out.push(format!("root ::= {root}"));
    while let Some((name, p)) = c.queue.pop() {
        c.define(&name, p)?;
    }
    let mut out = c.out.join("\n");
    out.push('\n');
    for r in g.rules.iter().filter(|r| is_terminal(&r.name)) {
        let body = c.terminal_text(&r.body)?;
        out.push_str(&format!("{} ::= {body}\n", terminal_name(&r.name)));
    }
    out.push_str(&c.whitespace_rules()?);
    check_unique_names(&out)?;
    Ok(out)
}

fn terminal_name(name: &str) -> String {
    name.replace('_', "-")
}

fn rule_name(name: &str, p: St) -> String {
    format!("{}-{}", name.replace('_', "-"), p.letter())
}

struct Converter<'g> {
    g: &'g Grammar,
    /// The first and last kinds of each terminal.
    lexemes: HashMap<&'g str, (Kinds, Kinds)>,
    /// The state after each rule, by the state before it.
    exits: HashMap<(&'g str, St), St>,
    /// Rules demanded and not yet defined, by name and entry state.
    queue: Vec<(String, St)>,
    demanded: BTreeSet<(String, St)>,
    out: Vec<String>,
}

impl<'g> Converter<'g> {
    fn new(g: &'g Grammar) -> Result<Converter<'g>, String> {
        let mut lexemes = HashMap::new();
        for r in g.rules.iter().filter(|r| is_terminal(&r.name)) {
            let (first, last, nullable) = terminal_kinds(g, &r.body, 0)?;
            if nullable {
                return Err(format!(
                    "the terminal `{}` matches the empty string",
                    r.name
                ));
            }
            lexemes.insert(r.name.as_str(), (first, last));
        }
        Ok(Converter {
            g,
            lexemes,
            exits: HashMap::new(),
            queue: Vec::new(),
            demanded: BTreeSet::new(),
            out: Vec::new(),
        })
    }

    fn exit_of(&self, name: &str, p: St) -> St {
        self.exits.get(&(name, p)).copied().unwrap_or(St::O)
    }

    /// The state after each rule: the least fixpoint (states only move towards `W`).
    fn compute_exits(&mut self) {
        let g = self.g;
        loop {
            let mut changed = false;
            for r in g.rules.iter().filter(|r| !is_terminal(&r.name)) {
                for p in [St::O, St::W] {
                    let got = self.exit_expr(&r.body, p);
                    let entry = self.exits.entry((r.name.as_str(), p)).or_insert(St::O);
                    if got.join(*entry) != *entry {
                        *entry = got.join(*entry);
                        changed = true;
                    }
                }
            }
            if !changed {
                return;
            }
        }
    }

    fn exit_expr(&self, e: &Expr, p: St) -> St {
        match e {
            Expr::Lit(_) | Expr::Regex(_) => self.lexeme(e).map_or(p, |(_, q)| q),
            Expr::Name(n) if is_terminal(n) => self.lexeme(e).map_or(p, |(_, q)| q),
            Expr::Name(n) => self.exit_of(n, p),
            Expr::Alt(xs) => xs
                .iter()
                .map(|x| self.exit_expr(x, p))
                .fold(St::O, St::join),
            Expr::Seq(xs) => xs.iter().fold(p, |s, x| self.exit_expr(x, s)),
            Expr::Opt(x) => p.join(self.exit_expr(x, p)),
            Expr::Star(x) => p.join(self.loop_state(x, p)),
            Expr::Plus(x) => self.loop_state(x, p),
        }
    }

    /// The state after one or more of `x` from `p`.
    fn loop_state(&self, x: &Expr, p: St) -> St {
        let once = self.exit_expr(x, p);
        once.join(self.exit_expr(x, once))
    }

    /// A lexeme's GBNF text (without separator) and the state after it.
    fn lexeme(&self, e: &Expr) -> Option<(String, St)> {
        let (text, last) = match e {
            Expr::Lit(s) => (
                string_literal(s),
                s.chars().last().map(Kinds::of).unwrap_or_default(),
            ),
            Expr::Regex(r) => {
                let piece = convert_regex(r).ok()?;
                (piece.text, piece.last)
            }
            Expr::Name(n) => (terminal_name(n), self.lexemes.get(n.as_str())?.1),
            _ => return None,
        };
        // A lexeme that may end with a word character leaves the state "after a word".
        Some((text, if last.word { St::W } else { St::O }))
    }

    fn first_kinds(&self, e: &Expr) -> Kinds {
        match e {
            Expr::Lit(s) => s.chars().next().map(Kinds::of).unwrap_or_default(),
            Expr::Regex(r) => convert_regex(r).map(|p| p.first).unwrap_or_default(),
            Expr::Name(n) => self
                .lexemes
                .get(n.as_str())
                .map(|k| k.0)
                .unwrap_or_default(),
            _ => Kinds::default(),
        }
    }

    /// The name of rule `name` entered from `p`, to be defined.
    fn demand(&mut self, name: &str, p: St) -> String {
        if self.demanded.insert((name.to_string(), p)) {
            self.queue.push((name.to_string(), p));
        }
        rule_name(name, p)
    }

    /// Defines `name` entered from `p`.
    fn define(&mut self, name: &str, p: St) -> Result<(), String> {
        let Some(rule) = self.g.rule(name) else {
            return Err(format!("`{name}` is not defined"));
        };
        let (text, _) = self.gen(&rule.body, p)?;
        self.out.push(format!("{} ::= {text}", rule_name(name, p)));
        Ok(())
    }

    /// `e` read from state `p`: the GBNF expression and the state after it.
    fn gen(&mut self, e: &'g Expr, p: St) -> Result<(String, St), String> {
        Ok(match e {
            Expr::Lit(_) | Expr::Regex(_) => self.gen_lexeme(e, p)?,
            Expr::Name(n) if is_terminal(n) => self.gen_lexeme(e, p)?,
            Expr::Name(n) => (self.demand(n, p), self.exit_of(n, p)),
            Expr::Alt(xs) => {
                let mut texts = Vec::new();
                let mut exit = St::O;
                for x in xs {
                    let (t, q) = self.gen(x, p)?;
                    texts.push(t);
                    exit = exit.join(q);
                }
                (alternation(texts), exit)
            }
            Expr::Seq(xs) if xs.is_empty() => ("\"\"".to_string(), p),
            Expr::Seq(xs) => {
                let mut texts = Vec::new();
                let mut at = p;
                for x in xs {
                    let (t, q) = self.gen(x, at)?;
                    texts.push(t);
                    at = q;
                }
                (texts.join(" "), at)
            }
            Expr::Opt(x) => {
                let (t, q) = self.gen(x, p)?;
                (format!("({t})?"), p.join(q))
            }
            Expr::Star(x) => {
                let (first, once) = self.gen(x, p)?;
                let again = once.join(self.exit_expr(x, once));
                let (rest, _) = self.gen(x, again)?;
                let text = if rest == first {
                    format!("({first})*")
                } else {
                    format!("({first} ({rest})*)?")
                };
                (text, p.join(again))
            }
            Expr::Plus(x) => {
                let (first, once) = self.gen(x, p)?;
                let again = once.join(self.exit_expr(x, once));
                let (rest, _) = self.gen(x, again)?;
                let text = if rest == first {
                    format!("({first})+")
                } else {
                    format!("{first} ({rest})*")
                };
                (text, again)
            }
        })
    }

    fn gen_lexeme(&mut self, e: &Expr, p: St) -> Result<(String, St), String> {
        let (text, q) = self
            .lexeme(e)
            .ok_or_else(|| format!("cannot convert the lexeme {e:?}"))?;
        // After a word character, a lexeme that may start with one needs a space first.
        let sep = if p == St::W && self.first_kinds(e).word {
            "wsm"
        } else {
            "ws"
        };
        Ok((format!("{sep} {text}"), q))
    }

    /// A terminal's body, character-level (no whitespace inside).
    fn terminal_text(&self, e: &Expr) -> Result<String, String> {
        Ok(match e {
            Expr::Alt(xs) if xs.iter().all(|x| matches!(x, Expr::Lit(_))) => {
                let words: Vec<&str> = xs
                    .iter()
                    .filter_map(|x| match x {
                        Expr::Lit(s) => Some(s.as_str()),
                        _ => None,
                    })
                    .collect();
                trie(&words)
            }
            Expr::Alt(xs) => alternation(
                xs.iter()
                    .map(|x| self.terminal_text(x))
                    .collect::<Result<_, _>>()?,
            ),
            Expr::Seq(xs) if xs.is_empty() => "\"\"".to_string(),
            Expr::Seq(xs) => xs
                .iter()
                .map(|x| self.terminal_text(x))
                .collect::<Result<Vec<_>, _>>()?
                .join(" "),
            Expr::Opt(x) => format!("({})?", self.terminal_text(x)?),
            Expr::Star(x) => format!("({})*", self.terminal_text(x)?),
            Expr::Plus(x) => format!("({})+", self.terminal_text(x)?),
            Expr::Lit(s) => string_literal(s),
            Expr::Regex(r) => convert_regex(r)?.text,
            Expr::Name(n) => terminal_name(n),
        })
    }

    /// `ws` (what `%ignore` skips, any number of times) and `wsm` (at least once). One
    /// character ignored alone (`%ignore " "`, the plain spacing of a server's grammar) is
    /// taken at most once between lexemes: each optional repetition multiplies the parses
    /// llama.cpp follows for every token of its vocabulary (a request took about 40% less
    /// time with it), and the fill loop wants single spaces anyway.
    fn whitespace_rules(&self) -> Result<String, String> {
        if let [Expr::Lit(c)] = self.g.ignore.as_slice() {
            if c.chars().count() == 1 {
                let one = string_literal(c);
                return Ok(format!("ws ::= {one}?\nwsm ::= {one}\n"));
            }
        }
        // `/[ \t]+/` repeated is ambiguous (two spaces are one match or two), and llama.cpp
        // follows every reading: inside the repetition one character is enough.
        let items: Vec<String> = self
            .g
            .ignore
            .iter()
            .map(|e| match e {
                Expr::Regex(r) => Ok(convert_regex(single_class_plus(r).unwrap_or(r))?.text),
                e => self.terminal_text(e),
            })
            .collect::<Result<_, String>>()?;
        Ok(match items.as_slice() {
            [] => "ws ::= \"\"\nwsm ::= \" \"\n".to_string(),
            [one] => format!("ws ::= {one}*\nwsm ::= {one}+\n"),
            many => {
                let alts = many.join(" | ");
                format!("ws ::= ({alts})*\nwsm ::= ({alts})+\n")
            }
        })
    }
}

/// The first and last kinds of a terminal's body, and whether it matches nothing.
fn terminal_kinds(g: &Grammar, e: &Expr, depth: usize) -> Result<(Kinds, Kinds, bool), String> {
    if depth > 64 {
        return Err("terminals refer to each other too deeply".into());
    }
    Ok(match e {
        Expr::Lit(s) => (
            s.chars().next().map(Kinds::of).unwrap_or_default(),
            s.chars().last().map(Kinds::of).unwrap_or_default(),
            s.is_empty(),
        ),
        Expr::Regex(r) => {
            let p = convert_regex(r)?;
            (p.first, p.last, p.nullable)
        }
        Expr::Name(n) => {
            let r = g.rule(n).ok_or_else(|| format!("`{n}` is not defined"))?;
            terminal_kinds(g, &r.body, depth + 1)?
        }
        Expr::Alt(xs) => {
            let mut acc = (Kinds::default(), Kinds::default(), false);
            for x in xs {
                let (f, l, n) = terminal_kinds(g, x, depth + 1)?;
                acc = (acc.0.union(f), acc.1.union(l), acc.2 || n);
            }
            acc
        }
        Expr::Seq(xs) => {
            let parts: Vec<(Kinds, Kinds, bool)> = xs
                .iter()
                .map(|x| terminal_kinds(g, x, depth + 1))
                .collect::<Result<_, _>>()?;
            let mut first = Kinds::default();
            for p in &parts {
                first = first.union(p.0);
                if !p.2 {
                    break;
                }
            }
            let mut last = Kinds::default();
            for p in parts.iter().rev() {
                last = last.union(p.1);
                if !p.2 {
                    break;
                }
            }
            (first, last, parts.iter().all(|p| p.2))
        }
        Expr::Opt(x) | Expr::Star(x) => {
            let (f, l, _) = terminal_kinds(g, x, depth + 1)?;
            (f, l, true)
        }
        Expr::Plus(x) => terminal_kinds(g, x, depth + 1)?,
    })
}

/// Literal alternatives as a trie (`"ma" ("p" | "x")`): llama.cpp then follows one path
/// per prefix instead of one per name.
fn trie(words: &[&str]) -> String {
    #[derive(Default)]
    struct Node {
        end: bool,
        next: BTreeMap<char, Node>,
    }
    fn emit(n: &Node) -> String {
        let mut alts: Vec<String> = Vec::new();
        if n.end {
            alts.push("\"\"".to_string());
        }
        for (c, sub) in &n.next {
            // Follow a chain of single children as one literal.
            let mut lit = string_char(*c);
            let mut at = sub;
            while !at.end && at.next.len() == 1 {
                let (c2, s2) = at
                    .next
                    .iter()
                    .next()
                    .map(|(c, s)| (*c, s))
                    .unwrap_or(('\0', at));
                lit.push_str(&string_char(c2));
                at = s2;
            }
            let rest = if at.next.is_empty() {
                String::new()
            } else {
                format!(" {}", emit(at))
            };
            alts.push(format!("\"{lit}\"{rest}"));
        }
        if alts.len() == 1 {
            alts.pop().unwrap_or_default()
        } else {
            format!("({})", alts.join(" | "))
        }
    }
    let mut root = Node::default();
    for w in words {
        let mut at = &mut root;
        for c in w.chars() {
            at = at.next.entry(c).or_default();
        }
        at.end = true;
    }
    emit(&root)
}

fn alternation(mut ts: Vec<String>) -> String {
    ts.dedup();
    if ts.len() == 1 {
        ts.pop().unwrap_or_default()
    } else {
        format!("({})", ts.join(" | "))
    }
}

/// `[...]` of a regex `[...]+`.
fn single_class_plus(r: &str) -> Option<&str> {
    let class = r.strip_suffix('+')?;
    let inner = class.strip_prefix('[')?.strip_suffix(']')?;
    (!inner.contains(['[', ']'])).then_some(class)
}

fn string_literal(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        out.push_str(&string_char(c));
    }
    out.push('"');
    out
}

/// Every rule name defined once.
fn check_unique_names(gbnf: &str) -> Result<(), String> {
    let mut seen = BTreeSet::new();
    for line in gbnf.lines() {
        if let Some((name, _)) = line.split_once(" ::= ") {
            if !seen.insert(name) {
                return Err(format!("the rule name `{name}` is made twice"));
            }
        }
    }
    Ok(())
}

/// A rule's alternatives.
fn alternatives(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::Alt(xs) => xs.iter().collect(),
        e => vec![e],
    }
}

/// The rest of an alternative after its first item when that item is `name`.
fn left_recursive_tail<'a>(alt: &'a Expr, name: &str) -> Option<&'a [Expr]> {
    match alt {
        Expr::Name(n) if n == name => Some(&[]),
        Expr::Seq(xs) => match xs.first() {
            Some(Expr::Name(n)) if n == name => Some(&xs[1..]),
            _ => None,
        },
        _ => None,
    }
}

/// `A: A t1 | A t2 | b1 | b2` as `A: (b1 | b2) (t1 | t2)*`.
fn without_direct_left_recursion(mut g: Grammar) -> Result<Grammar, String> {
    for r in g.rules.iter_mut().filter(|r| !is_terminal(&r.name)) {
        let mut bases = Vec::new();
        let mut tails = Vec::new();
        for alt in alternatives(&r.body) {
            match left_recursive_tail(alt, &r.name) {
                Some([]) => {} // `A: A` adds nothing
                Some(tail) => tails.push(Expr::Seq(tail.to_vec())),
                None => bases.push(alt.clone()),
            }
        }
        if tails.is_empty() {
            continue;
        }
        if bases.is_empty() {
            return Err(format!(
                "`{}` has no alternative that is not left-recursive",
                r.name
            ));
        }
        let base = if bases.len() == 1 {
            bases.remove(0)
        } else {
            Expr::Alt(bases)
        };
        let tail = if tails.len() == 1 {
            tails.remove(0)
        } else {
            Expr::Alt(tails)
        };
        r.body = Expr::Seq(vec![base, Expr::Star(Box::new(tail))]);
    }
    Ok(g)
}

/// llama.cpp refuses left recursion; what is left after the rewrite above to refuse is a
/// rule reaching itself first through another (or a repetition of something that matches
/// nothing, which llama.cpp's expansion turns into one).
fn check_no_left_recursion(g: &Grammar) -> Result<(), String> {
    let nullable = nullable_rules(g);
    let mut first: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for r in g.rules.iter().filter(|r| !is_terminal(&r.name)) {
        let mut set = BTreeSet::new();
        firsts(&r.body, &nullable, &mut set)?;
        first.insert(&r.name, set);
    }
    for start in first.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<String> = first[start].iter().cloned().collect();
        while let Some(n) = stack.pop() {
            if n == *start {
                return Err(format!("`{start}` is left-recursive"));
            }
            if seen.insert(n.clone()) {
                if let Some(next) = first.get(n.as_str()) {
                    stack.extend(next.iter().cloned());
                }
            }
        }
    }
    Ok(())
}

/// The rules that can come first in `e` (through nullable prefixes).
fn firsts(e: &Expr, nullable: &BTreeSet<String>, out: &mut BTreeSet<String>) -> Result<(), String> {
    match e {
        Expr::Name(n) if !is_terminal(n) => {
            out.insert(n.clone());
        }
        Expr::Alt(xs) => {
            for x in xs {
                firsts(x, nullable, out)?;
            }
        }
        Expr::Seq(xs) => {
            for x in xs {
                firsts(x, nullable, out)?;
                if !is_nullable(x, nullable) {
                    break;
                }
            }
        }
        Expr::Opt(x) => firsts(x, nullable, out)?,
        Expr::Star(x) | Expr::Plus(x) => {
            if is_nullable(x, nullable) {
                return Err("a repetition of something that can be empty".into());
            }
            firsts(x, nullable, out)?;
        }
        _ => {}
    }
    Ok(())
}

fn nullable_rules(g: &Grammar) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    loop {
        let before = set.len();
        for r in &g.rules {
            if !set.contains(&r.name) && is_nullable(&r.body, &set) {
                set.insert(r.name.clone());
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

fn is_nullable(e: &Expr, nullable: &BTreeSet<String>) -> bool {
    match e {
        Expr::Alt(xs) => xs.iter().any(|x| is_nullable(x, nullable)),
        Expr::Seq(xs) => xs.iter().all(|x| is_nullable(x, nullable)),
        Expr::Opt(_) | Expr::Star(_) => true,
        Expr::Plus(x) => is_nullable(x, nullable),
        Expr::Lit(s) => s.is_empty(),
        Expr::Regex(_) => false,
        Expr::Name(n) => nullable.contains(n),
    }
}

#[cfg(test)]
mod tests {
    use super::lark_to_gbnf;

    #[test]
    fn words_need_a_space_between_them_and_nothing_else_does() {
        let g = lark_to_gbnf(
            "start: app\napp: atom+\natom: NAME | \"(\" app \")\"\nNAME: /[a-z]+/\n%ignore /[ \\t]+/\n",
        )
        .unwrap();
        // After a name (state w), another name needs `wsm`; after `(` (state o), `ws`.
        assert!(g.contains("atom-w ::= (wsm NAME |"), "{g}");
        assert!(g.contains("atom-o ::= (ws NAME |"), "{g}");
        assert!(
            g.contains("ws ::= ([ \\x09])*\nwsm ::= ([ \\x09])+\n"),
            "{g}"
        );
        assert!(g.starts_with("root ::= "), "{g}");
    }

    #[test]
    fn a_single_ignored_space_is_at_most_one_space() {
        let g = lark_to_gbnf("start: NAME+\nNAME: /[a-z]+/\n%ignore \" \"\n").unwrap();
        assert!(g.contains("ws ::= \" \"?\nwsm ::= \" \"\n"), "{g}");
    }

    #[test]
    fn direct_left_recursion_becomes_repetition() {
        let g =
            lark_to_gbnf("start: atom\natom: atom \".\" NAME | NAME\nNAME: /[a-z]+/\n").unwrap();
        assert!(
            g.contains("atom-o ::= ws NAME (ws \"\\x2E\" ws NAME)*"),
            "{g}"
        );
    }

    #[test]
    fn literal_alternatives_become_a_trie() {
        let g = lark_to_gbnf("start: V\nV: \"map\" | \"max\" | \"min\" | \"m\"\n").unwrap();
        assert!(
            g.contains("V ::= \"m\" (\"\" | \"a\" (\"p\" | \"x\") | \"in\")"),
            "{g}"
        );
    }

    #[test]
    fn indirect_left_recursion_is_refused() {
        let e = lark_to_gbnf("start: a\na: b \"x\" | \"y\"\nb: [\"z\"] a\n").unwrap_err();
        assert!(e.contains("left-recursive"), "{e}");
    }
}

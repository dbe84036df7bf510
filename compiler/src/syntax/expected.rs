//! What the grammar expected where it failed, in words a person reads. lalrpop names the
//! expected terminals as the grammar spells them; [`terminal`] turns each name into the
//! token it stands for (the one place that reads those names), and every decision after
//! that is made on tokens: where every way to start an expression (a pattern, a type) is
//! expected, that is said in one word.

use std::mem::discriminant;

use super::token::Tok;

/// The token a grammar terminal name stands for (payloads empty); `None` for a name the
/// grammar does not have.
pub fn terminal(name: &str) -> Option<Tok<'static>> {
    Some(match name {
        "IDENT" => Tok::Ident(""),
        "UPPER" => Tok::Upper(""),
        "INT" => Tok::Int(""),
        "FLOAT" => Tok::Float(""),
        "STR" => Tok::Str(""),
        "HOLE" => Tok::Hole(None),
        "OP" => Tok::Op(""),
        "SEP" => Tok::Sep,
        "SKIPPED" => Tok::Skipped,
        "INVALID" => Tok::Invalid,
        quoted => {
            let text = quoted.strip_prefix('"')?.strip_suffix('"')?;
            QUOTED.iter().find(|(t, _)| *t == text)?.1
        }
    })
}

/// The grammar's quoted terminals, as they appear between the quotes (a backslash escaped).
const QUOTED: &[(&str, Tok<'static>)] = &[
    ("_", Tok::Underscore),
    ("-", Tok::Minus),
    ("*", Tok::Star),
    ("<=", Tok::LtEq),
    ("::", Tok::ColonColon),
    (":", Tok::Colon),
    ("=", Tok::Eq),
    ("->", Tok::Arrow),
    ("=>", Tok::FatArrow),
    ("|", Tok::Bar),
    (".", Tok::Dot),
    ("\\\\", Tok::Backslash),
    ("(", Tok::LParen),
    (")", Tok::RParen),
    ("[", Tok::LBracket),
    ("]", Tok::RBracket),
    ("{", Tok::LBrace),
    ("}", Tok::RBrace),
    (",", Tok::Comma),
    ("fn", Tok::Fn),
    ("type", Tok::Type),
    ("class", Tok::Class),
    ("instance", Tok::Instance),
    ("import", Tok::Import),
    ("pub", Tok::Pub),
    ("let", Tok::Let),
    ("rec", Tok::Rec),
    ("in", Tok::In),
    ("if", Tok::If),
    ("then", Tok::Then),
    ("else", Tok::Else),
    ("match", Tok::Match),
    ("when", Tok::When),
    ("is", Tok::Is),
    ("with", Tok::With),
    ("where", Tok::Where),
    ("as", Tok::As),
    ("true", Tok::True),
    ("false", Tok::False),
];

/// Tokens that can start an expression, a pattern or a type.
const EXPRESSION_START: &[Tok<'static>] = &[
    Tok::Ident(""),
    Tok::Upper(""),
    Tok::Int(""),
    Tok::Float(""),
    Tok::Str(""),
    Tok::Hole(None),
    Tok::Skipped,
    Tok::Minus,
    Tok::Backslash,
    Tok::LParen,
    Tok::LBracket,
    Tok::LBrace,
    Tok::Let,
    Tok::If,
    Tok::Match,
    Tok::True,
    Tok::False,
];
const PATTERN_START: &[Tok<'static>] = &[
    Tok::Ident(""),
    Tok::Upper(""),
    Tok::Int(""),
    Tok::Float(""),
    Tok::Str(""),
    Tok::Skipped,
    Tok::Minus,
    Tok::Underscore,
    Tok::LParen,
    Tok::LBracket,
    Tok::LBrace,
    Tok::True,
    Tok::False,
];
const TYPE_START: &[Tok<'static>] = &[
    Tok::Ident(""),
    Tok::Upper(""),
    Tok::Skipped,
    Tok::LParen,
    Tok::LBrace,
];
/// The operators with a token of their own; where any operator is expected they read as
/// "an operator" too.
const OPERATORS: &[Tok<'static>] = &[Tok::Minus, Tok::Star, Tok::LtEq, Tok::ColonColon];

fn contains(set: &[Tok<'_>], tok: &Tok<'_>) -> bool {
    set.iter().any(|t| discriminant(t) == discriminant(tok))
}

/// The expected terminals (as lalrpop names them), in words, in the grammar's order.
pub fn describe(expected: &[String]) -> Vec<String> {
    let tokens: Vec<Tok<'static>> = expected.iter().filter_map(|e| terminal(e)).collect();
    let has = |t: Tok<'_>| contains(&tokens, &t);
    let (summary, covered): (Option<&str>, &[Tok<'static>]) =
        if has(Tok::Hole(None)) && has(Tok::Let) {
            (Some("an expression"), EXPRESSION_START)
        } else if has(Tok::Hole(None)) {
            // Where an argument or an operator's operand goes: `let`, `if`, `match` and
            // lambdas need parentheses there.
            (Some("an operand"), EXPRESSION_START)
        } else if has(Tok::Underscore) && has(Tok::Ident("")) && has(Tok::LBracket) {
            (Some("a pattern"), PATTERN_START)
        } else if has(Tok::Ident(""))
            && has(Tok::Upper(""))
            && has(Tok::LParen)
            && has(Tok::LBrace)
            && !has(Tok::Int(""))
        {
            (Some("a type"), TYPE_START)
        } else {
            (None, &[])
        };
    let operators: &[Tok<'static>] = if has(Tok::Op("")) { OPERATORS } else { &[] };
    let mut out: Vec<String> = summary.into_iter().map(str::to_string).collect();
    for tok in tokens
        .iter()
        .filter(|t| !contains(covered, t) && !contains(operators, t))
    {
        let Some(words) = words(tok) else {
            continue;
        };
        if !out.contains(&words) {
            out.push(words);
        }
    }
    out
}

/// The exact texts of the expected terminals (as lalrpop names them) that are keywords or
/// symbols, in the grammar's order.
pub fn texts(expected: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for text in expected.iter().filter_map(|e| terminal(e)?.fixed_text()) {
        if !out.iter().any(|t| t == text) {
            out.push(text.to_string());
        }
    }
    out
}

/// One expected token in words; `None` for one nobody should be told to write.
fn words(tok: &Tok<'_>) -> Option<String> {
    Some(match tok {
        Tok::Ident(_) => "a name".to_string(),
        Tok::Upper(_) => "a capitalised name".to_string(),
        Tok::Int(_) => "an integer".to_string(),
        Tok::Float(_) => "a number".to_string(),
        Tok::Str(_) => "a string".to_string(),
        Tok::Hole(_) => "a hole".to_string(),
        Tok::Op(_) => "an operator".to_string(),
        Tok::Sep => "a new member line".to_string(),
        // Only the driver inserts it.
        Tok::Skipped | Tok::Invalid => return None,
        other => other.to_string(),
    })
}

/// A list of alternatives in words: "a, b or c", the first few when there are many.
pub fn one_of(expected: &[String]) -> String {
    const SHOWN: usize = 6;
    match expected.len() {
        0 => "something else".to_string(),
        1 => expected[0].clone(),
        n if n <= SHOWN => format!("{} or {}", expected[..n - 1].join(", "), expected[n - 1]),
        _ => format!("{}, ...", expected[..SHOWN].join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every terminal the grammar declares has its token here, so no expected-token list
    /// loses a name.
    #[test]
    fn every_grammar_terminal_has_a_token() {
        let grammar = include_str!("grammar.lalrpop");
        let start = grammar
            .find("enum Tok<'input> {")
            .expect("the extern token enum");
        let body = &grammar[start..];
        let body = &body[..body.find("\n    }").expect("its end")];
        let names: Vec<&str> = body
            .lines()
            .skip(1)
            .filter_map(|l| l.split_once(" => ").map(|(name, _)| name.trim()))
            .collect();
        assert!(names.len() > 40, "{names:?}");
        for name in names {
            let tok = terminal(name).unwrap_or_else(|| panic!("no token for {name}"));
            // A quoted terminal is the token's own text.
            if let Some(text) = name.strip_prefix('"').and_then(|n| n.strip_suffix('"')) {
                assert_eq!(
                    tok.to_string(),
                    format!("`{}`", text.replace("\\\\", "\\")),
                    "{name}"
                );
            }
        }
    }

    #[test]
    fn a_full_set_of_starters_reads_as_one_word() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let expected = names(&["IDENT", "UPPER", "\"(\"", "\"{\"", "SKIPPED", "\"->\""]);
        assert_eq!(describe(&expected), ["a type", "`->`"]);
        let expected = names(&["\"\\\\\"", "OP", "\"-\"", "\")\""]);
        assert_eq!(describe(&expected), ["`\\`", "an operator", "`)`"]);
    }

    #[test]
    fn texts_are_the_exact_keywords_and_symbols() {
        let names: Vec<String> = ["\"->\"", "IDENT", "\"in\"", "OP", "HOLE", "\"->\""]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(texts(&names), ["->", "in", "?"]);
    }
}

//! The grammars a server receives. A server stops only where its grammar ends (it never
//! sees the type oracle, and cannot tell that the model has moved past the hole), so a
//! server's fill ends with a new line or with a word that follows the hole (`in`, `then`,
//! `)`, ...), which the client strips: `whole` is the hole's grammar ended that way.
//!
//! A continuation (the type layer's repair of an ill-typed sample) asks the server to go on
//! from a prefix the oracle accepts, with the prefix in the prompt. Its grammar is what may
//! follow that prefix: read from the prefix's closing (what is open at its end, innermost
//! first), it is the rest of the expression the prefix is in, then what closes each open
//! construct, each closed operand free to go on with arguments, projections or an operator
//! (`more`). Where the prefix ends inside a pattern, a record or a type annotation there is
//! no such grammar here, and the prefix is not used for a continuation.

use super::{lark_with, Ending, GrammarScope, Start};
use crate::oracle::{closing, IfStage, MatchStage, Next, Open};

/// Words that end a fill when the model writes them after a complete expression.
const ENDING_KEYWORDS: &[&str] = &["in", "then", "else"];

/// What may follow the hole and end a fill: the ending keywords and the first lexeme of
/// the text after the hole when it is a closer, a separator or a keyword.
pub fn enders(after: &str) -> Vec<String> {
    let mut out: Vec<String> = ENDING_KEYWORDS.iter().map(|k| k.to_string()).collect();
    let rest = after.trim_start_matches([' ', '\t']);
    let first: String = match rest.chars().next() {
        Some(c @ (')' | ']' | '}' | ',')) => c.to_string(),
        Some(c) if c.is_ascii_lowercase() => rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect(),
        _ => String::new(),
    };
    if matches!(first.as_str(), ")" | "]" | "}" | "," | "when" | "with") && !out.contains(&first) {
        out.push(first);
    }
    out
}

/// The grammar of a whole fill for a server.
pub fn whole(scope: &GrammarScope, after: &str) -> String {
    lark_with(
        scope,
        &Start::Ended(Ending {
            body: "expr".to_string(),
            rules: String::new(),
            enders: enders(after),
        }),
    )
}

/// The grammar of what may follow `prefix`; None where the prefix ends somewhere this
/// cannot describe. `nonempty`: the continuation must add something (the prefix is a whole
/// sample that was ill-typed as it stood).
pub fn continuation(
    scope: &GrammarScope,
    prefix: &str,
    after: &str,
    nonempty: bool,
) -> Option<String> {
    let body = continuation_body(prefix, nonempty)?;
    Some(lark_with(
        scope,
        &Start::Ended(Ending {
            body,
            rules: MORE_RULES.to_string(),
            enders: enders(after),
        }),
    ))
}

/// What may follow a complete operand: arguments and projections, then an operator and
/// the rest of the expression, then an ascription.
const MORE_RULES: &str = r#"more: more_item* [operator expr] ["is" ascribed]
more1: more_item+ [operator expr] ["is" ascribed] | operator expr ["is" ascribed] | "is" ascribed
more_item: atom | "." field
"#;

/// The expansion of `start` (before the ending) for a continuation of `prefix`.
fn continuation_body(prefix: &str, nonempty: bool) -> Option<String> {
    let close = closing(prefix)?;
    if !close.exact {
        return None;
    }
    // A match's scrutinee is an atom: only projections may follow it.
    let scrutinee = close.opens.first() == Some(&Open::Match(MatchStage::Scrutinee));
    let mut parts: Vec<&str> = vec![match close.next {
        Next::Expr if scrutinee => "atom",
        Next::Expr => "expr",
        Next::Any if scrutinee => "(\".\" field)*",
        Next::Any if nonempty && close.opens.is_empty() => "more1",
        Next::Any => "more",
        Next::Pattern => return None,
    }];
    for open in &close.opens {
        match open {
            Open::Paren => parts.extend(["(\",\" expr)* [\",\"] \")\"", "more"]),
            Open::Bracket => parts.extend(["(\",\" expr)* [\",\"] \"]\"", "more"]),
            Open::Let { in_value: true } => parts.push("(\",\" binding)* \"in\" expr"),
            Open::If(IfStage::Cond) => parts.push("\"then\" expr \"else\" expr"),
            Open::If(IfStage::Then) => parts.push("\"else\" expr"),
            Open::If(IfStage::Else) | Open::Lambda { in_body: true } => {}
            Open::Match(MatchStage::Scrutinee) => parts.push("arm+"),
            Open::Match(MatchStage::Body) => parts.push("arm*"),
            Open::Brace
            | Open::Let { in_value: false }
            | Open::Match(MatchStage::Pattern)
            | Open::Lambda { in_body: false } => return None,
        }
    }
    Some(parts.join(" "))
}

/// A server's text without its ending (and the spaces before it; the spaces it starts
/// with stay, since a continuation's prompt goes on from them): the fill, and whether an
/// ending was there (a fill cut short by the token budget has none). The ending is a new
/// line, a word ender with the space or new line after it (no expression ends with one of
/// those words, so one there is always the ending), or a symbol ender.
pub fn strip_ending(text: &str, enders: &[String]) -> (String, bool) {
    let trimmed = text.trim_end_matches([' ', '\t', '\r']);
    let (body, newline) = match trimmed.strip_suffix('\n') {
        Some(t) => (t.trim_end(), true),
        None => (trimmed, false),
    };
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    for e in enders.iter().filter(|e| e.starts_with(is_word)) {
        if let Some(t) = body.strip_suffix(e.as_str()) {
            // A word of its own (`in`, not `min`).
            if !t.ends_with(is_word) {
                return (t.trim_end().to_string(), true);
            }
        }
    }
    if newline {
        return (body.to_string(), true);
    }
    let mut best: Option<&str> = None;
    for e in enders.iter().filter(|e| !e.starts_with(is_word)) {
        if let Some(t) = body.strip_suffix(e.as_str()) {
            if best.is_none_or(|b| b.len() > t.len()) {
                best = Some(t);
            }
        }
    }
    match best {
        Some(t) => (t.trim_end().to_string(), true),
        None => (body.to_string(), false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_word_after_the_hole_may_end_a_fill() {
        assert_eq!(enders(" in\nx"), ["in", "then", "else"]);
        assert_eq!(enders(") + 1"), ["in", "then", "else", ")"]);
        assert_eq!(enders(" when Ok x -> 1"), ["in", "then", "else", "when"]);
        assert_eq!(enders(" x"), ["in", "then", "else"]);
    }

    #[test]
    fn a_continuation_closes_what_the_prefix_opened() {
        assert_eq!(continuation_body("f x", false).unwrap(), "more");
        assert_eq!(continuation_body("f x", true).unwrap(), "more1");
        assert_eq!(
            continuation_body("Ok (classify_ph", true).unwrap(),
            "more (\",\" expr)* [\",\"] \")\" more"
        );
        assert_eq!(
            continuation_body("if a then", false).unwrap(),
            "expr \"else\" expr"
        );
        assert_eq!(
            continuation_body("match mk", false).unwrap(),
            "(\".\" field)* arm+"
        );
        assert_eq!(continuation_body("match", false).unwrap(), "atom arm+");
        assert_eq!(continuation_body("\\x", false), None);
        assert_eq!(continuation_body("{ a = 1", false), None);
        assert_eq!(continuation_body("a)", false), None);
    }

    #[test]
    fn endings_are_stripped_as_whole_words() {
        let e = enders(") y");
        assert_eq!(strip_ending("f x\n", &e), ("f x".to_string(), true));
        assert_eq!(strip_ending("f x in", &e), ("f x".to_string(), true));
        assert_eq!(strip_ending("f x in ", &e), ("f x".to_string(), true));
        assert_eq!(strip_ending("f x in\n", &e), ("f x".to_string(), true));
        assert_eq!(strip_ending("f x)\n", &e), ("f x)".to_string(), true));
        assert_eq!(strip_ending("(g x))", &e), ("(g x)".to_string(), true));
        assert_eq!(strip_ending("f min", &e), ("f min".to_string(), false));
    }
}

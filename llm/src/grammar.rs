//! The per-hole grammar: Rex expressions in llguidance's Lark dialect, with the names a
//! fill may refer to restricted to those visible at the hole. The same text is what remote
//! engines receive (vLLM and SGLang read Lark), so it stays plain Lark.
//!
//! The rules follow the project's own parser (`compiler/src/syntax/grammar.lalrpop`):
//! `let`, `if`, lambdas and `match` at the top, then an optional `is` ascription over a
//! flat chain of operands and operators (precedence is resolved after parsing, so the
//! grammar need not know it), application of atoms, and atoms with projections. Operators
//! are those the language defines.
//!
//! Names: values and constructors must be ones in scope, given by the caller; a binder a
//! fill introduces (a lambda parameter, a `let` or `match` variable) is any lower-case
//! identifier that is not a keyword, and so is a reference to one. A context-free grammar
//! cannot tell whether such a name is bound where it is used: the type oracle, which
//! re-checks every prefix, rejects unbound names in-process, and every fill a remote
//! engine returns is re-checked as a whole.

use rex_ide::catalog::Origin;
use rex_ide::context::Context;

/// The keywords, never names.
pub const KEYWORDS: &[&str] = &[
    "fn", "type", "class", "instance", "import", "pub", "let", "rec", "in", "if", "then", "else",
    "match", "when", "is", "with", "where", "as", "true", "false",
];

/// The infix operators a fill may use (the language's own).
pub const OPERATORS: &[&str] = &[
    "||", "&&", "==", "!=", "<=", ">=", "<", ">", "::", "++", "+", "-", "*", "/", "%",
];

/// What the grammar of one hole may name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GrammarScope {
    /// Values: locals, the user's functions, the prelude's public functions and methods.
    pub values: Vec<String>,
    /// Constructors as the scope spells them.
    pub constructors: Vec<String>,
    /// Whether `?` and `?name` may appear (not in model fills: a fill fills the hole).
    pub allow_holes: bool,
}

/// The names visible at the context's position.
pub fn scope_at(ctx: &Context<'_>) -> GrammarScope {
    let mut scope = GrammarScope::default();
    for l in &ctx.locals {
        push_unique(&mut scope.values, &l.name);
    }
    for g in &ctx.globals {
        match g.origin {
            Origin::UserConstructor | Origin::PreludeConstructor => {
                push_unique(&mut scope.constructors, &g.name)
            }
            _ => push_unique(&mut scope.values, &g.name),
        }
    }
    scope
}

fn push_unique(v: &mut Vec<String>, name: &str) {
    if !v.iter().any(|n| n == name) {
        v.push(name.to_string());
    }
}

/// The Lark text of the grammar.
pub fn lark(scope: &GrammarScope) -> String {
    let mut g = String::from("%llguidance {}\n\nstart: expr\n\n");
    g.push_str(RULES);
    g.push_str(&format!(
        "value: BINDER{}\n",
        alternatives(&scope.values, "| ")
    ));
    if scope.constructors.is_empty() {
        // A grammar needs the rule; no constructor in scope means none can be written.
        g.push_str("ctor: CTOR_NONE\nCTOR_NONE: /[^\\x00-\\x{10FFFF}]/\n");
    } else {
        g.push_str(&format!(
            "ctor: {}\n",
            alternatives(&scope.constructors, "").trim_start_matches(" | ")
        ));
    }
    let ops: Vec<String> = OPERATORS.iter().map(|o| quote(o)).collect();
    g.push_str(&format!("binop: {}\n", ops.join(" | ")));
    if scope.allow_holes {
        g.push_str("hole: HOLE\nHOLE: /\\?([A-Za-z_][A-Za-z0-9_]*)?/\n");
    } else {
        g.push_str("hole: HOLE_NONE\nHOLE_NONE: /[^\\x00-\\x{10FFFF}]/\n");
    }
    let keywords: Vec<String> = KEYWORDS.iter().map(|k| k.to_string()).collect();
    g.push_str(&format!(
        "BINDER: /[a-z][A-Za-z0-9_]*|_[A-Za-z0-9_]+/ & ~/({})/\n",
        keywords.join("|")
    ));
    g.push_str(TERMINALS);
    g
}

/// ` | "a" | "b"` for the names that are plain identifiers (operators and odd names are
/// left out: they could not be written as names anyway).
fn alternatives(names: &[String], _lead: &str) -> String {
    let mut out = String::new();
    for n in names {
        let plain = n.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !KEYWORDS.contains(&n.as_str());
        if plain {
            out.push_str(" | ");
            out.push_str(&quote(n));
        }
    }
    out
}

fn quote(s: &str) -> String {
    let mut q = String::from("\"");
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

/// The expression rules (names, constructors, operators and holes come per hole).
const RULES: &str = r#"expr: let_expr | if_expr | lambda | match_expr | typed
let_expr: "let" ["rec"] binding ("," binding)* "in" expr
binding: pat [":" type] "=" expr
if_expr: "if" expr "then" expr "else" expr
lambda: LAMBDA lam_param+ [where_clause] ARROW expr
where_clause: "where" constraint ("," constraint)*
constraint: UPPER tatom+
lam_param: pat_atom | "(" pat ":" type ")"
match_expr: "match" atom arm+
arm: "when" pat ARROW expr
typed: op_chain ["is" btype]
op_chain: operand (binop operand)*
operand: "-" operand | app
app: atom+
atom: atom "." field_name
    | value
    | ctor
    | literal
    | hole
    | "(" ")"
    | "(" expr ")"
    | "(" expr "," [expr ("," expr)*] [","] ")"
    | "(" binop ")"
    | "[" [expr ("," expr)* [","]] "]"
    | "{" [field_init ("," field_init)* [","]] "}"
    | "{" expr "with" "{" [field_init ("," field_init)* [","]] "}" "}"
field_init: BINDER "=" expr
field_name: BINDER | UPPER | INT
literal: INT | FLOAT | STRING | "true" | "false"
pat: pat_app "::" pat | pat_app
pat_app: ctor pat_atom+ | pat_atom
pat_atom: "_" | BINDER | literal | "-" INT | "-" FLOAT | ctor | "(" ")" | "(" pat ")"
    | "(" pat "," [pat ("," pat)*] [","] ")"
    | "[" [pat ("," pat)* [","]] "]"
    | "{" [field_pat ("," field_pat)* [","]] "}"
field_pat: BINDER | BINDER ":" pat | BINDER "=" pat
type: btype ARROW type | btype
btype: tatom tatom+ | tatom
tatom: BINDER | UPPER ("." UPPER)? | "(" ")" | "(" type ")" | "(" type "," type ("," type)* ")"
    | "{" [BINDER ":" type ("," BINDER ":" type)*] "}"
"#;

const TERMINALS: &str = r#"ARROW: "->" | "→"
LAMBDA: "\\" | "λ"
UPPER: /[A-Z][A-Za-z0-9_]*/
INT: /[0-9]+/
FLOAT: /[0-9]+\.[0-9]+([eE][+-]?[0-9]+)?/
STRING: /"([^"\\\n]|\\[^\n])*"/
COMMENT: /\{-([^-]|-+[^-}])*-+\}/
%ignore /[ \t\r\n]+/
%ignore COMMENT
"#;

/// Whether `text` is a whole sentence of the grammar, checked byte by byte with a
/// single-byte vocabulary (no model needed): for tests, and to check what a remote engine
/// returned. An error when the grammar itself does not compile.
pub fn accepts(lark_text: &str, text: &str) -> Result<bool, String> {
    let env = toktrie::ApproximateTokEnv::single_byte_env();
    let mut factory = llguidance::ParserFactory::new_simple(&env).map_err(|e| e.to_string())?;
    factory.set_stderr_log_level(0);
    let grammar = llguidance::api::TopLevelGrammar::from_lark(lark_text.to_string());
    let parser = factory.create_parser(grammar).map_err(|e| e.to_string())?;
    let mut m = llguidance::Matcher::new(Ok(parser));
    for b in text.bytes() {
        if m.consume_token(u32::from(b)).is_err() || m.is_error() {
            return Ok(false);
        }
    }
    Ok(m.is_accepting().unwrap_or(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope() -> GrammarScope {
        GrammarScope {
            values: vec![
                "parse_ph".into(),
                "classify_ph".into(),
                "raw".into(),
                "map".into(),
            ],
            constructors: vec!["Ok".into(), "Err".into(), "Some".into(), "None".into()],
            allow_holes: false,
        }
    }

    fn ok(text: &str) -> bool {
        accepts(&lark(&scope()), text).expect("the grammar compiles")
    }

    #[test]
    fn expressions_in_scope_are_accepted() {
        for text in [
            "parse_ph raw",
            "Ok (classify_ph 7.3)",
            "match (parse_ph raw) when Ok p -> Ok (classify_ph p) when Err e -> Err e",
            "\\x -> x + 1",
            "let y = 2, z = 3 in y * z",
            "if raw == \"7.3\" then 1 else -2",
            "[1, 2, 3]",
            "(1, \"a\", true)",
            "{ a = 1, b = [] }",
            "{ r with { a = 2 } }",
            "r.a.b",
            "map (\\x -> x) [1] {- a comment -}",
            "x :: xs",
            "(+)",
            "3 is i32",
            "λx → x",
            "\\(x: t) where Show t -> show x",
        ] {
            assert!(ok(text), "{text}");
        }
    }

    #[test]
    fn names_out_of_scope_and_broken_text_are_refused() {
        for text in [
            "Nope 3",
            "let in = 3 in 4",
            "(parse_ph raw",
            "parse_ph raw)",
            "?",
            "fn x = 3",
            "_",
            "_ 3",
        ] {
            assert!(!ok(text), "{text}");
        }
    }

    #[test]
    fn holes_only_when_allowed() {
        let mut s = scope();
        s.allow_holes = true;
        assert!(accepts(&lark(&s), "Ok ?x").unwrap());
    }
}

//! The per-hole grammar: Rex expressions in llguidance's Lark dialect, with the names a
//! fill may refer to restricted to those visible at the hole. The same text is what remote
//! engines receive (vLLM with the guidance backend, SGLang with llguidance), so it stays
//! plain Lark: rules, string literals and simple regexes, nothing tied to one vocabulary.
//!
//! The rules follow the project's parser (`compiler/src/syntax/grammar.lalrpop`) and lexer
//! (`compiler/src/syntax/lexer.rs`): `let`/`let rec`, `if`, lambdas (with `\`/`λ` and
//! `->`/`→`) and `match` at the top, then an optional `is` ascription over the binary
//! operators, stratified by the fixity table of `compiler/src/syntax/builder.rs` (`||` 2
//! right, `&&` 3 right, comparisons 4 left, `::` 5 right, `+ -` and any other operator 6
//! left, `* / %` 7 left), unary minus over applications, applications of atoms, and atoms
//! with projections. Associativity does not change the language a grammar accepts, only
//! its trees; it is written out anyway so the grammar reads like the language.
//!
//! Names. Constructors (module-qualified ones included) must be ones the caller lists:
//! a fill cannot declare new ones. A value reference is a visible name (locals, the user's
//! globals, the prelude's public names) or any lower-case identifier that is not a keyword,
//! because a fill may introduce binders of its own (a lambda parameter, a `let` or `match`
//! variable) and a context-free grammar cannot tell whether such a name is bound where it
//! is used. The type oracle, which re-checks every prefix in-process, rejects unbound
//! names; a fill a remote engine returns gets the same whole re-check. Field names after
//! `.`, in record updates and in record patterns are the record fields in scope when the
//! caller gives any (any identifier otherwise); the keys of a record literal are any
//! identifier, since a literal may build a dictionary with new keys.
//!
//! Layout: spaces, new lines and `{- -}` comments may stand between any two lexemes (the
//! fill loop injects `{- f : A -> B -}` signatures), but not before the first one: a fill
//! starts where the hole was.
//!
//! Known over-approximations (the oracle's re-check, with the real lexer, catches them):
//! lexemes are split where the grammar needs it, not only where Rex's lexer splits, so a
//! listed name directly followed by identifier characters (`Somex`) reads as two words,
//! and a binary operator directly followed by `-` (`1+-2`) reads as the operator and a
//! unary minus where Rex reads one unknown operator.

#[cfg(feature = "embedded")]
pub mod check;
pub mod gbnf;
mod gbnf_regex;
pub mod lark_read;
mod names;
mod scope;
pub mod server;

use names::{binder_regex, is_ctor_name, is_field_name, is_operator, is_value_name, quote, valid};

pub use scope::scope_at;

use rex_compiler::types::ty::PRIMITIVE_TYPES;

/// The keywords, never names.
pub const KEYWORDS: &[&str] = &[
    "fn", "type", "class", "instance", "import", "pub", "let", "rec", "in", "if", "then", "else",
    "match", "when", "is", "with", "where", "as", "true", "false",
];

/// The infix operators of the language (`&&`, `||` and `::` are syntax, the others the
/// prelude's): what a grammar offers when the caller lists none.
pub const OPERATORS: &[&str] = &[
    "||", "&&", "==", "!=", "<=", ">=", "<", ">", "::", "+", "-", "*", "/", "%",
];

/// What the grammar of one hole may name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GrammarScope {
    /// Values: locals, the user's functions, the prelude's public functions and methods,
    /// module-qualified values (`M.x`).
    pub values: Vec<String>,
    /// Constructors as the scope spells them (`Ok`, `M.Ready`).
    pub constructors: Vec<String>,
    /// Record field names of the types in scope; empty: any identifier.
    pub fields: Vec<String>,
    /// Type names in scope (`Point`, `M.Shape`, `Dict`), for ascriptions; empty: any
    /// upper-case name.
    pub types: Vec<String>,
    /// Infix operators in scope; empty: [`OPERATORS`]. `&&`, `||` and `::` are always
    /// there.
    pub operators: Vec<String>,
    /// Whether `?` and `?name` may appear (not in model fills: a fill fills the hole).
    pub allow_holes: bool,
}

/// How a grammar starts and ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// `start: expr`, new lines are whitespace: the embedded decoder, which sees every
    /// token, decides where the fill ends.
    Expr,
    /// For a server, which only stops where the grammar ends: new lines are not whitespace,
    /// and the fill is `body` followed by a new line or one of `enders` (the words that
    /// may follow the hole), which the client strips. A word ender is written with the
    /// space or new line after it, so that the model cannot run on into a longer name
    /// (`in` then `x` would be the name `inx`).
    Ended(Ending),
}

/// What a server's grammar generates: `start: body fill_end`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The expansion of `start` before the ending (`expr` for a whole fill).
    pub body: String,
    /// Rules `body` uses beyond the expression grammar's.
    pub rules: String,
    /// Lexemes that end a fill besides a new line.
    pub enders: Vec<String>,
}

/// The Lark text of the grammar. Names that Rex could not read back as one name are left
/// out, so any scope gives a grammar that compiles.
pub fn lark(scope: &GrammarScope) -> String {
    lark_with(scope, &Start::Expr)
}

/// The Lark text of the grammar, started and ended as `start` says.
pub fn lark_with(scope: &GrammarScope, start: &Start) -> String {
    let values = valid(&scope.values, is_value_name);
    let ctors = valid(&scope.constructors, is_ctor_name);
    let fields = valid(&scope.fields, is_field_name);
    let types = valid(&scope.types, is_ctor_name);
    let ops = Operators::of(&scope.operators);

    let mut g = String::with_capacity(4096 + 16 * (values.len() + ctors.len() + fields.len()));
    g.push_str("%llguidance {\"allow_initial_skip\": true}\n\n// Rex expressions for one hole (rex-llm).\n");
    match start {
        Start::Expr => g.push_str("start: expr\n\n"),
        Start::Ended(e) => {
            g.push_str(&format!("start: {} fill_end\n", e.body));
            g.push_str("fill_end: \"\\n\"");
            for w in &e.enders {
                if w.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                    // `quote` leaves a new line as it is; Lark wants it escaped.
                    let spaced = quote(&format!("{w} "));
                    let broken = quote(&format!("{w}\n")).replace('\n', "\\n");
                    g.push_str(&format!(" | {spaced} | {broken}"));
                } else {
                    g.push_str(" | ");
                    g.push_str(&quote(w));
                }
            }
            g.push('\n');
            g.push_str(&e.rules);
            g.push('\n');
        }
    }
    g.push_str(EXPRESSIONS);
    push_levels(&mut g, &ops);

    // Atoms: the fixed alternatives and those the scope allows.
    g.push_str("app: atom+\natom: atom \".\" field\n    | name\n");
    if !ctors.is_empty() {
        g.push_str("    | CTOR\n");
    }
    if scope.allow_holes {
        g.push_str("    | HOLE\n");
    }
    g.push_str(ATOMS);
    g.push_str(if values.is_empty() {
        "name: BINDER\n"
    } else {
        "name: VALUE | BINDER\n"
    });
    if fields.is_empty() {
        g.push_str("field: BINDER | UPPER | INT\nknown_field: BINDER\n");
    } else {
        g.push_str("field: FIELD | INT\nknown_field: FIELD\n");
    }
    g.push_str(&format!("operator: {}\n", ops.rule()));
    g.push_str(LITERALS);

    g.push_str(PATTERNS_HEAD);
    if !ctors.is_empty() {
        g.push_str("pat_app: CTOR pat_atom+ | pat_atom\n");
        g.push_str("pat_atom: CTOR | ");
    } else {
        g.push_str("pat_app: pat_atom\npat_atom: ");
    }
    g.push_str(PATTERN_ATOMS);
    g.push_str(TYPES);
    g.push_str(&ascriptions(!types.is_empty()));

    g.push_str("\n// Names visible at the hole.\n");
    push_terminal(&mut g, "VALUE", &values);
    push_terminal(&mut g, "CTOR", &ctors);
    push_terminal(&mut g, "FIELD", &fields);
    push_terminal(&mut g, "TYPE", &types);
    ops.push_terminals(&mut g);
    if scope.allow_holes {
        g.push_str("HOLE: /\\?([A-Za-z_][A-Za-z0-9_]*)?/\n");
    }
    g.push_str(
        "\n// Lexemes, as compiler/src/syntax/lexer.rs reads them; BINDER is a lower-case\n",
    );
    g.push_str("// identifier other than `_` and the keywords.\n");
    g.push_str(&format!("BINDER: /{}/\n", binder_regex()));
    g.push_str(LEXEMES);
    g.push_str(match start {
        Start::Expr => "%ignore /[ \\t\\r\\n\\f]+/\n%ignore COMMENT\n",
        // Plain spacing, as the embedded decoder keeps it (`decode::spacing_ok`): spaces,
        // no tabs, new lines or comments.
        Start::Ended(_) => "%ignore \" \"\n",
    });
    g
}

/// The rules above the operators.
const EXPRESSIONS: &str = r#"expr: let_expr | if_expr | lambda | match_expr | typed
let_expr: "let" ["rec"] binding ("," binding)* "in" expr
binding: pat [":" type] "=" expr
if_expr: "if" expr "then" expr "else" expr
lambda: LAMBDA lam_param+ [where_clause] ARROW expr
lam_param: pat_atom | "(" pat ":" type ")"
where_clause: "where" constraint ("," constraint)*
constraint: TYPE_NAME tatom+
match_expr: "match" atom arm+
arm: "when" pat ARROW expr
typed: or_expr ["is" ascribed]

// Binary operators, loosest first.
"#;

/// The atoms every grammar has (after names, constructors and holes).
const ATOMS: &str = r#"    | literal
    | "(" ")"
    | "(" expr ")"
    | "(" expr ("," expr)+ [","] ")"
    | "(" operator ")"
    | "[" [expr ("," expr)* [","]] "]"
    | "{" [field_init ("," field_init)* [","]] "}"
    | "{" expr "with" "{" [field_update ("," field_update)* [","]] "}" "}"
field_init: BINDER "=" expr
field_update: known_field "=" expr
"#;

const LITERALS: &str = "literal: INT | FLOAT | STRING | \"true\" | \"false\"\n";

const PATTERNS_HEAD: &str = "\n// Patterns.\npat: pat_app [\"::\" pat]\n";

const PATTERN_ATOMS: &str = r#""_" | BINDER | literal | "-" INT | "-" FLOAT
    | "(" ")" | "(" pat ")" | "(" pat ("," pat)+ [","] ")"
    | "[" [pat ("," pat)* [","]] "]"
    | "{" [field_pat ("," field_pat)* [","]] "}"
field_pat: known_field [(":" | "=") pat]
"#;

const TYPES: &str = r#"
// Types (annotations, ascriptions).
type: btype [ARROW type]
btype: tatom+
tatom: BINDER | TYPE_NAME | "(" ")" | "(" type ")" | "(" type ("," type)+ [","] ")"
    | "{" [BINDER ":" type ("," BINDER ":" type)* [","]] "}"
"#;

/// The ascription rules. An ascription names a concrete type (`4 is u8`, `d is Dict i32`):
/// the built-in types without parameters, and the types in scope when the caller lists
/// them, with at most two arguments. A fill never needs a type variable there, and a model let loose after `is` writes
/// runs of words (`x is a b c`, `x is Cnt Cnt Cnt`) that read as type variables or
/// unknown types, which the oracle, leaving an unfinished annotation out, cannot refuse
/// until the run ends.
fn ascriptions(known_types: bool) -> String {
    let head = if known_types { "TYPE" } else { "TYPE_NAME" };
    let scalars: Vec<String> = PRIMITIVE_TYPES
        .iter()
        .filter(|(_, arity)| *arity == 0)
        .map(|(name, _)| quote(name))
        .collect();
    format!(
        "ascribed: SCALAR | {head} [concrete [concrete]] | \"(\" ascribed_fn \")\"\n    \
         | \"(\" ascribed (\",\" ascribed)+ [\",\"] \")\"\n\
         concrete: SCALAR | {head} | \"(\" ascribed_fn \")\" | \"(\" ascribed (\",\" ascribed)+ [\",\"] \")\"\n\
         ascribed_fn: ascribed [ARROW ascribed_fn]\n\
         SCALAR: {}\n",
        scalars.join(" | ")
    )
}

const LEXEMES: &str = r#"UPPER: /[A-Z][A-Za-z0-9_]*/
TYPE_NAME: /[A-Z][A-Za-z0-9_]*(\.[A-Z][A-Za-z0-9_]*)?/
INT: /[0-9]+/
FLOAT: /[0-9]+\.[0-9]+([eE][+-]?[0-9]+)?/
STRING: /"([^"\\]|\\.)*"/
LAMBDA: "\\" | "λ"
ARROW: "->" | "→"
COMMENT: /\{-([^-]|-+[^-}])*-+\}/
"#;

/// The operators in scope, by precedence level.
struct Operators {
    cmp: Vec<String>,
    add: Vec<String>,
    mul: Vec<String>,
}

impl Operators {
    fn of(names: &[String]) -> Operators {
        let given: Vec<&str> = if names.is_empty() {
            OPERATORS.to_vec()
        } else {
            names.iter().map(String::as_str).collect()
        };
        let mut ops = Operators {
            cmp: vec![],
            add: vec![],
            mul: vec![],
        };
        for op in given {
            let level = match op {
                "||" | "&&" | "::" => continue,
                "==" | "!=" | "<" | "<=" | ">" | ">=" => &mut ops.cmp,
                "*" | "/" | "%" => &mut ops.mul,
                _ if is_operator(op) => &mut ops.add,
                _ => continue,
            };
            if !level.iter().any(|o| o == op) {
                level.push(op.to_string());
            }
        }
        ops
    }

    /// `operator`'s alternatives: every infix operator, for `(op)`.
    fn rule(&self) -> String {
        let mut alts = vec!["\"||\"", "\"&&\"", "\"::\""];
        for (terminal, ops) in self.levels() {
            if !ops.is_empty() {
                alts.push(terminal);
            }
        }
        alts.join(" | ")
    }

    fn levels(&self) -> [(&'static str, &[String]); 3] {
        [
            ("CMP_OP", &self.cmp),
            ("ADD_OP", &self.add),
            ("MUL_OP", &self.mul),
        ]
    }

    fn push_terminals(&self, g: &mut String) {
        for (terminal, ops) in self.levels() {
            push_terminal(g, terminal, ops);
        }
    }
}

/// The operator rules, loosest first; a level with no operator in scope is a plain step.
fn push_levels(g: &mut String, ops: &Operators) {
    g.push_str("or_expr: and_expr [\"||\" or_expr]\n");
    g.push_str("and_expr: cmp_expr [\"&&\" and_expr]\n");
    push_left(g, "cmp_expr", "cons_expr", "CMP_OP", &ops.cmp);
    g.push_str("cons_expr: add_expr [\"::\" cons_expr]\n");
    push_left(g, "add_expr", "mul_expr", "ADD_OP", &ops.add);
    push_left(g, "mul_expr", "operand", "MUL_OP", &ops.mul);
    g.push_str("operand: \"-\" operand | app\n");
}

fn push_left(g: &mut String, rule: &str, next: &str, terminal: &str, ops: &[String]) {
    if ops.is_empty() {
        g.push_str(&format!("{rule}: {next}\n"));
    } else {
        g.push_str(&format!("{rule}: {next} ({terminal} {next})*\n"));
    }
}

/// `NAME: "a" | "b"`, one lexeme for a whole class; nothing for an empty class (the rules
/// then do not mention it).
fn push_terminal(g: &mut String, terminal: &str, names: &[String]) {
    if names.is_empty() {
        return;
    }
    g.push_str(terminal);
    g.push(':');
    for (i, n) in names.iter().enumerate() {
        g.push_str(if i == 0 { " " } else { " | " });
        g.push_str(&quote(n));
    }
    g.push('\n');
}

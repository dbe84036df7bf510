//! `stdlib/prelude.rex` parses cleanly and declares exactly the prelude of the reference
//! documentation (PRELUDE.md): its classes with their superclasses and method types, its
//! functions with their signatures, its data types and constructors, and its instances.
//!
//! Types are rendered the way PRELUDE.md prints them (`(('f 'a) -> i32)`), so the tables
//! below are the reference signatures verbatim.

use std::collections::{BTreeMap, BTreeSet};

use rex_compiler::syntax::ast::{
    Arena, Constraint, ExprKind, Item, ItemKind, TypeId, TypeKind, VariantPayload,
};
use rex_compiler::syntax::parser::{parse_text, ParsedFile};
use rex_compiler::LineIndex;

const PRIMITIVES: &[&str] = &[
    "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64", "string", "uuid",
    "datetime",
];

/// (class, parameters, superclasses, [(method, type)])
type ClassRow = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
    &'static [(&'static str, &'static str)],
);

const CLASSES: &[ClassRow] = &[
    (
        "AdditiveGroup",
        &["a"],
        &["Semiring"],
        &[("negate", "('a -> 'a)"), ("-", "('a -> ('a -> 'a))")],
    ),
    (
        "AdditiveMonoid",
        &["a"],
        &[],
        &[("zero", "'a"), ("+", "('a -> ('a -> 'a))")],
    ),
    (
        "Alternative",
        &["f"],
        &["Applicative"],
        &[("or_else", "((('f 'a) -> ('f 'a)) -> (('f 'a) -> ('f 'a)))")],
    ),
    (
        "Applicative",
        &["f"],
        &["Functor"],
        &[
            ("pure", "('a -> ('f 'a))"),
            ("ap", "(('f ('a -> 'b)) -> (('f 'a) -> ('f 'b)))"),
        ],
    ),
    ("Default", &["a"], &[], &[("default", "'a")]),
    (
        "Eq",
        &["a"],
        &[],
        &[
            ("==", "('a -> ('a -> bool))"),
            ("!=", "('a -> ('a -> bool))"),
        ],
    ),
    ("Field", &["a"], &["Ring"], &[("/", "('a -> ('a -> 'a))")]),
    (
        "Filterable",
        &["f"],
        &["Functor"],
        &[
            ("filter", "(('a -> bool) -> (('f 'a) -> ('f 'a)))"),
            (
                "filter_map",
                "(('a -> (Option 'b)) -> (('f 'a) -> ('f 'b)))",
            ),
        ],
    ),
    (
        "Foldable",
        &["t"],
        &[],
        &[
            ("foldl", "(('b -> ('a -> 'b)) -> ('b -> (('t 'a) -> 'b)))"),
            ("foldr", "(('a -> ('b -> 'b)) -> ('b -> (('t 'a) -> 'b)))"),
            ("fold", "(('b -> ('a -> 'b)) -> ('b -> (('t 'a) -> 'b)))"),
        ],
    ),
    (
        "Functor",
        &["f"],
        &[],
        &[("map", "(('a -> 'b) -> (('f 'a) -> ('f 'b)))")],
    ),
    (
        "Indexable",
        &["t", "a"],
        &[],
        &[("get", "(i32 -> ('t -> 'a))")],
    ),
    ("Integral", &["a"], &[], &[("%", "('a -> ('a -> 'a))")]),
    (
        "Monad",
        &["m"],
        &["Applicative"],
        &[("bind", "(('a -> ('m 'b)) -> (('m 'a) -> ('m 'b)))")],
    ),
    (
        "MultiplicativeMonoid",
        &["a"],
        &[],
        &[("one", "'a"), ("*", "('a -> ('a -> 'a))")],
    ),
    (
        "Ord",
        &["a"],
        &["Eq"],
        &[
            ("cmp", "('a -> ('a -> i32))"),
            ("<", "('a -> ('a -> bool))"),
            ("<=", "('a -> ('a -> bool))"),
            (">", "('a -> ('a -> bool))"),
            (">=", "('a -> ('a -> bool))"),
        ],
    ),
    (
        "Ring",
        &["a"],
        &["AdditiveGroup", "MultiplicativeMonoid"],
        &[],
    ),
    (
        "Semiring",
        &["a"],
        &["AdditiveMonoid", "MultiplicativeMonoid"],
        &[],
    ),
    (
        "Sequence",
        &["f"],
        &["Functor", "Foldable"],
        &[
            ("take", "(i32 -> (('f 'a) -> ('f 'a)))"),
            ("skip", "(i32 -> (('f 'a) -> ('f 'a)))"),
            ("zip", "(('f 'a) -> (('f 'b) -> ('f ('a, 'b))))"),
            ("unzip", "(('f ('a, 'b)) -> (('f 'a), ('f 'b)))"),
        ],
    ),
    ("Show", &["a"], &[], &[("show", "('a -> string)")]),
    // Not in PRELUDE.md: it lists `unwrap` at two types, which one class expresses.
    ("Unwrap", &["f"], &[], &[("unwrap", "(('f 'a) -> 'a)")]),
];

/// (function, constraints, type). `&&` and `||` are the natives `prim_and` and `prim_or`.
const FUNCTIONS: &[(&str, &str, &str)] = &[
    ("prim_and", "", "(bool -> (bool -> bool))"),
    ("count", "Foldable 'f", "(('f 'a) -> i32)"),
    ("is_err", "", "((Result 't 'e) -> bool)"),
    ("is_none", "", "((Option 'a) -> bool)"),
    ("is_ok", "", "((Result 't 'e) -> bool)"),
    ("is_some", "", "((Option 'a) -> bool)"),
    ("max", "Foldable 'f, Ord 'a", "(('f 'a) -> 'a)"),
    ("mean", "Foldable 'f, Field 'a", "(('f 'a) -> 'a)"),
    ("min", "Foldable 'f, Ord 'a", "(('f 'a) -> 'a)"),
    ("sum", "Foldable 'f, AdditiveMonoid 'a", "(('f 'a) -> 'a)"),
    ("to_array", "", "((List 'a) -> (Array 'a))"),
    ("to_list", "", "((Array 'a) -> (List 'a))"),
    ("prim_or", "", "(bool -> (bool -> bool))"),
];

/// (type, parameters, constructors). `Result` is declared error-first.
const TYPES: &[(&str, &[&str], &[&str])] = &[
    ("List", &["a"], &["Empty", "Cons"]),
    ("Option", &["a"], &["Some", "None"]),
    ("Result", &["e", "a"], &["Err", "Ok"]),
];

const NUMERIC: &[&str] = &[
    "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64",
];
const INTEGERS: &[&str] = &["u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64"];
const SIGNED: &[&str] = &["i8", "i16", "i32", "i64", "f32", "f64"];
const CONTAINERS: &[&str] = &["List", "Option", "Array"];
const MONADS: &[&str] = &["List", "Option", "Array", "(Result 'e)"];

/// The instance heads of each class, as PRELUDE.md's "Implemented On" column lists them.
fn expected_instances() -> BTreeMap<&'static str, BTreeSet<String>> {
    let set = |groups: &[&[&str]]| -> BTreeSet<String> {
        groups
            .iter()
            .flat_map(|g| g.iter().map(|s| s.to_string()))
            .collect()
    };
    let scalars_eq: &[&str] = &["bool", "string", "uuid", "datetime"];
    let boxes: &[&str] = &["(List 'a)", "(Option 'a)", "(Array 'a)", "(Result 'a 'e)"];
    BTreeMap::from([
        ("AdditiveMonoid", set(&[NUMERIC, &["string"]])),
        ("MultiplicativeMonoid", set(&[NUMERIC])),
        ("Semiring", set(&[NUMERIC])),
        ("AdditiveGroup", set(&[SIGNED])),
        ("Ring", set(&[SIGNED])),
        ("Field", set(&[&["f32", "f64"]])),
        ("Integral", set(&[INTEGERS])),
        ("Eq", set(&[NUMERIC, scalars_eq, boxes])),
        ("Ord", set(&[NUMERIC, &["string"]])),
        ("Show", set(&[NUMERIC, scalars_eq, boxes])),
        ("Default", set(&[NUMERIC, &["bool", "string"], boxes])),
        ("Functor", set(&[MONADS])),
        ("Applicative", set(&[MONADS])),
        ("Monad", set(&[MONADS])),
        ("Alternative", set(&[MONADS])),
        ("Foldable", set(&[CONTAINERS])),
        ("Filterable", set(&[CONTAINERS])),
        ("Sequence", set(&[&["List", "Array"]])),
        (
            "Indexable",
            set(&[&["((List 'a), 'a)", "((Array 'a), 'a)"]]),
        ),
        ("Unwrap", set(&[&["Option", "(Result 'e)"]])),
    ])
}

fn prelude() -> (String, ParsedFile) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../stdlib/prelude.rex");
    let text = std::fs::read_to_string(path).expect("stdlib/prelude.rex is readable");
    let parsed = parse_text(&text);
    (text, parsed)
}

/// A type as PRELUDE.md prints it: variables primed, every compound form parenthesised.
fn render(arena: &Arena, id: TypeId) -> String {
    match &arena.ty(id).kind {
        TypeKind::Name(n) if PRIMITIVES.contains(&n.as_str()) => n.clone(),
        TypeKind::Name(n) => format!("'{n}"),
        TypeKind::Con(path) => path.name.text.clone(),
        TypeKind::App(f, args) => {
            let mut parts = vec![render(arena, *f)];
            parts.extend(args.iter().map(|a| render(arena, *a)));
            format!("({})", parts.join(" "))
        }
        TypeKind::Arrow(a, b) => format!("({} -> {})", render(arena, *a), render(arena, *b)),
        TypeKind::Tuple(ts) => {
            let parts: Vec<String> = ts.iter().map(|t| render(arena, *t)).collect();
            format!("({})", parts.join(", "))
        }
        TypeKind::Record(fields) => {
            let parts: Vec<String> = fields
                .iter()
                .map(|(n, t)| format!("{}: {}", n.text, render(arena, *t)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        TypeKind::Error => "<error>".to_string(),
    }
}

fn render_constraints(arena: &Arena, cs: &[Constraint]) -> String {
    cs.iter()
        .map(|c| {
            let args: Vec<String> = c.args.iter().map(|a| render(arena, *a)).collect();
            format!("{} {}", c.class.name.text, args.join(" "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// An instance head as the "Implemented On" column prints it.
fn render_head(item: &Item, args: &[TypeId]) -> String {
    let parts: Vec<String> = args.iter().map(|a| render(&item.arena, *a)).collect();
    if parts.len() == 1 {
        parts[0].clone()
    } else {
        format!("({})", parts.join(", "))
    }
}

#[test]
fn prelude_has_no_syntax_diagnostics() {
    let (text, parsed) = prelude();
    let index = LineIndex::new(&text);
    let lines: Vec<String> = parsed
        .diagnostics
        .iter()
        .map(|d| {
            let pos = index.position(&text, d.span.start as usize);
            format!(
                "prelude.rex:{}:{}: {}",
                pos.line + 1,
                pos.character + 1,
                d.message
            )
        })
        .collect();
    assert!(
        lines.is_empty(),
        "syntax diagnostics:\n{}",
        lines.join("\n")
    );
}

#[test]
fn every_declaration_is_public_and_there_is_no_result_expression() {
    let (_, parsed) = prelude();
    for item in &parsed.items {
        let (is_pub, what) = match &item.kind {
            ItemKind::Fn(d) => (d.is_pub, format!("fn {}", d.name.text)),
            ItemKind::Type(d) => (d.is_pub, format!("type {}", d.name.text)),
            ItemKind::Class(d) => (d.is_pub, format!("class {}", d.name.text)),
            ItemKind::Instance(d) => (
                d.is_pub,
                format!(
                    "instance {} {}",
                    d.class.name.text,
                    render_head(item, &d.args)
                ),
            ),
            ItemKind::Import(_) => panic!("the prelude imports nothing"),
            ItemKind::Expr(_) => panic!("the prelude has no result expression"),
            ItemKind::Error => panic!("an item failed to parse at offset {}", item.offset),
        };
        assert!(is_pub, "{what} is not pub");
    }
}

#[test]
fn classes_match_the_reference() {
    let (_, parsed) = prelude();
    let mut seen = BTreeSet::new();
    for item in &parsed.items {
        let ItemKind::Class(c) = &item.kind else {
            continue;
        };
        let name = c.name.text.as_str();
        assert!(seen.insert(name.to_string()), "class {name} declared twice");
        let Some((_, params, supers, methods)) = CLASSES.iter().find(|row| row.0 == name) else {
            panic!("class {name} is not in the reference prelude");
        };
        let got_params: Vec<&str> = c.params.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(&got_params, params, "parameters of {name}");
        let got_supers: Vec<&str> = c
            .supers
            .iter()
            .map(|s| s.class.name.text.as_str())
            .collect();
        assert_eq!(&got_supers, supers, "superclasses of {name}");
        for s in &c.supers {
            let args: Vec<String> = s.args.iter().map(|a| render(&item.arena, *a)).collect();
            let own: Vec<String> = params.iter().map(|p| format!("'{p}")).collect();
            assert_eq!(args, own, "superclass {} of {name}", s.class.name.text);
        }
        let got_methods: Vec<(&str, String)> = c
            .methods
            .iter()
            .map(|m| (m.name.text.as_str(), render(&item.arena, m.ty)))
            .collect();
        let want_methods: Vec<(&str, String)> =
            methods.iter().map(|(m, t)| (*m, t.to_string())).collect();
        assert_eq!(got_methods, want_methods, "methods of {name}");
    }
    let missing: Vec<&str> = CLASSES
        .iter()
        .map(|row| row.0)
        .filter(|c| !seen.contains(*c))
        .collect();
    assert!(missing.is_empty(), "classes not declared: {missing:?}");
}

#[test]
fn functions_match_the_reference() {
    let (_, parsed) = prelude();
    let mut seen = BTreeSet::new();
    for item in &parsed.items {
        let ItemKind::Fn(f) = &item.kind else {
            continue;
        };
        let name = f.name.text.as_str();
        assert!(seen.insert(name.to_string()), "fn {name} declared twice");
        assert!(
            f.params.is_empty(),
            "fn {name}: write `fn {name} : T = ...`"
        );
        let is_hole = matches!(item.arena.expr(f.body).kind, ExprKind::Hole(None));
        assert_eq!(
            is_hole,
            name.starts_with("prim_"),
            "fn {name}: natives (and only natives) are named prim_ and have the body `?`"
        );
        assert!(
            matches!(item.arena.ty(f.ret).kind, TypeKind::Arrow(..)),
            "fn {name} needs a function type"
        );
        if let Some((_, constraints, ty)) = FUNCTIONS.iter().find(|row| row.0 == name) {
            assert_eq!(
                render_constraints(&item.arena, &f.constraints),
                *constraints,
                "constraints of {name}"
            );
            assert_eq!(render(&item.arena, f.ret), *ty, "type of {name}");
        } else {
            assert!(
                name.starts_with("prim_"),
                "fn {name} is neither in the reference prelude nor a native"
            );
        }
    }
    let missing: Vec<&str> = FUNCTIONS
        .iter()
        .map(|row| row.0)
        .filter(|f| !seen.contains(*f))
        .collect();
    assert!(missing.is_empty(), "functions not declared: {missing:?}");
}

#[test]
fn data_types_match_the_reference() {
    let (_, parsed) = prelude();
    let mut seen = BTreeSet::new();
    for item in &parsed.items {
        let ItemKind::Type(t) = &item.kind else {
            continue;
        };
        let name = t.name.text.as_str();
        seen.insert(name.to_string());
        let Some((_, params, ctors)) = TYPES.iter().find(|row| row.0 == name) else {
            panic!("type {name} is not in the reference prelude");
        };
        let got_params: Vec<&str> = t.params.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(&got_params, params, "parameters of {name}");
        let got_ctors: Vec<&str> = t.variants.iter().map(|v| v.name.text.as_str()).collect();
        assert_eq!(&got_ctors, ctors, "constructors of {name}");
        for v in &t.variants {
            assert!(
                matches!(v.payload, VariantPayload::Positional(_)),
                "{} has a positional payload",
                v.name.text
            );
        }
    }
    for (name, _, _) in TYPES {
        assert!(seen.contains(*name), "type {name} not declared");
    }
}

#[test]
fn instances_match_the_reference() {
    let (_, parsed) = prelude();
    let mut got: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for item in &parsed.items {
        let ItemKind::Instance(inst) = &item.kind else {
            continue;
        };
        let class = inst.class.name.text.clone();
        let head = render_head(item, &inst.args);
        let methods: Vec<&str> = inst.methods.iter().map(|m| m.name.text.as_str()).collect();
        let declared: Vec<&str> = CLASSES
            .iter()
            .find(|row| row.0 == class)
            .map(|row| row.3.iter().map(|(m, _)| *m).collect())
            .unwrap_or_default();
        assert_eq!(
            methods, declared,
            "instance {class} {head} defines every method once, in class order"
        );
        assert!(
            got.entry(class.clone()).or_default().insert(head.clone()),
            "instance {class} {head} declared twice"
        );
    }
    let want: BTreeMap<String, BTreeSet<String>> = expected_instances()
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    assert_eq!(got, want);
}

/// The database parses the prelude whole and every other file by pieces (`db::parse`): the
/// prelude's text read as any other file gives the same tree and diagnostics.
#[test]
fn the_database_parses_the_prelude_as_it_parses_any_file() {
    use rex_compiler::db::{parse, Database};
    let db = Database::new();
    let prelude = db.prelude().file(&db);
    let as_a_file = db.add_file("prelude.rex", prelude.text(&db).clone());
    let whole = parse(&db, prelude);
    assert!(whole.items.len() > 100, "{} items", whole.items.len());
    assert_eq!(whole, parse(&db, as_a_file));
}

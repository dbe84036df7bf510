//! Completion over `<CURSOR>` fixtures: type-fit ranking, scope order, fields, filtering.

mod editor_fixture;

use editor_fixture::Fixture;
use rex_ide::completion::{completion, CompletionKind, Completions};

fn complete(source: &str) -> (Fixture, Completions) {
    let f = Fixture::new(source);
    let c = completion(&f.db, f.file, f.offset);
    (f, c)
}

/// The replaced span, the expected type and the first `n` items.
fn show(source: &str, n: usize) -> String {
    let (f, c) = complete(source);
    let mut out = format!(
        "replace: {}\nexpected: {}\nitems: {}{}\n",
        f.span(c.span),
        c.expected_type.as_deref().unwrap_or("-"),
        c.items.len(),
        if c.is_incomplete { " (incomplete)" } else { "" }
    );
    for item in c.items.iter().take(n) {
        out.push_str(&format!(
            "{} {:?} {:?} : {}\n",
            item.sort_text,
            item.kind,
            item.label,
            item.detail.as_deref().unwrap_or("-")
        ));
        out.push_str(&format!("     fit {:?}\n", item.fit));
    }
    out
}

fn labels(c: &Completions) -> Vec<&str> {
    c.items.iter().map(|i| i.label.as_str()).collect()
}

#[test]
fn hole_in_mk_example_ranks_by_type_fit() {
    let src =
        "fn mk : i32 -> string = \\n -> \"value\"\nlet x = 1 in\nlet y : string = <CURSOR>? in\ny";
    insta::assert_snapshot!(show(src, 8));
}

#[test]
fn locals_innermost_first_and_exact_type_before_others() {
    let src = "let a = 1 in\nlet b = \"s\" in\nlet a2 = 2 in\nlet c : i32 = <CURSOR>? in\nc";
    insta::assert_snapshot!(show(src, 6));
}

#[test]
fn prefix_filters_and_locals_shadow_globals() {
    let src = "let map = 3 in\nlet mapped = [1] in\nma<CURSOR>";
    let (_, c) = complete(src);
    let ls = labels(&c);
    assert_eq!(ls.iter().filter(|l| **l == "map").count(), 1, "{ls:?}");
    assert!(c
        .items
        .iter()
        .all(|i| i.label.to_ascii_lowercase().starts_with("ma")));
    insta::assert_snapshot!(show(src, 6));
}

#[test]
fn user_functions_before_prelude() {
    let src = "fn parse_ph : string -> Result f32 string = \\raw -> Ok 7.3\n\nlet r : Result f32 string = pa<CURSOR> in r";
    insta::assert_snapshot!(show(src, 4));
}

#[test]
fn record_fields_after_dot() {
    let src = "type R = R { width: f32, height: f32 }\nlet p = R { width = 1.0, height = 2.0 } in\np.<CURSOR>";
    insta::assert_snapshot!("fields_after_bare_dot", show(src, 5));
    let src = "type R = R { width: f32, height: f32 }\nlet p = R { width = 1.0, height = 2.0 } in\np.he<CURSOR>";
    insta::assert_snapshot!("fields_with_prefix", show(src, 5));
    let src = "let t = (1, \"two\") in\nt.<CURSOR>";
    insta::assert_snapshot!("tuple_positions", show(src, 5));
}

#[test]
fn nothing_inside_strings_and_comments() {
    let (_, c) = complete("let s = \"ab<CURSOR>c\" in s");
    assert!(c.items.is_empty());
    let (_, c) = complete("{- a comment ma<CURSOR> -}\n1");
    assert!(c.items.is_empty());
    let (_, c) = complete("let s = \"open<CURSOR>");
    assert!(c.items.is_empty());
}

#[test]
fn internal_names_never_offered() {
    let (_, c) = complete("pri<CURSOR>");
    assert!(c.items.iter().all(|i| !i.label.starts_with("prim_")));
    let (_, c) = complete("<CURSOR>");
    assert!(c.items.iter().all(|i| !i.label.starts_with("prim_")));
    assert!(c.items.iter().any(|i| i.kind == CompletionKind::Keyword));
}

#[test]
fn cursor_past_end_and_inside_multibyte_text_is_safe() {
    let f = Fixture::plain("let λ = 1 in \"é\"");
    for offset in 0..f.text.len() + 3 {
        let _ = completion(&f.db, f.file, offset);
    }
}

const DEP: &str = "pub type Shape = Circle f64 | Square f64\n\
                   type Hidden = Hidden i32\n\
                   pub fn area s: Shape -> f64 = 1.0\n\
                   fn secret x: i32 -> i32 = x\n";

#[test]
fn after_a_module_alias_the_module_exports_are_offered() {
    let f = Fixture::with_modules(
        "import dep as D\n\nfn f x: i32 -> f64 = D.<CURSOR>",
        &[("dep.rex", DEP)],
    );
    let c = completion(&f.db, f.file, f.offset);
    assert_eq!(labels(&c), ["area", "Circle", "Square"]);
    assert_eq!(c.items[0].detail.as_deref(), Some("dep.Shape -> f64"));
    assert_eq!(c.items[1].kind, CompletionKind::Constructor);
}

#[test]
fn constructors_of_modules_are_offered_only_as_imported() {
    let f = Fixture::with_modules(
        "import dep (Circle)\n\nfn f x: i32 -> i32 = <CURSOR>",
        &[("dep.rex", DEP)],
    );
    let c = completion(&f.db, f.file, f.offset);
    let names = labels(&c);
    assert!(names.contains(&"Circle"), "{names:?}");
    for hidden in ["Square", "Hidden", "secret", "area"] {
        assert!(!names.contains(&hidden), "{hidden} offered: {names:?}");
    }
}

//! Document symbols and inlay hints over whole-file fixtures.

mod editor_fixture;

use editor_fixture::Fixture;
use rex_compiler::Span;
use rex_ide::inlay_hints::inlay_hints;
use rex_ide::symbols::{document_symbols, DocumentSymbol};

const PROGRAM: &str = "type Shape = Circle f32 | Rect { w: f32, h: f32 }

class Sized a where
  size : a -> f32

instance Sized Shape where
  size = \\s -> match s
    when Circle r -> r * r * 3.14
    when Rect {w, h} -> w * h

fn scale : f32 -> Shape -> Shape = \\k s -> match s
  when Circle r -> Circle (k * r)
  when Rect {w, h} -> Rect { w = k * w, h = k * h }

let shapes = [Circle 1.0, Rect { w = 2.0, h = 3.0 }] in
let total = sum (map size shapes) in
let pair = (total, \"area\") in
let names : List string = [\"a\"] in
let ident = \\x -> x in
pair
";

fn outline(f: &Fixture, symbols: &[DocumentSymbol], depth: usize, out: &mut String) {
    for s in symbols {
        out.push_str(&format!(
            "{}{:?} {} : {} @ {} [{}]\n",
            "  ".repeat(depth),
            s.kind,
            s.name,
            s.detail.as_deref().unwrap_or("-"),
            f.span(s.selection_span),
            f.span(s.span).lines().next().unwrap_or(""),
        ));
        outline(f, &s.children, depth + 1, out);
    }
}

#[test]
fn outline_of_a_program() {
    let f = Fixture::plain(PROGRAM);
    let mut out = String::new();
    outline(&f, &document_symbols(&f.db, f.file), 0, &mut out);
    insta::assert_snapshot!(out);
}

#[test]
fn hints_for_unannotated_lets() {
    let f = Fixture::plain(PROGRAM);
    let mut text = f.text.clone();
    for h in inlay_hints(&f.db, f.file, None).iter().rev() {
        text.insert_str(h.offset, &format!("⟨{}⟩", h.label));
    }
    insta::assert_snapshot!(text);
}

#[test]
fn hints_limited_to_a_range() {
    let f = Fixture::plain(PROGRAM);
    let start = PROGRAM.find("let pair").expect("fixture");
    let range = Span::new(start, start + 20);
    let hints = inlay_hints(&f.db, f.file, Some(range));
    let shown: Vec<String> = hints
        .iter()
        .map(|h| format!("{} {}", h.offset, h.label))
        .collect();
    insta::assert_snapshot!(shown.join("\n"));
}

#[test]
fn hints_show_the_scheme_of_polymorphic_lets() {
    let src =
        "let sq = \\v -> v * v in\nlet id = \\x -> x in\nlet n = id 3 in\n(sq 2.0, id n, id \"a\")";
    let f = Fixture::plain(src);
    let labels: Vec<String> = inlay_hints(&f.db, f.file, None)
        .iter()
        .map(|h| h.label.clone())
        .collect();
    assert_eq!(
        labels,
        [
            ": MultiplicativeMonoid 'a => 'a -> 'a",
            ": 'a -> 'a",
            // `id 3` is no bare literal: the binding stays overloaded (no monomorphism
            // restriction), and the hint says so.
            ": Integral 'a => 'a"
        ]
    );
}

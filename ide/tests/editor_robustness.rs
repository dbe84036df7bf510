//! Every editor feature, at every position of whole and truncated programs (broken text),
//! answers without panicking; and what it answers stays inside the text.

mod editor_fixture;

use editor_fixture::Fixture;
use rex_compiler::Span;
use rex_ide::completion::completion;
use rex_ide::hover::hover;
use rex_ide::inlay_hints::inlay_hints;
use rex_ide::navigation::{definition, prepare_rename, references, rename};
use rex_ide::signature_help::signature_help;
use rex_ide::symbols::document_symbols;

const PROGRAMS: &[&str] = &[
    include_str!("../../examples/holes.rex"),
    include_str!("../../examples/hello.rex"),
    "type Shape = Circle f32 | Rect { w: f32, h: f32 }

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
let rec go = \\xs -> match xs
  when [] -> 0.0
  when h::t -> size h + go t
in
let p = Rect { w = 1.0, h = 2.0 } in
(go shapes, p.w, \"λ→é\")
",
];

fn within(text: &str, span: Span) -> bool {
    span.start <= span.end && (span.end as usize) <= text.len()
}

fn exercise(text: &str, step: usize) -> usize {
    let f = Fixture::plain(text);
    let (db, file) = (&f.db, f.file);
    let mut calls = 0;
    for s in document_symbols(db, file) {
        assert!(within(text, s.span) && within(text, s.selection_span));
    }
    for h in inlay_hints(db, file, None) {
        assert!(h.offset <= text.len());
    }
    for offset in (0..=text.len() + 2).step_by(step) {
        if let Some(h) = hover(db, file, offset) {
            assert!(within(text, h.span));
        }
        let c = completion(db, file, offset);
        assert!(within(text, c.span));
        let _ = signature_help(db, file, offset);
        if let Some(d) = definition(db, file, offset) {
            assert!(within(text, d));
        }
        for r in references(db, file, offset, true) {
            assert!(within(text, r));
        }
        let _ = prepare_rename(db, file, offset);
        if let Ok(edits) = rename(db, file, offset, "renamed") {
            assert!(edits.iter().all(|e| within(text, e.span)));
        }
        calls += 1;
    }
    calls
}

#[test]
fn whole_programs_every_position() {
    let calls: usize = PROGRAMS.iter().map(|p| exercise(p, 2)).sum();
    println!("{calls} positions");
}

#[test]
fn truncated_programs_are_broken_text_not_panics() {
    let mut calls = 0;
    for program in PROGRAMS {
        let cuts: Vec<usize> = (0..program.len())
            .step_by(41)
            .filter(|i| program.is_char_boundary(*i))
            .collect();
        for cut in cuts {
            calls += exercise(&program[..cut], 7);
        }
    }
    println!("{calls} positions in truncated programs");
}

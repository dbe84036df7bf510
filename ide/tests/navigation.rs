//! Go to definition, references and rename over `<CURSOR>` fixtures.

mod editor_fixture;

use editor_fixture::Fixture;
use rex_ide::navigation::{definition, prepare_rename, references, rename};

fn show_definition(source: &str) -> String {
    let f = Fixture::new(source);
    match definition(&f.db, f.file, f.offset) {
        Some(span) => f.span(span),
        None => "no definition".to_string(),
    }
}

fn show_references(source: &str) -> String {
    let f = Fixture::new(source);
    let spans = references(&f.db, f.file, f.offset, true);
    spans
        .iter()
        .map(|s| f.span(*s))
        .collect::<Vec<_>>()
        .join("\n")
}

fn show_rename(source: &str, new_name: &str) -> String {
    let f = Fixture::new(source);
    match rename(&f.db, f.file, f.offset, new_name) {
        Err(e) => format!("error: {e}"),
        Ok(edits) => {
            let mut text = f.text.clone();
            for e in edits.iter().rev() {
                text.replace_range(e.span.range(), &e.new_text);
            }
            text
        }
    }
}

const SHADOWING: &str = "let x = 1 in
let f = \\y -> x + y in
let x = f 2 in
x<CURSOR> * x";

#[test]
fn definition_of_shadowing_let() {
    insta::assert_snapshot!(show_definition(SHADOWING));
}

#[test]
fn definition_of_outer_binding_used_in_lambda() {
    let src = "let x = 1 in\nlet f = \\y -> x<CURSOR> + y in\nlet x = f 2 in\nx * x";
    insta::assert_snapshot!(show_definition(src));
}

#[test]
fn definition_of_top_level_function_and_constructor() {
    let src = "type Shape = Circle f32 | Square f32\n\nfn area : Shape -> f32 = \\s -> match s\n  when Circle r -> r * r\n  when Square w -> w * w\n\nar<CURSOR>ea (Circle 1.0)";
    insta::assert_snapshot!("definition_of_function", show_definition(src));
    let src = "type Shape = Circle f32 | Square f32\n\nfn area : Shape -> f32 = \\s -> match s\n  when Circle r -> r * r\n  when Square w -> w * w\n\narea (Cir<CURSOR>cle 1.0)";
    insta::assert_snapshot!("definition_of_constructor", show_definition(src));
    let src = "type Shape = Circle f32 | Square f32\n\nfn area : Sh<CURSOR>ape -> f32 = \\s -> 1.0\n\narea (Circle 1.0)";
    insta::assert_snapshot!("definition_of_type", show_definition(src));
}

#[test]
fn definition_of_a_constructor_two_types_spell_follows_the_checkers_choice() {
    // `A` names a constructor of `T` and one of `U`; matching a `U`, the pattern is `U`'s.
    let src = "type T = A | B\n\ntype U = A | C\n\nfn f : U -> i32 = \\u -> match u\n  when A<CURSOR> -> 1\n  when C -> 2\n\nf C";
    assert_eq!(show_definition(src), "2:9-2:10 \"A\"");
}

#[test]
fn prelude_names_have_no_definition_in_the_file() {
    insta::assert_snapshot!(show_definition("ma<CURSOR>p (\\x -> x) [1]"));
}

#[test]
fn references_of_shadowed_name_stay_with_their_binding() {
    insta::assert_snapshot!(show_references(SHADOWING));
}

#[test]
fn references_of_top_level_function_across_items() {
    let src = "fn inc : i32 -> i32 = \\n -> n + 1\n\nfn twice : i32 -> i32 = \\n -> inc (inc n)\n\nin<CURSOR>c (twice 1)";
    insta::assert_snapshot!(show_references(src));
}

#[test]
fn rename_respects_shadowing() {
    insta::assert_snapshot!(show_rename(SHADOWING, "z"));
}

#[test]
fn rename_outer_binding_only() {
    let src = "let x<CURSOR> = 1 in\nlet f = \\y -> x + y in\nlet x = f 2 in\nx * x";
    insta::assert_snapshot!(show_rename(src, "base"));
}

#[test]
fn rename_top_level_function() {
    let src = "fn inc : i32 -> i32 = \\n -> n + 1\n\nfn twice : i32 -> i32 = \\n -> inc (inc n)\n\nin<CURSOR>c (twice 1)";
    insta::assert_snapshot!(show_rename(src, "succ"));
}

#[test]
fn rename_fn_parameter() {
    let src = "fn add a<CURSOR>: i32 -> b: i32 -> i32 = a + b\n\nadd 1 2";
    insta::assert_snapshot!(show_rename(src, "left"));
}

#[test]
fn rename_refuses_capture_and_bad_names() {
    // `y` would capture the use of `x` inside the lambda.
    let src = "let x<CURSOR> = 1 in\nlet f = \\y -> x + y in\nf 2";
    insta::assert_snapshot!("capture_by_inner", show_rename(src, "y"));
    // `x` would capture an existing use of a global `inc` ... renamed to `inc`.
    let src = "fn inc : i32 -> i32 = \\n -> n + 1\n\nlet x<CURSOR> = 1 in\ninc x";
    insta::assert_snapshot!("capture_of_global", show_rename(src, "inc"));
    insta::assert_snapshot!("keyword", show_rename(src, "let"));
    insta::assert_snapshot!("upper_case_for_value", show_rename(src, "Foo"));
    insta::assert_snapshot!(
        "prelude_name",
        show_rename("ma<CURSOR>p (\\x -> x) [1]", "fmap2")
    );
}

#[test]
fn renaming_an_unknown_name_does_not_blame_the_prelude() {
    let out = show_rename("let x = 1 in x + unkn<CURSOR>own", "known");
    assert!(!out.contains("prelude"), "{out}");
    assert!(out.contains("not declared anywhere"), "{out}");
}

#[test]
fn prepare_rename_reports_the_name() {
    let f = Fixture::new(SHADOWING);
    let (span, name) = prepare_rename(&f.db, f.file, f.offset).expect("renameable");
    insta::assert_snapshot!(format!("{} {name}", f.span(span)));
}

#[test]
fn definitions_reach_into_imported_modules() {
    const DEP: &str = "pub type Shape = Circle f64 | Square f64\n\
                       pub class Named a\n  name : a -> string\n\
                       pub fn area s: Shape -> f64 = 1.0\n";
    let show = |source: &str| {
        let f = Fixture::with_modules(source, &[("dep.rex", DEP)]);
        let (file, span) = rex_ide::navigation::definition_in_program(&f.db, f.file, f.offset)
            .expect("a definition");
        let text = file.text(&f.db);
        format!(
            "{} {:?}",
            file.path(&f.db),
            &text[span.start as usize..span.end as usize]
        )
    };
    let main = "import dep as D\nimport dep (area as size)\n\n";
    assert_eq!(
        show(&format!("{main}fn f s: D.Sh<CURSOR>ape -> f64 = size s")),
        "dep.rex \"Shape\""
    );
    assert_eq!(
        show(&format!("{main}fn f s: D.Shape -> f64 = si<CURSOR>ze s")),
        "dep.rex \"area\""
    );
    assert_eq!(
        show(&format!(
            "{main}fn f s: D.Shape -> f64 = size (D.Squ<CURSOR>are 1.0)"
        )),
        "dep.rex \"Square\""
    );
    assert_eq!(
        show(&format!(
            "{main}fn f x: a -> string where D.Na<CURSOR>med a = D.name x"
        )),
        "dep.rex \"Named\""
    );
    // The file's own declarations stay in the file.
    assert_eq!(
        show(&format!("{main}fn f x: i32 -> i32 = x\n\nf<CURSOR> 1")),
        "test.rex \"f\""
    );
}

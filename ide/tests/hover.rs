//! Hover over `<CURSOR>` fixtures: names, binders, holes, expressions.

mod editor_fixture;

use editor_fixture::Fixture;
use rex_ide::hover::hover;

fn show(source: &str) -> String {
    let f = Fixture::new(source);
    match hover(&f.db, f.file, f.offset) {
        None => "no hover".to_string(),
        Some(h) => format!("span: {}\n{}", f.span(h.span), h.markdown()),
    }
}

#[test]
fn local_let_binding_use() {
    insta::assert_snapshot!(show("let total = 1 + 2 in tot<CURSOR>al * 2"));
}

#[test]
fn let_binder_itself() {
    insta::assert_snapshot!(show("let na<CURSOR>me = \"rex\" in name"));
}

#[test]
fn fn_parameter_binder_and_use() {
    let src = "fn twice x<CURSOR>: i32 -> i32 = x + x\n\ntwice 3";
    insta::assert_snapshot!("fn_param_binder", show(src));
    let src = "fn pick a: i32 -> b: string -> string = b<CURSOR>\n\npick 1 \"s\"";
    insta::assert_snapshot!("fn_param_use", show(src));
}

#[test]
fn polymorphic_top_level_function_use() {
    let src = "fn ident : a -> a = \\x -> x\n\nid<CURSOR>ent 3";
    insta::assert_snapshot!(show(src));
}

#[test]
fn prelude_function_use() {
    insta::assert_snapshot!(show("ma<CURSOR>p (\\x -> x + 1) [1, 2]"));
}

#[test]
fn hole_shows_expected_type_and_scope() {
    let src =
        "fn mk : i32 -> string = \\n -> \"value\"\nlet x = 1 in\nlet y : string = ?<CURSOR> in\ny";
    insta::assert_snapshot!(show(src));
}

#[test]
fn named_hole() {
    insta::assert_snapshot!(show("let y : List bool = ?he<CURSOR>re in y"));
}

#[test]
fn constructor_use() {
    insta::assert_snapshot!(show("let o = So<CURSOR>me 3 in o"));
}

#[test]
fn mismatch_shows_expected() {
    insta::assert_snapshot!(show("let s : string = tr<CURSOR>ue in s"));
}

#[test]
fn literal_expression() {
    insta::assert_snapshot!(show("(1, \"t<CURSOR>wo\")"));
}

#[test]
fn lambda_parameter_in_match_arm() {
    let src = "match (Some 2)\n  when Some n -> n<CURSOR> + 1\n  when None -> 0";
    insta::assert_snapshot!(show(src));
}

#[test]
fn whitespace_outside_items_has_no_hover() {
    insta::assert_snapshot!(show("fn f : i32 -> i32 = \\x -> x\n<CURSOR>\n\nf 1"));
}

#[test]
fn polymorphic_let_binder_shows_its_scheme() {
    // The binder shows what the binding generalised to (with its constraints); a use
    // shows the instance it is used at.
    let src = "let sq = \\v -> v * v in\nlet id = \\x -> x in\n(s<CURSOR>q 2.0, id 1, id \"a\")";
    insta::assert_snapshot!("poly_let_use", show(src));
    let src = "let s<CURSOR>q = \\v -> v * v in\nlet id = \\x -> x in\n(sq 2.0, id 1, id \"a\")";
    insta::assert_snapshot!("poly_let_binder_constrained", show(src));
    let src = "let sq = \\v -> v * v in\nlet i<CURSOR>d = \\x -> x in\n(sq 2.0, id 1, id \"a\")";
    insta::assert_snapshot!("poly_let_binder", show(src));
}

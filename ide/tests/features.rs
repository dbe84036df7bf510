//! One `<CURSOR>` fixture and snapshot per position assist.

mod common;

use common::*;
use rex_ide::accepting::functions_accepting;
use rex_ide::adapters::adapters_at;
use rex_ide::compatible::compatible_calls;
use rex_ide::context::Context;
use rex_ide::expected_type::expected_type_at;
use rex_ide::fill::fills_at;
use rex_ide::holes::holes;
use rex_ide::producing::functions_producing;
use rex_ide::semantic_loop::scope_line;

fn with_context<R>(source: &str, f: impl FnOnce(&Context<'_>) -> R) -> R {
    let fx = fixture(source);
    let ctx = Context::new(&fx.db, fx.file, fx.offset);
    f(&ctx)
}

fn pretty<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).expect("json")
}

const NESTED_SCOPES: &str = r#"fn scale : i32 -> f32 -> f32 = \k x -> x

fn area w: f32 -> h: f32 -> f32 = w * h

let base : f32 = 2.0 in
let f : i32 -> f32 = \n ->
  match (Some n)
    when Some m ->
      let doubled = m + m in
      <CURSOR>?
    when None -> 0.0
in
f 3
"#;

#[test]
fn expected_type_at_a_hole_and_at_a_checked_argument() {
    let at_hole = with_context(PH_PROGRAM, expected_type_at);
    let at_argument = with_context(
        "fn classify_ph : f32 -> string = \\ph -> \"x\"\n\nclassify_ph <CURSOR>\"7.3\"\n",
        |c| {
            (
                expected_type_at(c),
                c.inferred.as_ref().map(|t| t.to_string()),
            )
        },
    );
    let synthesised = with_context("let x = <CURSOR>1 in x\n", expected_type_at);
    insta::assert_snapshot!(format!(
        "hole: {}\nargument: {}\nsynthesised: {}",
        pretty(&at_hole),
        pretty(&at_argument),
        pretty(&synthesised)
    ));
}

#[test]
fn in_scope_values_innermost_first() {
    let values = with_context(NESTED_SCOPES, |c| {
        c.locals.iter().map(scope_line).collect::<Vec<_>>()
    });
    insta::assert_snapshot!(values.join("\n"));
}

#[test]
fn in_scope_values_are_ranked_by_the_construct_that_binds_them() {
    // One depth per binding construct: a `let`'s bindings, a `match` arm, a lambda's
    // parameters, the `fn`'s parameters; a shadowed name still counts its construct.
    let depths = with_context(
        "fn f w: i32 -> v: i32 -> i32 =\n  let a = w, b = v in\n  match (Some a)\n    when Some w -> (\\c -> <CURSOR>?) b\n    when None -> 0\n\nf 1 2\n",
        |c| {
            c.locals
                .iter()
                .map(|l| format!("{} {}", l.name, l.depth))
                .collect::<Vec<_>>()
        },
    );
    assert_eq!(depths, ["c 0", "w 1", "b 2", "a 2", "v 3"]);
}

#[test]
fn in_scope_values_include_named_fn_parameters() {
    let values = with_context(
        "fn area w: f32 -> h: f32 -> f32 = let s = w in <CURSOR>?\n\narea 1.0 2.0\n",
        |c| c.locals.iter().map(scope_line).collect::<Vec<_>>(),
    );
    assert_eq!(values, ["s : f32", "h : f32", "w : f32"]);
}

#[test]
fn functions_producing_the_expected_type() {
    insta::assert_snapshot!(with_context(NESTED_SCOPES, functions_producing).join("\n"));
}

#[test]
fn functions_accepting_the_inferred_type() {
    let out = with_context(
        "fn reading : i32 -> f32 = \\n -> 7.3\nfn classify_ph : f32 -> string = \\ph -> \"x\"\n\nlet r = reading 1 in\nr<CURSOR>\n",
        functions_accepting,
    );
    insta::assert_snapshot!(pretty(&out));
}

#[test]
fn adapters_from_inferred_to_expected() {
    let out = with_context(
        "fn reading : i32 -> f32 = \\n -> 7.3\nfn classify_ph : f32 -> string = \\ph -> \"x\"\n\nlet r = reading 1 in\nlet s : string = r<CURSOR> in\ns\n",
        adapters_at,
    );
    insta::assert_snapshot!(pretty(&out));
}

#[test]
fn calls_compatible_with_in_scope_values() {
    insta::assert_snapshot!(with_context(NESTED_SCOPES, compatible_calls).join("\n"));
}

#[test]
fn hole_fills_are_ranked_and_verified() {
    let fills = with_context(NESTED_SCOPES, |c| {
        fills_at(c)
            .into_iter()
            .map(|f| f.candidate)
            .collect::<Vec<_>>()
    });
    insta::assert_snapshot!(pretty(&fills));
}

#[test]
fn fills_in_argument_position_are_parenthesised() {
    let edits = with_context(
        "fn mk : i32 -> string = \\n -> \"v\"\nfn len : string -> i32 = \\s -> 0\nlet x = 1 in\nlen <CURSOR>?\n",
        |c| fills_at(c).into_iter().map(|f| f.edit.text).collect::<Vec<_>>(),
    );
    assert_eq!(edits.first().map(String::as_str), Some("(mk x)"));
}

#[test]
fn fills_never_offer_internal_names() {
    for source in [PH_PROGRAM, MK_PROGRAM, NESTED_SCOPES] {
        with_context(source, |c| {
            for f in fills_at(c) {
                assert!(!f.candidate.replacement.contains("prim_"));
            }
            for line in functions_producing(c).iter().chain(&compatible_calls(c)) {
                assert!(!line.contains("prim_"), "{line}");
            }
        });
    }
}

#[test]
fn hole_report_for_a_document() {
    let fx = fixture(
        "fn f : i32 -> Option i32 = \\n -> ?wanted\n\nlet a : string = ? in\n(f 1, a, ?<CURSOR>)\n",
    );
    insta::assert_snapshot!(pretty(&holes(&fx.db, fx.file)));
}

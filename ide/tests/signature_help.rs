//! Signature help over `<CURSOR>` fixtures.

mod editor_fixture;

use editor_fixture::Fixture;
use rex_ide::signature_help::signature_help;

fn show(source: &str) -> String {
    let f = Fixture::new(source);
    match signature_help(&f.db, f.file, f.offset) {
        None => "no signature help".to_string(),
        Some(s) => {
            let params: Vec<&str> = s.parameters.iter().map(|(a, b)| &s.label[*a..*b]).collect();
            format!(
                "{}\nparameters: {:?}\nactive: {}\ncallee: {}",
                s.label,
                params,
                s.active_parameter,
                f.span(s.callee)
            )
        }
    }
}

const PROGRAM: &str = "fn clamp : i32 -> i32 -> i32 -> i32 = \\lo hi x -> if x < lo then lo else if x > hi then hi else x\n\n";

#[test]
fn first_argument_after_the_name() {
    insta::assert_snapshot!(show(&format!("{PROGRAM}clamp <CURSOR>")));
}

#[test]
fn second_argument_while_typing_it() {
    insta::assert_snapshot!(show(&format!("{PROGRAM}clamp 0 1<CURSOR>0 5")));
}

#[test]
fn next_argument_after_blank() {
    insta::assert_snapshot!(show(&format!("{PROGRAM}clamp 0 10 <CURSOR>")));
}

#[test]
fn innermost_call_wins() {
    insta::assert_snapshot!(show(&format!("{PROGRAM}clamp 0 (map <CURSOR>) 5")));
}

#[test]
fn constructor_and_higher_order_parameter() {
    insta::assert_snapshot!("constructor", show("Ok <CURSOR>"));
    insta::assert_snapshot!(
        "higher_order",
        show("foldl (\\acc x -> acc + x) <CURSOR>0 [1, 2]")
    );
}

#[test]
fn local_function() {
    insta::assert_snapshot!(show("let add = \\a b -> a + b + 1 in\nadd 1 <CURSOR>"));
}

#[test]
fn nothing_outside_calls() {
    insta::assert_snapshot!(show("let x = 1 in\nx<CURSOR>"));
}

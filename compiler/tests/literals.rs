//! Literals the checker refuses: an integer that does not fit the type it is given (E0108),
//! whether the type is written, inferred or defaulted, and a string with an unknown escape
//! (E0106), each reported where it stands.

mod common;

use common::errors;
use rex_compiler::db::Database;
use rex_compiler::DiagnosticData;

fn out_of_range(text: &str, at: &str) {
    assert_eq!(
        errors(text),
        vec![("E0108".to_string(), at.to_string())],
        "in {text:?}"
    );
}

#[test]
fn literals_that_do_not_fit_are_reported_where_they_stand() {
    out_of_range("300 is u8\n", "300");
    out_of_range("128 is i8\n", "128");
    out_of_range("-129 is i8\n", "-129");
    out_of_range("(1 + 70000) is i16\n", "70000");
    // Defaulted to i32.
    out_of_range("99999999999\n", "99999999999");
    out_of_range(
        "99999999999999999999999999999999999999999 is u64\n",
        "99999999999999999999999999999999999999999",
    );
    out_of_range("fn f : u8 -> u8 = \\x -> x + 256\n\nf 1\n", "256");
}

#[test]
fn literals_that_fit_are_not() {
    for text in [
        "255 is u8\n",
        "-128 is i8\n",
        "127 is i8\n",
        "2147483647\n",
        "3000000000 is i64\n",
        "18446744073709551615 is u64\n",
        "[1, 2, 3]\n",
    ] {
        assert_eq!(errors(text), vec![], "in {text:?}");
    }
}

#[test]
fn the_diagnostic_carries_the_type_and_its_range() {
    let db = Database::new();
    let file = db.add_file("literals.rex", "300 is u8\n");
    let d = db
        .diagnostics(file)
        .iter()
        .find(|d| d.is_error())
        .expect("an error")
        .clone();
    assert_eq!(
        d.data,
        DiagnosticData::LiteralOutOfRange {
            ty: "u8".to_string(),
            min: "0".to_string(),
            max: "255".to_string(),
        }
    );
}

#[test]
fn unknown_escapes_in_strings_are_reported_where_they_stand() {
    assert_eq!(
        errors("\"a\\qb\"\n"),
        vec![("E0106".to_string(), "\\q".to_string())]
    );
    assert_eq!(
        errors("\"\\x\\y\"\n").len(),
        2,
        "one diagnostic per unknown escape"
    );
    for text in ["\"a\\nb\\t\\\\\\\"\\'\\0\\r\"\n", "\"plain\"\n"] {
        assert_eq!(errors(text), vec![], "in {text:?}");
    }
}

//! A lambda checked against a type that is not a function (or has fewer arrows than the
//! lambda has parameters) is a mismatch, reported once; a mistake inside a lambda's body
//! is reported in the body only.

use rex_compiler::db::Database;

fn errors(text: &str) -> Vec<String> {
    let db = Database::new();
    let file = db.add_file("lambda.rex", text.to_string());
    db.diagnostics(file)
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{} {}", d.code.as_str(), d.message))
        .collect()
}

#[test]
fn a_lambda_where_no_function_is_expected_is_a_mismatch() {
    let e = errors("let x : i32 = (\\y -> 1) in x\n");
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("E0301"), "{e:?}");
    let e = errors("let r : Result string string = \\raw -> 7.3 in r\n");
    assert_eq!(e.len(), 1, "{e:?}");
}

#[test]
fn a_lambda_with_more_parameters_than_arrows_is_a_mismatch() {
    let e = errors("let f : i32 -> i32 = \\a b -> a in f 2\n");
    assert_eq!(e.len(), 1, "{e:?}");
}

#[test]
fn a_wrong_body_is_reported_once() {
    let e = errors("let f : i32 -> i32 = \\a -> \"no\" in f 2\n");
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(errors("let f : i32 -> i32 = \\a -> a + 1 in f 2\n").is_empty());
}

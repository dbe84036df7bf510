//! A record literal checked against a record type must name each of its fields once: a
//! field written twice does not stand for one left out.

use rex_compiler::db::Database;

fn errors(text: &str) -> Vec<String> {
    let db = Database::new();
    let file = db.add_file("record.rex", text.to_string());
    db.diagnostics(file)
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{} {}", d.code.as_str(), d.message))
        .collect()
}

const POINT: &str = "type Point = Point { x: i32, y: i32 }\n\n";

#[test]
fn a_field_written_twice_is_not_the_one_left_out() {
    let e = errors(&format!("{POINT}let p = Point {{ x = 1, x = 2 }} in p\n"));
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("E0301"), "{e:?}");
    let e = errors(&format!(
        "{POINT}let r : {{ x: i32, y: i32 }} = {{ y = 1, y = 2 }} in r\n"
    ));
    assert_eq!(e.len(), 1, "{e:?}");
}

#[test]
fn each_field_once_in_any_order_checks() {
    assert!(errors(&format!("{POINT}let p = Point {{ y = 2, x = 1 }} in p\n")).is_empty());
    assert!(errors(&format!(
        "{POINT}let r : {{ x: i32, y: i32 }} = {{ x = 1, y = 2 }} in r\n"
    ))
    .is_empty());
}

//! The checker decides every conformance program: `ok`/`hole` programs have no error
//! diagnostic, `error` programs have at least one. The prelude itself has no error.

mod common;
use common::conformance_dir;

use rex_compiler::db::{prelude_errors, Database};

#[test]
fn prelude_checks_cleanly() {
    let db = Database::new();
    let errors = prelude_errors(&db, db.prelude());
    let messages: Vec<String> = errors
        .iter()
        .map(|d| format!("{} at {:?}: {}", d.code.as_str(), d.span, d.message))
        .collect();
    assert!(
        messages.is_empty(),
        "prelude errors:\n{}",
        messages.join("\n")
    );
}

#[test]
fn checker_decides_every_conformance_program() {
    let db = Database::new();
    let mut checked = 0;
    let mut wrong = Vec::new();
    let Some(dir) = conformance_dir() else {
        return;
    };
    let entries = std::fs::read_dir(dir).expect("conformance directory");
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("rex") {
            continue;
        }
        let expected = std::fs::read_to_string(path.with_extension("expected")).unwrap_or_default();
        let status = expected.lines().next().unwrap_or("").to_string();
        let text = std::fs::read_to_string(&path).expect("readable");
        let file = db.add_file(path.display().to_string(), text);
        let errors: Vec<String> = db
            .diagnostics(file)
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.message.clone())
            .collect();
        checked += 1;
        let ok = match status.as_str() {
            "error" => !errors.is_empty(),
            _ => errors.is_empty(),
        };
        if !ok {
            wrong.push(format!("{} ({status}): {:?}", path.display(), errors));
        }
    }
    assert!(checked > 150, "found only {checked} programs");
    assert!(wrong.is_empty(), "misjudged:\n{}", wrong.join("\n"));
}

#[test]
fn ph_hole_reports_expected_type_and_context() {
    let Some(dir) = conformance_dir() else {
        return;
    };
    let db = Database::new();
    let text = std::fs::read_to_string(dir.join("LLMS__00.rex")).expect("LLMS__00");
    let file = db.add_file("LLMS__00.rex", text);
    let holes = rex_compiler::db::file_holes(&db, db.prelude(), file);
    assert_eq!(holes.len(), 1);
    assert_eq!(holes[0].expected_type, "Result string string");
    assert_eq!(
        holes[0]
            .context
            .first()
            .map(|(n, t)| (n.as_str(), t.as_str())),
        Some(("sensor_reading", "string"))
    );
}

#[test]
fn types_at_offset_reports_inferred_and_expected() {
    let db = Database::new();
    let text = "fn f : i32 -> string = \\n -> \"v\"\nlet x = 1 in\nlet y : string = f x in\ny\n";
    let file = db.add_file("t.rex", text);
    let at_x = text.find("f x").unwrap() + 2;
    let t = rex_compiler::db::types_at(&db, file, at_x).expect("types at x");
    assert_eq!(t.inferred, "i32");
    assert_eq!(t.expected.as_deref(), Some("i32"));
    let at_call = text.find("f x").unwrap();
    let t = rex_compiler::db::types_at(&db, file, at_call).expect("types at f");
    assert_eq!(t.inferred, "i32 -> string");
}

//! Every conformance program expected to run (`ok` or `hole`) parses without a syntax
//! diagnostic.

mod common;
use common::conformance_dir;

use rex_compiler::syntax::parser::parse_text;
use rex_compiler::LineIndex;

#[test]
fn runnable_conformance_programs_have_no_syntax_errors() {
    let Some(dir) = conformance_dir() else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        panic!("conformance directory {} is missing", dir.display());
    };
    let mut checked = 0;
    let mut failures = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("rex") {
            continue;
        }
        let expected = std::fs::read_to_string(path.with_extension("expected")).unwrap_or_default();
        let status = expected.lines().next().unwrap_or("");
        if status != "ok" && status != "hole" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable program");
        let parsed = parse_text(&text);
        checked += 1;
        if !parsed.diagnostics.is_empty() {
            let index = LineIndex::new(&text);
            for d in &parsed.diagnostics {
                let pos = index.position(&text, d.span.start as usize);
                failures.push(format!(
                    "{}:{}:{}: {}",
                    path.file_name().unwrap().to_string_lossy(),
                    pos.line + 1,
                    pos.character + 1,
                    d.message
                ));
            }
        }
    }
    assert!(
        checked > 100,
        "expected the conformance programs, found {checked}"
    );
    assert!(
        failures.is_empty(),
        "syntax errors:\n{}",
        failures.join("\n")
    );
}

//! `rex check` driven through the real binary: exit statuses, the JSON contract, terminal
//! rendering, and inputs that must not crash it.

mod support;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;
use support::TempDir;

fn rex(args: &[&str], files: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rex"))
        .args(args)
        .args(files)
        .output()
        .expect("run rex")
}

/// `rex ARGS NAME` run inside `dir`, so reports name the file as written (for snapshots).
fn rex_in(dir: &TempDir, args: &[&str], name: &str) -> Output {
    let mut all = args.to_vec();
    all.push(name);
    dir.rex(&all)
}

fn json(output: &Output) -> Value {
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        stdout.trim_end().lines().count(),
        1,
        "--json prints one line: {stdout}"
    );
    serde_json::from_str(&stdout).expect("stdout is one JSON object")
}

fn diagnostics(value: &Value) -> &Vec<Value> {
    value["diagnostics"]
        .as_array()
        .expect("`diagnostics` is an array")
}

const VALID: &str =
    "fn double : i32 -> i32 = \\n -> n * 2\n\nlet xs = [1, 2, 3] in\nmap double xs\n";

#[test]
fn valid_file_exits_0() {
    let dir = TempDir::new("check");
    let file = dir.file("ok.rex", VALID);
    let out = rex(&["check", "--json"], &[&file]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let value = json(&out);
    let errors = diagnostics(&value)
        .iter()
        .filter(|d| d["severity"] == "error")
        .count();
    assert_eq!(errors, 0, "{value}");

    let out = rex(&["check", "--color", "never"], &[&file]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty(), "terminal mode writes to stderr");
}

#[test]
fn shipped_examples_check_clean() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let out = rex(
        &["check", "--json"],
        &[&examples.join("hello.rex"), &examples.join("holes.rex")],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

#[test]
fn broken_file_exits_1_with_located_json_diagnostic() {
    let dir = TempDir::new("check");
    // The `(` is never closed. The astral `𝔸` before it is 4 bytes but 2 UTF-16 units, so
    // the paren sits at byte 18 and character 16 of line 1 (0-based).
    let file = dir.file("broken.rex", "{- a comment -}\nlet s = \"𝔸\" in (s\n");
    let out = rex(&["check", "--json"], &[&file]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let value = json(&out);
    let all = diagnostics(&value);
    assert!(!all.is_empty(), "{value}");
    for d in all {
        for key in [
            "file", "code", "severity", "category", "message", "range", "notes", "data",
        ] {
            assert!(d.get(key).is_some(), "diagnostic lacks `{key}`: {d}");
        }
        let code = d["code"].as_str().expect("code is a string");
        assert!(
            code.len() == 5 && code.starts_with('E'),
            "code like E0101: {code}"
        );
        assert!(["error", "warning", "info"].contains(&d["severity"].as_str().unwrap_or("")));
        assert!(d["category"].is_string() && d["message"].is_string());
        assert!(d["notes"].is_array());
        for end in ["start", "end"] {
            assert!(d["range"][end]["line"].is_u64(), "{d}");
            assert!(d["range"][end]["character"].is_u64(), "{d}");
        }
    }
    let unclosed = all
        .iter()
        .find(|d| d["code"] == "E0102")
        .unwrap_or_else(|| panic!("an unclosed-delimiter diagnostic: {value}"));
    assert_eq!(unclosed["severity"], "error");
    assert_eq!(unclosed["category"], "syntax");
    assert_eq!(
        unclosed["range"]["start"],
        serde_json::json!({"line": 1, "character": 16})
    );
    assert_eq!(
        unclosed["range"]["end"],
        serde_json::json!({"line": 1, "character": 17})
    );
}

#[test]
fn an_invalid_character_is_one_error_and_joins_nothing() {
    let dir = TempDir::new("check");
    // Read without the `¤`, `2 3` would be an application and a second, made-up error.
    let file = dir.file(
        "currency.rex",
        "fn f : i32 -> i32 = \\x -> x + 2 \u{a4} 3\n\nfn g : i32 -> i32 = \\y -> y + \"s\"\n\nf 1\n",
    );
    let out = rex(&["check", "--json"], &[&file]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let value = json(&out);
    let codes: Vec<&str> = diagnostics(&value)
        .iter()
        .map(|d| d["code"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(codes, ["E0103", "E0301"], "{value}");
    let first = &diagnostics(&value)[0];
    assert_eq!(first["message"], "unexpected character `\u{a4}` (U+00A4)");
    assert_eq!(
        first["range"]["start"],
        serde_json::json!({"line": 0, "character": 32})
    );
}

#[test]
fn missing_file_exits_2_with_message_on_stderr() {
    let dir = TempDir::new("check");
    let missing = dir.0.join("missing.rex");
    let out = rex(&["check", "--json"], &[&missing]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty(), "nothing on stdout: {out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("error: cannot read `") && stderr.contains("missing.rex"),
        "{stderr}"
    );
    assert!(stderr.contains("No such file or directory"), "{stderr}");
}

#[test]
fn usage_errors_exit_2() {
    let out = rex(&["check"], &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let out = rex(&["frobnicate"], &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let out = rex(&["--help"], &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

#[test]
fn several_files_report_each_with_its_name() {
    let dir = TempDir::new("check");
    let good = dir.file("good.rex", VALID);
    let bad = dir.file("bad.rex", "let x = (1 +\n");
    let out = rex(&["check", "--json"], &[&good, &bad]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let value = json(&out);
    let errors: Vec<&Value> = diagnostics(&value)
        .iter()
        .filter(|d| d["severity"] == "error")
        .collect();
    assert!(!errors.is_empty(), "{value}");
    for d in errors {
        let file = d["file"].as_str().expect("file is a string");
        assert!(file.ends_with("bad.rex"), "{d}");
    }

    let out = rex(&["check", "--color", "never"], &[&good, &bad]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("checked 2 files"), "{stderr}");

    // Two clean files together are clean.
    let out = rex(&["check"], &[&good, &good]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

#[test]
fn one_unreadable_file_among_several_exits_2() {
    let dir = TempDir::new("check");
    let good = dir.file("good.rex", VALID);
    let missing = dir.0.join("nope.rex");
    let out = rex(&["check"], &[&good, &missing]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("nope.rex"));
}

#[test]
fn deep_nesting_reports_a_diagnostic_instead_of_crashing() {
    let dir = TempDir::new("check");
    let file = dir.file("deep.rex", &"(".repeat(100_000));
    let out = rex(&["check", "--json"], &[&file]);
    assert_eq!(out.status.code(), Some(1), "{:?}", out.status);
    let value = json(&out);
    assert!(
        diagnostics(&value).iter().any(|d| d["code"] == "E0107"),
        "a nesting-too-deep diagnostic: {value}"
    );

    let out = rex(&["check", "--color", "never"], &[&file]);
    assert_eq!(out.status.code(), Some(1), "{:?}", out.status);
    assert!(String::from_utf8_lossy(&out.stderr).contains("error[E0107]"));
}

#[test]
fn terminal_report_caps_diagnostics_per_file() {
    let dir = TempDir::new("check");
    // 150 items, each with one error.
    let mut text = String::new();
    for i in 0..150 {
        text.push_str(&format!("fn f{i} : i32 -> i32 = \\x -> x +\n"));
    }
    text.push_str("1\n");
    let file = dir.file("many.rex", &text);
    let out = rex(&["check", "--json"], &[&file]);
    let listed = diagnostics(&json(&out)).len();
    assert!(listed > 100, "JSON lists every diagnostic: {listed}");

    let out = rex(&["check", "--color", "never"], &[&file]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("error[").count(), 100, "{stderr}");
    let hidden = format!("note: {} more diagnostics in `", listed - 100);
    assert!(stderr.contains(&hidden), "{stderr}");
}

#[test]
fn terminal_rendering_names_code_and_file() {
    let dir = TempDir::new("check");
    let file = dir.file("shown.rex", "let x = (1 +\n");
    let out = rex(&["check", "--color", "never"], &[&file]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("error[E0"), "{stderr}");
    assert!(
        stderr.contains("shown.rex:1:9"),
        "file:line:column: {stderr}"
    );
    assert!(!stderr.contains('\u{1b}'), "no colour with --color never");

    let out = rex(&["check", "--color", "always"], &[&file]);
    assert!(String::from_utf8_lossy(&out.stderr).contains('\u{1b}'));

    // Not a terminal, so `auto` means no colour.
    let out = rex(&["check"], &[&file]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains('\u{1b}'));
}

#[test]
fn hostile_bytes_never_crash() {
    let dir = TempDir::new("check");
    let cases = [
        "",
        "\u{feff}",
        "\"unterminated",
        "{- unterminated",
        "\0\u{1}\u{7f}",
        "let x = λ → ? in ?x",
        ")))]]]}}}",
        "fn : = -> \\ in let match when",
    ];
    for (i, text) in cases.iter().enumerate() {
        let file = dir.file(&format!("case{i}.rex"), text);
        let out = rex(&["check", "--json"], &[&file]);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{text:?}: {:?}",
            out.status
        );
        json(&out);
    }
    let invalid = dir.0.join("latin1.rex");
    std::fs::write(&invalid, b"let x = \"\xe9\" in x").expect("write");
    let out = rex(&["check"], &[&invalid]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("not valid UTF-8"));
}

#[test]
fn json_lists_holes_with_expected_type_and_context() {
    let dir = TempDir::new("check");
    dir.file(
        "holes.rex",
        "fn parse : string -> Result i32 string = \\text ->\n  \
         let trimmed = text in\n  \
         if trimmed == \"\" then Err ?why else ?\n\n\
         let n : i32 = ?count in\nn\n",
    );
    let out = rex_in(&dir, &["check", "--json"], "holes.rex");
    assert_eq!(out.status.code(), Some(0), "holes are not errors: {out:?}");
    let value = json(&out);
    let holes = value["holes"].as_array().expect("`holes` is an array");
    assert_eq!(holes.len(), 3, "{value}");
    // Innermost binding first: `trimmed` was bound after the parameter `text`.
    assert_eq!(holes[0]["context"][0]["name"], "trimmed");
    insta::assert_snapshot!(serde_json::to_string_pretty(&value["holes"]).unwrap_or_default());
}

#[test]
fn json_diagnostics_carry_structured_data() {
    let dir = TempDir::new("check");
    dir.file(
        "data.rex",
        "type Shape = Circle f32 | Square f32 | Dot\n\n\
         fn area : Shape -> f32 = \\s -> match s\n  when Circle r -> r * r\n  when Dot -> 0.0\n\n\
         fn next : i32 -> i32 = \\number -> numbr + 1\n\n\
         fn twice : i32 -> i32 = \\n -> n + \"n\"\n",
    );
    let out = rex_in(&dir, &["check", "--json"], "data.rex");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let value = json(&out);
    let data: Vec<&Value> = diagnostics(&value).iter().map(|d| &d["data"]).collect();
    insta::assert_snapshot!(serde_json::to_string_pretty(&data).unwrap_or_default());
}

#[test]
fn overlapping_instance_is_reported_on_its_head() {
    let dir = TempDir::new("check");
    let file = dir.file(
        "overlap.rex",
        "class Size a where\n  size : a -> i32\n\n\
         instance Size (Option a) where\n  size = \\xs -> 0\n\n\
         instance Size (Option i32) where\n  size = \\xs -> 1\n\n\
         instance Size i32 where\n  size = \\n -> n\n\n\
         instance Size i32 where\n  size = \\n -> 0\n",
    );
    let out = rex(&["check", "--json"], &[&file]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let value = json(&out);
    let all = diagnostics(&value);
    assert_eq!(all.len(), 2, "one report per overlapping instance: {value}");
    assert!(all.iter().all(|d| d["code"] == "E0309"), "{value}");
    // The second `Option` instance, from `Size` on line 6 (0-based); the range ends with
    // the type inside the parentheses (the parser's span of a parenthesised type).
    assert_eq!(
        all[0]["range"],
        serde_json::json!({"start": {"line": 6, "character": 9}, "end": {"line": 6, "character": 25}})
    );
    // `Size i32` of the last instance.
    assert_eq!(
        all[1]["range"],
        serde_json::json!({"start": {"line": 12, "character": 9}, "end": {"line": 12, "character": 17}})
    );
}

/// A program over several files: a module beside the importer, one under an include root,
/// one reached with `super`.
fn write_modules(dir: &TempDir) {
    dir.file(
        "app/util/shapes.rex",
        "pub type Shape = Circle f32 | Square f32\n\n\
         pub fn area : Shape -> f32 = \\s ->\n  match s\n    when Circle r -> 3.0 * r * r\n    when Square a -> a * a\n\n\
         fn secret : i32 -> i32 = \\x -> x\n\n\
         pub class Named a\n  name : a -> string\n\n\
         instance Named Shape\n  name = \\s -> \"shape\"\n",
    );
    dir.file(
        "lib/text.rex",
        "pub fn shout : string -> string = \\s -> s + \"!\"\n",
    );
}

#[test]
fn programs_import_modules_by_alias_by_name_and_all() {
    let dir = TempDir::new("check");
    write_modules(&dir);
    dir.file(
        "app/main.rex",
        "import util.shapes as S\n\
         import util.shapes (area as size, Circle)\n\
         import text (*)\n\n\
         fn total : List S.Shape -> f32 = \\xs -> foldl (\\acc s -> acc + S.area s) 0.0 xs\n\n\
         fn describe : S.Shape -> string = \\s ->\n  match s\n    when S.Circle _ -> shout (S.name s)\n    when S.Square _ -> \"square\"\n\n\
         size (Circle 2.0) + total [S.Square 1.0]\n",
    );
    dir.file(
        "app/sub/use.rex",
        "import super.util.shapes (Shape, Square, area)\n\n\
         fn twice : Shape -> f32 = \\s -> area s * 2.0\n\n\
         twice (Square 3.0)\n",
    );
    let out = rex_in(
        &dir,
        &["check", "--json", "--include", "lib"],
        "app/main.rex",
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(diagnostics(&json(&out)).len(), 0);
    let out = rex_in(&dir, &["check", "--json"], "app/sub/use.rex");
    assert_eq!(out.status.code(), Some(0), "{out:?}");

    // Without the include root, `text` is missing: one error on that import, and the
    // names it would have brought are not reported again.
    let out = rex_in(&dir, &["check", "--json"], "app/main.rex");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let value = json(&out);
    let codes: Vec<&str> = diagnostics(&value)
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert_eq!(codes, ["E0401"], "{value}");
    assert_eq!(
        diagnostics(&value)[0]["notes"][0],
        "looked for app/text.rex"
    );
}

#[test]
fn import_errors_name_the_rule_they_break() {
    let dir = TempDir::new("check");
    write_modules(&dir);
    dir.file(
        "app/bad.rex",
        "import util.shapes (secret, nothing)\n\
         import util.missing as M\n\
         import util.shapes (area)\n\
         import util.shapes (Shape as area)\n\n\
         fn area : i32 -> i32 = \\x -> M.anything x\n\n\
         area 1\n",
    );
    let out = rex_in(&dir, &["check", "--json"], "app/bad.rex");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let value = json(&out);
    let found: Vec<(String, String)> = diagnostics(&value)
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let codes: Vec<&str> = found.iter().map(|(c, _)| c.as_str()).collect();
    // `secret` is private and `nothing` does not exist; `util.missing` has no file; the
    // local `fn area` conflicts with both imports of `area`.
    assert_eq!(
        codes,
        ["E0402", "E0402", "E0401", "E0403", "E0403"],
        "{found:#?}"
    );
}

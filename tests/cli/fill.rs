//! `rex fill` end to end: the real binary, the real model. Every fill it returns
//! type-checks (re-checked here by `rex check` on the filled program), the semantic loop's
//! candidates are among them, `--write` writes the best one, and a missing model gives one
//! clear message. Tests that need the model print a `skipped:` line where it is absent.

mod support;

use rex_llm::model::find_model;
use serde_json::Value;
use support::{fills_checked_in, TempDir};

const PH: &str = include_str!("../../examples/holes.rex");
const MK: &str =
    "fn mk : i32 -> string = \\n -> \"value\"\nlet x = 1 in\nlet y : string = ? in\ny\n";

fn model_installed() -> bool {
    match find_model(None) {
        Ok(_) => true,
        Err(e) => {
            println!("skipped: model not installed ({e})");
            false
        }
    }
}

/// The fills of the only hole of `text` (small settings: 2 samples of 24 tokens, one
/// error round), each checked by writing it in and running `rex check` on the result.
fn fills_that_check(dir: &TempDir, text: &str) -> Vec<String> {
    let args = [
        "--samples",
        "2",
        "--error-rounds",
        "1",
        "--max-tokens",
        "24",
    ];
    checked_fills(dir, text, &args)
        .into_iter()
        .map(|(fill, _)| fill)
        .collect()
}

/// The fills of the only hole of `text` with `rex fill`'s settings `args`, and where each
/// came from (`model` or `candidate`); each is checked by writing it in and running
/// `rex check` on the result.
fn checked_fills(dir: &TempDir, text: &str, args: &[&str]) -> Vec<(String, String)> {
    let file = dir.file("prog.rex", text);
    let mut command = vec!["fill", file.to_str().unwrap_or_default(), "--json"];
    command.extend_from_slice(args);
    let out = dir.rex(&command);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    fills_checked_in(dir, text, &json)
        .iter()
        .map(|f| {
            let field = |k: &str| f[k].as_str().unwrap_or_default().to_string();
            (field("text"), field("source"))
        })
        .collect()
}

/// A fill with its parentheses and spacing left out (`mk(x)` is `mk x`).
fn plain(fill: &str) -> String {
    fill.replace(['(', ')'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_ph_hole_gets_only_fills_that_check_with_the_expected_call() {
    if !model_installed() {
        return;
    }
    let dir = TempDir::new("fill-ph");
    let fills = fills_that_check(&dir, PH);
    let normal: Vec<String> = fills.iter().map(|f| f.replace(['(', ')'], "")).collect();
    assert!(
        normal
            .iter()
            .any(|f| f == "qc_label_from_sensor sensor_reading"),
        "{fills:?}"
    );
}

/// Where a function is expected, the model writes a lambda (no name in scope has the type).
#[test]
fn a_function_hole_gets_a_lambda_from_the_model() {
    if !model_installed() {
        return;
    }
    let dir = TempDir::new("fill-lambda");
    let program =
        "fn is_small : i32 -> bool = ?\n\nlet\n  xs = [1, 20, 3]\nin\n  filter is_small xs\n";
    let fills = checked_fills(&dir, program, &["--samples", "2", "--max-tokens", "24"]);
    assert!(
        fills
            .iter()
            .any(|(f, source)| source == "model" && f.starts_with('\\')),
        "{fills:?}"
    );
}

/// Where a user record is expected, the model builds one (`rex fill`'s own settings).
#[test]
fn a_record_hole_gets_a_record_from_the_model() {
    if !model_installed() {
        return;
    }
    let dir = TempDir::new("fill-record");
    let program =
        "type Point = Point { x: i32, y: i32 }\n\nfn move_right : Point -> Point = \\p -> ?\n";
    let fills = checked_fills(&dir, program, &[]);
    assert!(
        fills
            .iter()
            .any(|(f, source)| source == "model" && f.contains('{')),
        "{fills:?}"
    );
}

#[test]
fn the_mk_hole_gets_mk_x() {
    if !model_installed() {
        return;
    }
    let dir = TempDir::new("fill-mk");
    let fills = fills_that_check(&dir, MK);
    assert!(fills.iter().any(|f| plain(f) == "mk x"), "{fills:?}");
}

#[test]
fn write_puts_the_best_fill_in_the_file() {
    if !model_installed() {
        return;
    }
    let dir = TempDir::new("fill-write");
    let file = dir.file("mk.rex", MK);
    let out = dir.rex(&[
        "fill",
        "mk.rex",
        "--write",
        "--samples",
        "1",
        "--error-rounds",
        "0",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(!written.contains('?'), "{written}");
    let check = dir.rex(&["check", "mk.rex"]);
    assert!(check.status.success(), "{written}");
}

#[test]
fn a_missing_model_is_one_clear_error() {
    let dir = TempDir::new("fill-missing");
    dir.file("mk.rex", MK);
    let out = dir.rex(&["fill", "mk.rex", "--model", "no-such-model.gguf"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no-such-model.gguf"), "{err}");
}

#[test]
fn a_position_off_any_hole_is_an_error_not_a_crash() {
    if !model_installed() {
        return;
    }
    let dir = TempDir::new("fill-nohole");
    dir.file("mk.rex", MK);
    let out = dir.rex(&["fill", "mk.rex", "0", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no hole"), "{err}");
}

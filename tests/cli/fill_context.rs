//! `rex fill`'s static context end to end, with the real model: the prompt is the hole's
//! retrieval and its enclosing item, so it does not grow with the file (a hole at the end
//! of 10,000 lines gets fills, from a prompt the size of one at the end of 600); types
//! declared in an imported module reach the prompt; a prompt that cannot fit says which
//! flag to raise. Tests that need the model print a `skipped:` line where it is absent.

mod support;

use rex_llm::model::find_model;
use serde_json::Value;
use support::{fills_checked_in, stderr, TempDir};

fn model_installed() -> bool {
    match find_model(None) {
        Ok(_) => true,
        Err(e) => {
            println!("skipped: model not installed ({e})");
            false
        }
    }
}

/// Small settings: one greedy sample of 16 tokens, no error round.
const QUICK: [&str; 6] = [
    "--samples",
    "1",
    "--error-rounds",
    "0",
    "--max-tokens",
    "16",
];

/// At least `lines` lines of unrelated, well-typed declarations, then a hole whose type
/// one function near it produces.
fn big_program(lines: usize) -> String {
    let mut out = String::new();
    let mut n = 0;
    while out.lines().count() < lines {
        out.push_str(&format!(
            "type Shape{n} = Circle{n} {{ r: f32 }} | Square{n} {{ side: f32 }}\n\n\
             fn area{n} : Shape{n} -> f32 = \\s ->\n  match s\n    \
             when Circle{n} {{ r }} -> 3.14 * r * r\n    when Square{n} {{ side }} -> side * side\n\n\
             fn label{n} : i32 -> string = \\x -> if x > {n} then \"big\" else \"small\"\n\n"
        ));
        n += 1;
    }
    out.push_str(
        "fn parse_level : string -> Result i32 string = \\s ->\n  \
         if s == \"high\" then Ok 3 else Err \"unknown level\"\n\n\
         let input = \"high\" in\nlet level : Result i32 string = ? in\nlevel\n",
    );
    out
}

/// `rex fill --json` on `file` with `args`: the report, or the failed command's stderr.
fn fill(dir: &TempDir, file: &str, args: &[&str]) -> Result<Value, String> {
    let mut command = vec!["fill", file, "--json"];
    command.extend_from_slice(args);
    let out = dir.rex(&command);
    match serde_json::from_slice::<Value>(&out.stdout) {
        Ok(report) if out.status.code() != Some(2) => Ok(report),
        _ => Err(stderr(&out)),
    }
}

fn prompt_tokens(report: &Value) -> u64 {
    report["holes"][0]["stats"]["promptTokens"]
        .as_u64()
        .unwrap_or(u64::MAX)
}

#[test]
fn a_hole_at_the_end_of_ten_thousand_lines_gets_fills_from_a_small_prompt() {
    if !model_installed() {
        return;
    }
    let dir = TempDir::new("fill-big");
    let small_text = big_program(600);
    let big_text = big_program(10_000);
    let small = dir.file("small.rex", &small_text);
    let big = dir.file("big.rex", &big_text);
    let small = fill(&dir, small.to_str().unwrap_or_default(), &QUICK).expect("a report");
    let big = fill(&dir, big.to_str().unwrap_or_default(), &QUICK).expect("a report");
    let fills = fills_checked_in(&dir, &big_text, &big);
    // Spelled as the model wrote it or as a candidate: `parse_level(input)` is the call.
    let plain = |f: &Value| {
        let text = f["text"]
            .as_str()
            .unwrap_or_default()
            .replace(['(', ')'], " ");
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    assert!(
        fills.iter().any(|f| plain(f) == "parse_level input"),
        "{fills:?}"
    );
    let (s, b) = (prompt_tokens(&small), prompt_tokens(&big));
    assert!(s > 0 && b * 2 <= s * 3, "prompts of {s} and {b} tokens");
    // The whole file does not fit the model's default context, and the error says so.
    let whole = fill(
        &dir,
        dir.file("big.rex", &big_text).to_str().unwrap_or_default(),
        &["--prefix", "file", "--samples", "1", "--error-rounds", "0"],
    )
    .expect_err("a 10,000-line prefix is refused");
    assert!(whole.contains("--prompt-budget"), "{whole}");
}

const APP: &str = "pub type Todo = Todo { title: string, done: bool }
pub type Model = Model { todos: List Todo, input: string, next_id: i32 }

pub fn init : string -> Model = \\s -> Model { todos = [], input = s, next_id = 0 }
";

#[test]
fn types_from_an_imported_module_reach_the_prompt_and_the_fills_check() {
    if !model_installed() {
        return;
    }
    let dir = TempDir::new("fill-modules");
    dir.file("app.rex", APP);
    let main = "import app (*)\n\nfn set_input : Model -> string -> Model = \\m s -> ?\n\n\
                set_input (init \"\") \"x\"\n";
    let file = dir.file("main.rex", main);
    let report = fill(&dir, file.to_str().unwrap_or_default(), &QUICK).expect("a report");
    let parts = &report["holes"][0]["stats"]["contextParts"];
    let parts: Vec<&str> = parts
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    for part in ["type Model", "type Todo", "header init", "item"] {
        assert!(parts.contains(&part), "{part} is missing from {parts:?}");
    }
    let fills = fills_checked_in(&dir, main, &report);
    assert!(!fills.is_empty(), "{report}");
}

#[test]
fn a_budget_too_small_for_the_item_names_the_flags_to_raise() {
    if !model_installed() {
        return;
    }
    let dir = TempDir::new("fill-budget");
    let file = dir.file("prog.rex", &big_program(10));
    let err = fill(
        &dir,
        file.to_str().unwrap_or_default(),
        &["--prompt-budget", "8", "--samples", "1"],
    )
    .expect_err("an 8-token budget cannot hold the item");
    assert!(
        err.contains("--prompt-budget") && err.contains("--context-size"),
        "{err}"
    );
    // A budget that holds the item and the hole's type but not the rest drops the rest.
    let report = fill(
        &dir,
        file.to_str().unwrap_or_default(),
        &[
            "--prompt-budget",
            "70",
            "--samples",
            "1",
            "--error-rounds",
            "0",
            "--max-tokens",
            "8",
        ],
    )
    .expect("a report");
    let stats = &report["holes"][0]["stats"];
    assert!(
        stats["promptTokens"].as_u64().unwrap_or(u64::MAX) <= 70,
        "{stats}"
    );
    assert!(
        stats["dropped"].as_array().is_some_and(|d| !d.is_empty()),
        "{stats}"
    );
}

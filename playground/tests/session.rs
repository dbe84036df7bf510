//! The playground session as the worker drives it: text in, JSON-shaped results out, and
//! edits answered from the same database.

use rex_playground::Session;

const WITH_TYPO_AND_HOLE: &str = "fn double : i32 -> i32 = \\n -> n * 2\n\
let name = \"λ\" in\n\
let total : i32 = {- 𝔸 -} dobule 2 in\n\
let label : string = {- 𝔸 -} ? in\n\
total\n";

#[test]
fn analysis_reports_diagnostics_and_holes_with_utf16_ranges() {
    let mut session = Session::new();
    session.set_text(WITH_TYPO_AND_HOLE);
    insta::assert_json_snapshot!(session.analyze());
}

#[test]
fn hover_gives_the_type_at_a_position() {
    let mut session = Session::new();
    session.set_text(WITH_TYPO_AND_HOLE);
    // `total` on the last line.
    insta::assert_json_snapshot!(session.hover(4, 2));
    assert!(session.hover(99, 0).is_none(), "past the end");
}

#[test]
fn hover_on_a_binding_gives_its_declared_type() {
    let mut session = Session::new();
    session.set_text(WITH_TYPO_AND_HOLE);
    // `name` where it is bound.
    let hover = session.hover(1, 5).expect("a hover");
    assert_eq!(hover.code, "name : string");
}

#[test]
fn completion_ranks_what_fits_first() {
    let mut session = Session::new();
    session.set_text(
        "fn double : i32 -> i32 = \\n -> n * 2\nlet dozen = 12 in\nlet total : i32 = do\n",
    );
    insta::assert_json_snapshot!(session.completion(2, 20));
}

#[test]
fn an_edit_replaces_the_previous_analysis() {
    let mut session = Session::new();
    session.set_text(WITH_TYPO_AND_HOLE);
    assert_eq!(session.analyze().holes.len(), 1);
    let fixed = WITH_TYPO_AND_HOLE
        .replace("dobule", "double")
        .replace('?', "name");
    session.set_text(&fixed);
    let after = session.analyze();
    assert!(after.holes.is_empty());
    assert!(after.diagnostics.is_empty(), "{:?}", after.diagnostics);
}

#[test]
fn hostile_text_gives_diagnostics_not_a_crash() {
    let mut session = Session::new();
    for text in [
        "(".repeat(50_000),
        "\"unterminated".to_string(),
        "{- open comment".to_string(),
        "\u{feff}\0\u{1F600}".to_string(),
        format!("{}1 +", "1 + ".repeat(100_000)),
        format!("{}x", "\\x -> ".repeat(20_000)),
        format!("{}0", "let a = 1 in ".repeat(20_000)),
        format!("{}0", "if true then 1 else ".repeat(20_000)),
        format!("{}]", "[".repeat(20_000)),
    ] {
        session.set_text(&text);
        assert!(!session.analyze().diagnostics.is_empty(), "{text:.20}");
    }
}

#[test]
fn semantic_commands_run_on_the_document() {
    let mut session = Session::new();
    session.set_text(
        "fn mk : i32 -> string = \\n -> \"value\"\nlet x = 1 in\nlet y : string = ? in\ny\n",
    );
    let at_hole = serde_json::json!({ "uri": rex_playground::session::DOCUMENT_URI, "line": 2, "character": 17 });
    let step = session
        .execute("rex.semanticLoopStep", &at_hole)
        .expect("the step runs");
    let fills: Vec<&str> = step["holeFillCandidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .filter_map(|c| c["replacement"].as_str())
        .collect();
    assert_eq!(fills.first(), Some(&"mk x"), "{fills:?}");

    let elsewhere = serde_json::json!({ "uri": "file:///other.rex", "line": 0, "character": 0 });
    let err = session
        .execute("rex.semanticLoopStep", &elsewhere)
        .expect_err("one document only");
    assert!(err.contains("unknown document"), "{err}");
    let err = session
        .execute("rex.noSuchCommand", &at_hole)
        .expect_err("unknown command");
    assert!(err.contains("unknown command"), "{err}");
}

#[test]
fn runs_show_values_holes_and_limits() {
    let mut session = Session::new();
    session.set_text(
        "let reading = \"7.3\" in\nlet label : Result string string = Ok reading in\nlabel\n",
    );
    let run = session.run(1_000_000);
    assert!(run.ok, "{run:?}");
    assert_eq!(run.value.as_deref(), Some("Ok \"7.3\""));

    session
        .set_text("let reading = \"7.3\" in\nlet label : Result string string = ?fill in\nlabel\n");
    let mut with_hole = session.run(1_000_000);
    with_hole.steps = 0; // a count of machine steps, not part of the contract's meaning
    insta::assert_json_snapshot!(with_hole);

    session.set_text("fn spin : i32 -> i32 = \\n -> spin (n + 1)\nspin 0\n");
    let run = session.run(100_000);
    assert!(!run.ok);
    let error = run.error.unwrap_or_default();
    assert!(
        error.contains("ran out of gas after 100000 steps"),
        "{error}"
    );
}

#[test]
fn a_model_fill_asks_for_completions_and_names_an_unreachable_server() {
    use rex_playground::model_fill::{FetchReply, Next};
    let mut session = Session::new();
    session.set_text(WITH_TYPO_AND_HOLE);
    // The hole of `label` (line 3, after the comment), in UTF-16 units as the page counts.
    let line = WITH_TYPO_AND_HOLE.lines().nth(3).unwrap();
    let character = line[..line.find('?').unwrap()].encode_utf16().count();
    let start = serde_json::json!({"line": 3, "character": character,
        "url": "http://127.0.0.1:9/v1", "model": "m", "server": "llamacpp", "samples": 2});
    let Next::Requests {
        endpoint,
        bodies,
        phase,
        round,
    } = session.fill_start(&start).expect("a hole")
    else {
        panic!("the fill starts with requests");
    };
    assert_eq!(endpoint, "http://127.0.0.1:9/v1/completions");
    assert_eq!((bodies.len(), phase, round), (2, "samples", 0));
    let grammar = bodies[0]["grammar"].as_str().expect("a GBNF grammar");
    assert!(grammar.starts_with("root ::= "), "{grammar}");
    assert_eq!(bodies[0]["temperature"], 0.0, "the first sample is greedy");
    let down = FetchReply {
        status: 0,
        body: String::new(),
        error: Some("Failed to fetch".into()),
    };
    let error = session
        .fill_feed(&[down.clone(), down], 0.1, 0.1)
        .expect_err("no server");
    assert!(
        error.contains("http://127.0.0.1:9/v1/completions")
            && error.contains("is the server running"),
        "{error}"
    );
    // The fill is over: nothing more to feed.
    assert!(session.fill_feed(&[], 0.2, 0.0).is_err());
    let off = serde_json::json!({"line": 0, "character": 0, "url": "http://h", "model": "m"});
    assert!(session.fill_start(&off).unwrap_err().contains("no hole"));
}

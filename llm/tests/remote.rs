//! What the remote engine sends: snapshots of the request bodies for vLLM, SGLang and
//! llama.cpp's server (the hole of the `mk` program, as the fill loop asks for it), and
//! the grammars inside them checked without a server: the Lark that vLLM and SGLang get
//! compiles under llguidance and accepts a fill followed by its ending (and not without
//! one); a continuation's grammar takes what may follow the prefix; the GBNF that
//! llama.cpp gets is converted from every grammar the loop writes. And the type layer over
//! a server: an ill-typed sample is continued from its longest well-typed prefix. (The
//! bodies' grammar is checked by the real llama.cpp server in `tests/cli/fill_remote.rs`.)

use rex_compiler::db::Database;
use rex_ide::context::Context;
use rex_llm::fill::{End, FillLoop, FillOptions, Mode, Proposal, SampleAsk, Step};
use rex_llm::grammar::check::ByteChecker;
use rex_llm::grammar::gbnf::lark_to_gbnf;
use rex_llm::grammar::server::{continuation, whole};
use rex_llm::grammar::{scope_at, GrammarScope};
use rex_llm::oracle::Oracle;
use rex_llm::prompt::{PromptBudget, TokenCounter};
use rex_llm::remote::request::{sample_body, score_body};
use rex_llm::remote::Server;

const MK: &str =
    "fn mk : i32 -> string = \\n -> \"value\"\nlet x = 1 in\nlet y : string = ? in\ny\n";

/// The first step's asks, the scope and the text after the hole of `text`'s hole.
/// The budget the browser uses: the estimate, for a server's default context.
fn estimated() -> PromptBudget {
    PromptBudget {
        tokens: 4096,
        counter: TokenCounter::estimate(),
    }
}

fn first_asks(text: &str) -> (Vec<SampleAsk>, GrammarScope, String) {
    let db = Database::new();
    let file = db.add_file("mk.rex", text.to_string());
    let offset = text.rfind('?').expect("a hole");
    let ctx = Context::new(&db, file, offset);
    let mut oracle = Oracle::for_context(&ctx).expect("an oracle");
    let opts = FillOptions {
        samples: 2,
        ..FillOptions::default()
    };
    let mut fill =
        FillLoop::new(&ctx, &mut oracle, &opts, Mode::Server, estimated()).expect("a hole");
    let after = fill.hole().parts.after.clone();
    match fill.start() {
        Step::Sample(asks) => (asks, scope_at(&ctx), after),
        other => panic!("the loop starts with samples, not {other:?}"),
    }
}

fn pretty(v: &serde_json::Value) -> String {
    serde_json::to_string_pretty(v).expect("JSON")
}

#[test]
fn the_requests_of_the_first_round() {
    let (asks, _, _) = first_asks(MK);
    assert_eq!(asks.len(), 2);
    assert_eq!(asks[0].temperature, 0.0, "the first sample is greedy");
    assert_ne!(asks[0].seed, asks[1].seed, "samples get seeds of their own");
    for (server, name) in [
        (Server::Vllm, "vllm"),
        (Server::Sglang, "sglang"),
        (Server::LlamaCpp, "llamacpp"),
    ] {
        let body = sample_body(server, "gemma-3-270m", &asks[1]).expect("a body");
        insta::assert_snapshot!(format!("sample_body_{name}"), pretty(&body));
    }
    let body = score_body(Server::Vllm, "gemma-3-270m", "let y : string =", "mk x").unwrap();
    insta::assert_snapshot!("score_body_vllm", pretty(&body));
}

#[test]
fn the_servers_lark_compiles_and_wants_an_ending() {
    let (asks, scope, after) = first_asks(MK);
    let lark = asks[0].grammar.clone().expect("a server grammar");
    assert_eq!(lark, whole(&scope, &after));
    assert!(lark.starts_with("%llguidance {"), "{lark}");
    let g = ByteChecker::new()
        .unwrap()
        .compile(&lark)
        .expect("compiles");
    for text in [
        " mk x\n",
        " mk x in\n",
        " mk x in ",
        "mk (x + 1)\n",
        " \"a\" in\n",
    ] {
        assert!(g.accepts(text), "`{text:?}`");
    }
    for text in [" mk x", " mk x in", " mk x\n\n", " mk\nx\n", " in\n"] {
        assert!(!g.accepts(text), "`{text:?}`");
    }
}

#[test]
fn a_continuation_grammar_takes_what_may_follow_its_prefix() {
    let (_, scope, after) = first_asks(MK);
    let checker = ByteChecker::new().unwrap();
    let cases: &[(&str, bool, &[&str], &[&str])] = &[
        // (prefix, whole sample, accepted, refused)
        (
            "mk",
            true,
            &[" x\n", " (x + 1) in ", ".name\n"],
            &["\n", " in"],
        ),
        (
            "mk (x +",
            false,
            &[" 1)\n", " 1) == \"a\"\n"],
            &[" 1\n", ")\n"],
        ),
        (
            "if x == 1 then",
            false,
            &[" \"a\" else \"b\"\n"],
            &[" \"a\"\n"],
        ),
    ];
    for (prefix, whole_sample, good, bad) in cases {
        let lark = continuation(&scope, prefix, &after, *whole_sample)
            .unwrap_or_else(|| panic!("a grammar after `{prefix}`"));
        let g = checker.compile(&lark).expect("compiles");
        for t in *good {
            assert!(g.accepts(t), "after `{prefix}`: `{t:?}`");
        }
        for t in *bad {
            assert!(!g.accepts(t), "after `{prefix}`: `{t:?}`");
        }
        lark_to_gbnf(&lark).unwrap_or_else(|e| panic!("GBNF after `{prefix}`: {e}"));
    }
    assert!(continuation(&scope, "\\n", &after, false).is_none());
    assert!(continuation(&scope, "{ a = ", &after, false).is_none());
}

/// A server's proposal as the remote proposer reads a reply: `pieces` are the tokens' ends
/// in `text` and their log-probabilities.
fn proposal(text: &str, pieces: &[(usize, f64)]) -> Proposal {
    Proposal {
        text: text.to_string(),
        logprob: pieces.iter().map(|(_, lp)| lp).sum(),
        tokens: pieces.len(),
        decoded: pieces.len() + 1,
        seconds: 0.1,
        end: End::Finished,
        oracle_rejections: 0,
        backtracks: 0,
        injections: 0,
        prompt_tokens: 10,
        pieces: pieces.to_vec(),
    }
}

#[test]
fn an_ill_typed_sample_is_continued_from_its_longest_well_typed_prefix() {
    let db = Database::new();
    let file = db.add_file("mk.rex", MK.to_string());
    let ctx = Context::new(&db, file, MK.rfind('?').unwrap());
    let mut oracle = Oracle::for_context(&ctx).expect("an oracle");
    let opts = FillOptions {
        samples: 1,
        candidates: false,
        ..FillOptions::default()
    };
    let mut fill =
        FillLoop::new(&ctx, &mut oracle, &opts, Mode::Server, estimated()).expect("a hole");
    let Step::Sample(asks) = fill.start() else {
        panic!("the loop starts with samples");
    };
    let prompt = asks[0].prompt.clone();
    // `mk x x` applies a string: ill-typed. `mk x` is the longest prefix that may still
    // become a string (`mk` alone could too, but is shorter).
    let step = fill.take_samples(
        &mut oracle,
        vec![proposal(" mk x x", &[(3, -0.5), (5, -0.25), (7, -3.0)])],
    );
    let Step::Sample(asks) = step else {
        panic!("a continuation, not {step:?}");
    };
    assert_eq!(asks.len(), 1);
    assert_eq!(asks[0].prefix, " mk x");
    assert_eq!(asks[0].prompt, format!("{prompt} mk x"));
    assert_eq!(asks[0].round, 0, "still the first round");
    let grammar = asks[0].grammar.as_deref().expect("a continuation grammar");
    lark_to_gbnf(grammar).expect("the continuation's grammar converts to GBNF");
    // The server ends it at once: `mk x` is kept, scored by the prefix's tokens.
    let step = fill.take_samples(&mut oracle, vec![proposal("", &[])]);
    assert_eq!(step, Step::Done);
    let result = fill.finish(1.0);
    let texts: Vec<&str> = result.fills.iter().map(|f| f.text.as_str()).collect();
    assert_eq!(texts, ["mk x"]);
    assert_eq!(
        result.fills[0].logprob, -0.375,
        "the mean of the kept tokens"
    );
    assert_eq!(result.attempts.len(), 2, "{:?}", result.attempts);
    assert!(!result.attempts[0].well_typed && result.attempts[1].well_typed);
}

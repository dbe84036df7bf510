//! What the remote engine sends: snapshots of the request bodies for vLLM, SGLang and
//! llama.cpp's server (the hole of the `mk` program, as the fill loop asks for it), and
//! the grammars inside them checked without a server: the Lark that vLLM and SGLang get
//! compiles under llguidance and accepts a fill followed by its ending (and not without
//! one); a continuation's grammar takes what may follow the prefix; the GBNF that
//! llama.cpp gets is converted from every grammar the loop writes. (The bodies' grammar is
//! checked by the real llama.cpp server in `tests/cli/fill_remote.rs`.)

use rex_compiler::db::Database;
use rex_compiler::LineIndex;
use rex_ide::context::Context;
use rex_llm::fill::{FillLoop, FillOptions, Mode, SampleAsk, Step};
use rex_llm::grammar::check::ByteChecker;
use rex_llm::grammar::gbnf::lark_to_gbnf;
use rex_llm::grammar::server::{continuation, whole};
use rex_llm::grammar::{scope_at, GrammarScope};
use rex_llm::oracle::Oracle;
use rex_llm::remote::request::{sample_body, score_body};
use rex_llm::remote::Server;

const MK: &str =
    "fn mk : i32 -> string = \\n -> \"value\"\nlet x = 1 in\nlet y : string = ? in\ny\n";

/// The first step's asks, the scope and the text after the hole of `text`'s hole.
fn first_asks(text: &str) -> (Vec<SampleAsk>, GrammarScope, String) {
    let db = Database::new();
    let file = db.add_file("mk.rex", text.to_string());
    let offset = text.rfind('?').expect("a hole");
    let pos = LineIndex::new(text).position(text, offset);
    let ctx = Context::new(&db, file, pos);
    let mut oracle = Oracle::for_context(&ctx).expect("an oracle");
    let opts = FillOptions {
        samples: 2,
        ..FillOptions::default()
    };
    let mut fill = FillLoop::new(&ctx, &mut oracle, &opts, Mode::Server).expect("a hole");
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

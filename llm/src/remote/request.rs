//! The body of one `/v1/completions` request: the raw prompt, one completion (`n = 1`),
//! log-probabilities of the tokens written (`logprobs = 1`), the sampling settings, and the
//! grammar in the field the server reads: vLLM `structured_outputs.grammar` (Lark for its
//! guidance backend), SGLang `ebnf` (Lark for its llguidance backend), llama.cpp
//! `grammar` (GBNF, converted from the Lark text).

use serde_json::{json, Value};

use super::{RemoteError, Server};
use crate::fill::SampleAsk;
use crate::grammar::gbnf::lark_to_gbnf;

/// What one completion request asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct CompletionAsk<'a> {
    pub prompt: &'a str,
    pub max_tokens: usize,
    /// 0 is greedy.
    pub temperature: f32,
    pub seed: u64,
    /// The grammar, as Lark; None: unconstrained.
    pub grammar: Option<&'a str>,
}

/// The JSON body for `server`.
pub fn completion_body(
    server: Server,
    model: &str,
    ask: &CompletionAsk<'_>,
) -> Result<Value, RemoteError> {
    let mut body = json!({
        "model": model,
        "prompt": ask.prompt,
        "max_tokens": ask.max_tokens.max(1),
        "temperature": ask.temperature,
        "seed": ask.seed % (1 << 31),
        "n": 1,
        "logprobs": 1,
        "stream": false,
    });
    if let Some(lark) = ask.grammar {
        let (field, grammar) = match server {
            Server::Vllm => ("structured_outputs", json!({ "grammar": lark })),
            Server::Sglang => ("ebnf", json!(lark)),
            Server::LlamaCpp => (
                "grammar",
                json!(lark_to_gbnf(lark).map_err(RemoteError::Grammar)?),
            ),
        };
        body[field] = grammar;
    }
    Ok(body)
}

/// The Lark grammar whose only sentence is `text` (how a candidate is scored: the server
/// writes exactly it and reports each token's log-probability).
fn literal_grammar(text: &str) -> String {
    let mut quoted = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    format!("%llguidance {{}}\nstart: {quoted}\n")
}

/// The request for one of the fill loop's samples.
pub fn sample_body(server: Server, model: &str, ask: &SampleAsk) -> Result<Value, RemoteError> {
    completion_body(
        server,
        model,
        &CompletionAsk {
            prompt: &ask.prompt,
            max_tokens: ask.max_tokens,
            temperature: ask.temperature,
            seed: ask.seed,
            grammar: ask.grammar.as_deref(),
        },
    )
}

/// The request that scores a candidate `text` after `prompt`: the server writes exactly
/// it (greedy, under a one-sentence grammar) and reports each token's log-probability;
/// `Completion::score` of the reply is the score.
pub fn score_body(
    server: Server,
    model: &str,
    prompt: &str,
    text: &str,
) -> Result<Value, RemoteError> {
    let written = format!(" {text}");
    let grammar = literal_grammar(&written);
    completion_body(
        server,
        model,
        &CompletionAsk {
            prompt,
            max_tokens: written.len() + 2,
            temperature: 0.0,
            seed: 0,
            grammar: Some(&grammar),
        },
    )
}

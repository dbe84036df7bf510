//! Reading a `/v1/completions` reply: the text of its one choice, why it stopped, and the
//! log-probability of each token written (`logprobs.tokens` / `token_logprobs`); then what
//! the fill loop takes from it, a [`Proposal`] (the fill with the server's ending
//! stripped, and where each token ends in it) or a candidate's score.

use serde::Deserialize;

use super::error::excerpt;
use super::RemoteError;
use crate::fill::{End, Proposal, Score};
use crate::grammar::server::strip_ending;

/// One completion as the server sent it.
#[derive(Clone, Debug, PartialEq)]
pub struct Completion {
    pub text: String,
    /// `stop`, `length`, or whatever else the server said.
    pub finish_reason: Option<String>,
    /// Each token written and its log-probability (empty when the server sent none).
    pub tokens: Vec<(String, Option<f64>)>,
    pub prompt_tokens: usize,
    pub completion_tokens: usize,
}

#[derive(Deserialize)]
struct Reply {
    choices: Option<Vec<Choice>>,
    usage: Option<Usage>,
    error: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct Choice {
    text: Option<String>,
    finish_reason: Option<String>,
    logprobs: Option<Logprobs>,
}

/// The legacy completion shape (`tokens`, `token_logprobs`: vLLM, SGLang,
/// llama-cpp-python), or the chat shape llama.cpp's own server writes (`content`).
#[derive(Deserialize)]
struct Logprobs {
    #[serde(default)]
    tokens: Vec<String>,
    #[serde(default)]
    token_logprobs: Vec<Option<f64>>,
    #[serde(default)]
    content: Vec<ContentToken>,
}

#[derive(Deserialize)]
struct ContentToken {
    token: String,
    logprob: Option<f64>,
}

#[derive(Deserialize)]
struct Usage {
    #[serde(default)]
    prompt_tokens: usize,
    #[serde(default)]
    completion_tokens: usize,
}

/// Reads a reply body from the server at `url`.
pub fn parse_completion(url: &str, body: &str) -> Result<Completion, RemoteError> {
    let reply: Reply = serde_json::from_str(body).map_err(|e| RemoteError::Malformed {
        url: url.to_string(),
        detail: format!("{e} in `{}`", excerpt(body)),
    })?;
    if let Some(error) = reply.error {
        return Err(RemoteError::Http {
            url: url.to_string(),
            status: 200,
            message: excerpt(&error.to_string()),
        });
    }
    let choice = reply
        .choices
        .and_then(|c| c.into_iter().next())
        .ok_or_else(|| RemoteError::Malformed {
            url: url.to_string(),
            detail: format!("no `choices` in `{}`", excerpt(body)),
        })?;
    let text = choice.text.ok_or_else(|| RemoteError::NoText {
        url: url.to_string(),
    })?;
    let tokens = match choice.logprobs {
        Some(l) if l.tokens.is_empty() => l
            .content
            .into_iter()
            .map(|t| (t.token, t.logprob))
            .collect(),
        Some(l) => {
            let mut lps = l.token_logprobs.into_iter();
            l.tokens
                .into_iter()
                .map(|t| (t, lps.next().flatten()))
                .collect()
        }
        None => Vec::new(),
    };
    let usage = reply.usage.unwrap_or(Usage {
        prompt_tokens: 0,
        completion_tokens: 0,
    });
    Ok(Completion {
        text,
        finish_reason: choice.finish_reason,
        tokens,
        prompt_tokens: usage.prompt_tokens,
        completion_tokens: usage.completion_tokens,
    })
}

impl Completion {
    /// The fill loop's view of a sample: the text before the server's ending (`enders`:
    /// `grammar::server::enders`), the tokens inside it with their log-probabilities.
    pub fn proposal(&self, enders: &[String]) -> Proposal {
        let (text, ended) = strip_ending(&self.text, enders);
        let mut pieces = Vec::new();
        let mut at = 0;
        let mut aligned = true;
        for (token, lp) in &self.tokens {
            if !self.text[at.min(self.text.len())..].starts_with(token.as_str()) {
                aligned = false;
                break;
            }
            at += token.len();
            if at <= text.len() {
                pieces.push((at, lp.unwrap_or(0.0)));
            }
        }
        if !aligned {
            pieces.clear();
        }
        let (logprob, tokens) = if aligned && !self.tokens.is_empty() {
            (pieces.iter().map(|(_, lp)| lp).sum(), pieces.len())
        } else {
            let sum = self.tokens.iter().filter_map(|(_, lp)| *lp).sum();
            (sum, self.completion_tokens.max(self.tokens.len()))
        };
        let end = if ended || self.finish_reason.as_deref() != Some("length") {
            End::Finished
        } else {
            End::MaxTokens
        };
        Proposal {
            text,
            logprob,
            tokens,
            // What the server generated, its ending included.
            decoded: self.completion_tokens.max(self.tokens.len()),
            // The proposer knows the time; a reply does not.
            seconds: 0.0,
            end,
            oracle_rejections: 0,
            backtracks: 0,
            injections: 0,
            prompt_tokens: self.prompt_tokens,
            pieces,
        }
    }

    /// The mean log-probability of the tokens written (a candidate's score); None when
    /// the server sent no log-probabilities.
    pub fn score(&self) -> Option<Score> {
        let lps: Vec<f64> = self.tokens.iter().filter_map(|(_, lp)| *lp).collect();
        (!lps.is_empty()).then(|| Score {
            logprob: lps.iter().sum::<f64>(),
            tokens: lps.len(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const URL: &str = "http://h/v1/completions";

    fn enders() -> Vec<String> {
        vec!["in".into(), ")".into()]
    }

    #[test]
    fn a_sample_keeps_the_tokens_before_its_ending() {
        let body = r#"{"choices":[{"text":" f x\n","finish_reason":"stop","logprobs":{"tokens":[" f"," x","\n"],"token_logprobs":[-0.5,-1.0,-0.1]}}],"usage":{"prompt_tokens":12,"completion_tokens":3}}"#;
        let p = parse_completion(URL, body).unwrap().proposal(&enders());
        assert_eq!(p.text, " f x");
        assert_eq!(p.pieces, vec![(2, -0.5), (4, -1.0)]);
        assert_eq!((p.logprob, p.tokens, p.end), (-1.5, 2, End::Finished));
        assert_eq!(p.prompt_tokens, 12);
    }

    #[test]
    fn the_chat_shape_of_logprobs_is_read_too() {
        let body = r#"{"choices":[{"text":" x in","finish_reason":"stop","logprobs":{"content":[{"token":" x","logprob":-0.25},{"token":" in","logprob":-0.5}]}}]}"#;
        let p = parse_completion(URL, body).unwrap().proposal(&enders());
        assert_eq!((p.text.as_str(), p.tokens, p.logprob), (" x", 1, -0.25));
    }

    #[test]
    fn a_sample_cut_by_the_budget_is_unfinished() {
        let body = r#"{"choices":[{"text":" f (x","finish_reason":"length","logprobs":null}],"usage":{"prompt_tokens":1,"completion_tokens":3}}"#;
        let p = parse_completion(URL, body).unwrap().proposal(&enders());
        assert_eq!(
            (p.text.as_str(), p.end, p.tokens),
            (" f (x", End::MaxTokens, 3)
        );
        assert!(p.pieces.is_empty());
    }

    #[test]
    fn bad_replies_are_named() {
        assert!(matches!(
            parse_completion(URL, "<html>"),
            Err(RemoteError::Malformed { .. })
        ));
        assert!(matches!(
            parse_completion(URL, r#"{"choices":[]}"#),
            Err(RemoteError::Malformed { .. })
        ));
        assert!(matches!(
            parse_completion(URL, r#"{"choices":[{"finish_reason":"stop"}]}"#),
            Err(RemoteError::NoText { .. })
        ));
        assert!(matches!(
            parse_completion(URL, r#"{"error":{"message":"boom"}}"#),
            Err(RemoteError::Http { .. })
        ));
    }
}

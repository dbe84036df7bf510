//! The remote engine: a model behind an OpenAI-compatible server (vLLM, SGLang, llama.cpp's
//! server), asked over the raw-prompt `/v1/completions` endpoint. Each request carries the
//! hole's grammar in the field its server reads (`request`), asks for log-probabilities to
//! rank fills, and has `n = 1`: several samples are several requests in parallel. The
//! server enforces the grammar; the fill loop verifies every sample with the checker and
//! continues ill-typed ones from the longest prefix the type oracle accepts.
//!
//! `request` and `reply` (the bodies and their reading) build for wasm32 too: the browser
//! playground sends the same requests with `fetch`. The transport (`http`, a blocking
//! client with timeouts and bounded retries) and the proposer over it are native only.

mod error;
#[cfg(feature = "remote")]
mod http;
#[cfg(feature = "remote")]
mod proposer;
pub mod reply;
pub mod request;

use std::time::Duration;

pub use error::{http_error, RemoteError};
#[cfg(feature = "remote")]
pub use http::Http;
#[cfg(feature = "remote")]
pub use proposer::RemoteProposer;

/// Which server is behind the URL: it decides the field the grammar goes in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Server {
    /// vLLM with `--structured-outputs-config.backend guidance`: Lark in
    /// `structured_outputs.grammar`.
    Vllm,
    /// SGLang with `--grammar-backend llguidance`: Lark in `ebnf`.
    Sglang,
    /// llama.cpp's server (or llama-cpp-python's): GBNF in `grammar`.
    LlamaCpp,
}

impl std::str::FromStr for Server {
    type Err = String;
    fn from_str(s: &str) -> Result<Server, String> {
        match s {
            "vllm" => Ok(Server::Vllm),
            "sglang" => Ok(Server::Sglang),
            "llamacpp" | "llama.cpp" | "llama-cpp" => Ok(Server::LlamaCpp),
            other => Err(format!("unknown server `{other}` (vllm, sglang, llamacpp)")),
        }
    }
}

impl std::fmt::Display for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Server::Vllm => "vllm",
            Server::Sglang => "sglang",
            Server::LlamaCpp => "llamacpp",
        })
    }
}

/// How long one request may take (connection, the wait in the server's queue, generation
/// and reply) before it is given up: generous, since a CPU server runs one request at a
/// time and queues the others.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

/// Retries of a request that failed in a way that may pass (refused or dropped connection,
/// HTTP 429 or 5xx), with backoff.
pub const DEFAULT_RETRIES: usize = 2;

/// The context a server is assumed to hold when the prompt budget is not given: servers
/// do not say (the common deployments of coder models hold at least this).
pub const REMOTE_CONTEXT: usize = 8192;

/// Requests in flight at once.
pub const DEFAULT_CONCURRENCY: usize = 16;

/// Where the server is and how to talk to it. `Debug` never shows the API key.
#[derive(Clone)]
pub struct RemoteConfig {
    /// The server's base URL (`http://host:8000`, with or without `/v1`).
    pub url: String,
    /// The model name the server knows.
    pub model: String,
    pub server: Server,
    pub api_key: Option<String>,
    pub timeout: Duration,
    pub retries: usize,
    pub concurrency: usize,
}

impl std::fmt::Debug for RemoteConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteConfig")
            .field("url", &self.url)
            .field("model", &self.model)
            .field("server", &self.server)
            .field("api_key", &self.api_key.as_ref().map(|_| "(set)"))
            .field("timeout", &self.timeout)
            .field("retries", &self.retries)
            .field("concurrency", &self.concurrency)
            .finish()
    }
}

impl RemoteConfig {
    /// A configuration from what the caller was given, each missing part from the
    /// environment (`REX_LLM_URL`, `REX_LLM_MODEL`, `REX_LLM_API_KEY`, `REX_LLM_SERVER`);
    /// the server kind defaults to vLLM.
    pub fn from_parts(
        url: Option<String>,
        model: Option<String>,
        server: Option<Server>,
        api_key: Option<String>,
    ) -> Result<RemoteConfig, RemoteError> {
        let env = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let url = url.or_else(|| env("REX_LLM_URL")).ok_or_else(|| {
            RemoteError::Config(
                "no server URL: give --url URL or set REX_LLM_URL (e.g. http://127.0.0.1:8000)"
                    .into(),
            )
        })?;
        let model = model.or_else(|| env("REX_LLM_MODEL")).ok_or_else(|| {
            RemoteError::Config(
                "no model name: give --model NAME or set REX_LLM_MODEL (the name the server serves)"
                    .into(),
            )
        })?;
        let server = match server {
            Some(s) => s,
            None => match env("REX_LLM_SERVER") {
                Some(s) => s.parse().map_err(RemoteError::Config)?,
                None => Server::Vllm,
            },
        };
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(RemoteError::Config(format!(
                "the server URL `{url}` must start with http:// or https://"
            )));
        }
        Ok(RemoteConfig {
            url,
            model,
            server,
            api_key: api_key.or_else(|| env("REX_LLM_API_KEY")),
            timeout: DEFAULT_TIMEOUT,
            retries: DEFAULT_RETRIES,
            concurrency: DEFAULT_CONCURRENCY,
        })
    }

    /// The completions endpoint.
    pub fn endpoint(&self) -> String {
        completions_endpoint(&self.url)
    }
}

/// `/v1/completions` under a base URL given with or without `/v1` (or the endpoint itself).
pub fn completions_endpoint(url: &str) -> String {
    let base = url.trim_end_matches('/');
    if base.ends_with("/v1/completions") {
        base.to_string()
    } else if base.ends_with("/v1") {
        format!("{base}/completions")
    } else {
        format!("{base}/v1/completions")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_endpoint_is_found_under_any_base() {
        for url in [
            "http://h:8000",
            "http://h:8000/",
            "http://h:8000/v1",
            "http://h:8000/v1/completions",
        ] {
            assert_eq!(completions_endpoint(url), "http://h:8000/v1/completions");
        }
    }

    #[test]
    fn debug_never_shows_the_key() {
        let c = RemoteConfig::from_parts(
            Some("http://h:1".into()),
            Some("m".into()),
            Some(Server::LlamaCpp),
            Some("sk-secret-123".into()),
        )
        .unwrap();
        let shown = format!("{c:?}");
        assert!(!shown.contains("sk-secret-123"), "{shown}");
        assert!(shown.contains("(set)"), "{shown}");
    }

    #[test]
    fn a_url_without_a_scheme_is_refused() {
        let e =
            RemoteConfig::from_parts(Some("h:1".into()), Some("m".into()), None, None).unwrap_err();
        assert!(e.to_string().contains("http://"), "{e}");
    }
}

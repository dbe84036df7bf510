//! The transport: blocking POSTs of JSON with `ureq`, one agent (and its connection pool)
//! per server. Every request has a deadline (connection, generation and reply together);
//! a failure that may pass (refused or broken connection, HTTP 429 or 5xx) is retried a
//! bounded number of times with doubling pauses; anything else (a timeout included) is
//! returned at once. Nothing waits without a deadline, and the API key goes only into the
//! `Authorization` header.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::Value;

use super::error::http_error;
use super::reply::{parse_completion, Completion};
use super::{RemoteConfig, RemoteError};

/// The first pause before a retry; each further one doubles it.
const FIRST_BACKOFF: Duration = Duration::from_millis(250);

/// The longest a connection may take to open (within the request's deadline).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

pub struct Http {
    agent: ureq::Agent,
    endpoint: String,
    /// The server's root (the base URL without `/v1`), where the tokenizers answer.
    root: String,
    server: super::Server,
    model: String,
    api_key: Option<String>,
    timeout: Duration,
    retries: usize,
}

impl Http {
    pub fn new(config: &RemoteConfig) -> Http {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(config.timeout))
            .timeout_connect(Some(CONNECT_TIMEOUT.min(config.timeout)))
            .http_status_as_error(false)
            .max_idle_connections_per_host(config.concurrency.max(1))
            .build()
            .into();
        Http {
            agent,
            endpoint: config.endpoint(),
            root: server_root(&config.url),
            server: config.server,
            model: config.model.clone(),
            api_key: config.api_key.clone(),
            timeout: config.timeout,
            retries: config.retries,
        }
    }

    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Posts a completion request and reads the reply, retrying what may pass; stops
    /// retrying once `cancel` is set.
    pub fn complete(&self, body: &Value, cancel: &AtomicBool) -> Result<Completion, RemoteError> {
        let text = body.to_string();
        let mut pause = FIRST_BACKOFF;
        let mut attempt = 0;
        loop {
            let result = self.post_once(&text);
            let retry = match &result {
                Ok(_) => false,
                Err(e) => transient(e),
            };
            if !retry || attempt >= self.retries || cancel.load(Ordering::Relaxed) {
                return result;
            }
            attempt += 1;
            std::thread::sleep(pause);
            pause *= 2;
        }
    }

    /// The tokens of `text` as the server's tokenizer counts them, where it answers:
    /// llama.cpp's server `/tokenize` (`{content}` -> `{tokens}`), llama-cpp-python's
    /// `/extras/tokenize/count` (`{input}` -> `{count}`), vLLM's and SGLang's `/tokenize`
    /// (`{model, prompt}` -> `{count}`). `route` is the index of the one that answered
    /// before (`TOKENIZERS`), if any; the answer says which answered now.
    pub fn count_tokens(&self, text: &str, route: Option<usize>) -> Option<(usize, usize)> {
        let routes: Vec<usize> = match route {
            Some(r) => vec![r],
            None => (0..TOKENIZERS.len()).collect(),
        };
        for r in routes {
            let (path, servers, _) = TOKENIZERS[r];
            if !servers.contains(&self.server) {
                continue;
            }
            if let Some(n) = self.ask_tokenizer(r, path, text) {
                return Some((n, r));
            }
        }
        None
    }

    fn ask_tokenizer(&self, route: usize, path: &str, text: &str) -> Option<usize> {
        let body = match TOKENIZERS[route].2 {
            Body::Content => serde_json::json!({ "content": text }),
            Body::Input => serde_json::json!({ "input": text, "model": self.model }),
            Body::Prompt => serde_json::json!({ "model": self.model, "prompt": text }),
        };
        let mut request = self
            .agent
            .post(&format!("{}{path}", self.root))
            .header("Content-Type", "application/json");
        if let Some(key) = &self.api_key {
            request = request.header("Authorization", &format!("Bearer {key}"));
        }
        let mut response = request.send(body.to_string()).ok()?;
        if response.status().as_u16() >= 400 {
            return None;
        }
        let reply: Value =
            serde_json::from_str(&response.body_mut().read_to_string().ok()?).ok()?;
        match reply.get("count").and_then(Value::as_u64) {
            Some(n) => usize::try_from(n).ok(),
            None => reply.get("tokens").and_then(Value::as_array).map(Vec::len),
        }
    }

    fn post_once(&self, body: &str) -> Result<Completion, RemoteError> {
        let url = &self.endpoint;
        let mut request = self
            .agent
            .post(url)
            .header("Content-Type", "application/json");
        if let Some(key) = &self.api_key {
            request = request.header("Authorization", &format!("Bearer {key}"));
        }
        let mut response = request.send(body).map_err(|e| self.error(e))?;
        let status = response.status().as_u16();
        let text = response
            .body_mut()
            .read_to_string()
            .map_err(|e| self.error(e))?;
        if status >= 400 {
            return Err(http_error(url, status, &self.redact(&text)));
        }
        parse_completion(url, &text)
    }

    fn error(&self, e: ureq::Error) -> RemoteError {
        let url = self.endpoint.clone();
        match e {
            ureq::Error::Timeout(_) => RemoteError::Timeout {
                url,
                millis: self.timeout.as_millis() as u64,
            },
            ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::ConnectionRefused => {
                RemoteError::Refused { url }
            }
            ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => {
                RemoteError::Timeout {
                    url,
                    millis: self.timeout.as_millis() as u64,
                }
            }
            ureq::Error::ConnectionFailed => RemoteError::Refused { url },
            other => RemoteError::Connect {
                url,
                detail: self.redact(&other.to_string()),
            },
        }
    }

    /// `text` with the API key (should a server echo it) blanked out.
    fn redact(&self, text: &str) -> String {
        match &self.api_key {
            Some(key) if !key.is_empty() => text.replace(key.as_str(), "***"),
            _ => text.to_string(),
        }
    }
}

/// Whether a failure may pass on its own.
fn transient(e: &RemoteError) -> bool {
    match e {
        // A request that ran out of time would most likely run out of it again.
        RemoteError::Refused { .. } | RemoteError::Connect { .. } => true,
        RemoteError::Http { status, .. } => *status == 429 || *status >= 500,
        _ => false,
    }
}

/// How a tokenizer endpoint is asked.
#[derive(Clone, Copy)]
enum Body {
    Content,
    Input,
    Prompt,
}

/// The tokenizer endpoints servers answer, with the servers that have each.
const TOKENIZERS: [(&str, &[super::Server], Body); 3] = [
    ("/tokenize", &[super::Server::LlamaCpp], Body::Content),
    (
        "/extras/tokenize/count",
        &[super::Server::LlamaCpp],
        Body::Input,
    ),
    (
        "/tokenize",
        &[super::Server::Vllm, super::Server::Sglang],
        Body::Prompt,
    ),
];

/// The server's root, for a base URL given with or without `/v1` (or the completions
/// endpoint itself).
fn server_root(url: &str) -> String {
    let base = url.trim_end_matches('/');
    base.strip_suffix("/v1/completions")
        .or_else(|| base.strip_suffix("/v1"))
        .unwrap_or(base)
        .to_string()
}

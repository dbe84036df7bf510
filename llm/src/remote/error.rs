//! What can go wrong with a server, each said so that the person reading it knows what to
//! do. Messages quote the server's URL and at most a short excerpt of what it said; the
//! API key is never part of one.

use serde_json::Value;

/// Characters of a server's own message quoted in an error.
pub const MAX_EXCERPT: usize = 300;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RemoteError {
    /// Missing or malformed settings (no URL, no model name, a bad URL).
    Config(String),
    /// Nothing listens there.
    Refused { url: String },
    /// The connection could not be made or broke (DNS, TLS, reset).
    Connect { url: String, detail: String },
    /// No complete reply within the time allowed.
    Timeout { url: String, millis: u64 },
    /// The server answered with an HTTP error.
    Http {
        url: String,
        status: u16,
        message: String,
    },
    /// The server refused the request's grammar.
    GrammarRejected { url: String, message: String },
    /// A reply that is JSON of the wrong shape, or not JSON.
    Malformed { url: String, detail: String },
    /// A reply with no text in it.
    NoText { url: String },
    /// The grammar could not be put in the server's format (a bug in rex, reported).
    Grammar(String),
}

impl std::fmt::Display for RemoteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RemoteError::Config(m) => write!(f, "{m}"),
            RemoteError::Refused { url } => write!(
                f,
                "no model server answers at {url} (connection refused); is it running, and is the URL right?"
            ),
            RemoteError::Connect { url, detail } => {
                write!(f, "cannot reach the model server at {url}: {detail}")
            }
            RemoteError::Timeout { url, millis } => write!(
                f,
                "the model server at {url} did not answer within {} s",
                *millis as f64 / 1000.0
            ),
            RemoteError::Http {
                url,
                status,
                message,
            } => {
                write!(f, "the model server at {url} answered HTTP {status}")?;
                if !message.is_empty() {
                    write!(f, ": {message}")?;
                }
                Ok(())
            }
            RemoteError::GrammarRejected { url, message } => write!(
                f,
                "the model server at {url} refused the hole's grammar (is its grammar backend enabled? see book/src/gpu-servers.md): {message}"
            ),
            RemoteError::Malformed { url, detail } => write!(
                f,
                "the model server at {url} sent a reply that is not an OpenAI completion: {detail}"
            ),
            RemoteError::NoText { url } => {
                write!(f, "the model server at {url} sent a completion without text")
            }
            RemoteError::Grammar(e) => {
                write!(f, "the hole's grammar could not be written for the server: {e}")
            }
        }
    }
}

impl std::error::Error for RemoteError {}

/// The error for an HTTP error reply (`status` >= 400) with `body`.
pub fn http_error(url: &str, status: u16, body: &str) -> RemoteError {
    let message = server_message(body);
    if mentions_grammar(&message) && status != 429 {
        RemoteError::GrammarRejected {
            url: url.to_string(),
            message,
        }
    } else {
        RemoteError::Http {
            url: url.to_string(),
            status,
            message,
        }
    }
}

/// At most [`MAX_EXCERPT`] characters of `text`, on one line.
pub fn excerpt(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= MAX_EXCERPT {
        one_line
    } else {
        let cut: String = one_line.chars().take(MAX_EXCERPT).collect();
        format!("{cut}…")
    }
}

/// The message of an OpenAI-style error body (`{"error": {"message": ...}}`, or
/// `{"detail": ...}` as FastAPI writes), else an excerpt of the body.
fn server_message(body: &str) -> String {
    let Ok(v) = serde_json::from_str::<Value>(body) else {
        return excerpt(body);
    };
    let message = v
        .pointer("/error/message")
        .or_else(|| v.get("message"))
        .or_else(|| v.get("error"))
        .or_else(|| v.get("detail"));
    match message {
        Some(Value::String(s)) => excerpt(s),
        Some(other) => excerpt(&other.to_string()),
        None => excerpt(body),
    }
}

/// Whether a server's complaint is about the grammar (a server names the field or the
/// grammar format in its message; this only picks the wording of our error).
fn mentions_grammar(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    ["grammar", "gbnf", "lark", "ebnf", "structured_outputs"]
        .iter()
        .any(|w| m.contains(w))
}

//! "Fill with model" in the browser: rex-llm's fill loop, driven by the page's worker. The
//! loop runs here (prompt, grammar, type oracle, verification, ranking); only completion
//! requests leave the page, and the worker sends them with `fetch` to the endpoint the
//! person configured. `start` returns the first requests; `feed` takes the replies (in the
//! same order) and returns the next requests or the result.
//!
//! A job checks the program as it was when the fill started, in a database of its own, so
//! edits made meanwhile do not change what the oracle judges.

use rex_compiler::db::{Database, SourceFile};
use rex_compiler::Position;
use rex_ide::context::Context;
use rex_ide::locate::Document;
use rex_llm::fill::{
    budget_for_context, FillLoop, FillOptions, HoleFills, Mode, Proposal, SampleAsk, Step,
};
use rex_llm::grammar::server::enders;
use rex_llm::oracle::Oracle;
use rex_llm::prompt::{PromptBudget, TokenCounter};
use rex_llm::remote::reply::{parse_completion, Completion};
use rex_llm::remote::request::{sample_body, score_body};
use rex_llm::remote::{completions_endpoint, http_error, RemoteError, Server, REMOTE_CONTEXT};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::session::DOCUMENT_URI;

/// What the page asks for.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StartArgs {
    pub line: u32,
    pub character: u32,
    /// The server's base URL.
    pub url: String,
    /// The served model's name.
    #[serde(default)]
    pub model: String,
    /// `vllm`, `sglang` or `llamacpp` (the default).
    #[serde(default)]
    pub server: Option<String>,
    #[serde(default)]
    pub samples: Option<usize>,
    #[serde(default)]
    pub max_tokens: Option<usize>,
    #[serde(default)]
    pub error_rounds: Option<usize>,
}

/// One reply as `fetch` saw it: a status and body, or why there was none.
#[derive(Clone, Debug, Deserialize)]
pub struct FetchReply {
    #[serde(default)]
    pub status: u16,
    #[serde(default)]
    pub body: String,
    #[serde(default)]
    pub error: Option<String>,
}

/// What the worker does next.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Next {
    /// POST each body to `endpoint`, all at once.
    Requests {
        endpoint: String,
        bodies: Vec<Value>,
        /// `samples` or `scores`, and the error round.
        phase: &'static str,
        round: usize,
    },
    Done(HoleFills),
}

enum Waiting {
    Samples(Vec<SampleAsk>),
    Scores,
}

pub struct FillJob {
    db: Database,
    file: SourceFile,
    pos: Position,
    /// None once the result is out.
    fill: Option<FillLoop>,
    server: Server,
    model: String,
    endpoint: String,
    enders: Vec<String>,
    waiting: Waiting,
}

impl FillJob {
    /// A job over `text` for the hole at the position; its first requests.
    pub fn start(text: &str, args: &StartArgs) -> Result<(FillJob, Next), String> {
        let server = match args.server.as_deref() {
            None | Some("") => Server::LlamaCpp,
            Some(s) => s.parse()?,
        };
        if !(args.url.starts_with("http://") || args.url.starts_with("https://")) {
            return Err(format!(
                "the model server URL `{}` must start with http:// or https:// (Model settings)",
                args.url
            ));
        }
        let db = Database::new();
        let file = db.add_file(DOCUMENT_URI, text.to_string());
        let pos = Position {
            line: args.line,
            character: args.character,
        };
        let defaults = FillOptions::default();
        let opts = FillOptions {
            samples: args.samples.unwrap_or(defaults.samples).clamp(1, 16),
            max_tokens: args.max_tokens.unwrap_or(defaults.max_tokens).clamp(1, 512),
            error_rounds: args.error_rounds.unwrap_or(defaults.error_rounds).min(4),
            ..defaults
        };
        let (fill, first) = {
            let ctx = Context::new(&db, file, Document::new(&db, file).offset(pos));
            let mut oracle = Oracle::for_context(&ctx).ok_or_else(|| not_a_hole(pos))?;
            // The browser cannot ask the server's tokenizer synchronously: the estimate
            // over-counts, so the prompt fits.
            let budget = PromptBudget {
                tokens: budget_for_context(REMOTE_CONTEXT, &opts),
                counter: TokenCounter::estimate(),
            };
            let mut fill = FillLoop::new(&ctx, &mut oracle, &opts, Mode::Server, budget)
                .map_err(|e| e.to_string())?;
            let first = fill.start();
            (fill, first)
        };
        let mut job = FillJob {
            enders: enders(&fill.hole().parts.after),
            db,
            file,
            pos,
            fill: Some(fill),
            server,
            model: args.model.clone(),
            endpoint: completions_endpoint(&args.url),
            waiting: Waiting::Scores,
        };
        let next = job.next(first)?;
        Ok((job, next))
    }

    /// The replies to the last requests, in order; `seconds` since the fill started,
    /// `step_seconds` the time the requests took (sent together, so each sample's share
    /// of it is its decoding time).
    pub fn feed(
        &mut self,
        replies: &[FetchReply],
        seconds: f64,
        step_seconds: f64,
    ) -> Result<Next, String> {
        let offset = Document::new(&self.db, self.file).offset(self.pos);
        let ctx = Context::new(&self.db, self.file, offset);
        let mut oracle = Oracle::for_context(&ctx).ok_or_else(|| not_a_hole(self.pos))?;
        let Some(fill) = self.fill.as_mut() else {
            return Err("this fill is over; start another".into());
        };
        let step = match &self.waiting {
            Waiting::Samples(asks) => {
                if replies.len() != asks.len() {
                    return Err(format!(
                        "{} replies for {} requests",
                        replies.len(),
                        asks.len()
                    ));
                }
                let share = step_seconds / replies.len().max(1) as f64;
                let proposals = replies
                    .iter()
                    .map(|r| {
                        read(&self.endpoint, r).map(|c| Proposal {
                            seconds: share,
                            ..c.proposal(&self.enders)
                        })
                    })
                    .collect::<Result<Vec<Proposal>, RemoteError>>()
                    .map_err(|e| e.to_string())?;
                fill.take_samples(&mut oracle, proposals)
            }
            Waiting::Scores => {
                // A candidate the server could not score still type-checks: unscored.
                let scores = replies
                    .iter()
                    .map(|r| read(&self.endpoint, r).ok().and_then(|c| c.score()))
                    .collect();
                fill.take_scores(scores)
            }
        };
        match step {
            Step::Done => self.finish(seconds),
            step => self.next(step),
        }
    }

    /// The result (once).
    fn finish(&mut self, seconds: f64) -> Result<Next, String> {
        let fill = self.fill.take().ok_or("this fill is over; start another")?;
        Ok(Next::Done(fill.finish(seconds)))
    }

    /// The requests for `step`.
    fn next(&mut self, step: Step) -> Result<Next, String> {
        let to_string = |e: RemoteError| e.to_string();
        match step {
            Step::Sample(asks) => {
                let bodies = asks
                    .iter()
                    .map(|a| sample_body(self.server, &self.model, a))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(to_string)?;
                let round = asks.first().map_or(0, |a| a.round);
                self.waiting = Waiting::Samples(asks);
                Ok(Next::Requests {
                    endpoint: self.endpoint.clone(),
                    bodies,
                    phase: "samples",
                    round,
                })
            }
            Step::Score { prompt, texts } => {
                let bodies = texts
                    .iter()
                    .map(|t| score_body(self.server, &self.model, &prompt, t))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(to_string)?;
                self.waiting = Waiting::Scores;
                Ok(Next::Requests {
                    endpoint: self.endpoint.clone(),
                    bodies,
                    phase: "scores",
                    round: 0,
                })
            }
            Step::Done => self.finish(0.0),
        }
    }
}

/// A reply read as a completion, or the error it stands for.
fn read(url: &str, r: &FetchReply) -> Result<Completion, RemoteError> {
    if let Some(e) = &r.error {
        return Err(RemoteError::Connect {
            url: url.to_string(),
            detail: format!(
                "{e} (is the server running, and does it allow this page's origin (CORS)?)"
            ),
        });
    }
    if r.status >= 400 {
        return Err(http_error(url, r.status, &r.body));
    }
    parse_completion(url, &r.body)
}

fn not_a_hole(p: Position) -> String {
    format!(
        "there is no hole at line {}, character {} (0-based)",
        p.line, p.character
    )
}

//! The fill loop's proposer over a server: each ask is one request, all of a step's asks
//! in flight at once (at most `concurrency`), on plain threads that share one HTTP agent.
//! The loop's thread waits for the replies in short slices so that a cancelled fill
//! returns at once (requests still in flight finish on their own, within their deadline,
//! and are dropped). Candidates are scored by asking the server to write exactly the
//! candidate under a one-sentence grammar, which reports each token's log-probability.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::reply::Completion;
use super::request::{sample_body, score_body};
use super::{Http, RemoteConfig, RemoteError};
use crate::fill::{
    budget_for_context, End, FillError, FillOptions, HoleSetup, Mode, Proposal, Proposer,
    SampleAsk, Score,
};
use crate::grammar::server::enders;
use crate::oracle::Oracle;
use crate::prompt::{PromptBudget, TokenCounter};

/// How often the waiting thread looks at the cancel flag.
const CANCEL_POLL: Duration = Duration::from_millis(50);

pub struct RemoteProposer {
    config: RemoteConfig,
    http: Arc<Http>,
    enders: Vec<String>,
}

impl RemoteProposer {
    pub fn new(config: RemoteConfig) -> RemoteProposer {
        let http = Arc::new(Http::new(&config));
        RemoteProposer {
            config,
            http,
            enders: Vec::new(),
        }
    }

    pub fn config(&self) -> &RemoteConfig {
        &self.config
    }

    /// Sends `bodies` in parallel; each reply in order, or None where `cancel` was set
    /// before it came. `done(i)` is called as reply `i` arrives.
    fn send_all(
        &self,
        bodies: Vec<Value>,
        done: &mut dyn FnMut(usize),
        cancel: &AtomicBool,
    ) -> Vec<Option<Result<Completion, RemoteError>>> {
        let n = bodies.len();
        // Popped from the end: the first ask goes first.
        let queue = Arc::new(Mutex::new(
            bodies.into_iter().enumerate().rev().collect::<Vec<_>>(),
        ));
        let (tx, rx) = mpsc::channel();
        let cancel_flag = Arc::new(AtomicBool::new(false));
        for _ in 0..self.config.concurrency.clamp(1, n.max(1)) {
            let queue = Arc::clone(&queue);
            let http = Arc::clone(&self.http);
            let tx = tx.clone();
            let stop = Arc::clone(&cancel_flag);
            std::thread::spawn(move || loop {
                let next = queue.lock().map_or(None, |mut q| q.pop());
                let Some((i, body)) = next else { break };
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let reply = http.complete(&body, &stop);
                if tx.send((i, reply)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut out: Vec<Option<Result<Completion, RemoteError>>> = (0..n).map(|_| None).collect();
        let mut received = 0;
        while received < n {
            if cancel.load(Ordering::Relaxed) {
                cancel_flag.store(true, Ordering::Relaxed);
                break;
            }
            match rx.recv_timeout(CANCEL_POLL) {
                Ok((i, reply)) => {
                    received += 1;
                    done(i);
                    out[i] = Some(reply);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        out
    }
}

impl Proposer for RemoteProposer {
    fn mode(&self) -> Mode {
        Mode::Server
    }

    /// `opts.prompt_budget`, or what a context of `REMOTE_CONTEXT` tokens holds with room
    /// for a sample; counted by the server's tokenizer where it has one (`Http::count_tokens`;
    /// one token more for the beginning of text), otherwise estimated.
    fn prompt_budget(&mut self, opts: &FillOptions) -> PromptBudget {
        let tokens = opts
            .prompt_budget
            .unwrap_or_else(|| budget_for_context(super::REMOTE_CONTEXT, opts));
        let counter = match self.http.count_tokens("fn", None) {
            Some((_, route)) => {
                let http = Arc::clone(&self.http);
                TokenCounter::new(move |text| {
                    http.count_tokens(text, Some(route))
                        .map_or_else(|| text.len().div_ceil(2), |(n, _)| n + 1)
                })
            }
            None => TokenCounter::estimate(),
        };
        PromptBudget { tokens, counter }
    }

    fn begin_hole(&mut self, hole: &HoleSetup, _opts: &FillOptions) -> Result<(), FillError> {
        self.enders = enders(&hole.parts.after);
        Ok(())
    }

    fn sample(
        &mut self,
        asks: &[SampleAsk],
        _oracle: &mut Oracle<'_>,
        progress: &mut dyn FnMut(usize),
        cancel: &AtomicBool,
    ) -> Result<Vec<Proposal>, FillError> {
        let bodies = asks
            .iter()
            .map(|a| sample_body(self.config.server, &self.config.model, a))
            .collect::<Result<Vec<_>, _>>()?;
        let started = Instant::now();
        let replies = self.send_all(bodies, progress, cancel);
        // The requests run in parallel: each proposal has its share of the step's time.
        let share = started.elapsed().as_secs_f64() / replies.len().max(1) as f64;
        let mut out = Vec::with_capacity(asks.len());
        for reply in replies {
            out.push(match reply {
                Some(reply) => Proposal {
                    seconds: share,
                    ..reply?.proposal(&self.enders)
                },
                None => Proposal {
                    text: String::new(),
                    logprob: 0.0,
                    tokens: 0,
                    decoded: 0,
                    seconds: share,
                    end: End::Cancelled,
                    oracle_rejections: 0,
                    backtracks: 0,
                    injections: 0,
                    prompt_tokens: 0,
                    pieces: Vec::new(),
                },
            });
        }
        Ok(out)
    }

    fn score(
        &mut self,
        prompt: &str,
        texts: &[String],
        cancel: &AtomicBool,
    ) -> Result<Vec<Option<Score>>, FillError> {
        let bodies = texts
            .iter()
            .map(|t| score_body(self.config.server, &self.config.model, prompt, t))
            .collect::<Result<Vec<_>, _>>()?;
        let replies = self.send_all(bodies, &mut |_| {}, cancel);
        // A candidate the server could not score still type-checks: it stays, unscored.
        Ok(replies
            .into_iter()
            .map(|r| r.and_then(|r| r.ok()).and_then(|c| c.score()))
            .collect())
    }
}

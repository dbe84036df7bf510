//! The fill loop: the model proposes, the checker disposes. For one hole: the prompt from
//! the static context; `samples` samples per round (the first greedy, the others
//! sampled); up to `error_rounds` more rounds where failed attempts go back into the
//! prompt; greedy samples that start from the heads of the candidates that still have a
//! hole; the semantic loop's verified candidates scored by the same model; everything
//! re-checked, merged, ranked by log-probability (partly length-normalised, `rank`) and
//! deduplicated.
//!
//! One loop (`rounds`), two ways to get samples (a [`Proposer`]): the embedded engine
//! decodes token by token under the grammar and the type oracle (`embedded`); a server
//! enforces the grammar only, so the loop repairs an ill-typed server sample by asking for
//! continuations of the longest prefix the oracle accepts (`remote`). The loop itself is a
//! sequence of steps that say what samples or scores it needs, so the browser playground,
//! whose requests are asynchronous, drives the same loop as the native [`Filler`].

#[cfg(feature = "embedded")]
pub mod embedded;
mod hole;
mod rank;
mod rounds;

use std::sync::atomic::AtomicBool;

use rex_compiler::db::{Database, SourceFile};
use rex_compiler::Position;
use rex_ide::context::Context;
use rex_ide::edit::LspRange;
use serde::Serialize;

#[cfg(feature = "embedded")]
use crate::engine::EngineError;
use crate::oracle::Oracle;
use crate::prompt::{ContextLevel, PrefixMode, PromptBudget, PromptTooLong};
use crate::remote::RemoteError;

pub use hole::HoleSetup;
pub use rounds::{FillLoop, Proposal, SampleAsk, Step, REPAIR_ROUNDS};

/// How holes are filled (the CLI's flags, the LSP's options).
#[derive(Clone, Debug)]
pub struct FillOptions {
    pub samples: usize,
    pub error_rounds: usize,
    pub context: ContextLevel,
    /// The program text before the hole: its enclosing item, or the whole file.
    pub prefix: PrefixMode,
    /// Most tokens the prompt may take (None: what fits in the engine's context with room
    /// for the samples).
    pub prompt_budget: Option<usize>,
    /// Grammar mask and type oracle on every token (off for the ablation).
    pub constrain: bool,
    pub max_tokens: usize,
    /// For the samples after the first (which is greedy).
    pub temperature: f32,
    pub seed: u64,
    /// Nudge the model towards the names the semantic loop finds at the hole.
    pub name_bias: bool,
    /// Merge the semantic loop's verified candidates into the ranking.
    pub candidates: bool,
    /// Inject a function's signature as a comment where the model applies it (off by
    /// default: with the default 270M model it was seen to derail more fills than it
    /// helped; the benchmark measures it). The embedded engine only: a server's context
    /// cannot be written into mid-sample.
    pub signatures: bool,
}

impl Default for FillOptions {
    fn default() -> FillOptions {
        FillOptions {
            samples: 4,
            error_rounds: 2,
            context: ContextLevel::TypesHeaders,
            prefix: PrefixMode::Item,
            prompt_budget: None,
            constrain: true,
            max_tokens: 64,
            temperature: 0.8,
            seed: 0,
            name_bias: true,
            candidates: true,
            signatures: false,
        }
    }
}

/// Where a fill comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum FillSource {
    Model,
    Candidate,
}

/// A fill that type-checks, ranked.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RankedFill {
    pub text: String,
    /// Mean log-probability per token under the model.
    pub logprob: f64,
    /// Tokens the model wrote it in (0 when unscored); with `logprob`, the ranking key
    /// (`rank`).
    #[serde(skip)]
    pub tokens: usize,
    pub source: FillSource,
    /// The error round that produced it (0: the first).
    pub rounds: usize,
}

/// One decoded sample, whatever became of it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Attempt {
    pub text: String,
    pub round: usize,
    pub end: End,
    pub well_typed: bool,
    /// Why it was not kept, when it was not.
    pub problem: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    /// Tokens run through the model while decoding, those dropped by backtracking
    /// included (prompt tokens and candidate scoring not counted; a server's count is
    /// the tokens it generated).
    pub tokens: usize,
    pub seconds: f64,
    /// Tokens decoded per second of decoding (the prompt's prefill and the scoring of
    /// candidates not counted; the constraint layers and injections are). Over a server,
    /// the wall time of its parallel requests, the prompt's evaluation included.
    pub tokens_per_second: f64,
    /// The first round's prompt in tokens (the model's tokenizer on the embedded engine,
    /// a server's tokenizer endpoint where it has one, else a conservative estimate).
    pub prompt_tokens: usize,
    /// Prompt tokens evaluated, summed over rounds (0 for a prompt already in the cache).
    pub prefilled_tokens: usize,
    /// The static context's parts in the prompt (`type Model`, `header init`, `item`, ...).
    pub context_parts: Vec<String>,
    /// Parts left out to fit the prompt budget, lowest score first.
    pub dropped: Vec<String>,
    pub oracle_rejections: usize,
    /// Signature comments injected (`crate::inject`).
    pub injections: usize,
    /// Steps back from dead ends (`crate::decode`).
    pub backtracks: usize,
}

/// The fills of one hole.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HoleFills {
    pub name: String,
    pub range: LspRange,
    pub expected_type: Option<String>,
    pub fills: Vec<RankedFill>,
    pub attempts: Vec<Attempt>,
    pub stats: Stats,
}

impl HoleFills {
    /// The best fill as it is written over the hole (see `written`).
    pub fn best_written(&self) -> Option<String> {
        Some(written(&self.fills.first()?.text))
    }
}

/// A fill as it is written over its hole: parenthesised when it has spaces, since a hole
/// may stand where only an atom may.
pub fn written(fill: &str) -> String {
    if fill.contains(char::is_whitespace) {
        format!("({fill})")
    } else {
        fill.to_string()
    }
}

/// What the loop reports while it works (for progress bars and LSP work-done progress).
#[derive(Clone, Debug)]
pub struct Progress {
    pub sample: usize,
    pub samples: usize,
    pub round: usize,
}

/// Why a sample ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum End {
    /// The model ended a complete expression.
    Finished,
    /// The token budget ran out.
    MaxTokens,
    /// No token passed the constraints (the grammar or the oracle had nothing left).
    DeadEnd,
    /// The sample went round in a loop (`(if (if (if (if`) and was stopped early.
    Repeating,
    /// The request was cancelled.
    Cancelled,
}

#[derive(Debug)]
pub enum FillError {
    /// The position is not on a hole.
    NotAHole(Position),
    #[cfg(feature = "embedded")]
    Engine(EngineError),
    /// A server that could not be used (down, an HTTP error, a reply without text...).
    Remote(RemoteError),
    /// The grammar could not be built or compiled (a bug, reported).
    Grammar(String),
    /// The prompt's parts that are always kept (the program before the hole: the enclosing
    /// item, or the file with `--prefix file`) need more tokens than the prompt budget.
    PromptTooLong(PromptTooLong),
}

impl std::fmt::Display for FillError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FillError::NotAHole(p) => write!(
                f,
                "there is no hole at line {}, character {} (0-based)",
                p.line, p.character
            ),
            #[cfg(feature = "embedded")]
            FillError::Engine(e) => write!(f, "the model engine failed: {e}"),
            FillError::Remote(e) => write!(f, "{e}"),
            FillError::Grammar(e) => write!(f, "the hole's grammar could not be built: {e}"),
            FillError::PromptTooLong(e) => write!(
                f,
                "the prompt needs {} tokens even with every optional part of the context \
                 dropped, but its budget is {}: raise the budget (`--prompt-budget`, \
                 `promptBudget`) and the model's context (`--context-size`, `contextSize`), \
                 or use `--prefix item` where the whole file was asked for",
                e.needed, e.budget
            ),
        }
    }
}

impl std::error::Error for FillError {}

#[cfg(feature = "embedded")]
impl From<EngineError> for FillError {
    fn from(e: EngineError) -> FillError {
        FillError::Engine(e)
    }
}

impl From<RemoteError> for FillError {
    fn from(e: RemoteError) -> FillError {
        FillError::Remote(e)
    }
}

/// How a proposer's samples relate to the type oracle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Decoded under the grammar and the oracle token by token (the embedded engine).
    TokenLevel,
    /// Constrained by the grammar only (a server): an ill-typed sample is continued from
    /// the longest prefix the oracle accepts.
    Server,
}

/// A way to get samples and scores for the fill loop.
pub trait Proposer {
    fn mode(&self) -> Mode;
    /// Called once per hole, before its first samples.
    fn begin_hole(&mut self, hole: &HoleSetup, opts: &FillOptions) -> Result<(), FillError>;
    /// One proposal per ask, in order (fewer when cancelled); `progress` gets the index of
    /// each ask as it starts or ends.
    fn sample(
        &mut self,
        asks: &[SampleAsk],
        oracle: &mut Oracle<'_>,
        progress: &mut dyn FnMut(usize),
        cancel: &AtomicBool,
    ) -> Result<Vec<Proposal>, FillError>;
    /// How many tokens a hole's prompt may take with these options, and how they are
    /// counted: `opts.prompt_budget`, or what the model's context holds with room for a
    /// sample.
    fn prompt_budget(&mut self, opts: &FillOptions) -> PromptBudget;
    /// The log-probability of each text written after `prompt` (None where it could not
    /// be had).
    fn score(
        &mut self,
        prompt: &str,
        texts: &[String],
        cancel: &AtomicBool,
    ) -> Result<Vec<Option<Score>>, FillError>;
}

/// A text's log-probability under the model: the sum over its tokens, and how many.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    pub logprob: f64,
    pub tokens: usize,
}

/// Tokens kept free after the prompt: a sample's `max_tokens`, and room for the signature
/// comments token-level decoding may inject.
pub const SAMPLE_ROOM: usize = 64;

/// The default prompt budget of a context of `context` tokens.
pub fn budget_for_context(context: usize, opts: &FillOptions) -> usize {
    context.saturating_sub(opts.max_tokens + SAMPLE_ROOM).max(1)
}

impl Score {
    /// Log-probability per token.
    pub fn mean(&self) -> f64 {
        self.logprob / self.tokens.max(1) as f64
    }
}

/// Fills holes with one proposer.
pub struct Filler {
    proposer: Box<dyn Proposer>,
}

impl Filler {
    pub fn with(proposer: Box<dyn Proposer>) -> Filler {
        Filler { proposer }
    }

    /// A filler over the embedded engine with the model `find_model` picks (`model`, then
    /// `REX_MODEL`, then the installed default); the error says which file and why.
    #[cfg(feature = "embedded")]
    pub fn load_embedded(
        model: Option<&std::path::Path>,
        opts: crate::engine::llama::EngineOptions,
    ) -> Result<Filler, String> {
        let proposer = embedded::EmbeddedProposer::load(model, opts)?;
        Ok(Filler::with(Box::new(proposer)))
    }

    /// A filler over an engine already loaded.
    #[cfg(feature = "embedded")]
    pub fn new(engine: Box<dyn crate::engine::Engine>) -> Result<Filler, FillError> {
        Ok(Filler::with(Box::new(embedded::EmbeddedProposer::new(
            engine,
        )?)))
    }

    /// A filler over an OpenAI-compatible server.
    #[cfg(feature = "remote")]
    pub fn remote(config: crate::remote::RemoteConfig) -> Filler {
        Filler::with(Box::new(crate::remote::RemoteProposer::new(config)))
    }

    /// The fills of the hole at `pos`.
    pub fn fill_at(
        &mut self,
        db: &Database,
        file: SourceFile,
        pos: Position,
        opts: &FillOptions,
        progress: &mut dyn FnMut(Progress),
        cancel: &AtomicBool,
    ) -> Result<HoleFills, FillError> {
        let started = std::time::Instant::now();
        let offset = rex_ide::locate::Document::new(db, file).offset(pos);
        let ctx = Context::new(db, file, offset);
        let mut oracle = Oracle::for_context(&ctx).ok_or(FillError::NotAHole(pos))?;
        let budget = self.proposer.prompt_budget(opts);
        let mut lp = FillLoop::new(&ctx, &mut oracle, opts, self.proposer.mode(), budget)?;
        self.proposer.begin_hole(lp.hole(), opts)?;
        let mut step = lp.start();
        loop {
            step = match step {
                Step::Sample(asks) => {
                    let samples = opts.samples.max(1);
                    let mut report = |i: usize| {
                        progress(Progress {
                            sample: asks.get(i).map_or(i, |a| a.index),
                            samples,
                            round: asks.get(i).map_or(0, |a| a.round),
                        })
                    };
                    let proposals =
                        self.proposer
                            .sample(&asks, &mut oracle, &mut report, cancel)?;
                    lp.take_samples(&mut oracle, proposals)
                }
                Step::Score { prompt, texts } => {
                    let scores = self.proposer.score(&prompt, &texts, cancel)?;
                    lp.take_scores(scores)
                }
                Step::Done => break,
            };
        }
        Ok(lp.finish(started.elapsed().as_secs_f64()))
    }
}

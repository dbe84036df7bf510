//! The fill loop: the model proposes, the checker disposes. For one hole: the prompt from
//! the static context; `samples` decodes under the grammar and the type oracle (the first
//! greedy, the others sampled); up to `error_rounds` more rounds where failed attempts go
//! back into the prompt; the semantic loop's verified candidates scored by the same model;
//! everything re-checked, merged, ranked by mean log-probability and deduplicated.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use llguidance::api::TopLevelGrammar;
use llguidance::{Matcher, ParserFactory};
use rand::rngs::StdRng;
use rand::SeedableRng;
use rex_compiler::db::{Database, SourceFile};
use rex_compiler::Position;
use rex_ide::context::Context;
use rex_ide::edit::{LspPosition, LspRange};
use rex_ide::fill::fills_at;
use serde::Serialize;

use crate::decode::{decode, log_softmax, DecodeOptions, End, Layers, Sample};
use crate::engine::llama::{EngineOptions, LlamaEngine};
use crate::engine::{Engine, EngineError};
use crate::grammar;
use crate::inject::Signatures;
use crate::model::find_model;
use crate::oracle::Oracle;
use crate::prompt::{prompt, ContextLevel, Feedback};
use crate::static_context::prompt_parts;

/// How holes are filled (the CLI's flags, the LSP's options).
#[derive(Clone, Debug)]
pub struct FillOptions {
    pub samples: usize,
    pub error_rounds: usize,
    pub context: ContextLevel,
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
    /// helped; the benchmark measures it).
    pub signatures: bool,
}

impl Default for FillOptions {
    fn default() -> FillOptions {
        FillOptions {
            samples: 4,
            error_rounds: 2,
            context: ContextLevel::TypesHeaders,
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
    /// Mean log-probability per token under the model (the ranking key).
    pub logprob: f64,
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
    /// included (prompt tokens and candidate scoring not counted).
    pub tokens: usize,
    pub seconds: f64,
    /// Tokens decoded per second of decoding (the prompt's prefill and the scoring of
    /// candidates not counted; the constraint layers and injections are).
    pub tokens_per_second: f64,
    pub prompt_tokens: usize,
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

#[derive(Debug)]
pub enum FillError {
    /// The position is not on a hole.
    NotAHole(Position),
    Engine(EngineError),
    /// The grammar could not be built or compiled (a bug, reported).
    Grammar(String),
}

impl std::fmt::Display for FillError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FillError::NotAHole(p) => write!(
                f,
                "there is no hole at line {}, character {} (0-based)",
                p.line, p.character
            ),
            FillError::Engine(e) => write!(f, "the model engine failed: {e}"),
            FillError::Grammar(e) => write!(f, "the hole's grammar could not be built: {e}"),
        }
    }
}

impl std::error::Error for FillError {}

impl From<EngineError> for FillError {
    fn from(e: EngineError) -> FillError {
        FillError::Engine(e)
    }
}

/// Fills holes with one engine; the grammar compiler for its vocabulary is built once.
pub struct Filler {
    engine: Box<dyn Engine>,
    factory: ParserFactory,
}

impl Filler {
    /// A filler over the embedded engine with the model `find_model` picks (`model`, then
    /// `REX_MODEL`, then the installed default); the error says which file and why.
    pub fn load_embedded(
        model: Option<&std::path::Path>,
        opts: EngineOptions,
    ) -> Result<Filler, String> {
        let path = find_model(model).map_err(|e| e.to_string())?;
        let engine = LlamaEngine::load(&path, opts)
            .map_err(|e| format!("cannot load the model `{}`: {e}", path.display()))?;
        Filler::new(Box::new(engine)).map_err(|e| e.to_string())
    }

    pub fn new(engine: Box<dyn Engine>) -> Result<Filler, FillError> {
        let mut factory = ParserFactory::new_simple(&engine.tok_env())
            .map_err(|e| FillError::Grammar(e.to_string()))?;
        // llguidance's own logging goes to stderr; the loop reports through its results.
        factory.set_stderr_log_level(0);
        Ok(Filler { engine, factory })
    }

    pub fn engine(&mut self) -> &mut dyn Engine {
        self.engine.as_mut()
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
        let started = Instant::now();
        let ctx = Context::new(db, file, pos);
        let (hole_span, hole_name) = hole_of(&ctx).ok_or(FillError::NotAHole(pos))?;
        let mut oracle = Oracle::for_context(&ctx).ok_or(FillError::NotAHole(pos))?;
        let parts = prompt_parts(&ctx, hole_span);
        let lark = grammar::lark(&grammar::scope_at(&ctx));
        let names: Vec<String> = if opts.name_bias {
            bias_names(&ctx)
        } else {
            Vec::new()
        };
        let signatures = if opts.signatures {
            Signatures::at(&ctx)
        } else {
            Signatures::default()
        };
        let mut stats = Stats::default();
        let mut attempts: Vec<Attempt> = Vec::new();
        let mut fills: Vec<RankedFill> = Vec::new();
        let mut feedback: Vec<Feedback> = Vec::new();
        let mut rng = StdRng::seed_from_u64(opts.seed);
        let mut prompt_len = 0;
        let mut decoding = 0.0f64;
        for round in 0..=opts.error_rounds {
            let text = prompt(&parts, opts.context, &feedback);
            if std::env::var_os("REX_FILL_SHOW_PROMPT").is_some() {
                eprintln!("--- prompt (round {round}) ---\n{text}\n--- end of prompt ---");
            }
            prompt_len = self.prefill(&text)?;
            stats.prompt_tokens += prompt_len;
            let mut round_feedback = Vec::new();
            for sample_index in 0..opts.samples.max(1) {
                progress(Progress {
                    sample: sample_index,
                    samples: opts.samples.max(1),
                    round,
                });
                let decode_opts = DecodeOptions {
                    max_tokens: opts.max_tokens,
                    temperature: if sample_index == 0 && round == 0 {
                        0.0
                    } else {
                        opts.temperature
                    },
                    constrain: opts.constrain,
                };
                let mut layers = Layers {
                    grammar: Some(self.matcher(&lark)?),
                    oracle: if opts.constrain {
                        Some(&mut oracle)
                    } else {
                        None
                    },
                    names: &names,
                    after: &parts.after,
                    signatures: &signatures,
                };
                let decode_started = Instant::now();
                let sample = decode(
                    self.engine.as_mut(),
                    prompt_len,
                    &mut layers,
                    &decode_opts,
                    &mut rng,
                    cancel,
                )?;
                decoding += decode_started.elapsed().as_secs_f64();
                stats.tokens += sample.decoded;
                stats.backtracks += sample.backtracks;
                stats.oracle_rejections += sample.oracle_rejections;
                stats.injections += sample.injections;
                let attempt = judge(&mut oracle, &sample, round);
                if attempt.well_typed {
                    fills.push(RankedFill {
                        text: sample.text.clone(),
                        logprob: sample.mean_logprob(),
                        source: FillSource::Model,
                        rounds: round,
                    });
                } else if !sample.text.is_empty() {
                    round_feedback.push(Feedback {
                        text: sample.text.clone(),
                        problem: attempt.problem.clone().unwrap_or_default(),
                    });
                }
                let cancelled = sample.end == End::Cancelled;
                attempts.push(attempt);
                if cancelled {
                    break;
                }
            }
            let cancelled = attempts.last().is_some_and(|a| a.end == End::Cancelled);
            if !fills.is_empty() || round_feedback.is_empty() || cancelled {
                break;
            }
            feedback.extend(round_feedback);
        }
        if opts.candidates {
            // The prompt of the last round is still in the engine.
            for f in fills_at(&ctx) {
                let text = f.candidate.replacement;
                if !oracle.fill_ok(&text) {
                    continue;
                }
                let logprob = self.score(prompt_len, &text)?;
                fills.push(RankedFill {
                    text,
                    logprob,
                    source: FillSource::Candidate,
                    rounds: 0,
                });
            }
        }
        stats.seconds = started.elapsed().as_secs_f64();
        stats.tokens_per_second = if decoding > 0.0 {
            stats.tokens as f64 / decoding
        } else {
            0.0
        };
        let doc = rex_ide::locate::Document::new(db, file);
        Ok(HoleFills {
            name: hole_name,
            range: LspRange {
                start: LspPosition::from(doc.position(hole_span.0)),
                end: LspPosition::from(doc.position(hole_span.1)),
            },
            expected_type: ctx.expected.as_ref().map(|t| t.to_string()),
            fills: rank(fills),
            attempts,
            stats,
        })
    }

    /// Puts `text` in the engine as the prompt; its length in tokens.
    fn prefill(&mut self, text: &str) -> Result<usize, FillError> {
        let tokens = self.engine.tokenize(text, true)?;
        self.engine.rewind(0)?;
        self.engine.prefill(&tokens)?;
        Ok(tokens.len())
    }

    /// A fresh matcher for the hole's grammar.
    fn matcher(&self, lark: &str) -> Result<Matcher, FillError> {
        let parser = self
            .factory
            .create_parser(TopLevelGrammar::from_lark(lark.to_string()))
            .map_err(|e| FillError::Grammar(e.to_string()))?;
        Ok(Matcher::new(Ok(parser)))
    }

    /// Mean log-probability of `text` written after the prompt.
    fn score(&mut self, prompt_len: usize, text: &str) -> Result<f64, FillError> {
        self.engine.rewind(prompt_len)?;
        let tokens = self.engine.tokenize(&format!(" {text}"), false)?;
        let mut total = 0.0f64;
        for &t in &tokens {
            let lp = log_softmax(self.engine.logits());
            total += f64::from(lp.get(t as usize).copied().unwrap_or(f32::NEG_INFINITY));
            self.engine.append(t)?;
        }
        Ok(if tokens.is_empty() {
            total
        } else {
            total / tokens.len() as f64
        })
    }
}

/// The hole under the context's position: its absolute byte range and name as written.
fn hole_of(ctx: &Context<'_>) -> Option<((usize, usize), String)> {
    let at = ctx.at.as_ref()?;
    let hole = at.hole()?;
    let span = at.abs(at.item.arena.expr(hole).span);
    let (s, e) = (span.start as usize, span.end as usize);
    Some(((s, e), ctx.doc.text.get(s..e).unwrap_or("?").to_string()))
}

/// The names the bias layer nudges towards: the values in scope and the heads of the
/// semantic loop's candidates.
fn bias_names(ctx: &Context<'_>) -> Vec<String> {
    let mut names: Vec<String> = ctx.locals.iter().map(|l| l.name.clone()).collect();
    if matches!(ctx.expected, Some(rex_compiler::types::Ty::Fun(..))) {
        names.push("\\".to_string());
    }
    for (name, _) in rex_ide::fill::ranked_candidates(ctx).into_iter().take(16) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// Whether a sample is kept: re-checked as a whole, whatever the layers said.
fn judge(oracle: &mut Oracle<'_>, sample: &Sample, round: usize) -> Attempt {
    let problem = if sample.text.is_empty() {
        Some(match sample.end {
            End::DeadEnd => "no token could continue the fill".to_string(),
            _ => "the model wrote nothing".to_string(),
        })
    } else if sample.end == End::Cancelled {
        Some("cancelled".to_string())
    } else if !oracle.fill_ok(&sample.text) {
        Some(match sample.end {
            End::MaxTokens => "unfinished: the token budget ran out".to_string(),
            End::DeadEnd => "unfinished: no token could continue it".to_string(),
            _ => "it does not type-check at the hole".to_string(),
        })
    } else {
        None
    };
    Attempt {
        text: sample.text.clone(),
        round,
        end: sample.end,
        well_typed: problem.is_none(),
        problem,
    }
}

/// Best first by mean log-probability; the same text (spacing aside) once, keeping its
/// best score, a model fill before the candidate it equals.
fn rank(mut fills: Vec<RankedFill>) -> Vec<RankedFill> {
    fills.sort_by(|a, b| {
        b.logprob
            .total_cmp(&a.logprob)
            .then((a.source as u8).cmp(&(b.source as u8)))
    });
    let mut out: Vec<RankedFill> = Vec::new();
    for f in fills {
        let key = normalise(&f.text);
        if !out.iter().any(|g| normalise(&g.text) == key) {
            out.push(f);
        }
    }
    out
}

/// The text as tokens, with parentheses around a single token dropped: `mk(x)`,
/// `mk (x)` and `mk x` are one fill.
fn normalise(s: &str) -> String {
    let (tokens, _) = rex_compiler::syntax::lexer::lex(s);
    let mut words: Vec<&str> = tokens
        .iter()
        .map(|t| &s[t.span.start as usize..t.span.end as usize])
        .collect();
    let mut i = 0;
    while i + 2 < words.len() {
        if words[i] == "(" && words[i + 2] == ")" && !matches!(words[i + 1], "(" | ")") {
            words.remove(i + 2);
            words.remove(i);
            i = i.saturating_sub(1);
        } else {
            i += 1;
        }
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fill(text: &str, logprob: f64, source: FillSource) -> RankedFill {
        RankedFill {
            text: text.into(),
            logprob,
            source,
            rounds: 0,
        }
    }

    #[test]
    fn ranking_is_by_likelihood_without_duplicates() {
        let ranked = rank(vec![
            fill("mk x", -0.5, FillSource::Candidate),
            fill("mk  x", -0.2, FillSource::Model),
            fill("mk(x)", -0.3, FillSource::Model),
            fill("x", -1.0, FillSource::Candidate),
        ]);
        let texts: Vec<&str> = ranked.iter().map(|f| f.text.as_str()).collect();
        assert_eq!(texts, ["mk  x", "x"]);
        assert_eq!(ranked[0].source, FillSource::Model);
    }
}

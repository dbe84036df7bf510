//! The embedded proposer: samples decoded in-process token by token under the hole's
//! grammar, the type oracle and the name bias (`decode`), and candidates scored by the
//! same model. One engine context serves the whole hole: a round's prompt is prefilled
//! once and every sample and score rewinds to its end.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use llguidance::api::TopLevelGrammar;
use llguidance::{Matcher, ParserFactory};
use rand::rngs::StdRng;
use rand::SeedableRng;

use super::{
    budget_for_context, FillError, FillOptions, HoleSetup, Mode, Proposal, Proposer, SampleAsk,
    Score,
};
use crate::decode::{decode, log_softmax, DecodeOptions, End, Layers};
use crate::engine::llama::{EngineOptions, LlamaEngine};
use crate::engine::Engine;
use crate::inject::Signatures;
use crate::model::find_model;
use crate::oracle::Oracle;
use crate::prompt::PromptBudget;

pub struct EmbeddedProposer {
    engine: Box<dyn Engine>,
    /// The grammar compiler for the engine's vocabulary, built once.
    factory: ParserFactory,
    rng: StdRng,
    lark: String,
    names: Vec<String>,
    after: String,
    signatures: Signatures,
    constrain: bool,
    /// The prompt in the engine and its length in tokens.
    prefilled: Option<(String, usize)>,
}

impl EmbeddedProposer {
    /// The model `find_model` picks (`model`, then `REX_MODEL`, then the installed
    /// default), loaded; the error says which file and why.
    pub fn load(
        model: Option<&std::path::Path>,
        opts: EngineOptions,
    ) -> Result<EmbeddedProposer, String> {
        let path = find_model(model).map_err(|e| e.to_string())?;
        let engine = LlamaEngine::load(&path, opts)
            .map_err(|e| format!("cannot load the model `{}`: {e}", path.display()))?;
        EmbeddedProposer::new(Box::new(engine)).map_err(|e| e.to_string())
    }

    pub fn new(engine: Box<dyn Engine>) -> Result<EmbeddedProposer, FillError> {
        let mut factory = ParserFactory::new_simple(&engine.tok_env())
            .map_err(|e| FillError::Grammar(e.to_string()))?;
        // llguidance's own logging goes to stderr; the loop reports through its results.
        factory.set_stderr_log_level(0);
        Ok(EmbeddedProposer {
            engine,
            factory,
            rng: StdRng::seed_from_u64(0),
            lark: String::new(),
            names: Vec::new(),
            after: String::new(),
            signatures: Signatures::default(),
            constrain: true,
            prefilled: None,
        })
    }

    pub fn engine(&mut self) -> &mut dyn Engine {
        self.engine.as_mut()
    }

    /// Puts `text` in the engine as the prompt unless it is there: its length in tokens,
    /// and whether it was evaluated now.
    fn prefill(&mut self, text: &str) -> Result<(usize, bool), FillError> {
        if let Some((p, len)) = &self.prefilled {
            if p == text {
                return Ok((*len, false));
            }
        }
        self.prefilled = None;
        let tokens = self.engine.tokenize(text, true)?;
        self.engine.rewind(0)?;
        self.engine.prefill(&tokens)?;
        self.prefilled = Some((text.to_string(), tokens.len()));
        Ok((tokens.len(), true))
    }

    /// A fresh matcher for the hole's grammar.
    fn matcher(&self) -> Result<Matcher, FillError> {
        let parser = self
            .factory
            .create_parser(TopLevelGrammar::from_lark(self.lark.clone()))
            .map_err(|e| FillError::Grammar(e.to_string()))?;
        Ok(Matcher::new(Ok(parser)))
    }

    /// The log-probability of `text` written after the prompt of `prompt_len` tokens.
    fn score_one(&mut self, prompt_len: usize, text: &str) -> Result<Score, FillError> {
        self.engine.rewind(prompt_len)?;
        let tokens = self.engine.tokenize(&format!(" {text}"), false)?;
        let mut total = 0.0f64;
        for &t in &tokens {
            let lp = log_softmax(self.engine.logits());
            total += f64::from(lp.get(t as usize).copied().unwrap_or(f32::NEG_INFINITY));
            self.engine.append(t)?;
        }
        Ok(Score {
            logprob: total,
            tokens: tokens.len(),
        })
    }
}

impl Proposer for EmbeddedProposer {
    fn mode(&self) -> Mode {
        Mode::TokenLevel
    }

    fn prompt_budget(&mut self, opts: &FillOptions) -> PromptBudget {
        PromptBudget {
            tokens: opts
                .prompt_budget
                .unwrap_or_else(|| budget_for_context(self.engine.context_size(), opts)),
            counter: self.engine.counter(),
        }
    }

    fn begin_hole(&mut self, hole: &HoleSetup, opts: &FillOptions) -> Result<(), FillError> {
        self.rng = StdRng::seed_from_u64(opts.seed);
        self.lark.clone_from(&hole.lark);
        self.names = if opts.name_bias {
            hole.names.clone()
        } else {
            Vec::new()
        };
        self.after.clone_from(&hole.parts.after);
        self.signatures.clone_from(&hole.signatures);
        self.constrain = opts.constrain;
        self.prefilled = None;
        Ok(())
    }

    fn sample(
        &mut self,
        asks: &[SampleAsk],
        oracle: &mut Oracle<'_>,
        progress: &mut dyn FnMut(usize),
        cancel: &AtomicBool,
    ) -> Result<Vec<Proposal>, FillError> {
        let mut out = Vec::with_capacity(asks.len());
        for (i, ask) in asks.iter().enumerate() {
            progress(i);
            // A sample that starts from a prefix has it at the end of its prompt; the
            // round's prompt is prefilled (once) and the decoder writes the prefix.
            let base = ask.prompt.strip_suffix(&ask.prefix).unwrap_or(&ask.prompt);
            let (prompt_len, fresh) = self.prefill(base)?;
            let grammar = Some(self.matcher()?);
            let mut layers = Layers {
                grammar,
                oracle: if self.constrain {
                    Some(&mut *oracle)
                } else {
                    None
                },
                names: &self.names,
                after: &self.after,
                signatures: &self.signatures,
            };
            let opts = DecodeOptions {
                max_tokens: ask.max_tokens,
                temperature: ask.temperature,
                constrain: self.constrain,
                prefix: ask.prefix.clone(),
            };
            let started = Instant::now();
            let sample = decode(
                self.engine.as_mut(),
                prompt_len,
                &mut layers,
                &opts,
                &mut self.rng,
                cancel,
            )?;
            // The prompt's prefill is not decoding time.
            let seconds = started.elapsed().as_secs_f64();
            let cancelled = sample.end == End::Cancelled;
            out.push(Proposal {
                text: sample.text,
                logprob: sample.logprob,
                tokens: sample.tokens,
                decoded: sample.decoded,
                seconds,
                end: sample.end,
                oracle_rejections: sample.oracle_rejections,
                backtracks: sample.backtracks,
                injections: sample.injections,
                prompt_tokens: if fresh { prompt_len } else { 0 },
                pieces: Vec::new(),
            });
            if cancelled {
                break;
            }
        }
        Ok(out)
    }

    fn score(
        &mut self,
        prompt: &str,
        texts: &[String],
        _cancel: &AtomicBool,
    ) -> Result<Vec<Option<Score>>, FillError> {
        let (prompt_len, _) = self.prefill(prompt)?;
        let mut out = Vec::with_capacity(texts.len());
        for text in texts {
            out.push(Some(self.score_one(prompt_len, text)?));
        }
        // Scoring moved the context past the prompt's end; the next prefill starts over.
        self.prefilled = None;
        Ok(out)
    }
}

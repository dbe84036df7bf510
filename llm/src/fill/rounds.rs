//! The fill loop as a sequence of steps. Each step says what the loop needs next (samples
//! or candidate scores) and the driver answers with what a proposer returned; the loop
//! never waits on anything itself, so a native driver (`Filler`) and the browser's
//! asynchronous one run the same rounds.
//!
//! A round asks for `samples` samples of the round's prompt (the first of the first round
//! greedy). Each sample is re-checked whole. A server's ill-typed sample is continued: the
//! longest prefix (at a token and lexeme boundary) that the type oracle accepts and whose
//! continuation grammar can be written goes back with the prompt, and the server writes
//! the rest under that grammar, at most `REPAIR_ROUNDS` times per sample. What is still
//! ill-typed then goes into the next error round's prompt. When a round has a fill (or
//! nothing to tell the model, or the rounds run out), the verified candidates are scored
//! under the last prompt, and everything is ranked.

use rex_compiler::syntax::lexer::lex;
use rex_compiler::syntax::token::Tok;
use rex_ide::context::Context;

use super::hole::HoleSetup;
use super::rank::rank;
use super::{
    Attempt, End, FillError, FillOptions, FillSource, HoleFills, Mode, RankedFill, Score, Stats,
};
use crate::grammar::server;
use crate::oracle::Oracle;
use crate::prompt::{packed, Feedback, PromptBudget};

/// Continuations asked for one server sample before it goes to the error round.
pub const REPAIR_ROUNDS: usize = 2;

/// Prefixes offered to the oracle when looking for where to continue a sample from.
const MAX_CUT_TRIES: usize = 12;

/// Candidates' heads a token-level round 0 also samples from (`seeded`).
pub const MAX_SEEDS: usize = 2;

/// Tokens a continuation may write at least, whatever its prefix used of the budget.
const MIN_CONTINUATION_TOKENS: usize = 8;

/// One sample the loop asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleAsk {
    /// The error round (0: the first).
    pub round: usize,
    /// The sample's index in its round.
    pub index: usize,
    /// The text the model continues: the round's prompt, then `prefix`.
    pub prompt: String,
    /// What the sample already holds (a continuation's prefix; empty for a fresh sample).
    pub prefix: String,
    /// The grammar a server enforces (Lark, ended: `grammar::server`); None for the
    /// token-level decoder, which has the hole's grammar.
    pub grammar: Option<String>,
    /// 0 is greedy.
    pub temperature: f32,
    pub seed: u64,
    pub max_tokens: usize,
}

/// What a proposer made of one ask.
#[derive(Clone, Debug, PartialEq)]
pub struct Proposal {
    /// What the model wrote after the ask's prompt (a server's ending stripped).
    pub text: String,
    /// Sum of the tokens' log-probabilities.
    pub logprob: f64,
    /// Tokens in `text`.
    pub tokens: usize,
    /// Tokens run through the model for it: `tokens`, and those a token-level decoder
    /// dropped by backtracking.
    pub decoded: usize,
    /// This proposal's share of the time spent producing the step's samples (seconds).
    pub seconds: f64,
    pub end: End,
    /// Tokens the oracle refused while decoding (token-level only).
    pub oracle_rejections: usize,
    /// Steps back from dead ends (token-level only).
    pub backtracks: usize,
    /// Signature comments injected (token-level only).
    pub injections: usize,
    /// Prompt tokens evaluated for it (0 when the prompt was already there).
    pub prompt_tokens: usize,
    /// Where each token ends in `text` (bytes) and its log-probability; empty when the
    /// proposer does not say (then a repair can only continue the whole text).
    pub pieces: Vec<(usize, f64)>,
}

/// What the loop needs next.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Sample(Vec<SampleAsk>),
    /// The mean log-probability of each text written after `prompt`.
    Score {
        prompt: String,
        texts: Vec<String>,
    },
    Done,
}

/// A sample on its way: the ask, and for a continuation what its prefix carries.
#[derive(Clone, Debug)]
struct Pending {
    ask: SampleAsk,
    /// Token ends (in `ask.prefix`) and log-probabilities of the prefix.
    pieces: Vec<(usize, f64)>,
    repairs: usize,
}

pub struct FillLoop {
    hole: HoleSetup,
    opts: FillOptions,
    mode: Mode,
    round: usize,
    /// The current round's prompt.
    prompt: String,
    budget: PromptBudget,
    feedback: Vec<Feedback>,
    round_feedback: Vec<Feedback>,
    pending: Vec<Pending>,
    attempts: Vec<Attempt>,
    fills: Vec<RankedFill>,
    stats: Stats,
    /// Seconds spent on samples (the proposals' `seconds`).
    decoding: f64,
    /// Samples of this round asked for in place of ones stopped in a loop.
    replaced: usize,
    cancelled: bool,
    scoring: bool,
}

impl FillLoop {
    /// The loop for the hole under `ctx`, its prompts packed under `budget`. Fails when
    /// there is no hole there, or when the prompt's parts that are always kept (the program
    /// before the hole, its type) do not fit the budget.
    pub fn new(
        ctx: &Context<'_>,
        oracle: &mut Oracle<'_>,
        opts: &FillOptions,
        mode: Mode,
        budget: PromptBudget,
    ) -> Result<FillLoop, FillError> {
        let not_a_hole = || FillError::NotAHole(ctx.doc.position(ctx.offset));
        let hole = HoleSetup::new(ctx, oracle, opts).ok_or_else(not_a_hole)?;
        let first = packed(&hole.parts, opts.context, opts.prefix, &[], &budget)
            .map_err(FillError::PromptTooLong)?;
        let stats = Stats {
            prompt_tokens: first.tokens,
            context_parts: first.parts,
            dropped: first.dropped,
            ..Stats::default()
        };
        Ok(FillLoop {
            hole,
            opts: opts.clone(),
            mode,
            round: 0,
            prompt: first.text,
            budget,
            feedback: Vec::new(),
            round_feedback: Vec::new(),
            pending: Vec::new(),
            attempts: Vec::new(),
            fills: Vec::new(),
            stats,
            decoding: 0.0,
            replaced: 0,
            cancelled: false,
            scoring: false,
        })
    }

    pub fn hole(&self) -> &HoleSetup {
        &self.hole
    }

    /// The first step.
    pub fn start(&mut self) -> Step {
        self.round_asks()
    }

    /// The proposals for the last `Step::Sample`, in its order (fewer when cancelled).
    pub fn take_samples(&mut self, oracle: &mut Oracle<'_>, proposals: Vec<Proposal>) -> Step {
        let pending = std::mem::take(&mut self.pending);
        if proposals.len() < pending.len() {
            self.cancelled = true;
        }
        let mut next: Vec<Pending> = Vec::new();
        for (p, prop) in pending.into_iter().zip(proposals) {
            self.stats.tokens += prop.decoded;
            self.stats.oracle_rejections += prop.oracle_rejections;
            self.stats.backtracks += prop.backtracks;
            self.stats.injections += prop.injections;
            self.decoding += prop.seconds;
            self.stats.prefilled_tokens += prop.prompt_tokens;
            let raw = format!("{}{}", p.ask.prefix, prop.text);
            let text = raw.trim().to_string();
            let mut pieces = p.pieces.clone();
            let shift = p.ask.prefix.len();
            pieces.extend(prop.pieces.iter().map(|(end, lp)| (end + shift, *lp)));
            let prefix_logprob: f64 = p.pieces.iter().map(|(_, lp)| lp).sum();
            let logprob = prefix_logprob + prop.logprob;
            let tokens = p.pieces.len() + prop.tokens;
            let attempt = judge(oracle, &text, prop.end, p.ask.round);
            if prop.end == End::Cancelled {
                self.cancelled = true;
            }
            if attempt.well_typed {
                self.fills.push(RankedFill {
                    text: text.clone(),
                    logprob: if tokens == 0 {
                        logprob
                    } else {
                        logprob / tokens as f64
                    },
                    tokens,
                    source: FillSource::Model,
                    rounds: p.ask.round,
                });
            } else if prop.end == End::Repeating {
                // A loop tells the next round nothing; a fresh sample takes its place,
                // as many times in a round as the round has samples.
                if !self.cancelled
                    && self.replaced < self.opts.samples
                    && self.opts.temperature > 0.0
                {
                    let index = self.opts.samples.max(1) + self.replaced;
                    self.replaced += 1;
                    next.push(self.fresh(index, self.grammar()));
                }
            } else if !self.cancelled && !text.is_empty() {
                let repaired = (self.mode == Mode::Server && p.repairs < REPAIR_ROUNDS)
                    .then(|| self.continuation(oracle, &p, &raw, &pieces))
                    .flatten();
                match repaired {
                    Some(c) => next.push(c),
                    None => self.round_feedback.push(Feedback {
                        text: text.clone(),
                        problem: attempt.problem.clone().unwrap_or_default(),
                    }),
                }
            }
            self.attempts.push(attempt);
        }
        if !next.is_empty() && !self.cancelled {
            let asks = next.iter().map(|p| p.ask.clone()).collect();
            self.pending = next;
            return Step::Sample(asks);
        }
        self.end_round()
    }

    /// The scores for the last `Step::Score`, in its order.
    pub fn take_scores(&mut self, scores: Vec<Option<Score>>) -> Step {
        for (text, score) in self.hole.candidates.iter().zip(scores) {
            self.fills.push(RankedFill {
                text: text.clone(),
                logprob: score.map_or(UNSCORED, |s| s.mean()),
                tokens: score.map_or(0, |s| s.tokens),
                source: FillSource::Candidate,
                rounds: 0,
            });
        }
        Step::Done
    }

    /// The result; `seconds` the whole time.
    pub fn finish(self, seconds: f64) -> HoleFills {
        let mut stats = self.stats;
        stats.seconds = seconds;
        stats.tokens_per_second = if self.decoding > 0.0 {
            stats.tokens as f64 / self.decoding
        } else {
            0.0
        };
        HoleFills {
            name: self.hole.name,
            range: self.hole.range,
            expected_type: self.hole.expected_type,
            fills: rank(self.fills),
            attempts: self.attempts,
            stats,
        }
    }

    /// The asks of the current round.
    fn round_asks(&mut self) -> Step {
        // Round 0's prompt was packed when the loop was made. A later round's adds the
        // feedback, which scores above headers (a failed attempt tells the model more than
        // one more header) and is dropped, oldest first, before the types; the pieces
        // always kept fitted in round 0, so it fits.
        if self.round > 0 {
            let (parts, level, prefix) = (&self.hole.parts, self.opts.context, self.opts.prefix);
            if let Ok(p) = packed(parts, level, prefix, &self.feedback, &self.budget) {
                self.prompt = p.text;
            }
        }
        if std::env::var_os("REX_FILL_SHOW_PROMPT").is_some() {
            eprintln!(
                "--- prompt (round {}) ---\n{}\n--- end of prompt ---",
                self.round, self.prompt
            );
        }
        self.replaced = 0;
        let grammar = self.grammar();
        self.pending = (0..self.opts.samples.max(1))
            .map(|index| self.fresh(index, grammar.clone()))
            .collect();
        if self.round == 0 && self.mode == Mode::TokenLevel {
            let seeded = self.seeded();
            self.pending.extend(seeded);
        }
        Step::Sample(self.pending.iter().map(|p| p.ask.clone()).collect())
    }

    /// The grammar a server is sent with a fresh sample; None for the token-level decoder.
    fn grammar(&self) -> Option<String> {
        (self.mode == Mode::Server).then(|| server::whole(&self.hole.scope, &self.hole.parts.after))
    }

    /// A fresh sample of the current round's prompt: the round's sample `index` (indices
    /// past the round's samples replace samples stopped in a loop), with `grammar`.
    fn fresh(&self, index: usize, grammar: Option<String>) -> Pending {
        // Each round has room for its samples and as many replacements.
        let per_round = 2 * self.opts.samples.max(1);
        Pending {
            ask: SampleAsk {
                round: self.round,
                index,
                prompt: self.prompt.clone(),
                prefix: String::new(),
                grammar,
                temperature: if index == 0 && self.round == 0 {
                    0.0
                } else {
                    self.opts.temperature
                },
                // Distinct seeds: a server given the same seed twice samples the same.
                seed: self
                    .opts
                    .seed
                    .wrapping_add((self.round * per_round + index) as u64),
                max_tokens: self.opts.max_tokens,
            },
            pieces: Vec::new(),
            repairs: 0,
        }
    }

    /// Greedy samples that start from the heads of the semantic loop's candidates that
    /// still have a hole (`Some ?` gives ` Some`): the model writes what the candidate
    /// leaves open. A small model whose own first words all fail the constraints often
    /// finishes such a head well. Token-level only (a server's reply would not score
    /// the head).
    fn seeded(&self) -> Vec<Pending> {
        let mut heads: Vec<&str> = Vec::new();
        for c in &self.hole.candidates {
            let (tokens, _) = lex(c);
            let Some(hole) = tokens.iter().find(|t| matches!(t.tok, Tok::Hole(_))) else {
                continue;
            };
            let head = c[..hole.span.start as usize].trim_end();
            if !head.is_empty() && !heads.contains(&head) {
                heads.push(head);
            }
            if heads.len() == MAX_SEEDS {
                break;
            }
        }
        let first = 2 * self.opts.samples.max(1);
        heads
            .into_iter()
            .enumerate()
            .map(|(i, head)| {
                let mut p = self.fresh(first + i, None);
                p.ask.prefix = format!(" {head}");
                p.ask.prompt = format!("{}{}", self.prompt, p.ask.prefix);
                p.ask.temperature = 0.0;
                p
            })
            .collect()
    }

    /// After a round: another round with the failures in the prompt, or the scoring.
    fn end_round(&mut self) -> Step {
        let feedback = std::mem::take(&mut self.round_feedback);
        let more_rounds = self.fills.is_empty()
            && !feedback.is_empty()
            && !self.cancelled
            && self.round < self.opts.error_rounds;
        if more_rounds {
            self.feedback.extend(feedback);
            self.round += 1;
            return self.round_asks();
        }
        if self.scoring || self.cancelled || self.hole.candidates.is_empty() {
            return Step::Done;
        }
        self.scoring = true;
        // The prompt of the last round, as the model's own samples had it.
        Step::Score {
            prompt: self.prompt.clone(),
            texts: self.hole.candidates.clone(),
        }
    }

    /// The continuation of an ill-typed sample `raw` (what the sample wrote, whole) from
    /// the longest prefix the oracle accepts; None when there is none worth asking for.
    fn continuation(
        &self,
        oracle: &mut Oracle<'_>,
        p: &Pending,
        raw: &str,
        pieces: &[(usize, f64)],
    ) -> Option<Pending> {
        let mut cuts: Vec<usize> = pieces.iter().map(|(end, _)| *end).collect();
        cuts.push(raw.len());
        cuts.retain(|c| *c > 0 && *c <= raw.len() && is_cut(raw, *c));
        cuts.sort_unstable();
        cuts.dedup();
        let mut tries = 0;
        let cut = cuts.into_iter().rev().find_map(|cut| {
            if tries >= MAX_CUT_TRIES {
                return None;
            }
            let prefix = &raw[..cut];
            let whole = cut == raw.len();
            let grammar =
                server::continuation(&self.hole.scope, prefix, &self.hole.parts.after, whole)?;
            tries += 1;
            oracle.prefix_ok(prefix.trim()).then_some((cut, grammar))
        })?;
        let (cut, grammar) = cut;
        let kept: Vec<(usize, f64)> = pieces.iter().copied().filter(|(e, _)| *e <= cut).collect();
        let prefix = raw[..cut].to_string();
        Some(Pending {
            ask: SampleAsk {
                round: p.ask.round,
                index: p.ask.index,
                prompt: format!("{}{prefix}", self.prompt),
                grammar: Some(grammar),
                temperature: p.ask.temperature,
                seed: p.ask.seed.wrapping_add(1000 * (p.repairs as u64 + 1)),
                max_tokens: self
                    .opts
                    .max_tokens
                    .saturating_sub(kept.len())
                    .max(MIN_CONTINUATION_TOKENS),
                prefix,
            },
            pieces: kept,
            repairs: p.repairs + 1,
        })
    }
}

/// The score of a candidate the proposer could not score: below any real one, and still
/// a number in JSON.
pub const UNSCORED: f64 = -1000.0;

/// Whether a sample may be continued from byte `cut` of `raw`: not inside a character, a
/// word or a string literal.
fn is_cut(raw: &str, cut: usize) -> bool {
    if !raw.is_char_boundary(cut) {
        return false;
    }
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let before = raw[..cut].chars().next_back();
    let after = raw[cut..].chars().next();
    if before.is_some_and(word) && after.is_some_and(word) {
        return false;
    }
    let mut inside = false;
    let mut escaped = false;
    for c in raw[..cut].chars() {
        match (inside, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, '\\') => escaped = true,
            (_, false, '"') => inside = !inside,
            _ => {}
        }
    }
    !inside
}

/// Whether a sample is kept: re-checked as a whole, whatever the layers said.
fn judge(oracle: &mut Oracle<'_>, text: &str, end: End, round: usize) -> Attempt {
    let problem = if text.is_empty() {
        Some(match end {
            End::DeadEnd => "no token could continue the fill".to_string(),
            _ => "the model wrote nothing".to_string(),
        })
    } else if end == End::Cancelled {
        Some("cancelled".to_string())
    } else if !oracle.fill_ok(text) {
        Some(match end {
            End::MaxTokens => "unfinished: the token budget ran out".to_string(),
            End::Repeating => "unfinished: it went round in a loop".to_string(),
            End::DeadEnd => "unfinished: no token could continue it".to_string(),
            _ => "it does not type-check at the hole".to_string(),
        })
    } else {
        None
    };
    Attempt {
        text: text.to_string(),
        round,
        end,
        well_typed: problem.is_none(),
        problem,
    }
}

#[cfg(test)]
mod tests {
    use super::is_cut;

    #[test]
    fn cuts_fall_between_words_and_outside_strings() {
        assert!(is_cut(" f x", 2));
        assert!(!is_cut(" fo x", 2));
        assert!(is_cut("f (x", 3));
        assert!(!is_cut("f \"a b\"", 5));
        assert!(is_cut("f \"a b\" c", 7));
    }
}

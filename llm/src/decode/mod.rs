//! One sample of a fill, decoded token by token under the constraint layers. Like a
//! sampler chain, each layer does one thing to the model's candidates:
//!
//! 1. **order**: the model's logits, with temperature and Gumbel noise (seeded), give the
//!    order in which tokens are tried; the most likely come first.
//! 2. **bias** (optional): names the semantic loop finds type-compatible at the hole get a
//!    bounded bonus where the model starts a name (a nudge, never a mask).
//! 3. **grammar**: llguidance's mask for the per-hole Lark grammar.
//! 4. **types**: the oracle keeps a token only if the text it makes can still be completed
//!    to a well-typed fill.
//!
//! Between tokens, when the model has written a function's name and goes on to apply it,
//! the function's signature may be injected into its context (`crate::inject`).
//!
//! The first token that passes every layer is taken; the model's first choices pass
//! almost always, so the full mask is walked only when the first `FIRST_TRIES` fail. The
//! sample ends where the grammar accepts and the model ends the expression (its most
//! likely token is an end, a new line, or something the grammar cannot continue with),
//! and the text is checked once more as a whole.
//!
//! When no token passes, or the model started a word that every way it would go on is
//! refused, the sample steps back a token and tries the next choice there (a bounded
//! number of times). A sample may start from a given prefix (a candidate's head), written
//! as if the model had. `text` holds what a fill may look like as it is written, `choice`
//! the order tokens are tried in.

mod choice;
mod text;

use std::sync::atomic::{AtomicBool, Ordering};

use llguidance::Matcher;
use rand::rngs::StdRng;

use choice::{fallback, token_order};
use text::{ends_fill, repeating, spacing_ok, word_started_at};

pub use choice::NAME_BONUS;
pub use text::LOOP_REPEATS;

use crate::engine::{Engine, EngineError, Token};
use crate::inject::{applied_name, inject, Signatures};
use crate::oracle::Oracle;

/// Tokens tried in the model's order before the whole grammar mask is walked.
pub const FIRST_TRIES: usize = 24;

/// Tokens of the full mask the fallback walk offers the oracle before giving up.
pub const MAX_FALLBACK_TRIES: usize = 512;

/// Times one sample may step back from a dead end (a prefix the oracle kept but that no
/// token continues) to try the next choice of the token before it.
pub const MAX_BACKTRACKS: usize = 8;

/// How one sample is decoded.
#[derive(Clone, Debug)]
pub struct DecodeOptions {
    pub max_tokens: usize,
    /// 0 is greedy.
    pub temperature: f32,
    /// Apply the grammar mask and the type oracle (off: the model alone, for the ablation).
    pub constrain: bool,
    /// Text the sample starts from, written as if the model had (a candidate's head); the
    /// sample's `text` is what comes after it.
    pub prefix: String,
}

pub use crate::fill::End;

/// One decoded sample.
#[derive(Clone, Debug)]
pub struct Sample {
    pub text: String,
    /// Sum of the model's log-probabilities (temperature 1) of the tokens taken.
    pub logprob: f64,
    pub tokens: usize,
    pub end: End,
    /// Tokens the oracle refused (the grammar's refusals are not counted).
    pub oracle_rejections: usize,
    /// Signature comments injected into the model's context.
    pub injections: usize,
    /// Tokens run through the model, those dropped by backtracking included.
    pub decoded: usize,
    /// Steps back from dead ends.
    pub backtracks: usize,
}

/// The constraint layers of one sample.
pub struct Layers<'a, 'db> {
    /// The grammar, fresh (nothing consumed) for this sample.
    pub grammar: Option<Matcher>,
    pub oracle: Option<&'a mut Oracle<'db>>,
    /// Names the semantic loop offers at the hole, for the bias layer.
    pub names: &'a [String],
    /// The program text after the hole: a model that starts writing it has ended the fill.
    pub after: &'a str,
    /// Signatures to inject when the model applies a function (empty: no injection).
    pub signatures: &'a Signatures,
}

/// Decodes one sample after the prompt (the engine holds the prompt's `prompt_len` tokens).
pub fn decode(
    engine: &mut dyn Engine,
    prompt_len: usize,
    layers: &mut Layers<'_, '_>,
    opts: &DecodeOptions,
    rng: &mut StdRng,
    cancel: &AtomicBool,
) -> Result<Sample, EngineError> {
    engine.rewind(prompt_len)?;
    let mut bytes: Vec<u8> = Vec::new();
    let mut sample = Sample {
        text: String::new(),
        logprob: 0.0,
        tokens: 0,
        end: End::MaxTokens,
        oracle_rejections: 0,
        injections: 0,
        decoded: 0,
        backtracks: 0,
    };
    // The tokens taken, to step back from a dead end; and the tokens already tried and
    // given up at the current step.
    let mut taken: Vec<Taken> = Vec::new();
    let mut excluded: Vec<Token> = Vec::new();
    // The byte length of the text when a signature was last injected (once per name).
    let mut injected_at = None;
    // Unconstrained, the grammar only tells where the expression ends; once the model
    // leaves it, it is dropped and the sample runs to a new line.
    let mut grammar = layers.grammar.take();
    let trace = std::env::var_os("REX_FILL_TRACE").is_some();
    for t in engine.tokenize(&opts.prefix, false)? {
        let lp = log_softmax(engine.logits())[t as usize];
        if let Some(m) = grammar.as_mut() {
            if m.consume_token(t).is_err() || m.is_error() {
                sample.end = End::DeadEnd;
                return Ok(sample);
            }
        }
        write(engine, t, lp, &mut bytes, &mut sample)?;
    }
    let seeded = bytes.len();
    while sample.tokens < opts.max_tokens {
        if cancel.load(Ordering::Relaxed) {
            sample.end = End::Cancelled;
            break;
        }
        let logits = engine.logits().to_vec();
        let log_probs = log_softmax(&logits);
        let top = argmax(&logits);
        let accepting = grammar
            .as_mut()
            .is_some_and(|m| m.is_accepting().unwrap_or(false));
        let mask = match grammar.as_mut() {
            Some(m) => m.compute_mask().ok(),
            None => None,
        };
        let allowed = |t: Token| mask.as_ref().is_none_or(|m| m.is_allowed(t));
        let top_ends = engine.is_end(top)
            || ends_fill(&engine.token_bytes(top), layers.after)
            || (mask.is_some() && !allowed(top));
        let text_so_far = String::from_utf8_lossy(&bytes).into_owned();
        let nonempty = !text_so_far.trim().is_empty();
        if nonempty && top_ends && (accepting || grammar.is_none()) {
            let complete = match layers.oracle.as_deref_mut() {
                Some(o) if opts.constrain => o.fill_ok(text_so_far.trim()),
                _ => true,
            };
            if complete {
                sample.end = End::Finished;
                break;
            }
        }
        let order = token_order(&logits, layers.names, engine, &bytes, opts.temperature, rng);
        let mut chosen = None;
        for &t in order.iter().take(FIRST_TRIES) {
            if engine.is_end(t) || excluded.contains(&t) {
                continue;
            }
            if opts.constrain && !allowed(t) {
                continue;
            }
            // A new line ends a fill (the fill is written on one line: a line starting
            // in column 0 would begin a new declaration).
            if engine.token_bytes(t).contains(&b'\n') && (nonempty || opts.constrain) {
                continue;
            }
            if opts.constrain && !spacing_ok(&bytes, &engine.token_bytes(t)) {
                continue;
            }
            if opts.constrain && !oracle_keeps(layers, &bytes, engine, t, &mut sample) {
                continue;
            }
            chosen = Some(t);
            break;
        }
        let first_choice = chosen.is_some();
        // The model started a word and every way it would go on is refused: starting
        // differently beats finishing the word as it never meant to (`i` of its `i32`
        // made `if`). Step back, while steps back remain.
        let regret = chosen.is_none()
            && opts.constrain
            && sample.backtracks < MAX_BACKTRACKS
            && taken
                .last()
                .is_some_and(|last| word_started_at(&bytes, last.bytes));
        if chosen.is_none() && opts.constrain && !regret {
            let allowed = |t: Token| allowed(t) && !excluded.contains(&t);
            chosen = fallback(engine, &logits, &allowed, layers, &bytes, &mut sample);
        }
        if trace {
            trace_step(engine, &log_probs, &order, &bytes, chosen, first_choice);
        }
        let Some(t) = chosen else {
            // A dead end: the oracle kept a prefix no token continues. Step back and try
            // the next choice there, a bounded number of times.
            let back = opts.constrain && sample.backtracks < MAX_BACKTRACKS;
            if let Some(last) = taken.pop().filter(|_| back) {
                engine.rewind(last.position)?;
                if let Some(m) = grammar.as_mut() {
                    if m.rollback(1).is_err() {
                        sample.end = End::DeadEnd;
                        break;
                    }
                }
                if injected_at.is_some_and(|at| at > last.bytes) {
                    injected_at = None;
                }
                bytes.truncate(last.bytes);
                sample.logprob = last.logprob;
                sample.tokens -= 1;
                sample.backtracks += 1;
                excluded = last.excluded;
                excluded.push(last.token);
                continue;
            }
            sample.end = End::DeadEnd;
            break;
        };
        // The model is about to apply a function: its signature goes into the context
        // first, and the next token is chosen again in its light (once per position).
        if !layers.signatures.is_empty() && injected_at != Some(bytes.len()) {
            let comment = applied_name(&bytes, &engine.token_bytes(t))
                .and_then(|n| layers.signatures.comment(n));
            if let Some(comment) = comment {
                injected_at = Some(bytes.len());
                if inject(engine, &comment)? > 0 {
                    sample.injections += 1;
                    continue;
                }
            }
        }
        if let Some(m) = grammar.as_mut() {
            if m.consume_token(t).is_err() || m.is_error() {
                if opts.constrain {
                    sample.end = End::DeadEnd;
                    break;
                }
                grammar = None;
            }
        }
        taken.push(Taken {
            token: t,
            position: engine.position(),
            bytes: bytes.len(),
            logprob: sample.logprob,
            excluded: std::mem::take(&mut excluded),
        });
        write(engine, t, log_probs[t as usize], &mut bytes, &mut sample)?;
        // A small model that has fallen into a loop stays in it until the budget runs
        // out; the tokens are better spent on another sample.
        if repeating(&bytes) {
            sample.end = End::Repeating;
            break;
        }
    }
    let text = String::from_utf8_lossy(&bytes[seeded..]);
    sample.text = if seeded == 0 {
        text.trim().to_string()
    } else {
        text.trim_end().to_string()
    };
    Ok(sample)
}

/// Token `t`, of log-probability `lp`, written: onto the text, the sample's counts and the
/// engine's context.
fn write(
    engine: &mut dyn Engine,
    t: Token,
    lp: f32,
    bytes: &mut Vec<u8>,
    sample: &mut Sample,
) -> Result<(), EngineError> {
    bytes.extend_from_slice(&engine.token_bytes(t));
    sample.logprob += f64::from(lp);
    sample.tokens += 1;
    sample.decoded += 1;
    engine.append(t)
}

/// With `REX_FILL_TRACE` set, each step goes to stderr: the text so far, the model's most
/// likely tokens, and the token taken (from the first tries or the fallback walk).
fn trace_step(
    engine: &dyn Engine,
    log_probs: &[f32],
    order: &[Token],
    bytes: &[u8],
    chosen: Option<Token>,
    first_choice: bool,
) {
    let show = |t: Token| format!("{:?}", String::from_utf8_lossy(&engine.token_bytes(t)));
    let top: Vec<String> = order
        .iter()
        .take(6)
        .map(|&t| format!("{} {:.2}", show(t), log_probs[t as usize]))
        .collect();
    let taken = match chosen {
        Some(t) if first_choice => show(t),
        Some(t) => format!("{} (fallback)", show(t)),
        None => "none".to_string(),
    };
    eprintln!(
        "[trace] {:?} | top: {} | took {taken}",
        String::from_utf8_lossy(bytes),
        top.join(", ")
    );
}

/// A token taken, with what is needed to step back to just before it.
struct Taken {
    token: Token,
    /// The engine's position before the token.
    position: usize,
    /// The text's length before the token.
    bytes: usize,
    logprob: f64,
    /// Tokens given up at that step before this one was taken.
    excluded: Vec<Token>,
}

/// Whether the oracle keeps the text `bytes` + token `t` (text cut inside a UTF-8
/// character is kept until the character is whole).
pub(super) fn oracle_keeps(
    layers: &mut Layers<'_, '_>,
    bytes: &[u8],
    engine: &dyn Engine,
    t: Token,
    sample: &mut Sample,
) -> bool {
    let Some(oracle) = layers.oracle.as_deref_mut() else {
        return true;
    };
    let mut next = bytes.to_vec();
    next.extend_from_slice(&engine.token_bytes(t));
    let Ok(text) = std::str::from_utf8(&next) else {
        return true;
    };
    let ok = oracle.prefix_ok(text);
    if !ok {
        sample.oracle_rejections += 1;
    }
    ok
}

fn argmax(xs: &[f32]) -> Token {
    let mut best = 0;
    for (i, x) in xs.iter().enumerate() {
        if *x > xs[best] {
            best = i;
        }
    }
    best as Token
}

/// Log-probabilities of the logits (temperature 1).
pub fn log_softmax(logits: &[f32]) -> Vec<f32> {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f32 = logits.iter().map(|x| (x - max).exp()).sum();
    let log_sum = sum.ln() + max;
    logits.iter().map(|x| x - log_sum).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_softmax_sums_to_one() {
        let lp = log_softmax(&[1.0, 2.0, 3.0]);
        let total: f32 = lp.iter().map(|x| x.exp()).sum();
        assert!((total - 1.0).abs() < 1e-5);
        assert!(lp[2] > lp[1] && lp[1] > lp[0]);
    }
}

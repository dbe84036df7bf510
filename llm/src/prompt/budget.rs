//! Packing the prompt under a token budget: the pieces are rendered, counted with the
//! model's tokenizer (or an estimate where there is none), and while the text is too long
//! the kept piece with the lowest score is dropped whole, never cut. The pieces that are
//! always kept (the hole's type, the program before the hole) must fit on their own, or
//! the prompt is refused with the figures.

use std::sync::Arc;

use super::{render, Piece};

/// Counts the tokens of a text.
#[derive(Clone)]
pub struct TokenCounter(Arc<dyn Fn(&str) -> usize + Send + Sync>);

impl TokenCounter {
    pub fn new(count: impl Fn(&str) -> usize + Send + Sync + 'static) -> TokenCounter {
        TokenCounter(Arc::new(count))
    }

    /// Where no tokenizer can be asked: one token per two bytes, which over-counts every
    /// tokenizer seen on code (they average three to four bytes a token), so a prompt that
    /// fits the estimate fits the model.
    pub fn estimate() -> TokenCounter {
        TokenCounter::new(|text| text.len().div_ceil(2))
    }

    pub fn count(&self, text: &str) -> usize {
        (self.0)(text)
    }
}

impl std::fmt::Debug for TokenCounter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenCounter")
    }
}

/// How many tokens the prompt may take, and how they are counted.
#[derive(Clone, Debug)]
pub struct PromptBudget {
    pub tokens: usize,
    pub counter: TokenCounter,
}

/// A prompt that fits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed {
    pub text: String,
    pub tokens: usize,
    /// The labels of the pieces in it, in order.
    pub parts: Vec<String>,
    /// The labels of the pieces dropped, in the order they were dropped.
    pub dropped: Vec<String>,
}

/// The pieces that are always kept need more than the budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromptTooLong {
    pub needed: usize,
    pub budget: usize,
}

/// The pieces packed under `budget`.
pub(crate) fn pack(pieces: &[Piece], budget: &PromptBudget) -> Result<Packed, PromptTooLong> {
    let mut keep = vec![true; pieces.len()];
    let mut dropped: Vec<String> = Vec::new();
    loop {
        let text = render(pieces, &keep);
        let tokens = budget.counter.count(&text);
        if tokens <= budget.tokens {
            let parts = pieces
                .iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(p, _)| p.label.clone())
                .collect();
            return Ok(Packed {
                text,
                tokens,
                parts,
                dropped,
            });
        }
        // The lowest score goes first; of equal scores, the later piece.
        let victim = pieces
            .iter()
            .enumerate()
            .filter(|(i, p)| keep[*i] && p.score.is_some())
            .min_by_key(|(i, p)| (p.score, std::cmp::Reverse(*i)))
            .map(|(i, _)| i);
        match victim {
            Some(i) => {
                keep[i] = false;
                dropped.push(pieces[i].label.clone());
            }
            None => {
                return Err(PromptTooLong {
                    needed: tokens,
                    budget: budget.tokens,
                })
            }
        }
    }
}

//! Whether a text is a sentence of a Lark grammar, without a model: a vocabulary of the 256
//! single bytes plus an end-of-sequence token, and llguidance's [`Matcher`] driven byte by
//! byte. For tests (the grammar against every conformance expression, the fill loop's
//! grammars) and to check what a remote engine returned against the grammar it was sent.

use std::sync::Arc;

use llguidance::api::TopLevelGrammar;
use llguidance::{Matcher, ParserFactory};
use toktrie::{ApproximateTokEnv, TokEnv, TokRxInfo, TokTrie, TokenId};

/// The end-of-sequence token of [`byte_env`] (after the 256 bytes).
pub const EOS: TokenId = 256;

/// A token environment whose token `b` is the byte `b`, and [`EOS`].
pub fn byte_env() -> TokEnv {
    let mut words: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
    // A special token: toktrie marks them with a leading 0xFF.
    words.push(b"\xFF<|eos|>".to_vec());
    let info = TokRxInfo::new(words.len() as u32, EOS);
    Arc::new(ApproximateTokEnv::new(TokTrie::from(&info, &words)))
}

/// How a text fared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The whole text is a sentence.
    Accepted,
    /// The byte at this offset cannot continue any sentence.
    Rejected { at: usize },
    /// Every byte was consumed but the text is only a prefix of sentences.
    Incomplete,
}

/// Compiles grammars against [`byte_env`].
pub struct ByteChecker {
    factory: ParserFactory,
}

/// One compiled grammar; each check starts from a copy of its fresh matcher.
pub struct CompiledGrammar {
    fresh: Matcher,
}

impl ByteChecker {
    pub fn new() -> Result<ByteChecker, String> {
        let mut factory = ParserFactory::new_simple(&byte_env()).map_err(|e| e.to_string())?;
        factory.quiet();
        Ok(ByteChecker { factory })
    }

    /// Compiles `lark`; an error names what llguidance could not read.
    pub fn compile(&self, lark: &str) -> Result<CompiledGrammar, String> {
        let grammar = TopLevelGrammar::from_lark(lark.to_string());
        let parser = self
            .factory
            .create_parser(grammar)
            .map_err(|e| e.to_string())?;
        let fresh = Matcher::new(Ok(parser));
        match fresh.get_error() {
            Some(e) => Err(e),
            None => Ok(CompiledGrammar { fresh }),
        }
    }
}

impl CompiledGrammar {
    /// Feeds `text` byte by byte.
    pub fn check(&self, text: &str) -> Verdict {
        let mut m = self.fresh.deep_clone();
        for (i, b) in text.bytes().enumerate() {
            if m.consume_token(TokenId::from(b)).is_err() || m.is_error() {
                return Verdict::Rejected { at: i };
            }
        }
        // A grammar that cannot go on (one that ends with a fixed lexeme) has stopped.
        if m.is_stopped() && !m.is_error() {
            return Verdict::Accepted;
        }
        if m.is_accepting().unwrap_or(false) && m.consume_token(EOS).is_ok() {
            Verdict::Accepted
        } else {
            Verdict::Incomplete
        }
    }

    pub fn accepts(&self, text: &str) -> bool {
        self.check(text) == Verdict::Accepted
    }

    /// Whether `text` can still be continued into a sentence (or is one).
    pub fn accepts_prefix(&self, text: &str) -> bool {
        !matches!(self.check(text), Verdict::Rejected { .. })
    }
}

/// Whether `text` is a whole sentence of `lark`; an error when the grammar does not
/// compile.
pub fn accepts(lark: &str, text: &str) -> Result<bool, String> {
    Ok(ByteChecker::new()?.compile(lark)?.accepts(text))
}

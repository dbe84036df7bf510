//! The language-model engines behind one trait: what the decoder needs from a model is a
//! context it can extend one token at a time, the next token's logits, a way back to an
//! earlier position (so that samples share one prefilled prompt), and the vocabulary's
//! bytes (for llguidance's token masks and for reading the text back).

pub mod llama;

/// A token id of the model's vocabulary (llguidance's `TokenId`).
pub type Token = u32;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// The model file could not be loaded.
    Load(String),
    /// A context (KV cache) could not be made.
    Context(String),
    /// The text does not fit the context window.
    ContextFull { needed: usize, size: usize },
    /// The model failed to evaluate a batch.
    Decode(String),
    /// Text that cannot be tokenized.
    Tokenize(String),
    /// `rewind` past the end of the context.
    Rewind { to: usize, len: usize },
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Load(e) => write!(f, "cannot load the model: {e}"),
            EngineError::Context(e) => write!(f, "cannot make a model context: {e}"),
            EngineError::ContextFull { needed, size } => write!(
                f,
                "the prompt and fill need {needed} tokens but the model's context holds {size}: \
                 raise it with `--context-size` (`contextSize` in the LSP and MCP model \
                 options), or lower `--prompt-budget` or `--max-tokens`"
            ),
            EngineError::Decode(e) => write!(f, "the model failed to evaluate: {e}"),
            EngineError::Tokenize(e) => write!(f, "cannot tokenize: {e}"),
            EngineError::Rewind { to, len } => {
                write!(f, "cannot rewind to token {to}: the context holds {len}")
            }
        }
    }
}

impl std::error::Error for EngineError {}

/// A model with one context that grows a token at a time.
pub trait Engine {
    /// `text` as tokens, with the model's beginning-of-text token first when `add_bos`.
    fn tokenize(&self, text: &str, add_bos: bool) -> Result<Vec<Token>, EngineError>;
    /// The bytes one token stands for (empty for control tokens).
    fn token_bytes(&self, t: Token) -> Vec<u8>;
    /// The text of `tokens` (invalid UTF-8 replaced).
    fn detokenize(&self, tokens: &[Token]) -> String {
        let bytes: Vec<u8> = tokens.iter().flat_map(|t| self.token_bytes(*t)).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }
    fn vocab_size(&self) -> usize;
    /// An end-of-generation token.
    fn is_end(&self, t: Token) -> bool;
    /// Appends `tokens` (evaluated in batches); `logits` are then those after the last.
    fn prefill(&mut self, tokens: &[Token]) -> Result<(), EngineError>;
    /// Appends one token.
    fn append(&mut self, t: Token) -> Result<(), EngineError> {
        self.prefill(&[t])
    }
    /// The next token's logits at the current position (empty before the first token).
    fn logits(&self) -> &[f32];
    /// Tokens in the context.
    fn position(&self) -> usize;
    /// Drops the tokens from `pos` on; `logits` are then those at `pos`.
    fn rewind(&mut self, pos: usize) -> Result<(), EngineError>;
    /// llguidance's view of the vocabulary, for grammar masks.
    fn tok_env(&self) -> toktrie::TokEnv;
    /// The context window in tokens.
    fn context_size(&self) -> usize;
    /// Counts a prompt's tokens as `tokenize(text, true)` makes them, without the engine.
    fn counter(&self) -> crate::prompt::TokenCounter;
}

//! The embedded engine: llama.cpp in-process through `llama-cpp-2`, on the CPU by default
//! and on a local GPU when built with the `cuda`, `metal` or `vulkan` feature
//! (`gpu_layers` then offloads layers). Any GGUF model loads.
//!
//! llama.cpp's backend is process-global, so it is initialised once. A loaded model lives
//! for the rest of the process (a context borrows its model, and the engine owns the
//! context), and loading the same file again reuses it: the weights are memory-mapped,
//! so this costs address space, not memory.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;
use llama_cpp_2::{send_logs_to_tracing, LogOptions};

use super::{Engine, EngineError, Token};

/// Tokens evaluated per batch when prefilling.
const BATCH: usize = 512;

/// The KV cache a default context may take: a model trained on a long context would
/// otherwise reserve gigabytes for prompts that static retrieval keeps short.
pub const MAX_KV_BYTES: u64 = 1 << 30;

/// The smallest context a default may give (a model whose metadata says less, or nothing).
const MIN_DEFAULT_CONTEXT: u32 = 2048;

/// The model's training context (GGUF metadata), capped so that its KV cache (keys and
/// values in f16, every layer) stays under `MAX_KV_BYTES`.
pub fn default_context_size(model: &LlamaModel) -> u32 {
    let arch = model
        .meta_val_str("general.architecture")
        .unwrap_or_default();
    let meta = |key: &str| -> Option<u64> {
        model
            .meta_val_str(&format!("{arch}.{key}"))
            .ok()?
            .trim()
            .parse()
            .ok()
    };
    let heads = u64::from(model.n_head().max(1));
    let head_dim = u64::try_from(model.n_embd().max(1)).unwrap_or(1) / heads;
    let key_len = meta("attention.key_length").unwrap_or(head_dim);
    let value_len = meta("attention.value_length").unwrap_or(head_dim);
    let per_token = 2
        * u64::from(model.n_layer().max(1))
        * u64::from(model.n_head_kv().max(1))
        * (key_len + value_len);
    let cap = u32::try_from(MAX_KV_BYTES / per_token.max(1)).unwrap_or(u32::MAX);
    let trained = match model.n_ctx_train() {
        0 => MIN_DEFAULT_CONTEXT,
        n => n,
    };
    trained.min(cap).max(MIN_DEFAULT_CONTEXT.min(trained))
}

#[derive(Clone, Debug)]
pub struct EngineOptions {
    pub threads: u32,
    /// Layers offloaded to the GPU (0: CPU only).
    pub gpu_layers: u32,
    /// Context window in tokens; None: the model's training context, capped so that the KV
    /// cache stays under `MAX_KV_BYTES` (`default_context_size`).
    pub context_size: Option<u32>,
    pub seed: u32,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            threads: std::thread::available_parallelism().map_or(2, |n| n.get() as u32),
            gpu_layers: 0,
            context_size: None,
            seed: 0,
        }
    }
}

pub struct LlamaEngine {
    model: &'static LlamaModel,
    ctx: LlamaContext<'static>,
    batch: LlamaBatch<'static>,
    /// The tokens in the KV cache, in order.
    tokens: Vec<Token>,
    /// The next token's logits at the current position.
    logits: Vec<f32>,
    /// Logits kept at the ends of prefills, so that rewinding to a prompt's end needs no
    /// re-evaluation.
    saved: HashMap<usize, Vec<f32>>,
    tok_env: toktrie::TokEnv,
    context_size: usize,
}

fn backend() -> Result<&'static LlamaBackend, EngineError> {
    static BACKEND: OnceLock<Result<LlamaBackend, String>> = OnceLock::new();
    BACKEND
        .get_or_init(|| {
            // llama.cpp logs every load to stderr; keep it quiet unless asked.
            let enabled = std::env::var_os("REX_LLAMA_LOG").is_some_and(|v| v != "0");
            send_logs_to_tracing(LogOptions::default().with_logs_enabled(enabled));
            LlamaBackend::init().map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| EngineError::Load(e.clone()))
}

/// The model at `path`, loaded once per process.
fn model(path: &Path, gpu_layers: u32) -> Result<&'static LlamaModel, EngineError> {
    static MODELS: OnceLock<Mutex<HashMap<(PathBuf, u32), &'static LlamaModel>>> = OnceLock::new();
    let backend = backend()?;
    let mut models = MODELS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let key = (path.to_path_buf(), gpu_layers);
    if let Some(m) = models.get(&key) {
        return Ok(m);
    }
    if !path.is_file() {
        return Err(EngineError::Load(format!(
            "`{}` is not a file",
            path.display()
        )));
    }
    let params = LlamaModelParams::default().with_n_gpu_layers(gpu_layers);
    let loaded = LlamaModel::load_from_file(backend, path, &params)
        .map_err(|e| EngineError::Load(format!("`{}`: {e}", path.display())))?;
    let leaked: &'static LlamaModel = Box::leak(Box::new(loaded));
    models.insert(key, leaked);
    Ok(leaked)
}

impl LlamaEngine {
    pub fn load(path: &Path, opts: EngineOptions) -> Result<LlamaEngine, EngineError> {
        let model = model(path, opts.gpu_layers)?;
        let threads = i32::try_from(opts.threads.max(1)).unwrap_or(1);
        let context_size = opts
            .context_size
            .unwrap_or_else(|| default_context_size(model));
        let params = LlamaContextParams::default()
            .with_n_ctx(NonZeroU32::new(context_size.max(64)))
            .with_n_batch(BATCH as u32)
            .with_n_threads(threads)
            .with_n_threads_batch(threads);
        let ctx = model
            .new_context(backend()?, params)
            .map_err(|e| EngineError::Context(e.to_string()))?;
        let context_size = ctx.n_ctx() as usize;
        let _ = opts.seed; // sampling is ours (seeded in the decoder), not llama.cpp's
        Ok(LlamaEngine {
            model,
            ctx,
            batch: LlamaBatch::new(BATCH, 1),
            tokens: Vec::new(),
            logits: Vec::new(),
            saved: HashMap::new(),
            tok_env: LlamaSampler::llguidance_tok_env(model),
            context_size,
        })
    }

    /// Evaluates `tokens` at the end of the context, keeping the last one's logits.
    fn eval(&mut self, tokens: &[Token]) -> Result<(), EngineError> {
        let needed = self.tokens.len() + tokens.len();
        if needed > self.context_size {
            return Err(EngineError::ContextFull {
                needed,
                size: self.context_size,
            });
        }
        for chunk in tokens.chunks(BATCH) {
            self.batch.clear();
            let last = chunk.len() - 1;
            for (i, t) in chunk.iter().enumerate() {
                let pos = i32::try_from(self.tokens.len()).unwrap_or(i32::MAX);
                let id = LlamaToken(i32::try_from(*t).unwrap_or(0));
                self.batch
                    .add(id, pos, &[0], i == last)
                    .map_err(|e| EngineError::Decode(e.to_string()))?;
                self.tokens.push(*t);
            }
            self.ctx
                .decode(&mut self.batch)
                .map_err(|e| EngineError::Decode(e.to_string()))?;
            let i = i32::try_from(last).unwrap_or(0);
            self.logits.clear();
            self.logits.extend_from_slice(self.ctx.get_logits_ith(i));
        }
        Ok(())
    }
}

impl Engine for LlamaEngine {
    fn tokenize(&self, text: &str, add_bos: bool) -> Result<Vec<Token>, EngineError> {
        let tokens = self.model.vocab().tokenize(text.as_bytes(), add_bos, false);
        Ok(tokens.into_iter().map(|t| t.0.max(0) as Token).collect())
    }

    fn token_bytes(&self, t: Token) -> Vec<u8> {
        let bytes = self.tok_env.tok_trie().token(t);
        // llguidance marks control tokens with a leading 0xFF; they stand for no text.
        if bytes.first() == Some(&0xFF) {
            Vec::new()
        } else {
            bytes.to_vec()
        }
    }

    fn vocab_size(&self) -> usize {
        self.model.n_vocab().max(0) as usize
    }

    fn is_end(&self, t: Token) -> bool {
        i32::try_from(t).is_ok_and(|t| self.model.vocab().is_eog(LlamaToken(t)))
    }

    fn prefill(&mut self, tokens: &[Token]) -> Result<(), EngineError> {
        if tokens.is_empty() {
            return Ok(());
        }
        self.eval(tokens)?;
        if tokens.len() > 1 {
            self.saved.insert(self.tokens.len(), self.logits.clone());
        }
        Ok(())
    }

    fn append(&mut self, t: Token) -> Result<(), EngineError> {
        self.eval(&[t])
    }

    fn logits(&self) -> &[f32] {
        &self.logits
    }

    fn position(&self) -> usize {
        self.tokens.len()
    }

    fn rewind(&mut self, pos: usize) -> Result<(), EngineError> {
        let len = self.tokens.len();
        if pos > len {
            return Err(EngineError::Rewind { to: pos, len });
        }
        if pos == len {
            return Ok(());
        }
        let from = u32::try_from(pos).unwrap_or(u32::MAX);
        self.ctx
            .clear_kv_cache_seq(Some(0), Some(from), None)
            .map_err(|e| EngineError::Decode(e.to_string()))?;
        self.tokens.truncate(pos);
        self.saved.retain(|p, _| *p <= pos);
        if let Some(l) = self.saved.get(&pos) {
            self.logits.clone_from(l);
        } else if let Some(last) = self.tokens.pop() {
            // Evaluate the last kept token again to get the logits after it.
            let from = u32::try_from(pos - 1).unwrap_or(u32::MAX);
            self.ctx
                .clear_kv_cache_seq(Some(0), Some(from), None)
                .map_err(|e| EngineError::Decode(e.to_string()))?;
            self.eval(&[last])?;
        } else {
            self.logits.clear();
        }
        Ok(())
    }

    fn tok_env(&self) -> toktrie::TokEnv {
        self.tok_env.clone()
    }

    fn context_size(&self) -> usize {
        self.context_size
    }

    fn counter(&self) -> crate::prompt::TokenCounter {
        let model = self.model;
        crate::prompt::TokenCounter::new(move |text| {
            model.vocab().tokenize(text.as_bytes(), true, false).len()
        })
    }
}

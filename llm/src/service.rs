//! The model as a service for long-running front doors (the language server's
//! `rex.fillHoleWithModel`, the `fill_hole_with_model` tool of `rex mcp`): the embedded
//! model, or one behind an OpenAI-compatible server when the settings name a URL
//! (`engine: "openai"`, `url`, `name`, `server`, `apiKey`; each else from `REX_LLM_URL`,
//! `REX_LLM_MODEL`, `REX_LLM_SERVER`, `REX_LLM_API_KEY`). The engine is not thread-safe and
//! its model takes a moment to load, so one worker thread owns it (loaded on the first
//! job) and takes jobs over a channel. A job carries a copy of the program's text: the
//! worker checks it in its own database, so a fill never holds the caller's database while
//! the model decodes. Progress and the answer go back through the job's callbacks; the
//! caller's cancel flag is checked by the decoder at every token.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};

use rex_compiler::db::Database;
use rex_compiler::Position;
use serde::Deserialize;

use crate::engine::llama::EngineOptions;
use crate::fill::{FillOptions, Filler, HoleFills, Progress};
use crate::remote::{RemoteConfig, Server};

/// Which model, where, and how much to sample: the LSP's `initializationOptions.model`,
/// or the flags of `rex mcp`. `Debug` never shows the API key.
#[derive(Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ModelSettings {
    /// `embedded` (the default) or `openai`; a `url` alone also means `openai`.
    pub engine: Option<String>,
    /// The GGUF file (else `REX_MODEL`, else the installed default).
    pub path: Option<PathBuf>,
    pub threads: Option<u32>,
    pub gpu_layers: Option<u32>,
    pub samples: Option<usize>,
    pub max_tokens: Option<usize>,
    /// The embedded engine's context in tokens (default: the model's training context,
    /// capped so that its KV cache stays under 1 GiB).
    pub context_size: Option<u32>,
    /// Most tokens a prompt may take (default: what the context holds with room for a
    /// sample).
    pub prompt_budget: Option<usize>,
    /// The program text before the hole: `item` (the default) or `file`.
    pub prefix: Option<String>,
    /// The server's base URL (openai).
    pub url: Option<String>,
    /// The served model's name (openai).
    pub name: Option<String>,
    /// `vllm`, `sglang` or `llamacpp` (openai).
    pub server: Option<String>,
    pub api_key: Option<String>,
    /// Seconds one request may take (openai).
    pub timeout: Option<f64>,
}

impl std::fmt::Debug for ModelSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelSettings")
            .field("engine", &self.engine)
            .field("path", &self.path)
            .field("url", &self.url)
            .field("name", &self.name)
            .field("server", &self.server)
            .field("api_key", &self.api_key.as_ref().map(|_| "(set)"))
            .finish_non_exhaustive()
    }
}

impl ModelSettings {
    /// Whether the model runs behind a server (else in-process); an error for an
    /// engine name that is neither.
    pub fn is_remote(&self) -> Result<bool, String> {
        match self.engine.as_deref() {
            Some("openai") => Ok(true),
            Some("embedded") => Ok(false),
            Some(other) => Err(format!("unknown model engine `{other}` (embedded, openai)")),
            None => Ok(self.url.is_some()),
        }
    }

    /// Why these settings cannot fill holes, found without loading anything: an unknown
    /// engine, no embedded model file, or no server URL or model name. `None` when a
    /// first job may go ahead.
    pub fn unavailable(&self) -> Option<String> {
        match self.is_remote() {
            Err(e) => Some(e),
            Ok(true) => remote_config(self).err(),
            Ok(false) => crate::model::find_model(self.path.as_deref())
                .err()
                .map(|e| e.to_string()),
        }
    }
}

/// One fill request for the worker.
pub struct Job {
    pub text: String,
    pub path: String,
    pub modules: Vec<(String, String)>,
    pub include_roots: Vec<String>,
    pub pos: Position,
    pub cancel: Arc<AtomicBool>,
    pub progress: Box<dyn FnMut(Progress) + Send>,
    pub reply: Box<dyn FnOnce(Result<HoleFills, String>) + Send>,
}

/// The handle a front door keeps; the worker starts with the first job.
pub struct ModelService {
    settings: ModelSettings,
    jobs: Option<mpsc::Sender<Job>>,
}

impl ModelService {
    pub fn new(settings: ModelSettings) -> ModelService {
        ModelService {
            settings,
            jobs: None,
        }
    }

    pub fn settings(&self) -> &ModelSettings {
        &self.settings
    }

    /// Queues `job`; an error when the worker cannot be started.
    pub fn submit(&mut self, job: Job) -> Result<(), String> {
        if self.jobs.is_none() {
            let (tx, rx) = mpsc::channel::<Job>();
            let settings = self.settings.clone();
            std::thread::Builder::new()
                .name("rex-model".into())
                .stack_size(64 << 20)
                .spawn(move || worker(settings, rx))
                .map_err(|e| format!("cannot start the model worker: {e}"))?;
            self.jobs = Some(tx);
        }
        let jobs = self.jobs.as_ref().ok_or("the model worker is gone")?;
        jobs.send(job).map_err(|_| {
            self.jobs = None;
            "the model worker stopped; try again".to_string()
        })
    }
}

/// Sets the flag when dropped: a request future the client cancels is dropped, and the
/// worker then stops decoding.
pub struct CancelOnDrop(pub Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

fn worker(settings: ModelSettings, jobs: mpsc::Receiver<Job>) {
    let mut filler: Option<Filler> = None;
    while let Ok(mut job) = jobs.recv() {
        if filler.is_none() {
            match load(&settings) {
                Ok(f) => filler = Some(f),
                Err(e) => {
                    (job.reply)(Err(e));
                    continue;
                }
            }
        }
        let Some(filler) = filler.as_mut() else {
            continue;
        };
        let result = run(filler, &settings, &mut job);
        (job.reply)(result);
    }
}

fn load(settings: &ModelSettings) -> Result<Filler, String> {
    if settings.is_remote()? {
        return Ok(Filler::remote(remote_config(settings)?));
    }
    let defaults = EngineOptions::default();
    let engine = EngineOptions {
        threads: settings.threads.unwrap_or(defaults.threads),
        gpu_layers: settings.gpu_layers.unwrap_or(0),
        context_size: settings.context_size.map(|n| n.max(64)),
        ..defaults
    };
    Filler::load_embedded(settings.path.as_deref(), engine)
}

fn remote_config(settings: &ModelSettings) -> Result<RemoteConfig, String> {
    let server = settings
        .server
        .as_deref()
        .map(str::parse::<Server>)
        .transpose()?;
    let mut config = RemoteConfig::from_parts(
        settings.url.clone(),
        settings.name.clone(),
        server,
        settings.api_key.clone(),
    )
    .map_err(|e| e.to_string())?;
    if let Some(t) = settings.timeout.filter(|t| t.is_finite() && *t > 0.0) {
        config.timeout = std::time::Duration::from_secs_f64(t);
    }
    Ok(config)
}

fn run(filler: &mut Filler, settings: &ModelSettings, job: &mut Job) -> Result<HoleFills, String> {
    let mut db = Database::new();
    db.set_modules(job.modules.clone(), job.include_roots.clone());
    let file = db.add_file(job.path.clone(), job.text.clone());
    let defaults = FillOptions::default();
    let prefix = match settings.prefix.as_deref() {
        Some(p) => p.parse()?,
        None => defaults.prefix,
    };
    let opts = FillOptions {
        samples: settings.samples.unwrap_or(defaults.samples).max(1),
        max_tokens: settings.max_tokens.unwrap_or(defaults.max_tokens).max(1),
        prompt_budget: settings.prompt_budget.map(|n| n.max(1)),
        prefix,
        ..defaults
    };
    filler
        .fill_at(&db, file, job.pos, &opts, &mut *job.progress, &job.cancel)
        .map_err(|e| e.to_string())
}

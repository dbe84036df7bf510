//! `rex.fillHoleWithModel`: hole filling with a model, for the server: the embedded one,
//! or one behind an OpenAI-compatible server when the settings name a URL (`{"model":
//! {"engine": "openai", "url", "name", "server", "apiKey"}}`, each else from
//! `REX_LLM_URL`, `REX_LLM_MODEL`, `REX_LLM_SERVER`, `REX_LLM_API_KEY`). The
//! engine is not thread-safe and its model takes a moment to load, so one worker thread
//! owns it (loaded on the first request) and takes jobs over a channel. A job carries a
//! copy of the document's text: the worker checks it in its own database, so a fill never
//! holds the workspace while the model decodes. Progress comes back over a channel for
//! work-done notifications; a request the client cancels (or drops) sets the job's cancel
//! flag, which the decoder checks at every token.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};

use rex_compiler::db::Database;
use rex_compiler::Position;
use rex_ide::commands::{bool_arg, document_uri, position_arg};
use rex_ide::context::Context;
use rex_llm::engine::llama::EngineOptions;
use rex_llm::fill::{FillOptions, Filler, HoleFills, Progress};
use rex_llm::remote::{RemoteConfig, Server};
use serde::Deserialize;
use tokio::sync::{mpsc as tmpsc, oneshot};
use tower_lsp_server::ls_types::{
    self as lsp_types, CodeAction, CodeActionKind, CodeActionOrCommand, Command, Range, TextEdit,
    Uri, WorkspaceEdit,
};

use crate::workspace::Workspace;

pub const FILL_HOLE_WITH_MODEL: &str = "rex.fillHoleWithModel";

/// The model settings of the initialization options (`{"model": {...}}`); their presence
/// is what turns the feature on. `Debug` never shows the API key.
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
    /// The settings in `initializationOptions`, if it names a model section.
    pub fn from_init(options: Option<&serde_json::Value>) -> Option<ModelSettings> {
        let model = options?.get("model")?;
        serde_json::from_value(model.clone()).ok()
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
    pub progress: tmpsc::UnboundedSender<Progress>,
    pub reply: oneshot::Sender<Result<HoleFills, String>>,
}

/// The handle the server keeps; the worker starts with the first job.
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
    while let Ok(job) = jobs.recv() {
        if filler.is_none() {
            match load(&settings) {
                Ok(f) => filler = Some(f),
                Err(e) => {
                    let _ = job.reply.send(Err(e));
                    continue;
                }
            }
        }
        let Some(filler) = filler.as_mut() else {
            continue;
        };
        let result = run(filler, &settings, &job);
        let _ = job.reply.send(result);
    }
}

fn load(settings: &ModelSettings) -> Result<Filler, String> {
    let remote = match settings.engine.as_deref() {
        Some("openai") => true,
        Some("embedded") => false,
        Some(other) => return Err(format!("unknown model engine `{other}` (embedded, openai)")),
        None => settings.url.is_some(),
    };
    if remote {
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
        return Ok(Filler::remote(config));
    }
    let defaults = EngineOptions::default();
    let engine = EngineOptions {
        threads: settings.threads.unwrap_or(defaults.threads),
        gpu_layers: settings.gpu_layers.unwrap_or(0),
        ..defaults
    };
    Filler::load_embedded(settings.path.as_deref(), engine)
}

fn run(filler: &mut Filler, settings: &ModelSettings, job: &Job) -> Result<HoleFills, String> {
    let mut db = Database::new();
    db.set_modules(job.modules.clone(), job.include_roots.clone());
    let file = db.add_file(job.path.clone(), job.text.clone());
    let defaults = FillOptions::default();
    let opts = FillOptions {
        samples: settings.samples.unwrap_or(defaults.samples).max(1),
        max_tokens: settings.max_tokens.unwrap_or(defaults.max_tokens).max(1),
        ..defaults
    };
    let progress = job.progress.clone();
    filler
        .fill_at(
            &db,
            file,
            job.pos,
            &opts,
            &mut |p| {
                let _ = progress.send(p);
            },
            &job.cancel,
        )
        .map_err(|e| e.to_string())
}

/// The request a `rex.fillHoleWithModel` call makes of the worker, read from its
/// arguments and the workspace (the document's text and the modules it imports).
pub struct Request {
    pub uri: String,
    pub text: String,
    pub path: String,
    pub modules: Vec<(String, String)>,
    pub include_roots: Vec<String>,
    pub pos: Position,
    /// Apply the best fill (the code action asks for it).
    pub apply: bool,
}

/// Reads the command's arguments (`{uri, line, character, apply?}` or positional).
pub fn request(ws: &Workspace, arguments: &[serde_json::Value]) -> Result<Request, String> {
    let args = serde_json::Value::Array(arguments.to_vec());
    let uri = document_uri(&args).map_err(|e| e.to_string())?.to_string();
    let pos = position_arg(&args).map_err(|e| e.to_string())?;
    let apply = bool_arg(&args, "apply", 3)
        .map_err(|e| e.to_string())?
        .unwrap_or(false);
    let doc = ws
        .document(&uri)
        .ok_or_else(|| format!("document `{uri}` is not open"))?;
    Ok(Request {
        uri,
        text: ws.text(doc).to_string(),
        path: doc.path.clone(),
        modules: ws.module_files(),
        include_roots: ws.include_roots().to_vec(),
        pos,
        apply,
    })
}

/// The "Fill hole with model" code action, where the range starts on a hole.
pub fn fill_action(ws: &Workspace, uri: &Uri, range: Range) -> Option<CodeActionOrCommand> {
    let doc = ws.document(uri.as_str())?;
    let pos = Position {
        line: range.start.line,
        character: range.start.character,
    };
    let ctx = Context::new(&ws.db, doc.file, pos);
    ctx.at.as_ref()?.hole()?;
    let args = serde_json::json!({
        "uri": uri.as_str(), "line": pos.line, "character": pos.character, "apply": true
    });
    Some(CodeActionOrCommand::CodeAction(CodeAction {
        title: "Fill hole with model".to_string(),
        kind: Some(CodeActionKind::QUICKFIX),
        command: Some(Command {
            title: "Fill hole with model".to_string(),
            command: FILL_HOLE_WITH_MODEL.to_string(),
            arguments: Some(vec![args]),
        }),
        ..CodeAction::default()
    }))
}

/// The edit that writes the best fill over the hole.
pub fn best_fill_edit(uri: &str, fills: &HoleFills) -> Option<WorkspaceEdit> {
    let text = fills.best_written()?;
    let range = Range {
        start: lsp_types::Position::new(fills.range.start.line, fills.range.start.character),
        end: lsp_types::Position::new(fills.range.end.line, fills.range.end.character),
    };
    let uri: Uri = uri.parse().ok()?;
    let mut changes = std::collections::HashMap::new();
    changes.insert(
        uri,
        vec![TextEdit {
            range,
            new_text: text,
        }],
    );
    Some(WorkspaceEdit {
        changes: Some(changes),
        ..WorkspaceEdit::default()
    })
}

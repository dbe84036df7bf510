//! `rex.fillHoleWithModel`: hole filling with a model, for the server, through rex-llm's
//! model service (`rex_llm::service`: one worker thread owns the engine, embedded or
//! behind an OpenAI-compatible server per the settings `{"model": {...}}`). A job carries
//! a copy of the document's text, so a fill never holds the workspace while the model
//! decodes. Progress comes back over a channel for work-done notifications; a request the
//! client cancels (or drops) sets the job's cancel flag, which the decoder checks at every
//! token.

use rex_compiler::Position;
use rex_ide::commands::{bool_arg, document_uri, position_arg};
use rex_ide::context::Context;
use rex_llm::fill::HoleFills;
use tower_lsp_server::ls_types::{
    self as lsp_types, CodeAction, CodeActionKind, CodeActionOrCommand, Command, Range, TextEdit,
    Uri, WorkspaceEdit,
};

use crate::workspace::Workspace;

pub use rex_llm::service::{CancelOnDrop, Job, ModelService, ModelSettings};

pub const FILL_HOLE_WITH_MODEL: &str = "rex.fillHoleWithModel";

/// The model settings of the initialization options (`{"model": {...}}`), if it names a
/// model section: their presence is what turns the feature on.
pub fn settings_from_init(options: Option<&serde_json::Value>) -> Option<ModelSettings> {
    let model = options?.get("model")?;
    serde_json::from_value(model.clone()).ok()
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
    let ctx = Context::new(&ws.db, doc.file, ws.offset(doc, range.start));
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

//! `workspace/executeCommand` and code actions: the semantic-assist commands of `rex-ide`
//! (one dispatcher, `rex_ide::commands::execute`, shared with the CLI and the playground),
//! run on the open document their `uri` names. The commands never change the document:
//! the edit of a chosen quick fix, or the text of a bulk repair that is not a dry run, is
//! handed back for the client to apply with `workspace/applyEdit`; the server's copy then
//! changes when the client reports the edit, like any other.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use rex_ide::commands::{
    document_uri, CommandError, SEMANTIC_LOOP_APPLY_BEST_QUICK_FIXES_AT,
    SEMANTIC_LOOP_APPLY_QUICK_FIX_AT,
};
use rex_ide::context::Context;
use rex_ide::fill::fills_at;
use rex_ide::quick_fix::fixes_at;
use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;

use crate::workspace::{Document, Workspace};

pub use rex_ide::commands::COMMANDS;

/// A command's JSON result, and the edit the client should apply, if any.
pub struct Outcome {
    pub result: Value,
    pub edit: Option<WorkspaceEdit>,
}

/// Runs a `rex.*` command. `arguments` is the LSP `arguments` array: either the contract's
/// object alone in it, or the positional values.
pub fn execute(ws: &mut Workspace, command: &str, arguments: Vec<Value>) -> Result<Outcome> {
    if !COMMANDS.contains(&command) {
        return Err(invalid_params(format!("unknown command `{command}`")));
    }
    if let Some(result) = rex_ide::commands::document_free(command) {
        return Ok(Outcome { result, edit: None });
    }
    let args = Value::Array(arguments);
    let uri = document_uri(&args).map_err(command_error)?.to_string();
    let Some(file) = ws.document(&uri).map(|d| d.file) else {
        return Err(invalid_params(format!("document `{uri}` is not open")));
    };
    let result = catch_unwind(AssertUnwindSafe(|| {
        rex_ide::commands::execute(&mut ws.db, file, command, &args)
    }))
    .map_err(|_| internal_error())?
    .map_err(command_error)?;
    let doc = ws.document(&uri).ok_or_else(internal_error)?;
    let edit = edit_to_apply(ws, doc, &uri, command, &result);
    Ok(Outcome { result, edit })
}

/// The edit a command asks the client to make: the applied quick fix, or the whole text
/// after a bulk repair that is not a dry run and changed something.
fn edit_to_apply(
    ws: &Workspace,
    doc: &Document,
    uri: &str,
    command: &str,
    result: &Value,
) -> Option<WorkspaceEdit> {
    if command == SEMANTIC_LOOP_APPLY_QUICK_FIX_AT {
        let edit = result.get("quickFix")?.get("edit")?;
        return serde_json::from_value(edit.clone()).ok();
    }
    if command == SEMANTIC_LOOP_APPLY_BEST_QUICK_FIXES_AT {
        if result.get("dryRun")? != &Value::Bool(false) {
            return None;
        }
        let updated = result.get("updatedText")?.as_str()?;
        let text = ws.text(doc);
        if updated == text {
            return None;
        }
        let whole = Range {
            start: Position::new(0, 0),
            end: ws.lsp_position(doc, text.len()),
        };
        let uri: Uri = uri.parse().ok()?;
        let edit = TextEdit {
            range: whole,
            new_text: updated.to_string(),
        };
        return Some(WorkspaceEdit {
            changes: Some(HashMap::from([(uri, vec![edit])])),
            ..WorkspaceEdit::default()
        });
    }
    None
}

/// The quick fixes at the start of `range`, as code actions carrying their edits.
pub fn code_actions(ws: &Workspace, uri: &Uri, range: Range) -> Result<Option<CodeActionResponse>> {
    let Some(doc) = ws.document(uri.as_str()) else {
        return Ok(None);
    };
    let offset = ws.offset(doc, range.start);
    let quick_fixes = catch_unwind(AssertUnwindSafe(|| {
        let ctx = Context::new(&ws.db, doc.file, offset);
        let fills = fills_at(&ctx);
        fixes_at(&ctx, &fills)
            .iter()
            .map(|f| f.to_quick_fix(&ctx.doc, uri.as_str()))
            .collect::<Vec<_>>()
    }))
    .map_err(|_| internal_error())?;
    let actions = quick_fixes
        .into_iter()
        .enumerate()
        .map(|(i, q)| {
            let edit = serde_json::to_value(&q.edit)
                .ok()
                .and_then(|v| serde_json::from_value::<Option<WorkspaceEdit>>(v).ok())
                .flatten();
            CodeActionOrCommand::CodeAction(CodeAction {
                title: q.title,
                kind: Some(CodeActionKind::QUICKFIX),
                edit,
                is_preferred: Some(i == 0),
                data: Some(Value::String(q.id)),
                ..CodeAction::default()
            })
        })
        .collect();
    Ok(Some(actions))
}

fn invalid_params(message: String) -> Error {
    Error::invalid_params(message)
}

fn command_error(e: CommandError) -> Error {
    match e {
        CommandError::Internal(_) => internal_error(),
        other => invalid_params(other.to_string()),
    }
}

fn internal_error() -> Error {
    let mut e = Error::internal_error();
    e.message = "internal error in the Rex analysis (this is a bug)".into();
    e
}

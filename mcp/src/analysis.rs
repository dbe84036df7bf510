//! The tools that answer from the warm database: `check` (the JSON of `rex check --json`),
//! the contract commands of the semantic loop (the same `rex_ide::commands::execute` the
//! LSP's execute commands and `rex ide` call, so the same JSON), and
//! `hole_fill_candidates`. A tool that may edit stores the new text only when asked to
//! (`write: true`) and then says where, in `written`.

use rex_ide::commands::{execute, SEMANTIC_LOOP_APPLY_QUICK_FIX_AT};
use rex_ide::report::{check_file, json};
use serde_json::{Map, Value};

use crate::args::{At, FileArgs, PositionArgs, Source};
use crate::documents::{position, write};
use crate::state::{with_documents, Outcome, Shared, INTERNAL_ERROR};

/// A contract command and what the tool adds to its arguments.
pub struct Command {
    pub name: &'static str,
    pub source: Source,
    pub at: At,
    /// Arguments beyond `uri`, `line` and `character`, by the contract's names.
    pub extra: Map<String, Value>,
    /// Store the text the result asks for into the program's file.
    pub write: bool,
}

/// `check`: the diagnostics and holes of the program and the errors of its imports.
pub async fn check(state: &Shared, args: FileArgs) -> Outcome {
    with_documents(state, move |docs| {
        let opened = docs.open(&args.source)?;
        let reports = check_file(docs.db(), opened.file);
        serde_json::to_value(json::build(&reports)).map_err(|_| INTERNAL_ERROR.to_string())
    })
    .await
}

/// Runs a contract command at a position of the program.
pub async fn command(state: &Shared, command: Command) -> Outcome {
    with_documents(state, move |docs| {
        let opened = docs.open(&command.source)?;
        let pos = position(&opened.text, command.at)?;
        let mut args = command.extra;
        args.insert("uri".into(), Value::String(opened.uri.clone()));
        args.insert("line".into(), pos.line.into());
        args.insert("character".into(), pos.character.into());
        let mut result = execute(
            docs.db_mut(),
            opened.file,
            command.name,
            &Value::Object(args.clone()),
        )
        .map_err(|e| e.to_string())?;
        if command.name == SEMANTIC_LOOP_APPLY_QUICK_FIX_AT && result.is_null() {
            return Err(no_such_fix(&args, command.at));
        }
        if command.write {
            if let Some(text) = rex_ide::written::written_text(command.name, &result, &opened.text)
            {
                let path = write(&opened, &text)?;
                if let Value::Object(fields) = &mut result {
                    fields.insert("written".into(), Value::String(path));
                }
            }
        }
        Ok(result)
    })
    .await
}

fn no_such_fix(args: &Map<String, Value>, at: At) -> String {
    let id = args.get("id").and_then(Value::as_str).unwrap_or_default();
    format!(
        "no quick fix with id `{id}` at line {}, character {}: ids belong to one text and \
         one position; call semantic_loop_step there for the current ones",
        at.line, at.character
    )
}

/// `hole_fill_candidates`: the verified fills of the hole at the position, each with the
/// id of the quick fix that writes it.
pub async fn hole_fill_candidates(state: &Shared, args: PositionArgs) -> Outcome {
    with_documents(state, move |docs| {
        let opened = docs.open(&args.source)?;
        let pos = position(&opened.text, args.at)?;
        let offset = rex_compiler::LineIndex::new(&opened.text).offset(&opened.text, pos);
        let found = rex_ide::fill_candidates::hole_fill_candidates(docs.db(), opened.file, offset);
        serde_json::to_value(found)
            .map(rex_ide::commands::sorted)
            .map_err(|_| INTERNAL_ERROR.to_string())
    })
    .await
}

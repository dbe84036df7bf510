//! `rex ide COMMAND FILE [LINE CHARACTER] [--args JSON]`: the semantic-assist commands for
//! agents that do not speak LSP. It prints exactly the JSON the LSP command returns: both
//! go through the one dispatcher, `rex_ide::commands::execute`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use rex_compiler::db::Database;
use rex_ide::commands::{execute, COMMANDS};
use serde_json::{Map, Value};

use crate::exit::Status;

#[derive(Args, Debug)]
pub struct IdeArgs {
    /// The command, named like the LSP command in kebab case (`semantic-loop-step` for
    /// `rex.semanticLoopStep`).
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(CLI_COMMANDS))]
    pub command: String,

    /// The Rex source file.
    pub file: PathBuf,

    /// 0-based line of the position (every command but `holes-expected-types`).
    pub line: Option<u32>,

    /// 0-based character (UTF-16 code units) of the position.
    pub character: Option<u32>,

    /// Further arguments as a JSON object, e.g. `{"id": "..."}` or
    /// `{"maxSteps": 5, "strategy": "aggressive", "dryRun": true}`.
    #[arg(long, value_name = "JSON")]
    pub args: Option<String>,

    /// Write the result back to FILE: the chosen quick fix, or the repaired text of a bulk
    /// repair that is not a dry run.
    #[arg(long)]
    pub write: bool,

    /// A directory to search for imported modules after the file's own directory
    /// (repeatable; searched in order).
    #[arg(long = "include", value_name = "DIR")]
    pub include: Vec<PathBuf>,
}

/// The commands by their CLI names, in the order of `COMMANDS` (a test keeps the two
/// lists in step).
const CLI_COMMANDS: &[&str] = &[
    "expected-type-at",
    "functions-producing-expected-type-at",
    "functions-accepting-inferred-type-at",
    "adapters-from-inferred-to-expected-at",
    "functions-compatible-with-in-scope-values-at",
    "holes-expected-types",
    "semantic-loop-step",
    "semantic-loop-apply-quick-fix-at",
    "semantic-loop-apply-best-quick-fixes-at",
    "hole-context",
    "ai-tutorial",
    "expected-type",
    "retrieve-relevant-types",
    "retrieve-relevant-headers",
    "error-report",
];

/// `rex.semanticLoopStep` -> `semantic-loop-step`.
fn cli_name(command: &str) -> String {
    let bare = command.strip_prefix("rex.").unwrap_or(command);
    let mut out = String::new();
    for c in bare.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

pub fn run(args: &IdeArgs) -> Status {
    match run_command(args) {
        Ok(()) => Status::Success,
        Err(message) => {
            eprintln!("error: {message}");
            Status::Failure
        }
    }
}

fn run_command(args: &IdeArgs) -> Result<(), String> {
    let command = COMMANDS
        .iter()
        .find(|c| cli_name(c) == args.command)
        .ok_or_else(|| format!("unknown command `{}`", args.command))?;
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| format!("cannot read `{}`: {e}", args.file.display()))?;
    let uri = file_uri(&args.file);
    let mut object = Map::new();
    object.insert("uri".into(), Value::String(uri.clone()));
    match (args.line, args.character) {
        (Some(line), Some(character)) => {
            object.insert("line".into(), line.into());
            object.insert("character".into(), character.into());
        }
        (None, None) => {}
        _ => return Err("give both LINE and CHARACTER".into()),
    }
    if let Some(extra) = &args.args {
        let extra: Value =
            serde_json::from_str(extra).map_err(|e| format!("--args is not JSON: {e}"))?;
        let Value::Object(extra) = extra else {
            return Err("--args must be a JSON object".into());
        };
        object.extend(extra);
    }
    let mut db = Database::new();
    let path = args.file.display().to_string();
    let roots = crate::modules::roots(&args.include);
    let modules = crate::modules::load(&[(path.clone(), text.clone())], &roots);
    db.set_modules(modules, roots);
    let file = db.add_file(path, text.clone());
    let result =
        execute(&mut db, file, command, &Value::Object(object)).map_err(|e| e.to_string())?;
    let shown = serde_json::to_string_pretty(&result).map_err(|e| e.to_string())?;
    if let Err(e) = writeln!(std::io::stdout().lock(), "{shown}") {
        // A closed pipe (`rex ide ... | head`) is the reader's choice, not a failure.
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(format!("cannot write the result: {e}"));
        }
    }
    if args.write {
        if let Some(new_text) = rex_ide::written::written_text(command, &result, &text) {
            std::fs::write(&args.file, new_text)
                .map_err(|e| format!("cannot write `{}`: {e}", args.file.display()))?;
        }
    }
    Ok(())
}

/// A `file://` URI for a path (absolute when it can be made so).
fn file_uri(path: &Path) -> String {
    let absolute = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    format!("file://{}", absolute.display())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_names_are_kebab_case_of_the_lsp_names() {
        assert_eq!(cli_name("rex.semanticLoopStep"), "semantic-loop-step");
        assert_eq!(
            cli_name("rex.functionsCompatibleWithInScopeValuesAt"),
            "functions-compatible-with-in-scope-values-at"
        );
        let derived: Vec<String> = COMMANDS.iter().map(|c| cli_name(c)).collect();
        assert_eq!(derived, CLI_COMMANDS);
    }
}

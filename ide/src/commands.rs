//! The one dispatcher of the semantic-assist commands, used by every front door (LSP
//! `workspace/executeCommand`, the CLI, the playground). Arguments and results are the JSON
//! of the contract in `reference/LLMS.md` ("Reference: Semantic Assists").
//!
//! Arguments come in three shapes, all accepted: an object (`{"uri": .., "line": ..}`), that
//! object alone in an array (as LSP clients send `arguments`), or positional values
//! (`[uri, line, character, ...]`). Bad arguments are a `CommandError`, never a panic.
//!
//! The front door resolves the `uri` (see `document_uri`) to the `SourceFile` it passes in.
//! No command changes the document: `rex.semanticLoopApplyQuickFixAt` returns the fix's edit
//! and `rex.semanticLoopApplyBestQuickFixesAt` the `updatedText`, for the front door to
//! apply (unless `dryRun`).

use std::fmt;

use rex_compiler::db::{Database, SourceFile};
use rex_compiler::Position;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::accepting::functions_accepting;
use crate::adapters::adapters_at;
use crate::apply_fix::quick_fix_by_id;
use crate::bulk_repair::{apply_best_quick_fixes, BulkOptions, Strategy};
use crate::chatlsp;
use crate::compatible::compatible_calls;
use crate::context::Context;
use crate::expected_type::expected_type_at;
use crate::hole_context::hole_context;
use crate::holes::{holes, Holes};
use crate::limits::DEFAULT_BULK_STEPS;
use crate::producing::{functions_producing, Items};
use crate::semantic_loop::semantic_loop_step;

pub const EXPECTED_TYPE_AT: &str = "rex.expectedTypeAt";
pub const FUNCTIONS_PRODUCING_EXPECTED_TYPE_AT: &str = "rex.functionsProducingExpectedTypeAt";
pub const FUNCTIONS_ACCEPTING_INFERRED_TYPE_AT: &str = "rex.functionsAcceptingInferredTypeAt";
pub const ADAPTERS_FROM_INFERRED_TO_EXPECTED_AT: &str = "rex.adaptersFromInferredToExpectedAt";
pub const FUNCTIONS_COMPATIBLE_WITH_IN_SCOPE_VALUES_AT: &str =
    "rex.functionsCompatibleWithInScopeValuesAt";
pub const HOLES_EXPECTED_TYPES: &str = "rex.holesExpectedTypes";
pub const SEMANTIC_LOOP_STEP: &str = "rex.semanticLoopStep";
pub const SEMANTIC_LOOP_APPLY_QUICK_FIX_AT: &str = "rex.semanticLoopApplyQuickFixAt";
pub const SEMANTIC_LOOP_APPLY_BEST_QUICK_FIXES_AT: &str = "rex.semanticLoopApplyBestQuickFixesAt";
pub const HOLE_CONTEXT: &str = "rex.holeContext";
pub const AI_TUTORIAL: &str = "rex.aiTutorial";
pub const EXPECTED_TYPE: &str = "rex.expectedType";
pub const RETRIEVE_RELEVANT_TYPES: &str = "rex.retrieveRelevantTypes";
pub const RETRIEVE_RELEVANT_HEADERS: &str = "rex.retrieveRelevantHeaders";
pub const ERROR_REPORT: &str = "rex.errorReport";

/// Every command `execute` answers, in the order of the contract.
pub const COMMANDS: &[&str] = &[
    EXPECTED_TYPE_AT,
    FUNCTIONS_PRODUCING_EXPECTED_TYPE_AT,
    FUNCTIONS_ACCEPTING_INFERRED_TYPE_AT,
    ADAPTERS_FROM_INFERRED_TO_EXPECTED_AT,
    FUNCTIONS_COMPATIBLE_WITH_IN_SCOPE_VALUES_AT,
    HOLES_EXPECTED_TYPES,
    SEMANTIC_LOOP_STEP,
    SEMANTIC_LOOP_APPLY_QUICK_FIX_AT,
    SEMANTIC_LOOP_APPLY_BEST_QUICK_FIXES_AT,
    HOLE_CONTEXT,
    AI_TUTORIAL,
    EXPECTED_TYPE,
    RETRIEVE_RELEVANT_TYPES,
    RETRIEVE_RELEVANT_HEADERS,
    ERROR_REPORT,
];

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    UnknownCommand(String),
    /// The arguments do not have the contract's shape; the text says what is wrong.
    InvalidArguments(String),
    /// A result could not be turned into JSON (a bug, reported rather than panicking).
    Internal(String),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::UnknownCommand(c) => write!(f, "unknown command `{c}`"),
            CommandError::InvalidArguments(why) => write!(f, "invalid arguments: {why}"),
            CommandError::Internal(why) => write!(f, "internal error: {why}"),
        }
    }
}

impl std::error::Error for CommandError {}

fn invalid(why: impl Into<String>) -> CommandError {
    CommandError::InvalidArguments(why.into())
}

/// The arguments of one command, by name or by position.
enum Args<'a> {
    Named(&'a Map<String, Value>),
    Positional(&'a [Value]),
}

impl<'a> Args<'a> {
    fn new(args: &'a Value) -> Result<Args<'a>, CommandError> {
        match args {
            Value::Object(m) => Ok(Args::Named(m)),
            Value::Array(items) => match items.as_slice() {
                [Value::Object(m)] => Ok(Args::Named(m)),
                _ => Ok(Args::Positional(items)),
            },
            other => Err(invalid(format!(
                "expected an object or an array of arguments, found {}",
                kind(other)
            ))),
        }
    }

    /// The argument called `name`, or at `index`; None when absent or null.
    fn get(&self, name: &str, index: usize) -> Option<&'a Value> {
        let v = match self {
            Args::Named(m) => m.get(name),
            Args::Positional(items) => items.get(index),
        };
        v.filter(|v| !v.is_null())
    }

    fn string(&self, name: &str, index: usize) -> Result<&'a str, CommandError> {
        match self.get(name, index) {
            Some(Value::String(s)) => Ok(s),
            Some(other) => Err(invalid(format!(
                "`{name}` must be a string, found {}",
                kind(other)
            ))),
            None => Err(invalid(format!("missing `{name}`"))),
        }
    }

    fn opt_u64(&self, name: &str, index: usize) -> Result<Option<u64>, CommandError> {
        match self.get(name, index) {
            None => Ok(None),
            Some(v) => v.as_u64().map(Some).ok_or_else(|| {
                invalid(format!(
                    "`{name}` must be a non-negative integer, found {v}"
                ))
            }),
        }
    }

    fn u32(&self, name: &str, index: usize) -> Result<u32, CommandError> {
        let v = self
            .opt_u64(name, index)?
            .ok_or_else(|| invalid(format!("missing `{name}`")))?;
        u32::try_from(v).map_err(|_| invalid(format!("`{name}` is out of range: {v}")))
    }

    fn opt_bool(&self, name: &str, index: usize) -> Result<Option<bool>, CommandError> {
        match self.get(name, index) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(invalid(format!(
                "`{name}` must be a boolean, found {}",
                kind(other)
            ))),
        }
    }

    fn opt_string(&self, name: &str, index: usize) -> Result<Option<&'a str>, CommandError> {
        match self.get(name, index) {
            None => Ok(None),
            Some(_) => self.string(name, index).map(Some),
        }
    }

    fn position(&self) -> Result<Position, CommandError> {
        Ok(Position {
            line: self.u32("line", 1)?,
            character: self.u32("character", 2)?,
        })
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The `uri` a command's arguments name, for the front door to find the document.
pub fn document_uri(args: &Value) -> Result<&str, CommandError> {
    Args::new(args)?.string("uri", 0)
}

/// The position (`line`, `character`; or the 2nd and 3rd positional values) of a command
/// handled outside this dispatcher (`rex.fillHoleWithModel`).
pub fn position_arg(args: &Value) -> Result<Position, CommandError> {
    Args::new(args)?.position()
}

/// An optional boolean argument called `name` (or at positional `index`).
pub fn bool_arg(args: &Value, name: &str, index: usize) -> Result<Option<bool>, CommandError> {
    Args::new(args)?.opt_bool(name, index)
}

fn to_json<T: Serialize>(value: &T) -> Result<Value, CommandError> {
    serde_json::to_value(value)
        .map(sorted)
        .map_err(|e| CommandError::Internal(e.to_string()))
}

/// `v` with the keys of every object in alphabetical order: the contract's printed order,
/// whether or not a dependency turned on serde_json's `preserve_order`.
pub fn sorted(v: Value) -> Value {
    match v {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

/// The result of a command that reads no document (`rex.aiTutorial`), whatever its
/// arguments; None for every other command. Front doors answer these before they look for
/// the document a `uri` names.
pub fn document_free(command: &str) -> Option<Value> {
    (command == AI_TUTORIAL).then(|| Value::String(chatlsp::AI_TUTORIAL.to_string()))
}

/// Runs `command` with `args` on `file`.
pub fn execute(
    db: &mut Database,
    file: SourceFile,
    command: &str,
    args: &Value,
) -> Result<Value, CommandError> {
    if !COMMANDS.contains(&command) {
        return Err(CommandError::UnknownCommand(command.to_string()));
    }
    if let Some(result) = document_free(command) {
        return Ok(result);
    }
    let args = Args::new(args)?;
    let uri = args.string("uri", 0)?;
    if command == HOLES_EXPECTED_TYPES {
        return to_json(&Holes {
            holes: holes(db, file),
        });
    }
    // The one place a command's `line`/`character` becomes the byte offset every feature
    // takes.
    let offset = {
        let text = file.text(db);
        rex_compiler::LineIndex::new(text).offset(text, args.position()?)
    };
    match command {
        EXPECTED_TYPE_AT => to_json(&expected_type_at(&Context::new(db, file, offset))),
        FUNCTIONS_PRODUCING_EXPECTED_TYPE_AT => to_json(&Items {
            items: functions_producing(&Context::new(db, file, offset)),
        }),
        FUNCTIONS_ACCEPTING_INFERRED_TYPE_AT => {
            to_json(&functions_accepting(&Context::new(db, file, offset)))
        }
        ADAPTERS_FROM_INFERRED_TO_EXPECTED_AT => {
            to_json(&adapters_at(&Context::new(db, file, offset)))
        }
        FUNCTIONS_COMPATIBLE_WITH_IN_SCOPE_VALUES_AT => to_json(&Items {
            items: compatible_calls(&Context::new(db, file, offset)),
        }),
        SEMANTIC_LOOP_STEP => to_json(&semantic_loop_step(db, file, offset, uri)),
        HOLE_CONTEXT => to_json(&hole_context(db, file, offset)),
        EXPECTED_TYPE => Ok(Value::String(chatlsp::expected_type(db, file, offset))),
        RETRIEVE_RELEVANT_TYPES => Ok(Value::String(chatlsp::retrieve_relevant_types(
            db, file, offset,
        ))),
        RETRIEVE_RELEVANT_HEADERS => Ok(Value::String(chatlsp::retrieve_relevant_headers(
            db, file, offset,
        ))),
        ERROR_REPORT => Ok(Value::String(chatlsp::error_report(db, file, offset))),
        SEMANTIC_LOOP_APPLY_QUICK_FIX_AT => {
            let id = args.string("id", 3)?;
            to_json(&quick_fix_by_id(db, file, offset, id, uri))
        }
        SEMANTIC_LOOP_APPLY_BEST_QUICK_FIXES_AT => {
            let max_steps = args.opt_u64("maxSteps", 3)?.unwrap_or(DEFAULT_BULK_STEPS);
            let strategy = match args.opt_string("strategy", 4)? {
                None => Strategy::Conservative,
                Some(s) => Strategy::parse(s).ok_or_else(|| {
                    invalid(format!(
                        "`strategy` must be \"conservative\" or \"aggressive\", found {s:?}"
                    ))
                })?,
            };
            let dry_run = args.opt_bool("dryRun", 5)?.unwrap_or(false);
            let options = BulkOptions {
                max_steps,
                strategy,
                dry_run,
            };
            to_json(&apply_best_quick_fixes(db, file, offset, options, uri))
        }
        other => Err(CommandError::UnknownCommand(other.to_string())),
    }
}

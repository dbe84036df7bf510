//! The result of running a program, as JSON: the value printed as `rex run` prints it (or
//! why the run stopped), and the holes evaluation reached with the values in scope there.
//! The playground's Run button and the `run` tool of `rex mcp` return it.

use rex_compiler::db::{Database, SourceFile};
use rex_compiler::eval::{run_file, Limits, RunError, RunOutcome};
use serde::Serialize;

use crate::report::json::{range, JsonRange};
use crate::report::positions::Positions;

#[derive(Clone, Debug, Serialize)]
pub struct JsonValueBinding {
    pub name: String,
    pub value: String,
}

/// A hole the run reached, with the values in scope there, innermost first.
#[derive(Clone, Debug, Serialize)]
pub struct JsonReachedHole {
    /// `?` for an anonymous hole, `?name` for a named one.
    pub name: String,
    /// Where it is in the file that was run; `null` for a hole in the prelude or in an
    /// imported module.
    pub range: Option<JsonRange>,
    pub env: Vec<JsonValueBinding>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunReport {
    pub ok: bool,
    /// The result, printed as `rex run` prints it (`Ok "stable"`, `Ok ?`).
    pub value: Option<String>,
    pub error: Option<String>,
    pub holes: Vec<JsonReachedHole>,
    pub holes_reached: u64,
    pub steps: u64,
}

/// Runs `file` within `limits`; `describe` words the error of a run that stopped (each
/// front door names its own way of raising a limit).
pub fn run_report(
    db: &Database,
    file: SourceFile,
    limits: &Limits,
    describe: impl Fn(&RunError) -> String,
) -> RunReport {
    match run_file(db, file, limits) {
        Ok(outcome) => report(outcome, &Positions::new(file.text(db))),
        Err(error) => RunReport {
            ok: false,
            value: None,
            error: Some(describe(&error)),
            holes: Vec::new(),
            holes_reached: 0,
            steps: 0,
        },
    }
}

fn report(outcome: RunOutcome, positions: &Positions) -> RunReport {
    RunReport {
        ok: true,
        value: Some(outcome.value),
        error: None,
        holes: outcome
            .holes
            .into_iter()
            .map(|h| JsonReachedHole {
                name: match h.name {
                    Some(name) => format!("?{name}"),
                    None => "?".to_string(),
                },
                range: (!h.in_prelude && h.module.is_none()).then(|| range(positions, h.span)),
                env: h
                    .env
                    .into_iter()
                    .map(|(name, value)| JsonValueBinding { name, value })
                    .collect(),
            })
            .collect(),
        holes_reached: outcome.holes_reached,
        steps: outcome.steps,
    }
}

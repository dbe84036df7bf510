//! Running the document in the page: the evaluator under a step budget, so a runaway
//! program ends with a clear message instead of a frozen worker.

use rex_compiler::db::{Database, SourceFile};
use rex_compiler::eval::{run_file, Limits, RunError, RunOutcome};
use serde::Serialize;

use crate::positions::Positions;
use crate::report::JsonRange;

/// Steps a run may take in the page: a few seconds of work at most (20 million steps took
/// 3.3 s in headless Chromium on a loaded 2-core machine); the page's Stop button ends a
/// run sooner.
pub const PLAYGROUND_GAS: u64 = 20_000_000;

/// Pending calls and locals a run may hold: deep recursion, within a tab's memory.
pub const PLAYGROUND_MAX_STACK: usize = 2 * 1024 * 1024;

#[derive(Clone, Debug, Serialize)]
pub struct JsonValueBinding {
    pub name: String,
    pub value: String,
}

/// A hole the run reached, with the values in scope there.
#[derive(Clone, Debug, Serialize)]
pub struct JsonReachedHole {
    pub name: String,
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

pub fn run(db: &Database, file: SourceFile, positions: &Positions, gas: u64) -> RunReport {
    let limits = Limits {
        gas: Some(gas),
        interrupt: None,
        max_stack: PLAYGROUND_MAX_STACK,
    };
    match run_file(db, file, &limits) {
        Ok(outcome) => report(outcome, positions),
        Err(error) => RunReport {
            ok: false,
            value: None,
            error: Some(error_message(&error)),
            holes: Vec::new(),
            holes_reached: 0,
            steps: 0,
        },
    }
}

/// The evaluator's message, but for the step budget, whose CLI flags do not exist here.
fn error_message(error: &RunError) -> String {
    match error {
        RunError::OutOfGas { limit } => format!(
            "the program ran out of gas after {limit} steps (the playground's budget; \
             `rex run --gas N` runs it with a larger one)"
        ),
        other => other.to_string(),
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
                range: (!h.in_prelude).then(|| positions.range(h.span)),
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

//! Running the document in the page: the evaluator under a step budget, so a runaway
//! program ends with a clear message instead of a frozen worker. The report is rex-ide's
//! (`rex_ide::run`), the one the `run` tool of `rex mcp` returns too.

use rex_compiler::db::{Database, SourceFile};
use rex_compiler::eval::{Limits, RunError};

pub use rex_ide::run::RunReport;

/// Steps a run may take in the page: a few seconds of work at most (20 million steps took
/// 3.3 s in headless Chromium on a loaded 2-core machine); the page's Stop button ends a
/// run sooner.
pub const PLAYGROUND_GAS: u64 = 20_000_000;

/// Pending calls and locals a run may hold: deep recursion, within a tab's memory.
pub const PLAYGROUND_MAX_STACK: usize = 2 * 1024 * 1024;

pub fn run(db: &Database, file: SourceFile, gas: u64) -> RunReport {
    let limits = Limits {
        gas: Some(gas),
        interrupt: None,
        max_stack: PLAYGROUND_MAX_STACK,
        ..Limits::default()
    };
    rex_ide::run::run_report(db, file, &limits, error_message)
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

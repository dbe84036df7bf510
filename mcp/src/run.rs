//! `run`: evaluates the program (holes allowed: they evaluate to themselves) under a step
//! budget and a time limit, in a database of its own so that a long run never holds the
//! shared one. The result is rex-ide's run report (the playground's), with the errors and
//! warnings of the check beside it: the program runs around them, as `rex run` does.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rex_compiler::eval::{Limits, RunError, DEFAULT_GAS};
use rex_compiler::Severity;
use rex_ide::report::{check_file, json};
use rex_ide::run::{run_report, RunReport};
use serde::Serialize;
use tokio_util::sync::CancellationToken;

use crate::args::RunArgs;
use crate::state::{blocking, with_documents, Outcome, Shared, INTERNAL_ERROR};

/// Seconds a run may take when the call names no limit.
pub const DEFAULT_TIMEOUT_SECONDS: f64 = 10.0;

/// The most seconds a call may ask for: one call must not hold a thread for long.
pub const MAX_TIMEOUT_SECONDS: f64 = 300.0;

#[derive(Serialize)]
struct RunResult {
    #[serde(flatten)]
    run: RunReport,
    /// The errors and warnings of `check` (the `diagnostics` of its report).
    diagnostics: serde_json::Value,
}

pub async fn run(state: &Shared, args: RunArgs, cancelled: CancellationToken) -> Outcome {
    let gas = args.gas.unwrap_or(DEFAULT_GAS);
    if gas == 0 {
        return Err("invalid arguments: `gas` must be at least 1".into());
    }
    let timeout = timeout(args.timeout_seconds)?;
    let (program, diagnostics) = with_documents(state, move |docs| {
        let opened = docs.open(&args.source)?;
        let mut reports = check_file(docs.db(), opened.file);
        for r in &mut reports {
            r.diagnostics.retain(|d| d.severity != Severity::Info);
            r.holes.clear();
        }
        let report =
            serde_json::to_value(json::build(&reports)).map_err(|_| INTERNAL_ERROR.to_string())?;
        Ok((docs.program(&opened), report["diagnostics"].clone()))
    })
    .await?;

    let stop = Arc::new(AtomicBool::new(false));
    let timer = tokio::spawn({
        let stop = stop.clone();
        async move {
            tokio::select! {
                _ = tokio::time::sleep(timeout) => {}
                _ = cancelled.cancelled() => {}
            }
            stop.store(true, Ordering::Relaxed);
        }
    });
    let report = blocking(move || {
        let (db, file) = program.database();
        let limits = Limits {
            gas: Some(gas),
            interrupt: Some(stop),
            ..Limits::default()
        };
        Ok(run_report(&db, file, &limits, |e| describe(e, timeout)))
    })
    .await;
    timer.abort();
    let result = RunResult {
        run: report?,
        diagnostics,
    };
    serde_json::to_value(result).map_err(|_| INTERNAL_ERROR.to_string())
}

fn timeout(seconds: Option<f64>) -> Result<Duration, String> {
    let seconds = seconds.unwrap_or(DEFAULT_TIMEOUT_SECONDS);
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= MAX_TIMEOUT_SECONDS) {
        return Err(format!(
            "invalid arguments: `timeoutSeconds` must be above 0 and at most \
             {MAX_TIMEOUT_SECONDS}, found {seconds}"
        ));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// Why the run stopped, naming the argument that raises the limit.
fn describe(error: &RunError, timeout: Duration) -> String {
    match error {
        RunError::OutOfGas { limit } => format!(
            "the program ran out of gas after {limit} steps (it may not terminate; a larger \
             `gas` lets it run longer)"
        ),
        RunError::Interrupted => format!(
            "the program was stopped after {} s (it may not terminate; `timeoutSeconds` \
             allows up to {MAX_TIMEOUT_SECONDS})",
            timeout.as_secs_f64()
        ),
        other => other.to_string(),
    }
}

//! One tool call: its arguments read by the tool's argument type, then the one `rex-ide`
//! (or `rex-llm`) function behind it. Every failure the agent can act on (bad arguments,
//! an unreadable file, a position outside the text, a run that was stopped) comes back
//! as a tool result with `isError: true` and a message, never as a crash.

use rex_ide::commands::{
    EXPECTED_TYPE_AT, HOLE_CONTEXT, SEMANTIC_LOOP_APPLY_BEST_QUICK_FIXES_AT,
    SEMANTIC_LOOP_APPLY_QUICK_FIX_AT, SEMANTIC_LOOP_STEP,
};
use rmcp::model::{CallToolResult, ContentBlock, JsonObject};
use rmcp::service::RequestContext;
use rmcp::RoleServer;
use serde_json::{Map, Value};

use crate::analysis::{self, Command};
use crate::args::{parse, ApplyBestArgs, ApplyQuickFixArgs, PositionArgs};
use crate::state::{Outcome, Shared};
use crate::tools;

/// Runs the tool `name`; `None` when this server has no such tool.
pub async fn call(
    state: &Shared,
    name: &str,
    args: JsonObject,
    ctx: RequestContext<RoleServer>,
) -> Option<CallToolResult> {
    let outcome = match name {
        tools::CHECK => check(state, args).await,
        tools::SEMANTIC_LOOP_STEP => contract(state, SEMANTIC_LOOP_STEP, args).await,
        tools::HOLE_CONTEXT => contract(state, HOLE_CONTEXT, args).await,
        tools::EXPECTED_TYPE_AT => contract(state, EXPECTED_TYPE_AT, args).await,
        tools::APPLY_QUICK_FIX => apply_quick_fix(state, args).await,
        tools::APPLY_BEST_QUICK_FIXES => apply_best_quick_fixes(state, args).await,
        tools::HOLE_FILL_CANDIDATES => hole_fill_candidates(state, args).await,
        tools::RUN => return Some(run_result(run(state, args, ctx).await)),
        tools::FILL_HOLE_WITH_MODEL if state.model.is_some() => fill(state, args, ctx).await,
        _ => return None,
    };
    Some(result(outcome))
}

fn result(outcome: Outcome) -> CallToolResult {
    match outcome {
        Ok(value) if value.is_object() => CallToolResult::structured(value),
        Ok(value) => CallToolResult::success(vec![ContentBlock::text(value.to_string())]),
        Err(message) => CallToolResult::error(vec![ContentBlock::text(message)]),
    }
}

/// A run that did not end well (a runtime error, a limit reached) is a tool error that
/// still carries the whole report.
fn run_result(outcome: Outcome) -> CallToolResult {
    match outcome {
        Ok(report) if report.get("ok") == Some(&Value::Bool(false)) => {
            CallToolResult::structured_error(report)
        }
        other => result(other),
    }
}

async fn check(state: &Shared, args: JsonObject) -> Outcome {
    analysis::check(state, parse(args)?).await
}

/// A contract command that takes a position and nothing else.
async fn contract(state: &Shared, name: &'static str, args: JsonObject) -> Outcome {
    let args: PositionArgs = parse(args)?;
    let command = Command {
        name,
        source: args.source,
        at: args.at,
        extra: Map::new(),
        write: false,
    };
    analysis::command(state, command).await
}

async fn apply_quick_fix(state: &Shared, args: JsonObject) -> Outcome {
    let args: ApplyQuickFixArgs = parse(args)?;
    let mut extra = Map::new();
    extra.insert("id".into(), Value::String(args.id));
    let command = Command {
        name: SEMANTIC_LOOP_APPLY_QUICK_FIX_AT,
        source: args.source,
        at: args.at,
        extra,
        write: args.write,
    };
    analysis::command(state, command).await
}

async fn apply_best_quick_fixes(state: &Shared, args: JsonObject) -> Outcome {
    let args: ApplyBestArgs = parse(args)?;
    let mut extra = Map::new();
    if let Some(steps) = args.max_steps {
        extra.insert("maxSteps".into(), steps.into());
    }
    if let Some(strategy) = args.strategy {
        extra.insert("strategy".into(), strategy.as_str().into());
    }
    extra.insert("dryRun".into(), args.dry_run.into());
    let command = Command {
        name: SEMANTIC_LOOP_APPLY_BEST_QUICK_FIXES_AT,
        source: args.source,
        at: args.at,
        extra,
        write: args.write && !args.dry_run,
    };
    analysis::command(state, command).await
}

async fn hole_fill_candidates(state: &Shared, args: JsonObject) -> Outcome {
    analysis::hole_fill_candidates(state, parse(args)?).await
}

async fn run(state: &Shared, args: JsonObject, ctx: RequestContext<RoleServer>) -> Outcome {
    crate::run::run(state, parse(args)?, ctx.ct).await
}

async fn fill(state: &Shared, args: JsonObject, ctx: RequestContext<RoleServer>) -> Outcome {
    crate::fill::fill(state, parse(args)?, ctx).await
}

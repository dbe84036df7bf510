//! The tools as `tools/list` shows them: name, what an agent can do with it, the schema
//! of its arguments (from `args`), and whether it may change a file. Only tools that say
//! so ever write, and only with `write: true`.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};

use crate::args::{
    schema, ApplyBestArgs, ApplyQuickFixArgs, FileArgs, FillArgs, PositionArgs, RunArgs,
};

pub const CHECK: &str = "check";
pub const SEMANTIC_LOOP_STEP: &str = "semantic_loop_step";
pub const APPLY_QUICK_FIX: &str = "apply_quick_fix";
pub const APPLY_BEST_QUICK_FIXES: &str = "apply_best_quick_fixes";
pub const HOLE_FILL_CANDIDATES: &str = "hole_fill_candidates";
pub const HOLE_CONTEXT: &str = "hole_context";
pub const EXPECTED_TYPE_AT: &str = "expected_type_at";
pub const RUN: &str = "run";
pub const FILL_HOLE_WITH_MODEL: &str = "fill_hole_with_model";

const SOURCE: &str = " The program is a file (`path`) or inline `text`; positions are 0-based \
    `line` and `character` (UTF-16 code units), as LSP counts them.";

struct Spec {
    name: &'static str,
    description: &'static str,
    schema: fn() -> Arc<JsonObject>,
    /// May write the program's file (with `write: true`).
    writes: bool,
}

const SPECS: &[Spec] = &[
    Spec {
        name: CHECK,
        description: "Check a Rex program: every diagnostic (code, severity, category, \
            message, range, notes, structured data) and every hole with its expected type and \
            the values in scope, plus the errors of the modules it imports. The JSON of `rex \
            check --json`: {diagnostics, holes}. Start here; the program is done when no \
            diagnostic has severity \"error\".",
        schema: schema::<FileArgs>,
        writes: false,
    },
    Spec {
        name: SEMANTIC_LOOP_STEP,
        description: "Observe the program at a position (a diagnostic's range.start, or a \
            hole): expected and inferred types, values in scope, candidate functions, verified \
            hole-fill candidates, the diagnostics around it and the quick fixes that repair \
            them, each with an `id` for apply_quick_fix. The JSON of the LSP command \
            rex.semanticLoopStep. Loop: check, observe, apply a fix, check again.",
        schema: schema::<PositionArgs>,
        writes: false,
    },
    Spec {
        name: APPLY_QUICK_FIX,
        description: "Apply the quick fix with `id` that semantic_loop_step or \
            hole_fill_candidates reported at the same position and text. Returns {quickFix} \
            with its edit; with `write: true` the fixed program is stored into `path` and \
            `written` names the file. Ids belong to one text: observe again after each edit. \
            The JSON of rex.semanticLoopApplyQuickFixAt.",
        schema: schema::<ApplyQuickFixArgs>,
        writes: true,
    },
    Spec {
        name: APPLY_BEST_QUICK_FIXES,
        description: "Bulk repair around a position: apply the best quick fix again and \
            again (at most `maxSteps`), keeping only steps that do not add errors. Returns \
            every step with the diagnostics before and after, `updatedText` and why it \
            stopped. `dryRun: true` only predicts; with `write: true` (not a dry run) \
            `updatedText` is stored into `path`. The JSON of \
            rex.semanticLoopApplyBestQuickFixesAt.",
        schema: schema::<ApplyBestArgs>,
        writes: true,
    },
    Spec {
        name: HOLE_FILL_CANDIDATES,
        description: "The fill candidates of the hole at a position, best first; each one \
            type-checks in place, and carries the `quickFixId` that writes it (give it to \
            apply_quick_fix). {onHole, expectedType, candidates: [{name, replacement, \
            quickFixId}]}.",
        schema: schema::<PositionArgs>,
        writes: false,
    },
    Spec {
        name: HOLE_CONTEXT,
        description: "What to know before writing a hole's fill yourself: the expected type, \
            the program, the definitions of the types involved, functions that produce the \
            expected type, the values in scope and the diagnostics around the hole. The JSON \
            of rex.holeContext.",
        schema: schema::<PositionArgs>,
        writes: false,
    },
    Spec {
        name: EXPECTED_TYPE_AT,
        description: "The type the expression (or hole) at a position is checked against: \
            {expectedType}, or null where nothing is expected of it. The JSON of \
            rex.expectedTypeAt.",
        schema: schema::<PositionArgs>,
        writes: false,
    },
    Spec {
        name: RUN,
        description: "Run the program: its value printed as `rex run` prints it (holes are \
            allowed and show in the value, e.g. `Ok ?`), or why it stopped (a runtime error, \
            out of `gas`, past `timeoutSeconds`: a program that does not terminate is \
            stopped), the holes evaluation reached with the values in scope there, and the \
            errors and warnings of the check (the program runs around them). A run that \
            stops is a tool error carrying the same report, with `ok: false` and `error`.",
        schema: schema::<RunArgs>,
        writes: false,
    },
    Spec {
        name: FILL_HOLE_WITH_MODEL,
        description: "Fill the hole at a position with the server's language model: ranked \
            fills that each type-check at the hole (the model decodes under the hole's \
            grammar and type oracle; the semantic loop's candidates are scored too). Takes \
            seconds to minutes and reports progress. With `write: true` the best fill is \
            written over the hole in `path`. The JSON of rex.fillHoleWithModel: {name, \
            range, expectedType, fills: [{text, logprob, source, rounds}], attempts, stats}.",
        schema: schema::<FillArgs>,
        writes: true,
    },
];

/// The tools this server offers: `fill_hole_with_model` only with a model.
pub fn list(with_model: bool) -> Vec<Tool> {
    SPECS
        .iter()
        .filter(|s| with_model || s.name != FILL_HOLE_WITH_MODEL)
        .map(|s| {
            let description = format!("{}{SOURCE}", s.description);
            let annotations = ToolAnnotations::new()
                .read_only(!s.writes)
                .destructive(false)
                .idempotent(!s.writes)
                .open_world(false);
            Tool::new(s.name, description, (s.schema)()).with_annotations(annotations)
        })
        .collect()
}

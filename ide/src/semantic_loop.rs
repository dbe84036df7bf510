//! `rex.semanticLoopStep`: one observation of the program state at a position, everything
//! an agent needs to choose its next edit.

use rex_compiler::db::{Database, SourceFile};
use serde::Serialize;

use crate::accepting::accepting_items;
use crate::adapters::adapter_items;
use crate::compatible::compatible_calls;
use crate::context::{show, Context};
use crate::diagnostics::{local_lite, DiagnosticLite};
use crate::fill::{fills_at, FillCandidate};
use crate::holes::{holes, HoleReport};
use crate::producing::functions_producing;
use crate::quick_fix::{fixes_at, QuickFix};
use crate::scope::ScopeValue;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SemanticLoopStep {
    pub expected_type: Option<String>,
    pub inferred_type: Option<String>,
    pub in_scope_values: Vec<String>,
    pub function_candidates: Vec<String>,
    pub hole_fill_candidates: Vec<FillCandidate>,
    pub functions_accepting_inferred_type: Vec<String>,
    pub adapters_from_inferred_to_expected_type: Vec<String>,
    pub functions_compatible_with_in_scope_values: Vec<String>,
    pub local_diagnostics: Vec<DiagnosticLite>,
    pub quick_fixes: Vec<QuickFix>,
    pub quick_fix_titles: Vec<String>,
    pub holes: Vec<HoleReport>,
}

/// `name : type` of an in-scope value.
pub fn scope_line(v: &ScopeValue) -> String {
    format!("{} : {}", v.name, v.scheme)
}

pub fn semantic_loop_step(
    db: &Database,
    file: SourceFile,
    offset: usize,
    uri: &str,
) -> SemanticLoopStep {
    let ctx = Context::new(db, file, offset);
    let fills = fills_at(&ctx);
    let fixes = fixes_at(&ctx, &fills);
    let quick_fixes: Vec<QuickFix> = fixes
        .iter()
        .map(|f| f.to_quick_fix(&ctx.doc, uri))
        .collect();
    SemanticLoopStep {
        expected_type: ctx.expected.as_ref().map(show),
        inferred_type: ctx.inferred.as_ref().map(show),
        in_scope_values: ctx.locals.iter().map(scope_line).collect(),
        function_candidates: functions_producing(&ctx),
        hole_fill_candidates: fills.into_iter().map(|f| f.candidate).collect(),
        functions_accepting_inferred_type: accepting_items(&ctx),
        adapters_from_inferred_to_expected_type: adapter_items(&ctx),
        functions_compatible_with_in_scope_values: compatible_calls(&ctx),
        local_diagnostics: local_lite(&ctx.doc, ctx.offset),
        quick_fix_titles: quick_fixes.iter().map(|q| q.title.clone()).collect(),
        quick_fixes,
        holes: holes(db, file),
    }
}

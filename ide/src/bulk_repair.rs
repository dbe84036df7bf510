//! `rex.semanticLoopApplyBestQuickFixesAt`: repeatedly apply the best quick fix around a
//! position, observing the diagnostics after each step.
//!
//! Strategies: `conservative` applies only fixes that repair what is written (never hole
//! fills) and stops as soon as a step would not lower the number of local diagnostics;
//! `aggressive` also fills the hole under the position and tolerates up to
//! `MAX_NO_IMPROVEMENT_STREAK` steps in a row that leave the count unchanged. Neither keeps a
//! step that raises it. Every text reached is remembered, and a fix leading back to one is
//! never applied, so the run cannot loop.
//!
//! The document is never changed: the steps run on the database's copy of the text and the
//! original text is put back before returning. `updatedText` is the result; a front door
//! applies it to the document when `dryRun` is false.

use std::collections::HashSet;

use rex_compiler::db::{Database, SourceFile};
use salsa::Setter;
use serde::Serialize;

use crate::context::Context;
use crate::diagnostics::{local_lite, DiagnosticLite};
use crate::edit::apply;
use crate::fill::fills_at;
use crate::limits::{
    DEFAULT_BULK_STEPS, MAX_BULK_STEPS, MAX_NO_IMPROVEMENT_STREAK, MIN_BULK_STEPS,
};
use crate::locate::Document;
use crate::quick_fix::{fixes_at, Fnv, QuickFix};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Strategy {
    #[default]
    Conservative,
    Aggressive,
}

impl Strategy {
    /// `conservative` or `aggressive`; anything else is None.
    pub fn parse(s: &str) -> Option<Strategy> {
        match s {
            "conservative" => Some(Strategy::Conservative),
            "aggressive" => Some(Strategy::Aggressive),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BulkOptions {
    /// Clamped to `[MIN_BULK_STEPS, MAX_BULK_STEPS]`.
    pub max_steps: u64,
    pub strategy: Strategy,
    pub dry_run: bool,
}

impl Default for BulkOptions {
    fn default() -> Self {
        BulkOptions {
            max_steps: DEFAULT_BULK_STEPS,
            strategy: Strategy::Conservative,
            dry_run: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BulkStep {
    pub index: u64,
    pub quick_fix: QuickFix,
    pub diagnostics_before: Vec<DiagnosticLite>,
    pub diagnostics_after: Vec<DiagnosticLite>,
    pub diagnostics_before_count: u64,
    pub diagnostics_after_count: u64,
    pub diagnostics_delta: i64,
    pub no_improvement_streak: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BulkRepair {
    pub strategy: Strategy,
    pub dry_run: bool,
    pub applied_quick_fixes: Vec<QuickFix>,
    pub applied_count: u64,
    pub steps: Vec<BulkStep>,
    pub updated_text: String,
    pub local_diagnostics_after: Vec<DiagnosticLite>,
    pub stopped_reason: String,
    pub stopped_reason_detail: String,
    pub last_diagnostics_delta: i64,
    pub no_improvement_streak: u64,
    pub seen_states_count: u64,
}

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    Clean,
    NoQuickFix,
    NoImprovement,
    Cycle,
    MaxSteps,
}

impl Stop {
    fn as_str(self) -> &'static str {
        match self {
            Stop::Clean => "clean",
            Stop::NoQuickFix => "noQuickFix",
            Stop::NoImprovement => "noImprovement",
            Stop::Cycle => "cycle",
            Stop::MaxSteps => "maxSteps",
        }
    }
}

fn text_hash(text: &str) -> u64 {
    let mut h = Fnv::new();
    h.write(text.as_bytes());
    h.finish()
}

/// One fix chosen for a step, in terms of the text it was computed on.
struct Chosen {
    quick_fix: QuickFix,
    title: String,
    new_text: String,
    new_offset: usize,
    hash: u64,
}

pub fn apply_best_quick_fixes(
    db: &mut Database,
    file: SourceFile,
    offset: usize,
    options: BulkOptions,
    uri: &str,
) -> BulkRepair {
    let max_steps = options.max_steps.clamp(MIN_BULK_STEPS, MAX_BULK_STEPS);
    let strategy = options.strategy;
    let original = file.text(db).clone();
    let mut text = original.clone();
    let mut offset = offset;
    let mut seen: HashSet<u64> = HashSet::from([text_hash(&text)]);
    let mut steps: Vec<BulkStep> = Vec::new();
    let mut streak = 0u64;
    let mut last_delta = 0i64;
    let (stop, detail) = loop {
        if steps.len() as u64 >= max_steps {
            break (Stop::MaxSteps, format!("stopped after {max_steps} step(s)"));
        }
        let (before, choice) = {
            let ctx = Context::new(db, file, offset);
            let before = local_lite(&ctx.doc, offset);
            let fills = match strategy {
                Strategy::Aggressive => fills_at(&ctx),
                Strategy::Conservative => vec![],
            };
            if before.is_empty() && fills.is_empty() {
                break (
                    Stop::Clean,
                    "no diagnostics around the position".to_string(),
                );
            }
            let fixes: Vec<_> = fixes_at(&ctx, &fills)
                .into_iter()
                .filter(|f| strategy == Strategy::Aggressive || !f.kind.invents_code())
                .collect();
            if fixes.is_empty() {
                break (
                    Stop::NoQuickFix,
                    format!("no quick fix for the {} diagnostic(s) here", before.len()),
                );
            }
            let choice = fixes.iter().find_map(|f| {
                let new_text = apply(&text, &f.edits);
                let hash = text_hash(&new_text);
                if seen.contains(&hash) {
                    return None;
                }
                let shift: i64 = f
                    .edits
                    .iter()
                    .filter(|e| (e.span.end as usize) <= offset)
                    .map(|e| e.text.len() as i64 - e.span.len() as i64)
                    .sum();
                Some(Chosen {
                    quick_fix: f.to_quick_fix(&ctx.doc, uri),
                    title: f.title.clone(),
                    new_offset: (offset as i64 + shift).max(0) as usize,
                    new_text,
                    hash,
                })
            });
            (before, choice)
        };
        let Some(choice) = choice else {
            break (
                Stop::Cycle,
                "every quick fix leads back to a text already seen".to_string(),
            );
        };
        file.set_text(db).to(choice.new_text.clone());
        let after = local_lite(&Document::new(db, file), choice.new_offset);
        let delta = after.len() as i64 - before.len() as i64;
        let rejected = match strategy {
            Strategy::Conservative => delta >= 0,
            Strategy::Aggressive => delta > 0,
        };
        if rejected {
            file.set_text(db).to(text.clone());
            break (
                Stop::NoImprovement,
                format!(
                    "the best fix (`{}`) would leave {} diagnostic(s) where there are {}",
                    choice.title,
                    after.len(),
                    before.len()
                ),
            );
        }
        streak = if delta < 0 { 0 } else { streak + 1 };
        last_delta = delta;
        seen.insert(choice.hash);
        steps.push(BulkStep {
            index: steps.len() as u64,
            quick_fix: choice.quick_fix,
            diagnostics_before_count: before.len() as u64,
            diagnostics_after_count: after.len() as u64,
            diagnostics_before: before,
            diagnostics_after: after,
            diagnostics_delta: delta,
            no_improvement_streak: streak,
        });
        text = choice.new_text;
        offset = choice.new_offset;
        if streak >= MAX_NO_IMPROVEMENT_STREAK {
            break (
                Stop::NoImprovement,
                format!("{streak} step(s) in a row left the diagnostics unchanged"),
            );
        }
    };
    let local_after = local_lite(&Document::new(db, file), offset);
    if *file.text(db) != original {
        file.set_text(db).to(original);
    }
    BulkRepair {
        strategy,
        dry_run: options.dry_run,
        applied_quick_fixes: steps.iter().map(|s| s.quick_fix.clone()).collect(),
        applied_count: steps.len() as u64,
        steps,
        updated_text: text,
        local_diagnostics_after: local_after,
        stopped_reason: stop.as_str().to_string(),
        stopped_reason_detail: detail,
        last_diagnostics_delta: last_delta,
        no_improvement_streak: streak,
        seen_states_count: seen.len() as u64,
    }
}

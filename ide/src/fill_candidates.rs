//! The verified fill candidates of the hole at a position, each with the id of the quick
//! fix that writes it (apply it with `rex.semanticLoopApplyQuickFixAt`): what an agent
//! needs to fill a hole from candidates without reading a whole semantic-loop step. The
//! candidates are those of `holeFillCandidates` in `rex.semanticLoopStep`.

use rex_compiler::db::{Database, SourceFile};
use serde::Serialize;

use crate::context::{show, Context};
use crate::fill::fills_at;
use crate::quick_fix::{fixes_at, FixKind};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HoleFillCandidates {
    /// `false` when the position is not on a hole (then there are no candidates).
    pub on_hole: bool,
    pub expected_type: Option<String>,
    /// Best first.
    pub candidates: Vec<HoleFillCandidate>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HoleFillCandidate {
    /// The function or value the fill is built from.
    pub name: String,
    /// The expression that replaces the hole.
    pub replacement: String,
    /// The quick fix that writes it at this position; `null` for a candidate beyond the
    /// quick fixes offered per hole.
    pub quick_fix_id: Option<String>,
}

pub fn hole_fill_candidates(db: &Database, file: SourceFile, offset: usize) -> HoleFillCandidates {
    let ctx = Context::new(db, file, offset);
    let on_hole = ctx.at.as_ref().and_then(|at| at.hole()).is_some();
    let fills = fills_at(&ctx);
    let fixes = fixes_at(&ctx, &fills);
    let candidates = fills
        .into_iter()
        .map(|fill| {
            let fix = fixes.iter().find(|f| {
                f.kind == FixKind::FillHole && f.edits == std::slice::from_ref(&fill.edit)
            });
            HoleFillCandidate {
                name: fill.candidate.name,
                replacement: fill.candidate.replacement,
                quick_fix_id: fix.map(|f| f.id()),
            }
        })
        .collect();
    HoleFillCandidates {
        on_hole,
        expected_type: ctx.expected.as_ref().map(show),
        candidates,
    }
}

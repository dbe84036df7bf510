//! `rex.semanticLoopApplyQuickFixAt`: the quick fix with a given id at a position, as the
//! edit that applies it (the front door applies it to the document).

use rex_compiler::db::{Database, SourceFile};
use serde::Serialize;

use crate::context::Context;
use crate::fill::fills_at;
use crate::quick_fix::{fixes_at, QuickFix};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AppliedQuickFix {
    pub quick_fix: QuickFix,
}

/// None when no fix at the position has that id (the document changed since it was seen).
pub fn quick_fix_by_id(
    db: &Database,
    file: SourceFile,
    offset: usize,
    id: &str,
    uri: &str,
) -> Option<AppliedQuickFix> {
    let ctx = Context::new(db, file, offset);
    let fills = fills_at(&ctx);
    fixes_at(&ctx, &fills)
        .into_iter()
        .find(|f| f.id() == id)
        .map(|f| AppliedQuickFix {
            quick_fix: f.to_quick_fix(&ctx.doc, uri),
        })
}

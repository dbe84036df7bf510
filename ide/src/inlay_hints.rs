//! Inlay hints: the inferred type after each `let` binder that has no annotation.

use rex_compiler::db::{Database, SourceFile};
use rex_compiler::resolve::LocalKind;
use rex_compiler::types::{Ty, TypePrinter};
use rex_compiler::Span;

use crate::editor::symbol::let_scheme;
use crate::locate::items;

/// A label shown at `offset` (absolute): right after a binder, `: type`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayHint {
    pub offset: usize,
    pub label: String,
}

/// The hints of the binders inside `range` (the whole file when `None`), in source order.
/// A binder whose type is unknown or a bare type variable gets none: it would say nothing.
pub fn inlay_hints(db: &Database, file: SourceFile, range: Option<Span>) -> Vec<InlayHint> {
    let mut out = Vec::new();
    for at in items(db, file) {
        let item_span = at.abs(at.item.span);
        if range.is_some_and(|r| item_span.end < r.start || item_span.start > r.end) {
            continue;
        }
        let types = at.types(db);
        for def in &at.names(db).locals {
            if def.kind != LocalKind::Let || def.annotated || def.value.is_none() {
                continue;
            }
            let Some(t) = def.pat.and_then(|p| types.pat_types.get(p.index())) else {
                continue;
            };
            // A polymorphic binding shows its scheme; otherwise only a known type helps.
            let scheme = let_scheme(db, &at, def);
            if scheme.is_none() && (matches!(t, Ty::Var(_) | Ty::Unknown) || t.contains_unknown()) {
                continue;
            }
            let binder = at.abs(def.span);
            if range.is_some_and(|r| binder.end < r.start || binder.end > r.end) {
                continue;
            }
            out.push(InlayHint {
                offset: binder.end as usize,
                label: match scheme {
                    Some(s) => format!(": {}", TypePrinter::new().scheme(s)),
                    None => format!(": {}", TypePrinter::new().ty(t)),
                },
            });
        }
    }
    out.sort_by_key(|h| h.offset);
    out
}

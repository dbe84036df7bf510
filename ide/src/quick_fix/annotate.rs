//! An expression whose type nothing fixes gets an annotation `(e is T)`, for each type
//! with an instance of the unresolved class that makes the item check.

use rex_compiler::db::program_env;
use rex_compiler::types::Ty;
use rex_compiler::{Diagnostic, DiagnosticData};

use super::{atom, slice, Fix, FixKind};
use crate::edit::Replace;
use crate::limits::MAX_ANNOTATION_TYPES;
use crate::locate::{expr_with_span, Document};
use crate::verify::improves;

/// Types tried first, in the order defaulting prefers them.
const PREFERRED: &[&str] = &["i32", "f32", "i64", "f64", "string", "bool"];

pub fn fixes(doc: &Document<'_>, d: &Diagnostic, out: &mut Vec<Fix>) {
    let DiagnosticData::AmbiguousType { constraint } = &d.data else {
        return;
    };
    let Some(index) = doc.item_at(d.span.start as usize) else {
        return;
    };
    let Some(item) = doc.item(index) else {
        return;
    };
    if expr_with_span(item, d.span.shift(-(item.offset as i64))).is_none() {
        return;
    }
    // The constraint's class is its first word (`Integral 'a`).
    let Some(class) = constraint.split_whitespace().next() else {
        return;
    };
    let env = program_env(doc.db, doc.db.prelude(), doc.file);
    let mut types: Vec<String> = env
        .instances
        .iter()
        .filter(|i| &*i.class == class && i.vars == 0)
        .filter_map(|i| match i.head.as_slice() {
            [t @ Ty::Con(_)] => Some(t.to_string()),
            _ => None,
        })
        .collect();
    types.sort_by_key(|t| {
        PREFERRED
            .iter()
            .position(|p| p == t)
            .unwrap_or(PREFERRED.len())
    });
    types.dedup();
    let inner = atom(slice(doc, d.span));
    let mut offered = 0;
    for t in types.into_iter().take(MAX_ANNOTATION_TYPES) {
        let text = format!("({inner} is {t})");
        let edit = vec![Replace::new(d.span, text)];
        if improves(doc, index, &edit, true) {
            out.push(Fix::new(
                FixKind::Annotate,
                format!("Annotate as `{t}`"),
                edit,
            ));
            offered += 1;
            if offered >= 2 {
                break;
            }
        }
    }
}

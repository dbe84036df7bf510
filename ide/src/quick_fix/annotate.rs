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
    let Some(e) = expr_with_span(item, d.span.shift(-(item.offset as i64))) else {
        return;
    };
    let Some(ty) = doc.item_types(index).expr_types.get(e.index()) else {
        return;
    };
    if ty.contains_unknown() {
        return;
    }
    // The constraint's class is its first word (`Integral 'a`); its instances on plain
    // types are the candidates, after the types defaulting prefers.
    let class = constraint.split_whitespace().next().unwrap_or_default();
    let env = program_env(doc.db, doc.db.prelude(), doc.file);
    let mut candidates: Vec<Ty> = PREFERRED.iter().map(|p| Ty::con(p)).collect();
    for i in env.instances.iter() {
        if &*i.class == class && i.vars == 0 {
            if let [t @ Ty::Con(_)] = i.head.as_slice() {
                if !candidates.contains(t) {
                    candidates.push(t.clone());
                }
            }
        }
    }
    let inner = atom(slice(doc, d.span));
    let mut offered = 0;
    for t in candidates.into_iter().take(MAX_ANNOTATION_TYPES) {
        // Every variable the expression's type still has becomes `t`.
        let annotated = ty.map(&mut |x| matches!(x, Ty::Var(_)).then(|| t.clone()));
        // `is` takes an atomic type: a function type needs its parentheses.
        let written = match annotated {
            Ty::Fun(..) => format!("({annotated})"),
            _ => annotated.to_string(),
        };
        let text = format!("({inner} is {written})");
        let edit = vec![Replace::new(d.span, text)];
        if improves(doc, index, &edit, true) {
            out.push(Fix::new(
                FixKind::Annotate,
                format!("Annotate as `{annotated}`"),
                edit,
            ));
            offered += 1;
            if offered >= 2 {
                break;
            }
        }
    }
}

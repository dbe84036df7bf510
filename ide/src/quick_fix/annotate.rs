//! An expression whose type nothing fixes gets an annotation `(e is T)`, and a `let`
//! binding whose constraints keep a variable its type does not mention gets one on the
//! binding (`name: T`), for each type with an instance of the unresolved class that makes
//! the item check.

use rex_compiler::db::program_env;
use rex_compiler::syntax::ast::{ExprKind, Item, PatId};
use rex_compiler::types::Ty;
use rex_compiler::{Diagnostic, DiagnosticData, Span};

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
    let rel = d.span.shift(-(item.offset as i64));
    let Some(types) = doc.item_types(index) else {
        return;
    };
    // The diagnostic is on an expression, or on the name of a binding.
    let (ty, binding) = match expr_with_span(item, rel) {
        Some(e) => (types.expr_types.get(e.index()), false),
        None => match binding_with_name_at(item, rel) {
            Some(pat) => (types.pat_types.get(pat.index()), true),
            None => return,
        },
    };
    let Some(ty) = ty else {
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
    let mut offered: Vec<Ty> = Vec::new();
    for t in candidates.into_iter().take(MAX_ANNOTATION_TYPES) {
        // Every variable the type still has becomes `t`.
        let annotated = ty.map(&mut |x| matches!(x, Ty::Var(_)).then(|| t.clone()));
        if offered.contains(&annotated) {
            continue;
        }
        let edit = if binding {
            let end = Span {
                start: d.span.end,
                end: d.span.end,
            };
            vec![Replace::new(end, format!(": {annotated}"))]
        } else {
            // `is` takes an atomic type: a function type needs its parentheses.
            let written = match annotated {
                Ty::Fun(..) => format!("({annotated})"),
                _ => annotated.to_string(),
            };
            vec![Replace::new(d.span, format!("({inner} is {written})"))]
        };
        if improves(doc, index, &edit, true) {
            out.push(Fix::new(
                FixKind::Annotate,
                format!("Annotate as `{annotated}`"),
                edit,
            ));
            offered.push(annotated);
            if offered.len() >= 2 {
                break;
            }
        }
    }
}

/// The unannotated `let` binding whose name (pattern) has exactly `span` (item-relative).
fn binding_with_name_at(item: &Item, span: Span) -> Option<PatId> {
    item.arena.exprs.iter().find_map(|e| match &e.kind {
        ExprKind::Let { bindings, .. } => bindings
            .iter()
            .find(|b| b.ty.is_none() && item.arena.pat(b.pat).span == span)
            .map(|b| b.pat),
        _ => None,
    })
}

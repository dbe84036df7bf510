//! A value where an `Option`/`Result` of it is expected gets wrapped in `Some`/`Ok`; an
//! `Option`/`Result` where its content is expected gets `unwrap`ped. Offered only when
//! exactly one of these makes the item check with fewer errors.

use rex_compiler::{Code, Diagnostic};

use super::{atom, placed, slice, Fix, FixKind};
use crate::edit::Replace;
use crate::limits::MAX_WRAP_ANCESTORS;
use crate::locate::{expr_with_span, parents, Document};
use crate::verify::improves;

pub fn fixes(doc: &Document<'_>, d: &Diagnostic, out: &mut Vec<Fix>) {
    if d.code != Code::TypeMismatch {
        return;
    }
    let Some(index) = doc.item_at(d.span.start as usize) else {
        return;
    };
    let Some(item) = doc.item(index) else {
        return;
    };
    let rel = d.span.shift(-(item.offset as i64));
    let Some(marked) = expr_with_span(item, rel) else {
        return;
    };
    let parent = parents(item);
    let mut target = Some(marked);
    for _ in 0..=MAX_WRAP_ANCESTORS {
        let Some(e) = target else {
            return;
        };
        let span = item.abs(item.arena.expr(e).span);
        let inner = atom(slice(doc, span));
        let mut working = Vec::new();
        for (kind, head) in [
            (FixKind::Wrap, "Some"),
            (FixKind::Wrap, "Ok"),
            (FixKind::Unwrap, "unwrap"),
        ] {
            let text = placed(item, e, format!("{head} {inner}"));
            let edit = vec![Replace::new(span, text)];
            if improves(doc, index, &edit, true) {
                working.push((kind, head, edit));
            }
        }
        match working.as_slice() {
            [(kind, head, edit)] => {
                let title = match kind {
                    FixKind::Unwrap => "Unwrap with `unwrap`".to_string(),
                    _ => format!("Wrap in `{head}`"),
                };
                out.push(Fix::new(*kind, title, edit.clone()));
                return;
            }
            // More than one works: no unique fix.
            [_, _, ..] => return,
            [] => target = parent.get(e.index()).copied().flatten(),
        }
    }
}

//! Argument-count slips: a function used where its result is expected gets the missing
//! arguments as holes; a value applied to one argument too many loses it; a constructor
//! pattern with the wrong number of fields gets wildcards added or extra fields dropped.

use rex_compiler::syntax::ast::{ExprKind, PatKind};
use rex_compiler::{Code, Diagnostic, DiagnosticData};

use super::{atom, placed, slice, Fix, FixKind};
use crate::edit::Replace;
use crate::fit::{after_args, arrows, Fit};
use crate::locate::{expr_with_span, Document};
use crate::verify::improves;

pub fn fixes(doc: &Document<'_>, d: &Diagnostic, out: &mut Vec<Fix>) {
    let Some(index) = doc.item_at(d.span.start as usize) else {
        return;
    };
    let Some(item) = doc.item(index) else {
        return;
    };
    let rel = d.span.shift(-(item.offset as i64));
    match (&d.code, &d.data) {
        (Code::TypeMismatch, DiagnosticData::TypeMismatch { .. }) => {
            let Some(e) = expr_with_span(item, rel) else {
                return;
            };
            let Some(types) = doc.item_types(index) else {
                return;
            };
            let (Some(found), Some(Some(expected))) = (
                types.expr_types.get(e.index()),
                types.expected.get(e.index()),
            ) else {
                return;
            };
            let mut fit = Fit::new();
            let (found, expected) = (fit.import(found), fit.import(expected));
            let (params, result) = arrows(&found);
            let Some(k) =
                (1..=params.len()).find(|k| fit.fits(&after_args(&params, &result, *k), &expected))
            else {
                return;
            };
            let mut text = atom(slice(doc, d.span));
            for _ in 0..k {
                text.push_str(" ?");
            }
            let edit = vec![Replace::new(d.span, placed(item, e, text.clone()))];
            if improves(doc, index, &edit, true) {
                let what = if k == 1 { "argument" } else { "arguments" };
                out.push(Fix::new(
                    FixKind::AddArgument,
                    format!("Add the missing {what} as holes: `{text}`"),
                    edit,
                ));
            }
        }
        (Code::NotAFunction, _) => {
            // The marked node is the function part of an application with one argument too
            // many: keep the function part alone.
            let Some(app) =
                item.arena.exprs.iter().find(
                    |x| matches!(x.kind, ExprKind::App(f, _) if item.arena.expr(f).span == rel),
                )
            else {
                return;
            };
            let ExprKind::App(_, arg) = app.kind else {
                return;
            };
            let dropped = slice(doc, item.abs(item.arena.expr(arg).span)).to_string();
            let edit = vec![Replace::new(
                item.abs(app.span),
                slice(doc, d.span).to_string(),
            )];
            if improves(doc, index, &edit, true) {
                out.push(Fix::new(
                    FixKind::DropArgument,
                    format!("Remove the surplus argument `{dropped}`"),
                    edit,
                ));
            }
        }
        (
            Code::ConstructorArity,
            DiagnosticData::ConstructorArity {
                name,
                expected,
                found,
            },
        ) => {
            let Some(pat) = item.arena.pats.iter().find(|p| p.span == rel) else {
                return;
            };
            let PatKind::Ctor { path, args } = &pat.kind else {
                return;
            };
            let mut text = slice(doc, item.abs(path.span())).to_string();
            for a in args.iter().take(*expected) {
                text.push(' ');
                text.push_str(slice(doc, item.abs(item.arena.pat(*a).span)));
            }
            for _ in *found..*expected {
                text.push_str(" _");
            }
            let edit = vec![Replace::new(d.span, text.clone())];
            if improves(doc, index, &edit, true) {
                out.push(Fix::new(
                    FixKind::FixPatternArity,
                    format!("Give `{name}` {expected} field pattern(s): `{text}`"),
                    edit,
                ));
            }
        }
        _ => {}
    }
}

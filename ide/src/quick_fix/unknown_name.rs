//! An unknown name replaced by a near miss that is in scope and whose type fits there
//! (checked by re-checking the item with the replacement).

use rex_compiler::{Code, Diagnostic, DiagnosticData};

use super::{Fix, FixKind};
use crate::catalog::is_user_visible;
use crate::edit::Replace;
use crate::limits::MAX_NAME_REPLACEMENTS;
use crate::locate::Document;
use crate::verify::improves;

pub fn fixes(doc: &Document<'_>, d: &Diagnostic, out: &mut Vec<Fix>) {
    // Names of values and constructors only (`M.x` a module does not export included): an
    // unknown type or class name lives in a signature, which the environment (not the
    // item re-check) reads.
    if !matches!(
        d.code,
        Code::UnknownName | Code::UnknownConstructor | Code::MissingExport
    ) {
        return;
    }
    let DiagnosticData::UnknownName { name, candidates } = &d.data else {
        return;
    };
    let Some(index) = doc.item_at(d.span.start as usize) else {
        return;
    };
    // Only where the diagnostic marks the name as written.
    if super::slice(doc, d.span) != name {
        return;
    }
    let same_case = |c: &str| {
        c.chars().next().map(char::is_uppercase) == name.chars().next().map(char::is_uppercase)
    };
    for c in candidates
        .iter()
        .filter(|c| is_user_visible(c) && same_case(c))
        .take(MAX_NAME_REPLACEMENTS)
    {
        let edit = vec![Replace::new(d.span, c.clone())];
        if improves(doc, index, &edit, true) {
            out.push(Fix::new(
                FixKind::ReplaceName,
                format!("Replace `{name}` with `{c}`"),
                edit,
            ));
        }
    }
}

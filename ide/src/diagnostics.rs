//! The diagnostics around a position, in the contract's `DiagnosticLite` form. "Around" is
//! the item holding the position (the nearest item when it is between items): that is the
//! unit the checker re-checks and the unit quick fixes repair.

use rex_compiler::{Diagnostic, Span};
use serde::Serialize;

use crate::limits::MAX_LOCAL_DIAGNOSTICS;
use crate::locate::Document;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct DiagnosticLite {
    pub message: String,
    pub line: u32,
    pub character: u32,
}

/// The span the local diagnostics of `offset` are taken from.
pub fn local_window(doc: &Document<'_>, offset: usize) -> Span {
    match doc.item_at(offset).and_then(|i| doc.item(i)) {
        Some(item) => item.abs(item.span),
        None => Span::empty(offset),
    }
}

/// Errors and warnings (hole notes are reported as holes) that touch the local window.
pub fn local_diagnostics<'db>(doc: &Document<'db>, offset: usize) -> Vec<&'db Diagnostic> {
    let window = local_window(doc, offset);
    doc.db
        .diagnostics(doc.file)
        .iter()
        .filter(|d| d.severity != rex_compiler::Severity::Info)
        .filter(|d| d.span.start <= window.end && d.span.end >= window.start)
        .take(MAX_LOCAL_DIAGNOSTICS)
        .collect()
}

pub fn lite(doc: &Document<'_>, d: &Diagnostic) -> DiagnosticLite {
    let pos = doc.position(d.span.start as usize);
    DiagnosticLite {
        message: d.message.clone(),
        line: pos.line,
        character: pos.character,
    }
}

pub fn local_lite(doc: &Document<'_>, offset: usize) -> Vec<DiagnosticLite> {
    local_diagnostics(doc, offset)
        .into_iter()
        .map(|d| lite(doc, d))
        .collect()
}

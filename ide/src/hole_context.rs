//! `rex.holeContext`: the static context of a hole for a language model (the ChatLSP idea
//! of the Hazel paper), as JSON: the static retrieval (`retrieval`: the expected and target
//! types, the relevant type definitions from the file and its modules, the scored headers,
//! the enclosing item and what it calls), the program (sketch), the values in scope and
//! the diagnostics around the hole.

use rex_compiler::db::{Database, SourceFile};
use serde::Serialize;

use crate::context::Context;
use crate::diagnostics::{local_lite, DiagnosticLite};
use crate::retrieval::{retrieve, Retrieval, Spelling, TypeDef};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HoleContext {
    pub expected_type: Option<String>,
    /// The expected type, its arrows' results, its tuple, record and payload parts.
    pub target_types: Vec<String>,
    pub sketch: String,
    pub relevant_types: Vec<String>,
    pub relevant_headers: Vec<String>,
    /// The text of the top-level item the hole is in.
    pub enclosing_item: Option<String>,
    /// `name : type` of the functions that item calls.
    pub called_functions: Vec<String>,
    pub in_scope_values: Vec<String>,
    pub diagnostics: Vec<DiagnosticLite>,
}

pub fn hole_context(db: &Database, file: SourceFile, offset: usize) -> HoleContext {
    let ctx = Context::new(db, file, offset);
    let r = retrieve(&ctx);
    let spelling = Spelling::new(ctx.env);
    HoleContext {
        expected_type: r.expected.clone(),
        target_types: r.targets.clone(),
        sketch: ctx.doc.text.to_string(),
        relevant_types: relevant_types(&r),
        relevant_headers: relevant_headers(&r),
        enclosing_item: r.enclosing.as_ref().map(|e| e.source.clone()),
        called_functions: r.enclosing.map(|e| e.calls).unwrap_or_default(),
        in_scope_values: ctx
            .locals
            .iter()
            .map(|l| format!("{} : {}", l.name, spelling.scheme(&l.scheme)))
            .collect(),
        diagnostics: local_lite(&ctx.doc, ctx.offset),
    }
}

/// `name : type` of each relevant header, best first.
pub fn relevant_headers(r: &Retrieval) -> Vec<String> {
    r.headers.iter().map(|h| h.signature.clone()).collect()
}

/// Each relevant type's definition, nearest first; one declared in another module is
/// preceded by a comment naming the module (and the type as the hole's file writes it).
pub fn relevant_types(r: &Retrieval) -> Vec<String> {
    r.types.iter().map(type_text).collect()
}

fn type_text(t: &TypeDef) -> String {
    match &t.module {
        Some(m) => format!("{{- from {m}, written {} here -}}\n{}", t.name, t.source),
        None => t.source.clone(),
    }
}

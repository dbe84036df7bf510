//! `rex.holeContext`: the static context of a hole for a language model (the ChatLSP idea
//! of the Hazel paper): the expected type, the program (sketch), the full definitions of the
//! user's types reachable from the expected type and from the types of the values in scope
//! (transitively: a `Model` whose field is a `List Todo` brings `Todo`), the functions that
//! produce the expected type, the values in scope and the diagnostics around the hole.
//! The prompt of model-backed filling is built from the same parts.

use rex_compiler::db::{Database, SourceFile};
use rex_compiler::syntax::ast::ItemKind;
use serde::Serialize;

use crate::catalog::Origin;
use crate::context::{show, Context};
use crate::diagnostics::{local_lite, DiagnosticLite};
use crate::limits::{MAX_HEADERS, MAX_TYPES};
use crate::producing::functions_producing;
use crate::semantic_loop::scope_line;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HoleContext {
    pub expected_type: Option<String>,
    pub sketch: String,
    pub relevant_types: Vec<String>,
    pub relevant_headers: Vec<String>,
    pub in_scope_values: Vec<String>,
    pub diagnostics: Vec<DiagnosticLite>,
}

pub fn hole_context(db: &Database, file: SourceFile, offset: usize) -> HoleContext {
    let ctx = Context::new(db, file, offset);
    HoleContext {
        expected_type: ctx.expected.as_ref().map(show),
        sketch: ctx.doc.text.to_string(),
        relevant_types: relevant_types(&ctx),
        relevant_headers: relevant_headers(&ctx),
        in_scope_values: ctx.locals.iter().map(scope_line).collect(),
        diagnostics: local_lite(&ctx.doc, ctx.offset),
    }
}

/// At most `MAX_HEADERS` functions whose result fits the expected type, the user's first,
/// as `name : type`.
pub fn relevant_headers(ctx: &Context<'_>) -> Vec<String> {
    functions_producing(ctx)
        .into_iter()
        .take(MAX_HEADERS)
        .collect()
}

/// The source text of every user type reachable from the expected type, the locals' types
/// and the user's functions' types, in declaration order.
pub fn relevant_types(ctx: &Context<'_>) -> Vec<String> {
    let decls: Vec<(String, String)> = ctx
        .doc
        .parsed()
        .items
        .iter()
        .filter_map(|item| match &item.kind {
            ItemKind::Type(decl) => {
                let (source, _) = ctx.doc.item_source(item);
                Some((decl.name.text.clone(), source.trim().to_string()))
            }
            _ => None,
        })
        .collect();
    let mut seeds: Vec<String> = ctx.expected.iter().map(show).collect();
    seeds.extend(ctx.locals.iter().map(|l| l.scheme.to_string()));
    seeds.extend(
        ctx.globals
            .iter()
            .filter(|g| g.origin == Origin::UserFunction)
            .map(|g| g.scheme.to_string()),
    );
    let mut queue: Vec<String> = seeds.iter().flat_map(|s| upper_words(s)).collect();
    let mut wanted: Vec<String> = Vec::new();
    while let Some(name) = queue.pop() {
        if wanted.contains(&name) {
            continue;
        }
        if let Some((_, source)) = decls.iter().find(|(n, _)| *n == name) {
            queue.extend(upper_words(source));
            wanted.push(name);
        }
    }
    decls
        .into_iter()
        .filter(|(n, _)| wanted.contains(n))
        .map(|(_, s)| s)
        .take(MAX_TYPES)
        .collect()
}

/// The capitalised words of a type or declaration text (type and constructor names).
fn upper_words(s: &str) -> Vec<String> {
    s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_uppercase()))
        .map(str::to_string)
        .collect()
}

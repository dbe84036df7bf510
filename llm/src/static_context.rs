//! The static context of a hole as the prompt uses it (the ChatLSP idea of the Hazel
//! paper): the hole's expected type, the definitions of the user's types reachable from it
//! and from the types of the values in scope (transitively: a `Model` whose field is a
//! `List Todo` brings `Todo`), a few functions that produce the expected type, and the
//! program text cut at the hole.

use rex_compiler::syntax::ast::ItemKind;
use rex_ide::catalog::Origin;
use rex_ide::context::Context;
use rex_ide::producing::functions_producing;

use crate::prompt::PromptParts;

/// Headers (functions producing the expected type) in a prompt.
pub const MAX_HEADERS: usize = 8;

/// Type definitions in a prompt.
pub const MAX_TYPES: usize = 16;

/// The prompt's parts for the hole spanning `hole` (absolute byte range).
pub fn prompt_parts(ctx: &Context<'_>, hole: (usize, usize)) -> PromptParts {
    let text = ctx.doc.text;
    PromptParts {
        expected_type: ctx.expected.as_ref().map(|t| t.to_string()),
        relevant_types: relevant_types(ctx),
        relevant_headers: functions_producing(ctx)
            .into_iter()
            .take(MAX_HEADERS)
            .collect(),
        before: text.get(..hole.0).unwrap_or("").trim_end().to_string(),
        after: text.get(hole.1..).unwrap_or("").to_string(),
    }
}

/// The source text of every user type reachable from the expected type, the locals' types
/// and the user's functions' types, in declaration order.
pub fn relevant_types(ctx: &Context<'_>) -> Vec<String> {
    let parsed = ctx.doc.parsed();
    let decls: Vec<(String, String)> = parsed
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
    let mut wanted: Vec<String> = Vec::new();
    let mut seeds: Vec<String> = Vec::new();
    if let Some(t) = &ctx.expected {
        seeds.push(t.to_string());
    }
    seeds.extend(ctx.locals.iter().map(|l| l.scheme.to_string()));
    seeds.extend(
        ctx.globals
            .iter()
            .filter(|g| g.origin == Origin::UserFunction)
            .map(|g| g.scheme.to_string()),
    );
    let mut queue: Vec<String> = seeds.iter().flat_map(|s| upper_words(s)).collect();
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

//! What the fill loop knows about one hole before it asks for anything: where it is, its
//! expected type, the prompt's parts, the grammar's scope and text, the names the bias
//! layer nudges towards, and the semantic loop's candidates that type-check there.

use rex_ide::context::Context;
use rex_ide::edit::{LspPosition, LspRange};
use rex_ide::fill::fills_at;

use super::FillOptions;
use crate::grammar::{self, GrammarScope};
use crate::inject::Signatures;
use crate::oracle::Oracle;
use crate::prompt::PromptParts;
use crate::static_context::prompt_parts;

#[derive(Clone, Debug)]
pub struct HoleSetup {
    /// The hole as written (`?`, `?name`).
    pub name: String,
    /// Absolute byte range.
    pub span: (usize, usize),
    pub range: LspRange,
    pub expected_type: Option<String>,
    pub parts: PromptParts,
    pub scope: GrammarScope,
    /// The hole's grammar for token-level decoding (`grammar::lark`).
    pub lark: String,
    /// Names the bias layer nudges towards.
    pub names: Vec<String>,
    /// The semantic loop's candidates that type-check at the hole, in its order.
    pub candidates: Vec<String>,
    /// The signatures token-level decoding injects (empty unless `FillOptions::signatures`).
    pub signatures: Signatures,
}

impl HoleSetup {
    /// The setup of the hole under `ctx`; None when there is none. The semantic loop's
    /// candidates are looked for (and verified) when `opts.candidates`, the signatures
    /// gathered when `opts.signatures`.
    pub fn new(
        ctx: &Context<'_>,
        oracle: &mut Oracle<'_>,
        opts: &FillOptions,
    ) -> Option<HoleSetup> {
        let (span, name) = hole_of(ctx)?;
        let parts = prompt_parts(ctx, span);
        let scope = grammar::scope_at(ctx);
        let doc = rex_ide::locate::Document::new(ctx.doc.db, ctx.doc.file);
        let candidates = if opts.candidates {
            fills_at(ctx)
                .into_iter()
                .map(|f| f.candidate.replacement)
                .filter(|text| oracle.fill_ok(text))
                .collect()
        } else {
            Vec::new()
        };
        Some(HoleSetup {
            name,
            span,
            range: LspRange {
                start: LspPosition::from(doc.position(span.0)),
                end: LspPosition::from(doc.position(span.1)),
            },
            expected_type: parts.expected_type.clone(),
            parts,
            lark: grammar::lark(&scope),
            scope,
            names: bias_names(ctx),
            candidates,
            signatures: if opts.signatures {
                Signatures::at(ctx)
            } else {
                Signatures::default()
            },
        })
    }
}

/// The hole under the context's position: its absolute byte range and name as written.
fn hole_of(ctx: &Context<'_>) -> Option<((usize, usize), String)> {
    let at = ctx.at.as_ref()?;
    let hole = at.hole()?;
    let span = at.abs(at.item.arena.expr(hole).span);
    let (s, e) = (span.start as usize, span.end as usize);
    Some(((s, e), ctx.doc.text.get(s..e).unwrap_or("?").to_string()))
}

/// The names the bias layer nudges towards: the values in scope and the heads of the
/// semantic loop's candidates.
fn bias_names(ctx: &Context<'_>) -> Vec<String> {
    let mut names: Vec<String> = ctx.locals.iter().map(|l| l.name.clone()).collect();
    if matches!(ctx.expected, Some(rex_compiler::types::Ty::Fun(..))) {
        names.push("\\".to_string());
    }
    for (name, _) in rex_ide::fill::ranked_candidates(ctx).into_iter().take(16) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

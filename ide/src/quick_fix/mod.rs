//! Quick fixes, each built from a diagnostic's structured data (never from its message) and
//! kept only when re-checking shows it helps. Every fix has a stable id derived from its
//! content, so an agent can name the fix it saw in one observation in its next command.

mod annotate;
mod arity;
mod fill_hole;
mod match_arms;
mod syntax;
mod unknown_name;
mod wrap;

use std::collections::BTreeMap;

use rex_compiler::Diagnostic;
use serde::Serialize;

use crate::context::Context;
use crate::diagnostics::local_diagnostics;
use crate::edit::{Replace, WorkspaceEdit};
use crate::fill::Fill;
use crate::limits::MAX_QUICK_FIXES;
use crate::locate::Document;

/// What a fix does; also its rank among fixes (earlier kinds are applied first in bulk
/// repair: syntax before names before types, hole fills last).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FixKind {
    ReplaceArrow,
    InsertIn,
    ReplaceName,
    DropArgument,
    AddArgument,
    FixPatternArity,
    Wrap,
    Unwrap,
    AddMatchArms,
    Annotate,
    FillHole,
}

impl FixKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FixKind::ReplaceArrow => "replaceArrow",
            FixKind::InsertIn => "insertIn",
            FixKind::ReplaceName => "replaceName",
            FixKind::DropArgument => "dropArgument",
            FixKind::AddArgument => "addArgument",
            FixKind::FixPatternArity => "fixPatternArity",
            FixKind::Wrap => "wrap",
            FixKind::Unwrap => "unwrap",
            FixKind::AddMatchArms => "addMatchArms",
            FixKind::Annotate => "annotate",
            FixKind::FillHole => "fillHole",
        }
    }

    /// Fixes that invent code (a hole's contents) rather than repair what is written; the
    /// conservative bulk strategy leaves them alone.
    pub fn invents_code(self) -> bool {
        matches!(self, FixKind::FillHole)
    }
}

/// A fix in document terms: byte-range replacements of the current text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub kind: FixKind,
    pub title: String,
    pub edits: Vec<Replace>,
}

impl Fix {
    pub fn new(kind: FixKind, title: impl Into<String>, edits: Vec<Replace>) -> Fix {
        Fix {
            kind,
            title: title.into(),
            edits,
        }
    }

    /// A stable id: a hash of the kind, the replaced ranges and the replacement texts.
    pub fn id(&self) -> String {
        let mut h = Fnv::new();
        h.write(self.kind.as_str().as_bytes());
        for e in &self.edits {
            h.write(&e.span.start.to_le_bytes());
            h.write(&e.span.end.to_le_bytes());
            h.write(e.text.as_bytes());
            h.write(&[0xff]);
        }
        format!("{}-{:016x}", self.kind.as_str(), h.finish())
    }

    pub fn to_quick_fix(&self, doc: &Document<'_>, uri: &str) -> QuickFix {
        let mut changes = BTreeMap::new();
        changes.insert(
            uri.to_string(),
            self.edits.iter().map(|e| e.to_lsp(doc)).collect(),
        );
        QuickFix {
            id: self.id(),
            title: self.title.clone(),
            kind: Some("quickfix".to_string()),
            edit: Some(WorkspaceEdit { changes }),
        }
    }
}

/// The contract's `QuickFix`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QuickFix {
    pub id: String,
    pub title: String,
    pub kind: Option<String>,
    pub edit: Option<WorkspaceEdit>,
}

/// 64-bit FNV-1a: fixed, so ids are the same in every build and on every platform.
pub(crate) struct Fnv(u64);

impl Fnv {
    pub(crate) fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    pub(crate) fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    pub(crate) fn finish(&self) -> u64 {
        self.0
    }
}

/// The fixes for one diagnostic.
fn fixes_for(doc: &Document<'_>, d: &Diagnostic, out: &mut Vec<Fix>) {
    syntax::fixes(doc, d, out);
    unknown_name::fixes(doc, d, out);
    arity::fixes(doc, d, out);
    wrap::fixes(doc, d, out);
    match_arms::fixes(doc, d, out);
    annotate::fixes(doc, d, out);
}

/// Every fix at the context's position: for the diagnostics around it, and `fills` (the
/// verified fills of the hole under it). Ranked by kind, then by distance from the
/// position; capped.
pub fn fixes_at(ctx: &Context<'_>, fills: &[Fill]) -> Vec<Fix> {
    let mut out = Vec::new();
    let mut distance = Vec::new();
    for d in local_diagnostics(&ctx.doc, ctx.offset) {
        fixes_for(&ctx.doc, d, &mut out);
        let dist = if d.span.touches(ctx.offset) {
            0
        } else {
            (d.span.start as usize).abs_diff(ctx.offset)
        };
        distance.resize(out.len(), dist);
    }
    fill_hole::fixes(fills, &mut out);
    distance.resize(out.len(), 0);
    let mut ranked: Vec<(FixKind, usize, usize, Fix)> = out
        .into_iter()
        .zip(distance)
        .enumerate()
        .map(|(i, (f, d))| (f.kind, d, i, f))
        .collect();
    ranked.sort_by_key(|a| (a.0, a.1, a.2));
    let mut fixes: Vec<Fix> = Vec::new();
    for (_, _, _, f) in ranked {
        if !fixes.iter().any(|g| g.edits == f.edits) {
            fixes.push(f);
        }
        if fixes.len() >= MAX_QUICK_FIXES {
            break;
        }
    }
    fixes
}

/// The text of a span of the document (empty when out of range).
pub(crate) fn slice<'t>(doc: &Document<'t>, span: rex_compiler::Span) -> &'t str {
    doc.text
        .get(span.start as usize..span.end as usize)
        .unwrap_or("")
}

/// `text` as an atom: parenthesised unless it already is one.
pub(crate) fn atom(text: &str) -> String {
    let t = text.trim();
    let simple = t
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == '?');
    if simple || one_bracketed_group(t) {
        t.to_string()
    } else {
        format!("({t})")
    }
}

/// Whether `t` is one bracketed group: `(a b)`, `[1, 2]`, but not `(a) + (b)`.
fn one_bracketed_group(t: &str) -> bool {
    let Some(first) = t.chars().next() else {
        return false;
    };
    if first != '(' && first != '[' {
        return false;
    }
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in t.char_indices() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + c.len_utf8() == t.len();
                }
            }
            _ => {}
        }
    }
    false
}

/// Whether expression `e` of `item` stands where only an atom may: an argument, or the
/// base of a projection.
pub(crate) fn in_atom_position(
    item: &rex_compiler::syntax::ast::Item,
    e: rex_compiler::syntax::ast::ExprId,
) -> bool {
    use rex_compiler::syntax::ast::ExprKind;
    crate::locate::parents(item)
        .get(e.index())
        .copied()
        .flatten()
        .is_some_and(|p| {
            matches!(
                item.arena.expr(p).kind,
                ExprKind::App(..)
                    | ExprKind::Project { .. }
                    | ExprKind::Negate(_)
                    | ExprKind::Ascribe { .. }
            )
        })
}

/// An application's text as it must be written at `e`'s place.
pub(crate) fn placed(
    item: &rex_compiler::syntax::ast::Item,
    e: rex_compiler::syntax::ast::ExprId,
    text: String,
) -> String {
    if in_atom_position(item, e) {
        format!("({text})")
    } else {
        text
    }
}

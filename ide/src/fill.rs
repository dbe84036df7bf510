//! Hole-fill candidates: type-directed, then verified. Calls and values are generated from
//! the expected type at the hole and the values in scope, ranked the way a careful
//! programmer would pick them, and each is kept only if the item type-checks with it in
//! place (no more errors than with the hole).
//!
//! Ranking, best first:
//! 0. the user's functions whose declared result is exactly the expected type, applied to
//!    in-scope values of exactly the declared parameter types;
//! 1. in-scope values, closest scope first;
//! 2. other calls of the user's functions and constructors, and their plain values;
//! 3. the prelude's constructors, functions and methods;
//! 4. calls that still need a hole for an argument.

use rex_compiler::syntax::ast::{ExprId, ExprKind};
use serde::Serialize;

use crate::catalog::Origin;
use crate::context::Context;
use crate::edit::Replace;
use crate::fit::{is_uninformative, Fit};
use crate::limits::{MAX_FILL_CANDIDATES, MAX_FILL_CANDIDATES_TRIED};
use crate::locate::parents;
use crate::search::{argument_pool, callees, calls_of, Arg, Source};
use crate::verify::item_errors_with;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FillCandidate {
    /// The function or value the fill is built from.
    pub name: String,
    /// The expression that replaces the hole.
    pub replacement: String,
}

/// A verified fill with the edit that makes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fill {
    pub candidate: FillCandidate,
    pub edit: Replace,
}

/// Verified fills for the hole at the context's position (none when the position is not
/// on a hole).
pub fn fills_at(ctx: &Context<'_>) -> Vec<Fill> {
    let Some(at) = ctx.at.as_ref() else {
        return vec![];
    };
    let Some(hole) = at.hole() else {
        return vec![];
    };
    let mut fills = Vec::new();
    let span = at.abs(at.item.arena.expr(hole).span);
    let atom = needs_atom(ctx, hole);
    let Some(baseline) = item_errors_with(&ctx.doc, at.index, &[]) else {
        return vec![];
    };
    for (name, text) in ranked_candidates(ctx)
        .into_iter()
        .take(MAX_FILL_CANDIDATES_TRIED)
    {
        let placed = if atom && text.contains(' ') {
            format!("({text})")
        } else {
            text.clone()
        };
        let edit = Replace::new(span, placed);
        let ok = item_errors_with(&ctx.doc, at.index, std::slice::from_ref(&edit))
            .is_some_and(|after| after.total() <= baseline.total());
        if ok {
            fills.push(Fill {
                candidate: FillCandidate {
                    name,
                    replacement: text,
                },
                edit,
            });
            if fills.len() >= MAX_FILL_CANDIDATES {
                break;
            }
        }
    }
    fills
}

/// Whether the hole stands where only an atom may (an argument, a projected value).
pub fn needs_atom(ctx: &Context<'_>, hole: ExprId) -> bool {
    let Some(at) = ctx.at.as_ref() else {
        return false;
    };
    let parent = parents(at.item);
    match parent.get(hole.index()).copied().flatten() {
        Some(p) => matches!(
            at.item.arena.expr(p).kind,
            ExprKind::App(..)
                | ExprKind::Project { .. }
                | ExprKind::Negate(_)
                | ExprKind::Ascribe { .. }
        ),
        None => false,
    }
}

/// Unverified candidates `(name, text)`, best first, without duplicates.
pub fn ranked_candidates(ctx: &Context<'_>) -> Vec<(String, String)> {
    let mut fit = Fit::new();
    let pool = argument_pool(ctx, &mut fit);
    let all = callees(ctx);
    let enclosing_fn = ctx.enclosing_fn();
    let expected = ctx.expected.as_ref().map(|t| fit.import(t));
    let informative = expected.as_ref().is_some_and(|t| !is_uninformative(t));
    type Key = (u8, usize, usize, bool, bool, usize, usize);
    let mut ranked: Vec<(Key, String, String)> = Vec::new();
    for (i, c) in all.iter().enumerate() {
        // A function's own body calling itself is rarely the fill that was meant.
        if enclosing_fn == Some(c.name.as_str()) && !matches!(c.source, Source::Local(_)) {
            continue;
        }
        // With nothing known about the hole, only the values in scope are offered.
        if !informative && !matches!(c.source, Source::Local(_)) {
            continue;
        }
        // Calls that need holes for arguments are offered for the user's functions and for
        // constructors only: a prelude method with holes says too little to be useful.
        let allow_holes = match c.source {
            Source::Local(_) => true,
            Source::Global(o) => o != Origin::PreludeFunction && o != Origin::Method,
        };
        let calls = calls_of(
            ctx.env,
            &mut fit,
            &all,
            i,
            expected.as_ref(),
            &pool,
            allow_holes,
        );
        let calls = if !informative && calls.is_empty() {
            vec![crate::search::Call {
                callee: i,
                args: vec![],
                exact_result: false,
                exact_args: true,
            }]
        } else {
            calls
        };
        for (n, call) in calls.into_iter().enumerate() {
            let arg_depth: usize = call
                .args
                .iter()
                .map(|a| match a {
                    Arg::Value { depth, .. } => *depth,
                    Arg::Hole => 0,
                })
                .sum();
            let tier = if call.holes() > 0 {
                4
            } else if call.args.is_empty() {
                match c.source {
                    Source::Local(_) => 1,
                    s if s.is_user() => 2,
                    _ => 3,
                }
            } else if c.source.is_user() && call.exact_result && call.exact_args {
                0
            } else if c.source.is_user() {
                2
            } else {
                3
            };
            let depth = match c.source {
                Source::Local(d) => d,
                _ => arg_depth,
            };
            let origin = match c.source {
                Source::Local(_) => 0,
                Source::Global(o) => 1 + o as usize,
            };
            let key = (
                tier,
                origin,
                depth,
                !call.exact_result,
                !call.exact_args,
                if c.source.is_user() { 0 } else { 1 },
                i * 16 + n,
            );
            ranked.push((key, c.name.clone(), call.text(&all)));
        }
    }
    ranked.sort_by_key(|a| a.0);
    let mut out: Vec<(String, String)> = Vec::new();
    for (_, name, text) in ranked {
        if !out.iter().any(|(_, t)| *t == text) {
            out.push((name, text));
        }
    }
    out
}

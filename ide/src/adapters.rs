//! `rex.adaptersFromInferredToExpectedAt`: one-argument functions that turn a value of the
//! inferred type into one of the expected type, for repairing a mismatch in one step.

use serde::Serialize;

use crate::context::{show, Context};
use crate::fit::{arrows, is_uninformative, Fit};
use crate::limits::MAX_CANDIDATES;
use crate::search::{callees, Callee};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Adapters {
    pub inferred_type: Option<String>,
    pub expected_type: Option<String>,
    pub items: Vec<String>,
}

pub fn adapters_at(ctx: &Context<'_>) -> Adapters {
    Adapters {
        inferred_type: ctx.inferred.as_ref().map(show),
        expected_type: ctx.expected.as_ref().map(show),
        items: adapter_items(ctx),
    }
}

pub fn adapter_items(ctx: &Context<'_>) -> Vec<String> {
    let (Some(inferred), Some(expected)) = (ctx.inferred.as_ref(), ctx.expected.as_ref()) else {
        return vec![];
    };
    adapters_between(ctx, inferred, expected)
        .into_iter()
        .map(|c| c.signature())
        .collect()
}

/// Callees `f` such that `f x : expected` for `x : inferred`, best first.
pub fn adapters_between(
    ctx: &Context<'_>,
    inferred: &rex_compiler::types::Ty,
    expected: &rex_compiler::types::Ty,
) -> Vec<Callee> {
    if is_uninformative(inferred) || is_uninformative(expected) {
        return vec![];
    }
    let mut fit = Fit::new();
    let inferred = fit.import(inferred);
    let expected = fit.import(expected);
    let all = callees(ctx);
    let mut ranked: Vec<(bool, bool, usize)> = Vec::new();
    for (i, c) in all.iter().enumerate() {
        let t = fit.instantiate(&c.scheme);
        let (params, result) = arrows(&t);
        let [param] = params.as_slice() else {
            continue;
        };
        let exact = fit.same(param, &inferred) && fit.same(&result, &expected);
        let ok = fit.trial(|fit| fit.unify(&inferred, param) && fit.unify(&result, &expected));
        if ok {
            ranked.push((!exact, !c.source.is_user(), i));
        }
    }
    ranked.sort();
    ranked
        .into_iter()
        .take(MAX_CANDIDATES)
        .map(|(_, _, i)| all[i].clone())
        .collect()
}

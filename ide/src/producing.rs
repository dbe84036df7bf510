//! `rex.functionsProducingExpectedTypeAt`: functions whose result fits the expected type at
//! a position, the user's first and exact results before ones that only unify.

use serde::Serialize;

use crate::context::Context;
use crate::fit::{arrows, is_bare_variable, is_uninformative, Fit};
use crate::limits::{MAX_CALL_ARITY, MAX_CANDIDATES};
use crate::search::callees;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Items {
    pub items: Vec<String>,
}

/// `name : type` of each function producing the expected type; empty when nothing (or only
/// a bare type variable) is expected, since then every function would qualify.
pub fn functions_producing(ctx: &Context<'_>) -> Vec<String> {
    let Some(expected) = ctx.expected.as_ref() else {
        return vec![];
    };
    if is_uninformative(expected) {
        return vec![];
    }
    let mut fit = Fit::new();
    let expected = fit.import(expected);
    let all = callees(ctx);
    let mut ranked: Vec<(bool, bool, usize, String)> = Vec::new();
    for (i, c) in all.iter().enumerate() {
        let t = fit.instantiate(&c.scheme);
        let (params, result) = arrows(&t);
        if params.is_empty()
            || params.len() > MAX_CALL_ARITY
            || is_bare_variable(&result)
            || !fit.fits(&result, &expected)
        {
            continue;
        }
        let exact = fit.same(&result, &expected);
        ranked.push((!exact, !c.source.is_user(), i, c.signature()));
    }
    ranked.sort();
    ranked
        .into_iter()
        .map(|r| r.3)
        .take(MAX_CANDIDATES)
        .collect()
}

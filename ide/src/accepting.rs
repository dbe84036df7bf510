//! `rex.functionsAcceptingInferredTypeAt`: functions with a parameter the inferred type at
//! a position fits, those taking it first (so it can be piped) before the others.

use serde::Serialize;

use crate::context::{show, Context};
use crate::fit::{arrows, is_bare_variable, is_uninformative, Fit};
use crate::limits::MAX_CANDIDATES;
use crate::search::callees;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Accepting {
    pub inferred_type: Option<String>,
    pub items: Vec<String>,
}

pub fn functions_accepting(ctx: &Context<'_>) -> Accepting {
    Accepting {
        inferred_type: ctx.inferred.as_ref().map(show),
        items: accepting_items(ctx),
    }
}

pub fn accepting_items(ctx: &Context<'_>) -> Vec<String> {
    let Some(inferred) = ctx.inferred.as_ref() else {
        return vec![];
    };
    if is_uninformative(inferred) {
        return vec![];
    }
    let mut fit = Fit::new();
    let inferred = fit.import(inferred);
    let mut ranked: Vec<(usize, bool, bool, bool, usize, String)> = Vec::new();
    for (i, c) in callees(ctx).iter().enumerate() {
        let t = fit.instantiate(&c.scheme);
        let (params, _) = arrows(&t);
        let Some(pos) = params.iter().position(|p| fit.fits(&inferred, p)) else {
            continue;
        };
        let exact = fit.same(&params[pos], &inferred);
        // A bare type variable accepts anything; such functions come after those whose
        // parameter says something about the value.
        let bare = is_bare_variable(&params[pos]);
        ranked.push((
            pos.min(1),
            bare,
            !exact,
            !c.source.is_user(),
            i,
            c.signature(),
        ));
    }
    ranked.sort();
    ranked
        .into_iter()
        .map(|r| r.5)
        .take(MAX_CANDIDATES)
        .collect()
}

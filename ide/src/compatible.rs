//! `rex.functionsCompatibleWithInScopeValuesAt`: concrete calls whose every argument is a
//! value in scope (`qc_label_from_sensor sensor_reading`), those producing the expected type
//! first, then the user's functions, then the prelude's.

use crate::context::Context;
use crate::fit::{arrows, is_bare_variable, is_uninformative, Fit};
use crate::limits::MAX_CANDIDATES;
use crate::search::{argument_pool, callees, calls_of};

pub fn compatible_calls(ctx: &Context<'_>) -> Vec<String> {
    let mut fit = Fit::new();
    let pool = argument_pool(ctx, &mut fit);
    if pool.is_empty() {
        return vec![];
    }
    let expected = ctx
        .expected
        .as_ref()
        .filter(|t| !is_uninformative(t))
        .map(|t| fit.import(t));
    let all = callees(ctx);
    let mut ranked: Vec<(u8, bool, bool, usize, usize, String)> = Vec::new();
    for i in 0..all.len() {
        // A function whose result is a bare variable fits any call site; its calls from
        // whatever is in scope are noise.
        let (_, result) = arrows(&fit.instantiate(&all[i].scheme));
        if is_bare_variable(&result) {
            continue;
        }
        let fitting = match &expected {
            Some(e) => calls_of(ctx.env, &mut fit, &all, i, Some(e), &pool, false),
            None => vec![],
        };
        let fits_expected = !fitting.is_empty();
        let calls = if fits_expected {
            fitting
        } else {
            calls_of(ctx.env, &mut fit, &all, i, None, &pool, false)
        };
        for (n, call) in calls.into_iter().enumerate() {
            if call.args.is_empty() {
                continue;
            }
            let tier = match (fits_expected, call.exact_result) {
                (true, true) => 0,
                (true, false) => 1,
                _ => 2,
            };
            let text = call.text(&all);
            ranked.push((tier, !call.exact_args, !all[i].source.is_user(), i, n, text));
        }
    }
    ranked.sort();
    let mut out: Vec<String> = Vec::new();
    for r in ranked {
        if !out.contains(&r.5) {
            out.push(r.5);
        }
        if out.len() >= MAX_CANDIDATES {
            break;
        }
    }
    out
}

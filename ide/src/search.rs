//! Type-directed call search: which functions (in-scope or global) can be called, with
//! which in-scope values as arguments, to produce a value of an expected type. Every list is
//! capped by `limits`; nothing here verifies (see `fill` for that).

use rex_compiler::check::Env;
use rex_compiler::types::{Pred, Scheme, Ty};

use crate::catalog::Origin;
use crate::context::Context;
use crate::fit::{arrows, Fit};
use crate::limits::{MAX_ARGUMENT_CHOICES, MAX_CALL_ARITY};

/// Where a callee comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Source {
    /// A local, with its scope depth (0 innermost).
    Local(usize),
    Global(Origin),
}

impl Source {
    pub fn is_user(self) -> bool {
        match self {
            Source::Local(_) => true,
            Source::Global(o) => o.is_user(),
        }
    }
}

/// Something that can be called or used as a value.
#[derive(Clone, Debug)]
pub struct Callee {
    pub name: String,
    pub scheme: Scheme,
    pub source: Source,
}

impl Callee {
    /// `name : type` as the contract's lists render it.
    pub fn signature(&self) -> String {
        crate::fit::signature_line(&self.name, &self.scheme)
    }
}

/// Locals first (innermost first), then the globals in catalogue order.
pub fn callees(ctx: &Context<'_>) -> Vec<Callee> {
    let mut out: Vec<Callee> = ctx
        .locals
        .iter()
        .map(|l| Callee {
            name: l.name.clone(),
            scheme: l.scheme.clone(),
            source: Source::Local(l.depth),
        })
        .collect();
    out.extend(ctx.globals.iter().map(|g| Callee {
        name: g.name.clone(),
        scheme: g.scheme.clone(),
        source: Source::Global(g.origin),
    }));
    out
}

/// One argument of a call: an in-scope value, or a hole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    Value { name: String, depth: usize },
    Hole,
}

impl Arg {
    fn text(&self) -> &str {
        match self {
            Arg::Value { name, .. } => name,
            Arg::Hole => "?",
        }
    }
}

/// A call (or, with no arguments, a plain use) of a callee.
#[derive(Clone, Debug)]
pub struct Call {
    pub callee: usize,
    pub args: Vec<Arg>,
    /// The callee's declared result is exactly the expected type.
    pub exact_result: bool,
    /// Every argument's type is exactly the declared parameter type.
    pub exact_args: bool,
}

impl Call {
    pub fn text(&self, callees: &[Callee]) -> String {
        let mut s = callees[self.callee].name.clone();
        for a in &self.args {
            s.push(' ');
            s.push_str(a.text());
        }
        s
    }

    pub fn holes(&self) -> usize {
        self.args.iter().filter(|a| **a == Arg::Hole).count()
    }
}

/// The locals usable as arguments: their types, brought into `fit` (a polymorphic local
/// instantiated once for the whole search).
pub fn argument_pool(ctx: &Context<'_>, fit: &mut Fit) -> Vec<(String, usize, Ty)> {
    ctx.locals
        .iter()
        .filter(|l| !l.scheme.ty.contains_unknown())
        .map(|l| (l.name.clone(), l.depth, fit.instantiate(&l.scheme)))
        .collect()
}

/// Full calls of callee `index` whose result fits `expected` (any result when None), with
/// arguments from `pool`; a parameter nothing fits gets a hole when `allow_holes`. Plain
/// uses (no arguments) are returned for values that fit themselves. A call whose class
/// constraints have no instance once its arguments are chosen (`show f` of a function) is
/// not returned.
pub fn calls_of(
    env: &Env,
    fit: &mut Fit,
    callees: &[Callee],
    index: usize,
    expected: Option<&Ty>,
    pool: &[(String, usize, Ty)],
    allow_holes: bool,
) -> Vec<Call> {
    let callee = &callees[index];
    let (t, preds) = fit.instantiate_with_preds(&callee.scheme);
    let (params, result) = arrows(&t);
    let mut out = Vec::new();
    // The value itself.
    if let Some(e) = expected {
        if fit.fits_under(env, &t, e, &preds) {
            let exact = fit.same(&t, e);
            out.push(Call {
                callee: index,
                args: vec![],
                exact_result: exact,
                exact_args: true,
            });
        }
    }
    if params.is_empty() || params.len() > MAX_CALL_ARITY {
        return out;
    }
    fit.trial(|fit| {
        let exact_result = match expected {
            Some(e) => {
                let exact = fit.same(&result, e);
                if !fit.unify(&result, e) {
                    return;
                }
                exact
            }
            None => false,
        };
        let declared_ground: Vec<bool> = params.iter().map(|p| p.is_ground()).collect();
        let mut chosen = Vec::new();
        let mut found = Vec::new();
        let call = CallShape {
            env,
            params: &params,
            preds: &preds,
            declared_ground: &declared_ground,
            pool,
            allow_holes,
        };
        assign(fit, &call, &mut chosen, &mut found);
        for (args, exact_args) in found {
            out.push(Call {
                callee: index,
                args,
                exact_result,
                exact_args,
            });
        }
    });
    out
}

/// What `assign` chooses arguments for.
struct CallShape<'a> {
    env: &'a Env,
    params: &'a [Ty],
    preds: &'a [Pred],
    declared_ground: &'a [bool],
    pool: &'a [(String, usize, Ty)],
    allow_holes: bool,
}

/// Depth-first choice of arguments, at most `MAX_ARGUMENT_CHOICES` complete assignments.
fn assign(
    fit: &mut Fit,
    call: &CallShape<'_>,
    chosen: &mut Vec<(Arg, bool)>,
    found: &mut Vec<(Vec<Arg>, bool)>,
) {
    if found.len() >= MAX_ARGUMENT_CHOICES {
        return;
    }
    let i = chosen.len();
    let Some(param) = call.params.get(i) else {
        if fit.satisfiable(call.env, call.preds) {
            let args = chosen.iter().map(|(a, _)| a.clone()).collect();
            let exact = chosen.iter().all(|(_, e)| *e);
            found.push((args, exact));
        }
        return;
    };
    let mut any = false;
    for (name, depth, ty) in call.pool {
        if found.len() >= MAX_ARGUMENT_CHOICES {
            return;
        }
        let exact = call.declared_ground[i] && fit.same(ty, param);
        let fitted = fit.trial(|fit| {
            if !fit.unify(ty, param) {
                return false;
            }
            chosen.push((
                Arg::Value {
                    name: name.clone(),
                    depth: *depth,
                },
                exact,
            ));
            assign(fit, call, chosen, found);
            chosen.pop();
            true
        });
        any |= fitted;
    }
    if !any && call.allow_holes {
        chosen.push((Arg::Hole, false));
        assign(fit, call, chosen, found);
        chosen.pop();
    }
}

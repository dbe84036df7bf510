//! The one trial unifier of the assists: does a value of one type fit where another is
//! expected? A private unifier, so that trying candidates never touches the checker's
//! results; every trial is rolled back.
//!
//! Types reach it from two places, and both go through `import`: the checker's results
//! (whose inference variables are numbered by the checker's own unifier and mean nothing
//! here) and schemes (globals, and `let` bindings that generalisation made polymorphic).
//! Importing maps each checker variable to one variable of this unifier, the same one on
//! every import, so that types from the same item still share their unknowns; a scheme's
//! quantified variables are instantiated afresh on every use.

use std::collections::HashMap;

use rex_compiler::check::solve::{entails, Entail};
use rex_compiler::check::Env;
use rex_compiler::types::{Pred, Scheme, Ty, TyVar, Unifier};

#[derive(Default)]
pub struct Fit {
    u: Unifier,
    imported: HashMap<TyVar, Ty>,
}

impl Fit {
    pub fn new() -> Fit {
        Fit::default()
    }

    /// A checker type brought into this unifier: each of its variables (numbered by the
    /// checker's own unifier) becomes a fresh one here, the same one on every import.
    pub fn import(&mut self, t: &Ty) -> Ty {
        t.map(&mut |t| match t {
            Ty::Var(v) => Some(match self.imported.get(v) {
                Some(mine) => mine.clone(),
                None => {
                    let mine = self.u.fresh();
                    self.imported.insert(*v, mine.clone());
                    mine
                }
            }),
            _ => None,
        })
    }

    /// A scheme's type with fresh variables for its quantified ones (its free inference
    /// variables, those of a monomorphic local, imported like any checker type).
    pub fn instantiate(&mut self, sc: &Scheme) -> Ty {
        self.instantiate_with_preds(sc).0
    }

    /// A scheme's type and class constraints, instantiated together.
    pub fn instantiate_with_preds(&mut self, sc: &Scheme) -> (Ty, Vec<Pred>) {
        // Import first: the fresh variables made for the quantified ones are this
        // unifier's own and must not be taken for checker variables.
        let ty = self.import(&sc.ty);
        let preds: Vec<Pred> = sc
            .preds
            .iter()
            .map(|p| p.map_types(|t| self.import(t)))
            .collect();
        let args: Vec<Ty> = (0..sc.vars).map(|_| self.u.fresh()).collect();
        let preds = preds
            .iter()
            .map(|p| p.map_types(|t| t.instantiate(&args)))
            .collect();
        (ty.instantiate(&args), preds)
    }

    /// Whether `found` fits `expected`; nothing stays bound.
    pub fn fits(&mut self, found: &Ty, expected: &Ty) -> bool {
        let snap = self.u.snapshot();
        let ok = self.u.unify(found, expected).is_ok();
        self.u.rollback_to(snap);
        ok
    }

    /// Runs `f` and undoes every binding it made.
    pub fn trial<R>(&mut self, f: impl FnOnce(&mut Fit) -> R) -> R {
        let snap = self.u.snapshot();
        let r = f(self);
        self.u.rollback_to(snap);
        r
    }

    /// Unifies and keeps the bindings (inside a `trial`).
    pub fn unify(&mut self, a: &Ty, b: &Ty) -> bool {
        self.u.unify(a, b).is_ok()
    }

    pub fn zonk(&mut self, t: &Ty) -> Ty {
        self.u.zonk(t)
    }

    /// Follows bound variables at the top of `t`.
    pub fn shallow(&mut self, t: &Ty) -> Ty {
        self.u.shallow(t)
    }

    /// Whether `a` and `b` unify with every class constraint in `preds` still satisfiable;
    /// nothing stays bound.
    pub fn fits_under(&mut self, env: &Env, a: &Ty, b: &Ty, preds: &[Pred]) -> bool {
        self.trial(|fit| fit.unify(a, b) && fit.satisfiable(env, preds))
    }

    /// Whether no constraint of `preds`, under the current bindings, is known to have no
    /// instance (one that mentions a signature's rigid variable is taken as given).
    pub fn satisfiable(&mut self, env: &Env, preds: &[Pred]) -> bool {
        preds.iter().all(|p| {
            let p = p.map_types(|t| self.zonk(t));
            let mut rigid = false;
            p.args
                .iter()
                .for_each(|t| t.visit(&mut |x| rigid |= matches!(x, Ty::Rigid(_))));
            rigid || !matches!(entails(env, &[], &p), Entail::No)
        })
    }

    /// `found` and `expected` are the same fully known type (no instantiation needed).
    pub fn same(&mut self, found: &Ty, expected: &Ty) -> bool {
        let (f, e) = (self.u.zonk(found), self.u.zonk(expected));
        f.is_ground() && !f.contains_unknown() && f == e
    }
}

/// Parameters and result of a (curried) function type.
pub fn arrows(t: &Ty) -> (Vec<Ty>, Ty) {
    let mut params = Vec::new();
    let mut t = t.clone();
    while let Ty::Fun(a, r) = t {
        params.push(*a);
        t = *r;
    }
    (params, t)
}

/// The type left after applying a function to its first `k` parameters.
pub fn after_args(params: &[Ty], result: &Ty, k: usize) -> Ty {
    params[k.min(params.len())..]
        .iter()
        .rev()
        .fold(result.clone(), |acc, p| Ty::fun(p.clone(), acc))
}

/// A type that says nothing about what fits (a bare variable or the unknown type): a
/// search directed by it would return everything.
pub fn is_uninformative(t: &Ty) -> bool {
    matches!(t, Ty::Var(_) | Ty::Unknown)
}

/// `name : type`, the rendering of the candidate lists of the contract.
pub fn signature_line(name: &str, scheme: &Scheme) -> String {
    format!("{name} : {scheme}")
}

/// A result type that is a bare variable: such a function "produces" every type, so it
/// says nothing about fitting an expected one.
pub fn is_bare_variable(t: &Ty) -> bool {
    matches!(t, Ty::Var(_) | Ty::Gen(_))
}

//! Type fitting for candidate search: does a value of one type fit where another is
//! expected? A private unifier, so that trying candidates never touches the checker's
//! results; every trial is rolled back.

use std::collections::HashMap;

use rex_compiler::types::{Scheme, Ty, TyVar, Unifier};

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

    /// A scheme's type with fresh variables.
    pub fn instantiate(&mut self, sc: &Scheme) -> Ty {
        let args: Vec<Ty> = (0..sc.vars).map(|_| self.u.fresh()).collect();
        sc.ty.instantiate(&args)
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

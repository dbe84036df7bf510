//! How well a candidate's type fits the type expected at the cursor, decided by unification
//! in a scratch unifier (class constraints are not consulted: a fit is plausible, not
//! proven).

use std::collections::HashMap;

use rex_compiler::check::solve::{entails, Entail};
use rex_compiler::check::Env;
use rex_compiler::types::{Pred, Scheme, Ty, TyVar, Unifier};

/// How many arguments a function may take for its result to count as a fit.
pub const MAX_FIT_ARGS: usize = 6;

/// Best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TypeFit {
    /// The candidate itself has the expected type.
    Exact,
    /// Applied to this many arguments, the candidate has the expected type.
    Returns(usize),
    /// The candidate (or its result after this many arguments) is a bare type variable:
    /// it fits anything, so it says little.
    Generic(usize),
    /// Nothing is known about the expected type.
    Unconstrained,
    /// The candidate cannot have the expected type.
    Mismatch,
}

/// A unifier holding the expected type, with the inference variables of the item it comes
/// from renamed into it (so that local types from the same item share them).
pub struct FitScope {
    u: Unifier,
    renamed: HashMap<TyVar, Ty>,
    expected: Option<Ty>,
}

impl FitScope {
    pub fn new(expected: Option<&Ty>) -> FitScope {
        let mut scope = FitScope {
            u: Unifier::new(),
            renamed: HashMap::new(),
            expected: None,
        };
        let informative = expected.filter(|t| !matches!(t, Ty::Var(_) | Ty::Unknown));
        scope.expected = informative.map(|t| scope.import(t));
        scope
    }

    /// A type from the item's inference, its variables mapped into this unifier.
    pub fn import(&mut self, t: &Ty) -> Ty {
        t.map(&mut |inner| match inner {
            Ty::Var(v) => Some(
                self.renamed
                    .entry(*v)
                    .or_insert_with(|| self.u.fresh())
                    .clone(),
            ),
            _ => None,
        })
    }

    /// A scheme's type and constraints with fresh variables for its quantified ones.
    pub fn instantiate(&mut self, sc: &Scheme) -> (Ty, Vec<Pred>) {
        let args: Vec<Ty> = (0..sc.vars).map(|_| self.u.fresh()).collect();
        let preds = sc
            .preds
            .iter()
            .map(|p| p.map_types(|t| t.instantiate(&args)))
            .collect();
        (sc.ty.instantiate(&args), preds)
    }

    /// The fit of a candidate whose type (already in this unifier) is `t`, under its
    /// class constraints `preds`.
    pub fn fit(&mut self, env: &Env, t: &Ty, preds: &[Pred]) -> TypeFit {
        let Some(expected) = self.expected.clone() else {
            return TypeFit::Unconstrained;
        };
        let mut result = t.clone();
        for n in 0..=MAX_FIT_ARGS {
            if n > 0 {
                match self.u.shallow(&result) {
                    Ty::Fun(_, r) => result = *r,
                    _ => break,
                }
            }
            let generic = matches!(self.u.shallow(&result), Ty::Var(_));
            if self.unifies_under(env, &result, &expected, preds) {
                return match (generic, n) {
                    (true, n) => TypeFit::Generic(n),
                    (false, 0) => TypeFit::Exact,
                    (false, n) => TypeFit::Returns(n),
                };
            }
        }
        TypeFit::Mismatch
    }

    /// Whether `a` and `b` unify with every constraint still satisfiable (one with a
    /// signature's rigid variable is assumed to be given); the unifier is left as it was.
    fn unifies_under(&mut self, env: &Env, a: &Ty, b: &Ty, preds: &[Pred]) -> bool {
        let snap = self.u.snapshot();
        let mut ok = self.u.unify(a, b).is_ok();
        if ok {
            for p in preds {
                let p = p.map_types(|t| self.u.zonk(t));
                let mut rigid = false;
                p.args
                    .iter()
                    .for_each(|t| t.visit(&mut |x| rigid |= matches!(x, Ty::Rigid(_))));
                if !rigid && matches!(entails(env, &[], &p, 0), Entail::No) {
                    ok = false;
                    break;
                }
            }
        }
        self.u.rollback_to(snap);
        ok
    }
}

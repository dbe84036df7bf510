//! How well a candidate's type fits the type expected at the cursor, decided in the
//! assists' trial unifier (class constraints are consulted only as far as an instance can
//! be ruled out: a fit is plausible, not proven).

use rex_compiler::check::Env;
use rex_compiler::types::{Pred, Scheme, Ty};

use crate::fit::{is_uninformative, Fit};

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

/// The expected type at the cursor, held in the assists' one trial unifier (`crate::fit`)
/// together with the candidates imported beside it, so that local types from the same item
/// share their unknowns with it.
pub struct FitScope {
    fit: Fit,
    expected: Option<Ty>,
}

impl FitScope {
    pub fn new(expected: Option<&Ty>) -> FitScope {
        let mut fit = Fit::new();
        let expected = expected
            .filter(|t| !is_uninformative(t))
            .map(|t| fit.import(t));
        FitScope { fit, expected }
    }

    /// A type from the item's inference, its variables mapped into this unifier.
    pub fn import(&mut self, t: &Ty) -> Ty {
        self.fit.import(t)
    }

    /// A scheme's type and constraints with fresh variables for its quantified ones.
    pub fn instantiate(&mut self, sc: &Scheme) -> (Ty, Vec<Pred>) {
        self.fit.instantiate_with_preds(sc)
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
                match self.fit.shallow(&result) {
                    Ty::Fun(_, r) => result = *r,
                    _ => break,
                }
            }
            let generic = matches!(self.fit.shallow(&result), Ty::Var(_));
            if self.fit.fits_under(env, &result, &expected, preds) {
                return match (generic, n) {
                    (true, n) => TypeFit::Generic(n),
                    (false, 0) => TypeFit::Exact,
                    (false, n) => TypeFit::Returns(n),
                };
            }
        }
        TypeFit::Mismatch
    }
}

//! How well a candidate's type fits the type expected at the cursor, decided in the
//! assists' trial unifier (class constraints are consulted only as far as an instance can
//! be ruled out: a fit is plausible, not proven).

use rex_compiler::check::Env;
use rex_compiler::types::{Pred, Ty};

use crate::fit::{is_uninformative, Fit};
use crate::limits::MAX_FIT_ARGS;

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

/// The fit of a candidate whose type `t` (under its class constraints `preds`) is already
/// in `fit`, the assists' one trial unifier, where `expected` (imported into the same
/// unifier, so that local types from the item share their unknowns with it) is expected.
pub fn type_fit(
    fit: &mut Fit,
    env: &Env,
    expected: Option<&Ty>,
    t: &Ty,
    preds: &[Pred],
) -> TypeFit {
    let Some(expected) = expected else {
        return TypeFit::Unconstrained;
    };
    let mut result = t.clone();
    for n in 0..=MAX_FIT_ARGS {
        if n > 0 {
            match fit.shallow(&result) {
                Ty::Fun(_, r) => result = *r,
                _ => break,
            }
        }
        let generic = matches!(fit.shallow(&result), Ty::Var(_));
        if fit.fits_under(env, &result, expected, preds) {
            return match (generic, n) {
                (true, n) => TypeFit::Generic(n),
                (false, 0) => TypeFit::Exact,
                (false, n) => TypeFit::Returns(n),
            };
        }
    }
    TypeFit::Mismatch
}

/// The expected type as completion compares with it: imported into `fit`, or `None`
/// where it says nothing (unknown, or a bare variable).
pub fn target(fit: &mut Fit, expected: Option<&Ty>) -> Option<Ty> {
    expected
        .filter(|t| !is_uninformative(t))
        .map(|t| fit.import(t))
}

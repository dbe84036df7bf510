//! Types and unification.

pub mod ty;
pub mod unify;

pub use ty::{Pred, Scheme, Ty, TyVar, TypePrinter};
pub use unify::Unifier;

//! Unification over `ena` tables. `Unknown` is consistent with every type (gradual typing
//! of marked nodes), so it unifies with anything without binding.

use ena::unify::{EqUnifyValue, InPlaceUnificationTable, UnifyKey};

use super::ty::{Ty, TyVar};

impl UnifyKey for TyVar {
    type Value = Option<Ty>;
    fn index(&self) -> u32 {
        self.0
    }
    fn from_index(i: u32) -> TyVar {
        TyVar(i)
    }
    fn tag() -> &'static str {
        "TyVar"
    }
}

impl EqUnifyValue for Ty {}

/// Why two types failed to unify.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnifyError {
    Mismatch,
    /// The variable occurs in the type it would be bound to (an infinite type).
    Occurs,
}

#[derive(Default)]
pub struct Unifier {
    table: InPlaceUnificationTable<TyVar>,
}

pub type Snapshot = ena::unify::Snapshot<ena::unify::InPlace<TyVar>>;

impl Unifier {
    pub fn new() -> Unifier {
        Unifier::default()
    }

    pub fn fresh(&mut self) -> Ty {
        Ty::Var(self.table.new_key(None))
    }

    pub fn fresh_var(&mut self) -> TyVar {
        self.table.new_key(None)
    }

    pub fn snapshot(&mut self) -> Snapshot {
        self.table.snapshot()
    }

    pub fn rollback_to(&mut self, s: Snapshot) {
        self.table.rollback_to(s)
    }

    pub fn commit(&mut self, s: Snapshot) {
        self.table.commit(s)
    }

    /// Follows bound variables at the top of `t`.
    pub fn shallow(&mut self, t: &Ty) -> Ty {
        let mut t = t.clone();
        while let Ty::Var(v) = t {
            match self.table.probe_value(v) {
                Some(bound) => t = bound,
                None => return Ty::Var(self.table.find(v)),
            }
        }
        t
    }

    /// `shallow` without copying a `t` that is not a variable (unification looks at the
    /// top of every pair of types it meets, most of which are not variables).
    fn shallow_cow<'a>(&mut self, t: &'a Ty) -> std::borrow::Cow<'a, Ty> {
        match t {
            Ty::Var(_) => std::borrow::Cow::Owned(self.shallow(t)),
            _ => std::borrow::Cow::Borrowed(t),
        }
    }

    /// `zonk` in place: only the variables are replaced, the rest of `t` is left as it is
    /// (no copy of the parts without variables).
    pub fn zonk_in_place(&mut self, t: &mut Ty) {
        match t {
            Ty::Var(_) => {
                *t = self.shallow(t);
                if !matches!(t, Ty::Var(_)) {
                    self.zonk_in_place(t);
                }
            }
            Ty::App(a, b) | Ty::Fun(a, b) => {
                self.zonk_in_place(a);
                self.zonk_in_place(b);
            }
            Ty::Tuple(ts) => ts.iter_mut().for_each(|t| self.zonk_in_place(t)),
            Ty::Record(fs) => fs.iter_mut().for_each(|(_, t)| self.zonk_in_place(t)),
            Ty::Gen(_) | Ty::Rigid(_) | Ty::Con(_) | Ty::Unknown => {}
        }
    }

    /// Resolves every bound variable in `t` (unbound ones become their representative).
    pub fn zonk(&mut self, t: &Ty) -> Ty {
        let mut t = t.clone();
        self.zonk_in_place(&mut t);
        t
    }

    pub fn unify(&mut self, a: &Ty, b: &Ty) -> Result<(), UnifyError> {
        if let (Ty::Var(x), Ty::Var(y)) = (a, b) {
            return self.unify_vars(*x, *y);
        }
        let a = self.shallow_cow(a);
        let b = self.shallow_cow(b);
        match (&*a, &*b) {
            (Ty::Unknown, _) | (_, Ty::Unknown) => Ok(()),
            (Ty::Var(x), Ty::Var(y)) => {
                // Both are unbound here, so their values cannot conflict.
                self.table
                    .unify_var_var(*x, *y)
                    .map_err(|_| UnifyError::Mismatch)
            }
            (Ty::Var(v), t) | (t, Ty::Var(v)) => self.bind(*v, t),
            (Ty::Con(x), Ty::Con(y)) if x == y => Ok(()),
            (Ty::Rigid(x), Ty::Rigid(y)) if x == y => Ok(()),
            (Ty::Gen(x), Ty::Gen(y)) if x == y => Ok(()),
            (Ty::App(f1, a1), Ty::App(f2, a2)) | (Ty::Fun(f1, a1), Ty::Fun(f2, a2)) => {
                self.unify(f1, f2)?;
                self.unify(a1, a2)
            }
            (Ty::Tuple(xs), Ty::Tuple(ys)) if xs.len() == ys.len() => {
                for (x, y) in xs.iter().zip(ys) {
                    self.unify(x, y)?;
                }
                Ok(())
            }
            (Ty::Record(xs), Ty::Record(ys))
                if xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| x.0 == y.0) =>
            {
                for (x, y) in xs.iter().zip(ys) {
                    self.unify(&x.1, &y.1)?;
                }
                Ok(())
            }
            // A record literal may be used as a dictionary whose values share one type.
            (Ty::Record(fields), dict @ Ty::App(..)) | (dict @ Ty::App(..), Ty::Record(fields))
                if dict.head_name() == Some("Dict") =>
            {
                let (_, args) = dict.spine();
                let elem = args.first().map(|t| (*t).clone()).unwrap_or(Ty::Unknown);
                for (_, t) in fields {
                    self.unify(t, &elem)?;
                }
                Ok(())
            }
            _ => Err(UnifyError::Mismatch),
        }
    }

    /// Two variables become one class even when one of them is bound already, so that
    /// what unification connected stays connected (diagnostics group their echoes by it).
    fn unify_vars(&mut self, x: TyVar, y: TyVar) -> Result<(), UnifyError> {
        if self.table.find(x) == self.table.find(y) {
            return Ok(());
        }
        match (self.table.probe_value(x), self.table.probe_value(y)) {
            (Some(tx), Some(ty)) => {
                self.unify(&tx, &ty)?;
                // Equal values merge; otherwise both are bound consistently, which is enough.
                let _ = self.table.unify_var_var(x, y);
                Ok(())
            }
            (None, Some(t)) | (Some(t), None) => {
                let free = if self.table.probe_value(x).is_none() {
                    x
                } else {
                    y
                };
                let free_root = self.table.find(free);
                let mut occurs = false;
                self.zonk(&t)
                    .visit(&mut |inner| occurs |= matches!(inner, Ty::Var(w) if *w == free_root));
                if occurs {
                    return Err(UnifyError::Occurs);
                }
                self.table
                    .unify_var_var(x, y)
                    .map_err(|_| UnifyError::Mismatch)
            }
            (None, None) => self
                .table
                .unify_var_var(x, y)
                .map_err(|_| UnifyError::Mismatch),
        }
    }

    fn bind(&mut self, v: TyVar, t: &Ty) -> Result<(), UnifyError> {
        let t = self.zonk(t);
        let mut occurs = false;
        t.visit(&mut |inner| occurs |= matches!(inner, Ty::Var(w) if *w == v));
        if occurs {
            return Err(UnifyError::Occurs);
        }
        self.table
            .unify_var_value(v, Some(t))
            .map_err(|_| UnifyError::Mismatch)
    }

    /// The representative of `v`'s equivalence class (bound or not): two variables have
    /// the same root exactly when unification made them one.
    pub fn root(&mut self, v: TyVar) -> TyVar {
        self.table.find(v)
    }

    /// Binds every unbound variable of `t` to the unknown type. After a mismatch the
    /// variables the conflict left open are not ambiguous: nothing can fix them any more, so
    /// they take the type of marked nodes, consistent with everything.
    pub fn forget_vars(&mut self, t: &Ty) {
        let mut vars = Vec::new();
        self.zonk(t).free_vars(&mut vars);
        for v in vars {
            let _ = self.table.unify_var_value(v, Some(Ty::Unknown));
        }
    }

    /// Unifies, undoing every binding if it fails.
    pub fn try_unify(&mut self, a: &Ty, b: &Ty) -> Result<(), UnifyError> {
        let snap = self.snapshot();
        match self.unify(a, b) {
            Ok(()) => {
                self.commit(snap);
                Ok(())
            }
            Err(e) => {
                self.rollback_to(snap);
                Err(e)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unifies_higher_kinded_applications() {
        let mut u = Unifier::new();
        let f = u.fresh();
        let a = u.fresh();
        let fa = Ty::app(f.clone(), a.clone());
        let list_i32 = Ty::con_app("List", vec![Ty::con("i32")]);
        u.unify(&fa, &list_i32).unwrap();
        assert_eq!(u.zonk(&f), Ty::con("List"));
        assert_eq!(u.zonk(&a), Ty::con("i32"));
    }

    #[test]
    fn occurs_check_and_unknown() {
        let mut u = Unifier::new();
        let a = u.fresh();
        let list_a = Ty::con_app("List", vec![a.clone()]);
        assert_eq!(u.unify(&a, &list_a), Err(UnifyError::Occurs));
        assert!(u.unify(&Ty::Unknown, &Ty::con("i32")).is_ok());
        assert!(u.try_unify(&Ty::con("bool"), &Ty::con("i32")).is_err());
    }
}

//! A `let` binding whose generalised type would keep a constrained variable that the type
//! does not mention is ambiguous, as in the reference (OBSERVED.md, "Ambiguity"): no use of
//! the binding can fix that variable. `let a = get 0 xs` (with `xs = [10, 20, 30]`) leaves
//! the element type of `Indexable (List 'a) 'r` open; `let add5 = make_adder 5` (a user
//! class method) leaves the `'n` of `Builder 'n`. Written inline, the same expressions are
//! fine: the program's result fixes or defaults them.
//!
//! A variable that SPEC.md's defaulting fixes (every constraint on it simple and of a
//! defaultable class) is let through, as are the types of holes and variables an earlier
//! error already involved. What is left is one diagnostic on the binding's name; annotating
//! the binding resolves it.

use super::errors::Diag;
use super::infer::Infer;
use super::solve::Defaulting;
use crate::syntax::ast::{PatId, PatKind};
use crate::types::{TyVar, TypePrinter};

impl Infer<'_> {
    /// Reports the group owned by `owner` when a constraint wanted since `start` keeps a
    /// variable open that is neither `fixed` (by the environment) nor in the group's types
    /// (`typed`).
    pub(super) fn binding_ambiguity(
        &mut self,
        owner: PatId,
        start: usize,
        fixed: &[TyVar],
        typed: &[TyVar],
    ) {
        let wanted = self.wanted[start..].to_vec();
        let mut exempt: Vec<TyVar> = Vec::new();
        for h in &self.holes {
            self.u.zonk(&h.expected).free_vars(&mut exempt);
        }
        let mut vars = Vec::new();
        for w in &wanted {
            for a in &w.pred.args {
                self.u.zonk(a).free_vars(&mut vars);
            }
        }
        let conflicted = self.conflicted.clone();
        let mut open: Vec<TyVar> = Vec::new();
        for v in vars {
            let root = self.u.root(v);
            if !fixed.contains(&v)
                && !typed.contains(&v)
                && !exempt.contains(&v)
                && !conflicted.contains(&root)
                && !open.contains(&v)
            {
                open.push(v);
            }
        }
        if open.is_empty() {
            return;
        }
        let reduced = self.reduced(&wanted);
        let candidates = self.default_candidates();
        open.retain(|v| {
            self.default_for(*v, &reduced, &candidates, Defaulting::Spec)
                .is_none()
        });
        if open.is_empty() {
            return;
        }
        let mut printer = TypePrinter::new();
        let mut shown: Vec<String> = Vec::new();
        for w in &wanted {
            let pred = w.pred.map_types(|t| self.u.zonk(t));
            let mut pv = Vec::new();
            for a in &pred.args {
                a.free_vars(&mut pv);
            }
            if pv.iter().any(|v| open.contains(v)) {
                let s = printer.pred(&pred);
                if !shown.contains(&s) {
                    shown.push(s);
                }
            }
        }
        let pat = self.arena.pat(owner);
        let name = match &pat.kind {
            PatKind::Var(name) => name.clone(),
            _ => String::from("_"),
        };
        self.diags
            .push(Diag::ambiguous_binding(&name, shown, pat.span));
        // The constraints stay wanted (the program still runs); they are not reported again.
        for v in open {
            let root = self.u.root(v);
            if !self.conflicted.contains(&root) {
                self.conflicted.push(root);
            }
        }
    }
}

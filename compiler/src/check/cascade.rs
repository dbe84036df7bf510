//! One fault, one diagnostic, for class constraints. When a wrong type reaches a group of
//! type variables that unification made one, every constraint on the group can fail at
//! once (`[1, "two", 3]` wants `Integral string` twice); only the first is the fault, the
//! rest are its echoes.

use super::errors::Diag;
use super::infer::Infer;
use super::solve::Wanted;
use crate::span::Span;
use crate::syntax::ast::ExprKind;
use crate::types::{Pred, TyVar, TypePrinter};

impl Infer<'_> {
    /// Reports the constraints no instance satisfies (`pred` is the zonked form of the
    /// wanted one), one per group of unified variables, none on a group a mismatch already
    /// reported, and returns the roots of every reported group.
    /// Constraints of operators and functions go first: in `"a" * 2` the fault is `*` on a
    /// string, not the literal `2`.
    pub(super) fn report_missing_instances(
        &mut self,
        mut failed: Vec<(Wanted, Pred)>,
    ) -> Vec<TyVar> {
        failed.sort_by_key(|(w, _)| self.is_literal_site(w.span));
        let mut blamed = self.conflicted.clone();
        for (w, pred) in failed {
            let roots = self.roots(&w.pred);
            if roots.iter().any(|r| blamed.contains(r)) {
                continue;
            }
            blamed.extend(roots);
            if self.diags.iter().any(|d| d.span == w.span) {
                continue;
            }
            let mut p = TypePrinter::new();
            let types = pred.args.iter().map(|a| p.ty(a)).collect();
            self.diags
                .push(Diag::missing_instance(&pred.class, types, w.span));
        }
        blamed
    }

    /// True when `pred` constrains a group already reported.
    pub(super) fn blames(&mut self, blamed: &[TyVar], pred: &Pred) -> bool {
        !blamed.is_empty() && self.roots(pred).iter().any(|r| blamed.contains(r))
    }

    fn roots(&mut self, pred: &Pred) -> Vec<TyVar> {
        let mut vars = Vec::new();
        for a in &pred.args {
            a.free_vars(&mut vars);
        }
        vars.into_iter().map(|v| self.u.root(v)).collect()
    }

    fn is_literal_site(&self, span: Span) -> bool {
        self.arena
            .exprs
            .iter()
            .any(|e| e.span == span && matches!(e.kind, ExprKind::Lit(_)))
    }
}

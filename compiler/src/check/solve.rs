//! Class constraints: entailment by instances and givens, and defaulting (SPEC.md).

use std::sync::Arc;

use super::env::Env;
use super::errors::Diag;
use super::infer::Infer;
use crate::span::Span;
use crate::types::{Pred, Ty, TyVar, TypePrinter};

/// A constraint the item needs, and where it arose.
#[derive(Clone, Debug)]
pub struct Wanted {
    pub pred: Pred,
    /// The site: the name, operator or literal whose use needs the constraint.
    pub span: Span,
    /// Which predicate of the site's scheme this is (evaluation passes evidence in order).
    pub index: u32,
    /// The site is a function value (an overloaded method or constrained function, used
    /// as a function): when nothing fixes its type, evaluation resolves what it can when
    /// it is applied, and an overloaded value nothing resolves prints as
    /// `<overloaded:NAME>`, as in the reference. Such a constraint is not an ambiguity.
    pub deferrable: bool,
}

impl Wanted {
    /// A constraint of a site that is not a function value.
    pub fn at(pred: Pred, span: Span, index: u32) -> Wanted {
        Wanted {
            pred,
            span,
            index,
            deferrable: false,
        }
    }
}

/// How many instance steps past the size of its types resolving a constraint may take. A
/// derivation that follows the types' structure takes at most one step per type node
/// (`Show (Option (Option i32))`: three); this many more allow instances whose contexts do
/// not shrink the types, and stop those that loop (E0313).
const MAX_ENTAIL_DEPTH: usize = 32;

/// How deep instance contexts are followed for `pred` (see `MAX_ENTAIL_DEPTH`).
pub(super) fn instance_depth_limit(pred: &Pred) -> usize {
    let mut nodes = 0;
    for a in &pred.args {
        a.visit(&mut |_| nodes += 1);
    }
    MAX_ENTAIL_DEPTH + nodes
}

/// Which variables defaulting may fix.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Defaulting {
    /// SPEC.md "Defaulting": every constraint on the variable is simple (`C a`) and of a
    /// defaultable class. A `let` binding's open variables are held to this.
    Spec,
    /// At the end of an item: every constraint is simple and one is of a defaultable
    /// class; the others (`Eq`, `Show`, a user class) must hold at the chosen type. This
    /// stands in for the reference resolving such uses when they run.
    Lenient,
}

/// How many times the solver goes over the constraints (each pass may fix types that
/// let the next discharge more: improvement, defaulting, a record type found).
const SOLVER_ROUNDS: usize = 8;

/// Classes whose variables may be defaulted.
const DEFAULTABLE: &[&str] = &[
    "AdditiveMonoid",
    "MultiplicativeMonoid",
    "AdditiveGroup",
    "Ring",
    "Field",
    "Integral",
    "Semiring",
];

/// One-way matching of an instance head (with `Gen` variables) against a type.
pub(super) fn match_ty(pat: &Ty, t: &Ty, subst: &mut Vec<Option<Ty>>) -> bool {
    match (pat, t) {
        (Ty::Gen(i), _) => {
            let i = *i as usize;
            if subst.len() <= i {
                subst.resize(i + 1, None);
            }
            match &subst[i] {
                Some(prev) => prev == t || matches!(t, Ty::Unknown),
                None => {
                    subst[i] = Some(t.clone());
                    true
                }
            }
        }
        (_, Ty::Unknown) => true,
        (Ty::Con(a), Ty::Con(b)) => a == b,
        (Ty::App(f1, a1), Ty::App(f2, a2)) | (Ty::Fun(f1, a1), Ty::Fun(f2, a2)) => {
            match_ty(f1, f2, subst) && match_ty(a1, a2, subst)
        }
        (Ty::Tuple(xs), Ty::Tuple(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| match_ty(x, y, subst))
        }
        (Ty::Record(xs), Ty::Record(ys)) => {
            xs.len() == ys.len()
                && xs
                    .iter()
                    .zip(ys)
                    .all(|(x, y)| x.0 == y.0 && match_ty(&x.1, &y.1, subst))
        }
        _ => false,
    }
}

/// The predicates implied by `given` through superclasses (including itself).
pub fn superclass_closure(env: &Env, given: &[Pred]) -> Vec<Pred> {
    let mut out: Vec<Pred> = Vec::new();
    let mut stack: Vec<Pred> = given.to_vec();
    while let Some(p) = stack.pop() {
        if out.contains(&p) {
            continue;
        }
        if let Some(class) = env.classes.get(&p.class) {
            for s in &class.supers {
                stack.push(s.map_types(|t| t.instantiate(&p.args)));
            }
        }
        out.push(p);
    }
    out
}

pub enum Entail {
    Yes,
    No,
    /// Not decidable yet: it mentions unresolved type variables.
    Unknown,
    /// Instance contexts were followed past `instance_depth_limit` (an instance whose
    /// context loops).
    TooDeep,
}

/// Whether `pred` (zonked) holds, given `givens` (closed under superclasses).
pub fn entails(env: &Env, givens: &[Pred], pred: &Pred) -> Entail {
    entails_within(env, givens, pred, 0, instance_depth_limit(pred))
}

fn entails_within(env: &Env, givens: &[Pred], pred: &Pred, depth: usize, limit: usize) -> Entail {
    if pred
        .args
        .iter()
        .any(|a| a.contains_unknown() && matches!(a, Ty::Unknown))
    {
        return Entail::Yes;
    }
    if givens.contains(pred) {
        return Entail::Yes;
    }
    if depth > limit {
        return Entail::TooDeep;
    }
    if let Some((_, context)) = matching_instance(env, pred) {
        let mut result = Entail::Yes;
        for sub in &context {
            match entails_within(env, givens, sub, depth + 1, limit) {
                Entail::Yes => {}
                Entail::No => return Entail::No,
                Entail::TooDeep => return Entail::TooDeep,
                Entail::Unknown => result = Entail::Unknown,
            }
        }
        return result;
    }
    let has_flexible = pred.args.iter().any(|a| {
        let mut v = Vec::new();
        a.free_vars(&mut v);
        !v.is_empty()
    });
    // Unresolved variables only postpone the answer when some instance (or given) could
    // still apply once they are known: `Num ('a -> 'b)` has no instance whatever 'a is.
    if has_flexible
        && (could_match_later(env, pred) || givens.iter().any(|g| g.class == pred.class))
    {
        Entail::Unknown
    } else {
        Entail::No
    }
}

/// Whether some instance of `pred`'s class has a head that `pred` could still match once
/// its variables are known.
fn could_match_later(env: &Env, pred: &Pred) -> bool {
    env.instances.iter().any(|inst| {
        inst.class == pred.class
            && inst
                .head
                .iter()
                .zip(&pred.args)
                .all(|(h, a)| shapes_agree(h, a))
    })
}

/// Whether an instance head `h` and a type `a` could be made equal: they differ in no
/// constructor where both are known.
fn shapes_agree(h: &Ty, a: &Ty) -> bool {
    match (h, a) {
        (Ty::Gen(_), _) | (_, Ty::Var(_)) | (_, Ty::Unknown) | (_, Ty::Rigid(_)) => true,
        (Ty::Con(x), Ty::Con(y)) => x == y,
        (Ty::App(f1, a1), Ty::App(f2, a2)) | (Ty::Fun(f1, a1), Ty::Fun(f2, a2)) => {
            shapes_agree(f1, f2) && shapes_agree(a1, a2)
        }
        (Ty::Tuple(xs), Ty::Tuple(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| shapes_agree(x, y))
        }
        (Ty::Record(xs), Ty::Record(ys)) => {
            xs.len() == ys.len()
                && xs
                    .iter()
                    .zip(ys)
                    .all(|(x, y)| x.0 == y.0 && shapes_agree(&x.1, &y.1))
        }
        _ => false,
    }
}

/// Replaces `pred` by the contexts of the instance whose head matches it, recursively,
/// until what is left mentions only bare variables or matches no instance.
fn reduce_by_instances(env: &Env, pred: &Pred, out: &mut Vec<Pred>, depth: usize, limit: usize) {
    let simple = pred.args.iter().all(|a| matches!(a, Ty::Var(_)));
    if simple || depth > limit {
        out.push(pred.clone());
        return;
    }
    match matching_instance(env, pred) {
        Some((_, context)) => {
            for sub in &context {
                reduce_by_instances(env, sub, out, depth + 1, limit);
            }
        }
        None => out.push(pred.clone()),
    }
}

/// The first instance whose head matches `pred`: its index, and its context instantiated
/// at the match (variables the head does not fix become unknown).
pub(super) fn matching_instance(env: &Env, pred: &Pred) -> Option<(usize, Vec<Pred>)> {
    env.instances.iter().enumerate().find_map(|(index, inst)| {
        if inst.class != pred.class {
            return None;
        }
        let mut subst = Vec::new();
        if !inst
            .head
            .iter()
            .zip(&pred.args)
            .all(|(h, a)| match_ty(h, a, &mut subst))
        {
            return None;
        }
        let vars: Vec<Ty> = (0..inst.vars as usize)
            .map(|i| subst.get(i).cloned().flatten().unwrap_or(Ty::Unknown))
            .collect();
        let context = inst
            .context
            .iter()
            .map(|c| c.map_types(|t| t.instantiate(&vars)))
            .collect();
        Some((index, context))
    })
}

impl Infer<'_> {
    /// Solves every wanted constraint at the end of an item: entailment, then defaulting,
    /// then ambiguity errors for what is left.
    pub fn solve(&mut self) {
        let givens = superclass_closure(self.env, &self.givens);
        let mut pending: Vec<Wanted> = std::mem::take(&mut self.wanted);
        let all = pending.clone();
        let mut failed = Vec::new();
        for round in 0..SOLVER_ROUNDS {
            let mut still = Vec::new();
            // A record type found since may fix a field's type, and so a constraint's.
            let mut progressed = self.solve_fields();
            for w in pending {
                let pred = w.pred.map_types(|t| self.u.zonk(t));
                match entails(self.env, &givens, &pred) {
                    Entail::Yes => {}
                    Entail::No => failed.push((w, pred)),
                    Entail::TooDeep => {
                        let shown = TypePrinter::new().pred(&pred);
                        self.diags.push(Diag::recursion_limit(shown, w.span));
                    }
                    Entail::Unknown => {
                        // The constraint as wanted (not zonked), so that improvement
                        // unifies the variables themselves and keeps them connected.
                        if self.improve(&w.pred) {
                            still.push(Wanted { pred, ..w });
                            progressed = true;
                        } else {
                            still.push(Wanted { pred, ..w });
                        }
                    }
                }
            }
            pending = still;
            if (pending.is_empty() && self.fields.is_empty()) || round + 1 == SOLVER_ROUNDS {
                break;
            }
            if !progressed && !self.default_vars(&pending) && !self.guess_field_owners() {
                break;
            }
        }
        self.report_fields();
        let blamed = self.report_missing_instances(failed);
        for w in pending {
            if w.deferrable
                || self.diags.iter().any(|d| d.span == w.span)
                || self.blames(&blamed, &w.pred)
            {
                continue;
            }
            let shown = TypePrinter::new().pred(&w.pred);
            self.diags.push(Diag::ambiguous(shown, w.span));
        }
        self.record_evidence(&all);
    }

    /// For a multi-parameter class, the only instance whose head unifies with `pred` fixes
    /// the remaining parameters (`Indexable (List a) b` gives `b = a`). True when it did.
    fn improve(&mut self, pred: &Pred) -> bool {
        if pred.args.len() < 2 {
            return false;
        }
        let mut fitting = Vec::new();
        for (i, inst) in self.env.instances.iter().enumerate() {
            if inst.class != pred.class {
                continue;
            }
            let snap = self.u.snapshot();
            let fresh: Vec<Ty> = (0..inst.vars).map(|_| self.u.fresh()).collect();
            let ok = inst
                .head
                .iter()
                .zip(&pred.args)
                .all(|(h, a)| self.u.unify(&h.instantiate(&fresh), a).is_ok());
            self.u.rollback_to(snap);
            if ok {
                fitting.push(i);
            }
        }
        let [only] = fitting.as_slice() else {
            return false;
        };
        let inst = &self.env.instances[*only];
        let fresh: Vec<Ty> = (0..inst.vars).map(|_| self.u.fresh()).collect();
        let before: Vec<Ty> = pred.args.iter().map(|a| self.u.zonk(a)).collect();
        for (h, a) in inst.head.iter().zip(&pred.args) {
            let _ = self.u.unify(&h.instantiate(&fresh), a);
        }
        let after: Vec<Ty> = pred.args.iter().map(|a| self.u.zonk(a)).collect();
        before != after
    }

    /// Picks a default type for each eligible variable; true when any was defaulted.
    fn default_vars(&mut self, pending: &[Wanted]) -> bool {
        let mut vars = Vec::new();
        for w in pending {
            for a in &w.pred.args {
                a.free_vars(&mut vars);
            }
        }
        let reduced = self.reduced(pending);
        let candidates = self.default_candidates();
        let mut changed = false;
        for v in vars {
            if let Some(t) = self.default_for(v, &reduced, &candidates, Defaulting::Lenient) {
                if self.u.unify(&Ty::Var(v), &t).is_ok() {
                    changed = true;
                }
            }
        }
        changed
    }

    /// The constraints of `wanted`, zonked and reduced by instances: `Show (List a)`
    /// constrains `a` through the instance `Show a => Show (List a)`, so that what is left
    /// is on the variables themselves.
    pub(super) fn reduced(&mut self, wanted: &[Wanted]) -> Vec<Pred> {
        let mut reduced = Vec::new();
        for w in wanted {
            let pred = w.pred.map_types(|t| self.u.zonk(t));
            let limit = instance_depth_limit(&pred);
            reduce_by_instances(self.env, &pred, &mut reduced, 0, limit);
        }
        reduced
    }

    /// The type defaulting gives variable `v` under the (reduced) constraints `reduced`, if
    /// it is eligible under `rule` and one of `candidates` satisfies them all.
    pub(super) fn default_for(
        &self,
        v: TyVar,
        reduced: &[Pred],
        candidates: &[Ty],
        rule: Defaulting,
    ) -> Option<Ty> {
        let var_ty = Ty::Var(v);
        let preds: Vec<&Pred> = reduced
            .iter()
            .filter(|p| {
                p.args.iter().any(|a| {
                    let mut fv = Vec::new();
                    a.free_vars(&mut fv);
                    fv.contains(&v)
                })
            })
            .collect();
        let simple = preds
            .iter()
            .all(|p| p.args.len() == 1 && p.args[0] == var_ty);
        let classes_allowed = match rule {
            Defaulting::Spec => preds.iter().all(|p| DEFAULTABLE.contains(&&*p.class)),
            Defaulting::Lenient => preds.iter().any(|p| DEFAULTABLE.contains(&&*p.class)),
        };
        if !simple || !classes_allowed || preds.is_empty() {
            return None;
        }
        candidates
            .iter()
            .find(|c| {
                preds.iter().all(|p| {
                    let pred = Pred {
                        class: p.class.clone(),
                        args: vec![(*c).clone()],
                    };
                    matches!(entails(self.env, &[], &pred), Entail::Yes)
                })
            })
            .cloned()
    }

    /// Ground nullary types of the item's subexpressions in first-seen order, then
    /// `f32`, `i32`, `string`.
    pub(super) fn default_candidates(&mut self) -> Vec<Ty> {
        let mut out: Vec<Ty> = Vec::new();
        for i in 0..self.expr_types.len() {
            let t = self.u.zonk(&self.expr_types[i]);
            if let Ty::Con(n) = &t {
                if crate::types::ty::is_primitive_scalar(n) && !out.contains(&t) {
                    out.push(t);
                }
            }
        }
        for n in ["f32", "i32", "string"] {
            let t = Ty::Con(Arc::from(n));
            if !out.contains(&t) {
                out.push(t);
            }
        }
        out
    }
}

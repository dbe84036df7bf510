//! Evidence: which instance (or which given dictionary) satisfies each class constraint of
//! an item, decided once when inference ends. Evaluation passes dictionaries built from it
//! and never re-infers anything at run time.

use std::collections::BTreeMap;

use super::env::Env;
use super::infer::Infer;
use super::solve::{matching_instance, Wanted};
use crate::span::Span;
use crate::syntax::ast::PatId;
use crate::types::{Pred, Ty};

/// Who supplies a dictionary parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Owner {
    /// The item: a `fn`'s constraints in order, or an instance's context followed by the
    /// instance itself (the dictionary being defined).
    Item,
    /// A generalised `let` binding (by its pattern), in the order of its scheme.
    Let(PatId),
}

/// How a constraint is satisfied.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Evidence {
    /// An instance (index into `Env::instances`), with evidence for each predicate of its
    /// context, in order.
    Instance { instance: u32, args: Vec<Evidence> },
    /// A dictionary parameter.
    Param { owner: Owner, index: u32 },
    /// The `index`-th superclass dictionary of another dictionary.
    Super { of: Box<Evidence>, index: u32 },
    /// Nothing satisfies it (the checker reported an error or an ambiguity); evaluation
    /// treats what needs it as indeterminate.
    Unresolved,
}

impl Evidence {
    /// True when no dictionary parameter is involved: the dictionary can be built once.
    pub fn is_static(&self) -> bool {
        match self {
            Evidence::Instance { args, .. } => args.iter().all(Evidence::is_static),
            Evidence::Param { .. } => false,
            Evidence::Super { of, .. } => of.is_static(),
            Evidence::Unresolved => true,
        }
    }

    /// True when instances alone supply it: static, and nothing unresolved in it.
    pub fn is_instances_only(&self) -> bool {
        match self {
            Evidence::Instance { args, .. } => args.iter().all(Evidence::is_instances_only),
            Evidence::Super { of, .. } => of.is_instances_only(),
            Evidence::Param { .. } | Evidence::Unresolved => false,
        }
    }
}

/// The dictionary parameters of a generalised `let` binding. The bindings of one
/// `let rec` share their group's parameters (`total`, owned by the first binding's
/// pattern); each binding's own constraints are the group's at `indices`, in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LetDicts {
    pub binding: PatId,
    pub owner: PatId,
    pub total: u32,
    pub indices: Vec<u32>,
}

/// Evidence by site (the span of the name, operator or literal) and predicate index.
pub type EvidenceTable = BTreeMap<(Span, u32), Evidence>;

/// A given predicate and the evidence that supplies it.
pub type Given = (Pred, Evidence);

/// The givens closed under superclasses, each with its path from a parameter.
pub fn given_closure(env: &Env, givens: &[Given]) -> Vec<Given> {
    let mut out: Vec<Given> = Vec::new();
    let mut queue: Vec<Given> = givens.to_vec();
    let mut next = 0;
    while next < queue.len() {
        let (p, ev) = queue[next].clone();
        next += 1;
        if out.iter().any(|(q, _)| *q == p) {
            continue;
        }
        if let Some(class) = env.classes.get(&p.class) {
            for (i, s) in class.supers.iter().enumerate() {
                let sp = s.map_types(|t| t.instantiate(&p.args));
                let sev = Evidence::Super {
                    of: Box::new(ev.clone()),
                    index: i as u32,
                };
                queue.push((sp, sev));
            }
        }
        out.push((p, ev));
    }
    out
}

/// The evidence for `pred` (fully resolved) under `givens` (closed under superclasses).
pub fn evidence_for(env: &Env, givens: &[Given], pred: &Pred) -> Evidence {
    evidence_at(
        env,
        givens,
        pred,
        0,
        super::solve::instance_depth_limit(pred),
    )
}

/// Instance contexts are followed as deep as in entailment.
fn evidence_at(env: &Env, givens: &[Given], pred: &Pred, depth: usize, limit: usize) -> Evidence {
    if pred.args.iter().any(Ty::contains_unknown) || depth > limit {
        return Evidence::Unresolved;
    }
    if let Some((_, ev)) = givens.iter().find(|(g, _)| g == pred) {
        return ev.clone();
    }
    match matching_instance(env, pred) {
        Some((index, context)) => Evidence::Instance {
            instance: index as u32,
            args: context
                .iter()
                .map(|c| evidence_at(env, givens, c, depth + 1, limit))
                .collect(),
        },
        None => Evidence::Unresolved,
    }
}

/// For each superclass of the class of instance `index`, the evidence in terms of the
/// instance's own parameters (its context, then itself).
pub fn instance_supers(env: &Env, index: usize) -> Vec<Evidence> {
    let Some(inst) = env.instances.get(index) else {
        return Vec::new();
    };
    let Some(class) = env.classes.get(&inst.class) else {
        return Vec::new();
    };
    let rigid: Vec<Ty> = (0..inst.vars)
        .map(|i| Ty::Rigid(format!("${i}").into()))
        .collect();
    let head: Vec<Ty> = inst.head.iter().map(|t| t.instantiate(&rigid)).collect();
    let mut givens: Vec<Given> = inst
        .context
        .iter()
        .enumerate()
        .map(|(i, p)| {
            (
                p.map_types(|t| t.instantiate(&rigid)),
                Evidence::Param {
                    owner: Owner::Item,
                    index: i as u32,
                },
            )
        })
        .collect();
    let closed = given_closure(env, &givens);
    givens = closed;
    class
        .supers
        .iter()
        .map(|s| evidence_for(env, &givens, &s.map_types(|t| t.instantiate(&head))))
        .collect()
}

impl Infer<'_> {
    /// Records the evidence of every constraint that reached the solver.
    pub(super) fn record_evidence(&mut self, wanted: &[Wanted]) {
        let givens: Vec<Given> = self
            .givens
            .iter()
            .enumerate()
            .map(|(i, p)| {
                (
                    p.clone(),
                    Evidence::Param {
                        owner: Owner::Item,
                        index: i as u32,
                    },
                )
            })
            .collect();
        let givens = given_closure(self.env, &givens);
        for w in wanted {
            let pred = w.pred.map_types(|t| self.u.zonk(t));
            let ev = evidence_for(self.env, &givens, &pred);
            self.evidence.insert((w.span, w.index), ev);
        }
    }

    /// A constraint of a `let` binding became one of the binding's own parameters.
    pub(super) fn let_param_evidence(&mut self, w: &Wanted, owner: PatId, index: u32) {
        let ev = Evidence::Param {
            owner: Owner::Let(owner),
            index,
        };
        self.evidence.insert((w.span, w.index), ev);
    }
}

//! What the checker learns about an item's locals, kept by binder. Which binder a name
//! denotes and where each local is visible is name resolution's (`resolve::ItemNames`, the
//! result the evaluator and the editor read too); the checker walks no scope of its own. It
//! keeps, per `LocalDef`: the binder's type scheme and the constructor its value is known
//! to hold; and, per `match` arm over a variable, the constructor that arm proved it holds.

use std::sync::Arc;

use crate::resolve::{ItemNames, LocalDef, Target};
use crate::span::Span;
use crate::syntax::ast::{Arena, ExprId, PatId};
use crate::types::{Scheme, Ty};

/// No binder (an index into the `uses`/`pats` tables).
const NONE: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct LocalType {
    scheme: Scheme,
    /// The constructor this local's value is known to hold (`let p = C {..}`).
    known_ctor: Option<usize>,
}

/// What a `match` arm over the variable `name` proved: within `body` it holds `ctor`.
#[derive(Clone, Debug)]
struct Proof {
    name: Arc<str>,
    /// The scrutinee's binder; `None` for a top-level value.
    def: Option<usize>,
    ty: Ty,
    ctor: usize,
    body: Span,
}

pub struct Locals<'a> {
    pub names: &'a ItemNames,
    /// By `LocalDef` index: the binder's type, once the checker has met the binder.
    types: Vec<Option<LocalType>>,
    /// By expression index: the binder a value use denotes.
    uses: Vec<u32>,
    /// By pattern index: the binder a variable pattern introduces.
    pats: Vec<u32>,
    /// In the order the arms were met (an inner arm after the arm around it).
    proofs: Vec<Proof>,
}

impl<'a> Locals<'a> {
    pub fn new(names: &'a ItemNames, arena: &Arena) -> Locals<'a> {
        let mut uses = vec![NONE; arena.exprs.len()];
        for u in &names.uses {
            if let (Some(e), Target::Local(d)) = (u.expr, &u.target) {
                if let Some(slot) = uses.get_mut(e.index()) {
                    *slot = *d as u32;
                }
            }
        }
        let mut pats = vec![NONE; arena.pats.len()];
        for (d, def) in names.locals.iter().enumerate() {
            if let Some(slot) = def.pat.and_then(|p| pats.get_mut(p.index())) {
                *slot = d as u32;
            }
        }
        Locals {
            names,
            types: vec![None; names.locals.len()],
            uses,
            pats,
            proofs: Vec::new(),
        }
    }

    fn def(&self, d: usize) -> &LocalDef {
        &self.names.locals[d]
    }

    /// The binder the value use `e` denotes, if it is a local.
    pub fn use_of(&self, e: ExprId) -> Option<usize> {
        found(self.uses.get(e.index()).copied())
    }

    /// The binder of variable pattern `p`.
    pub fn pat_def(&self, p: PatId) -> Option<usize> {
        found(self.pats.get(p.index()).copied())
    }

    /// The binder of the field shorthand `name` of dict pattern `dict`.
    pub fn field_def(&self, dict: PatId, name: &str) -> Option<usize> {
        let locals = &self.names.locals;
        locals
            .iter()
            .position(|d| d.field_of == Some(dict) && d.name == name)
    }

    /// The binder of the `fn`'s parameter number `index`.
    pub fn param_def(&self, index: usize) -> Option<usize> {
        let locals = &self.names.locals;
        locals.iter().position(|d| d.param_index == Some(index))
    }

    /// Records the type of binder `d` (if there is one).
    pub fn set(&mut self, d: Option<usize>, scheme: Scheme, known_ctor: Option<usize>) {
        if let Some(slot) = d.and_then(|d| self.types.get_mut(d)) {
            *slot = Some(LocalType { scheme, known_ctor });
        }
    }

    /// The type of binder `d`, once the checker has met it.
    pub fn scheme(&self, d: usize) -> Option<&Scheme> {
        self.types.get(d)?.as_ref().map(|t| &t.scheme)
    }

    /// Records that within `body` the variable `name` (binder `def`, `None` for a
    /// top-level value) of type `ty` holds constructor `ctor`.
    pub fn prove(&mut self, name: &str, def: Option<usize>, ty: Ty, ctor: usize, body: Span) {
        self.proofs.push(Proof {
            name: Arc::from(name),
            def,
            ty,
            ctor,
            body,
        });
    }

    /// The constructor the variable `name` used at `span` (binder `def`, `None` for a
    /// top-level value) is known to hold there: what the innermost `match` arm around it
    /// proved, else what its binding built.
    pub fn known_ctor(&self, name: &str, def: Option<usize>, span: Span) -> Option<usize> {
        let proved = self.proofs.iter().rev().find(|p| {
            p.body.covers(span)
                && match def {
                    Some(_) => p.def == def,
                    None => p.def.is_none() && *p.name == *name,
                }
        });
        match proved {
            Some(p) => Some(p.ctor),
            None => self.types.get(def?)?.as_ref()?.known_ctor,
        }
    }

    /// The locals in scope throughout `span` with their types, innermost first, a shadowed
    /// name left out. A variable a `match` arm proved something about counts as bound
    /// again by that arm, after the arm's own pattern.
    pub fn context(&self, span: Span) -> Vec<(Arc<str>, Scheme)> {
        let mut proofs = self.proofs.iter().rev().filter(|p| p.body.covers(span));
        let mut next = proofs.next();
        let mut out: Vec<(Arc<str>, Scheme)> = Vec::new();
        let mut push = |name: &str, scheme: &Scheme| {
            if !out.iter().any(|(n, _)| **n == *name) {
                out.push((Arc::from(name), scheme.clone()));
            }
        };
        for d in self.names.visible_over(span) {
            let def = self.def(d);
            while let Some(p) = next.filter(|p| !p.body.covers(def.span)) {
                push(&p.name, &Scheme::mono(p.ty.clone()));
                next = proofs.next();
            }
            if let Some(t) = &self.types[d] {
                push(&def.name, &t.scheme);
            }
        }
        while let Some(p) = next {
            push(&p.name, &Scheme::mono(p.ty.clone()));
            next = proofs.next();
        }
        out
    }

    /// The types of the locals in scope throughout `span`, but those `skip` leaves out
    /// (the environment a `let` binding is generalised in).
    pub fn env_types(&self, span: Span, skip: impl Fn(&LocalDef) -> bool) -> Vec<Ty> {
        let visible = self.names.visible_over(span).into_iter();
        let locals = visible
            .filter(|d| !skip(self.def(*d)))
            .filter_map(|d| self.scheme(d).map(|s| s.ty.clone()));
        let proved = self.proofs.iter().filter(|p| p.body.covers(span));
        locals.chain(proved.map(|p| p.ty.clone())).collect()
    }

    /// The names of the locals in scope at `span` (shadowed ones too), for near misses.
    pub fn names_over(&self, span: Span) -> impl Iterator<Item = &'a str> + '_ {
        let names = self.names;
        names
            .visible_over(span)
            .into_iter()
            .rev()
            .map(move |d| names.locals[d].name.as_str())
    }
}

fn found(slot: Option<u32>) -> Option<usize> {
    slot.filter(|d| *d != NONE).map(|d| d as usize)
}

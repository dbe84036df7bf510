//! Bidirectional inference for one item. Checking mode wherever a type is known, synthesis
//! elsewhere. A fault marks the smallest wrong node with one diagnostic; the node keeps its
//! own type, its parent sees the expected type, and checking goes on around it.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::env::{Env, FileRef, Value};
use super::errors::{near_members, near_misses, Diag, TypeDiag};
use super::locals::Locals;
use super::lower::{Lowering, NewVars};
use super::solve::Wanted;
use crate::diagnostic::Code;
use crate::resolve::{ItemNames, LocalDef};
use crate::span::Span;
use crate::syntax::ast::*;
use crate::types::unify::UnifyError;
use crate::types::{Pred, Scheme, Ty, TypePrinter, Unifier};

/// A hole met during inference.
#[derive(Clone, Debug)]
pub struct HoleSite {
    pub expr: ExprId,
    pub name: Option<String>,
    pub expected: Ty,
    pub context: Vec<(Arc<str>, Scheme)>,
}

pub struct Infer<'a> {
    pub env: &'a Env,
    /// The top-level values in scope: `env.values`, or the part of it the item reads
    /// (see `item_env`).
    pub values: &'a BTreeMap<Arc<str>, Value>,
    pub arena: &'a Arena,
    /// The file of the item being checked.
    pub file: FileRef,
    pub u: Unifier,
    pub expr_types: Vec<Ty>,
    pub expected: Vec<Option<Ty>>,
    pub pat_types: Vec<Ty>,
    /// The types of the item's locals, by the binder name resolution gave each use.
    pub locals: Locals<'a>,
    pub wanted: Vec<Wanted>,
    pub givens: Vec<Pred>,
    pub diags: Vec<TypeDiag>,
    pub holes: Vec<HoleSite>,
    /// Which instance or given satisfies each constraint site (for evaluation).
    pub evidence: super::evidence::EvidenceTable,
    /// The dictionary parameters of each generalised `let` binding.
    pub let_preds: Vec<super::evidence::LetDicts>,
    /// The scheme of each `let` binding that generalisation made polymorphic.
    pub let_schemes: Vec<(PatId, Scheme)>,
    /// Roots of the type variables a reported mismatch involved: constraints that later
    /// fail on them are echoes of that mismatch (see `cascade.rs`).
    pub conflicted: Vec<crate::types::TyVar>,
    /// Fields of values whose type is not known yet (see `records.rs`).
    pub fields: Vec<super::records::FieldWanted>,
    /// The constructor chosen at each constructor use (read by the evaluator).
    pub ctors: super::item::CtorChoices,
    /// Whether an unknown name's diagnostic lists the names it may have meant (off for
    /// checks that only count errors: the search costs a pass over every name in scope).
    pub suggest: bool,
}

impl<'a> Infer<'a> {
    pub fn new(
        env: &'a Env,
        values: &'a BTreeMap<Arc<str>, Value>,
        arena: &'a Arena,
        names: &'a ItemNames,
        file: FileRef,
    ) -> Infer<'a> {
        Infer {
            env,
            values,
            arena,
            file,
            u: Unifier::new(),
            expr_types: vec![Ty::Unknown; arena.exprs.len()],
            expected: vec![None; arena.exprs.len()],
            pat_types: vec![Ty::Unknown; arena.pats.len()],
            locals: Locals::new(names, arena),
            wanted: Vec::new(),
            givens: Vec::new(),
            diags: Vec::new(),
            holes: Vec::new(),
            evidence: Default::default(),
            let_preds: Vec::new(),
            let_schemes: Vec::new(),
            conflicted: Vec::new(),
            fields: Vec::new(),
            suggest: true,
            ctors: Default::default(),
        }
    }

    fn span(&self, e: ExprId) -> Span {
        self.arena.expr(e).span
    }

    pub fn show(&mut self, t: &Ty) -> String {
        let z = self.u.zonk(t);
        TypePrinter::new().ty(&z)
    }

    /// Instantiates a scheme with fresh variables; its predicates become wanted at `span`.
    pub fn instantiate(&mut self, sc: &Scheme, span: Span) -> Ty {
        let args: Vec<Ty> = (0..sc.vars).map(|_| self.u.fresh()).collect();
        // A function value's instance can wait for its arguments (SPEC.md, "Overloaded
        // Method Values"): nothing needs to choose it before they arrive.
        let deferrable = matches!(sc.ty, Ty::Fun(..));
        for (index, p) in sc.preds.iter().enumerate() {
            let pred = p.map_types(|t| t.instantiate(&args));
            let index = index as u32;
            self.wanted.push(Wanted {
                pred,
                span,
                index,
                deferrable,
            });
        }
        sc.ty.instantiate(&args)
    }

    /// Unifies `found` with `expected`; on failure marks `e` with one diagnostic.
    fn expect(&mut self, e: ExprId, found: &Ty, expected: &Ty) {
        self.expect_at(self.span(e), found, expected);
    }

    pub fn expect_at(&mut self, span: Span, found: &Ty, expected: &Ty) -> bool {
        match self.u.unify(found, expected) {
            Ok(()) => true,
            Err(err) => {
                let mut p = TypePrinter::new();
                let (ze, zf) = (self.u.zonk(expected), self.u.zonk(found));
                let (exp, fnd) = (p.ty(&ze), p.ty(&zf));
                self.diags.push(match err {
                    UnifyError::Mismatch => Diag::mismatch(exp, fnd, span),
                    UnifyError::Occurs => Diag::infinite(exp, fnd, span),
                });
                self.note_conflict(expected, found);
                false
            }
        }
    }

    // ------------------------------------------------------------------ expressions

    pub fn check(&mut self, e: ExprId, expected: &Ty) -> Ty {
        self.expected[e.index()] = Some(expected.clone());
        let arena = self.arena;
        let t = match &arena.expr(e).kind {
            ExprKind::Hole(name) => {
                self.hole(e, name.clone(), expected.clone());
                expected.clone()
            }
            ExprKind::Error { .. } => expected.clone(),
            ExprKind::Lambda {
                params,
                constraints,
                body,
            } => {
                // The parameters take what the expected type offers, and the body is
                // checked against the rest (a mistake there is reported there). Where the
                // expected type has fewer arrows than the lambda has parameters (or is no
                // function at all) the lambda's own type must still meet it.
                let covered = self.arrows(expected) >= params.len();
                let t = self.lambda(params, constraints, *body, Some(expected));
                if !covered {
                    self.expect(e, &t, expected);
                }
                t
            }
            ExprKind::Let {
                rec,
                bindings,
                body,
            } => self.let_expr(*rec, bindings, *body, Some(expected)),
            ExprKind::If(c, t, f) => {
                self.check(*c, &Ty::con("bool"));
                self.check(*t, expected);
                self.check(*f, expected);
                expected.clone()
            }
            ExprKind::Match { scrutinee, arms } => {
                self.match_expr(e, *scrutinee, arms, Some(expected))
            }
            ExprKind::Tuple(es) => {
                let exp = self.u.shallow(expected);
                match exp {
                    Ty::Tuple(ts) if ts.len() == es.len() => {
                        for (x, t) in es.iter().zip(&ts) {
                            self.check(*x, t);
                        }
                        Ty::Tuple(ts)
                    }
                    _ => {
                        let t = self.infer(e);
                        self.expect(e, &t, expected);
                        return t;
                    }
                }
            }
            ExprKind::List(es) => {
                let elem = self.u.fresh();
                let list = Ty::con_app("List", vec![elem.clone()]);
                if self.u.unify(&list, expected).is_ok() {
                    for x in es {
                        self.check(*x, &elem);
                    }
                    list
                } else {
                    let t = self.infer(e);
                    self.expect(e, &t, expected);
                    return t;
                }
            }
            ExprKind::Ctor(name) => {
                let span = self.span(e);
                let t = self.ctor_value(e, name, span, Some(expected));
                self.expect(e, &t, expected);
                t
            }
            ExprKind::Dict(fields) => self.dict(e, fields, Some(expected)),
            ExprKind::Update { base, fields } => self.update(*base, fields, Some(expected)),
            ExprKind::App(..) | ExprKind::Binary { .. } => {
                let t = self.application(e, Some(expected));
                self.expect(e, &t, expected);
                t
            }
            _ => {
                let t = self.infer(e);
                self.expect(e, &t, expected);
                return t;
            }
        };
        self.expr_types[e.index()] = t.clone();
        t
    }

    pub fn infer(&mut self, e: ExprId) -> Ty {
        let arena = self.arena;
        let span = self.span(e);
        let t = match &arena.expr(e).kind {
            ExprKind::Error { .. } => self.u.fresh(),
            ExprKind::Hole(name) => {
                let t = self.u.fresh();
                self.hole(e, name.clone(), t.clone());
                t
            }
            ExprKind::Var(name) => self.var_use(e, name, span),
            ExprKind::Ctor(name) => self.ctor_value(e, name, span, None),
            ExprKind::OpRef(op) => self.var(&op.text, span),
            ExprKind::Lit(lit) => self.literal(lit, span),
            ExprKind::App(..) | ExprKind::Binary { .. } => self.application(e, None),
            ExprKind::Negate(x) => {
                let tf = self.var("negate", span);
                self.apply_args(tf, *x, span)
            }
            ExprKind::Lambda {
                params,
                constraints,
                body,
            } => self.lambda(params, constraints, *body, None),
            ExprKind::Let {
                rec,
                bindings,
                body,
            } => self.let_expr(*rec, bindings, *body, None),
            ExprKind::If(c, t, f) => {
                self.check(*c, &Ty::con("bool"));
                let tt = self.infer(*t);
                self.check(*f, &tt);
                tt
            }
            ExprKind::Match { scrutinee, arms } => self.match_expr(e, *scrutinee, arms, None),
            ExprKind::Tuple(es) => Ty::Tuple(es.iter().map(|x| self.infer(*x)).collect()),
            ExprKind::List(es) => {
                let elem = self.u.fresh();
                for x in es {
                    self.check(*x, &elem);
                }
                Ty::con_app("List", vec![elem])
            }
            ExprKind::Dict(fields) => self.dict(e, fields, None),
            ExprKind::Update { base, fields } => self.update(*base, fields, None),
            ExprKind::Project { base, field } => self.project(e, *base, field, span),
            ExprKind::Ascribe { expr, ty } => {
                let mut lw = Lowering::new(self.env, NewVars::Fresh(&mut self.u));
                let t = lw.lower(self.arena, *ty);
                let diags = std::mem::take(&mut lw.diags);
                self.diags.extend(diags);
                self.check(*expr, &t);
                t
            }
        };
        self.expr_types[e.index()] = t.clone();
        t
    }

    /// Applies a function of type `tf` to argument `a`, checking `a` against the parameter.
    fn apply_args(&mut self, tf: Ty, a: ExprId, fspan: Span) -> Ty {
        match self.u.shallow(&tf) {
            Ty::Fun(p, r) => {
                self.check(a, &p);
                *r
            }
            Ty::Unknown => {
                self.infer(a);
                Ty::Unknown
            }
            Ty::Var(_) => {
                let p = self.u.fresh();
                let r = self.u.fresh();
                let _ = self.u.unify(&tf, &Ty::fun(p.clone(), r.clone()));
                self.check(a, &p);
                r
            }
            other => {
                let shown = self.show(&other);
                self.diags.push(Diag::not_a_function(shown, fspan));
                self.infer(a);
                Ty::Unknown
            }
        }
    }

    fn literal(&mut self, lit: &Literal, span: Span) -> Ty {
        match lit {
            Literal::Int(s) => {
                let t = self.u.fresh();
                self.wanted
                    .push(Wanted::at(Pred::new("Integral", vec![t.clone()]), span, 0));
                if s.starts_with('-') {
                    self.wanted.push(Wanted::at(
                        Pred::new("AdditiveGroup", vec![t.clone()]),
                        span,
                        1,
                    ));
                }
                t
            }
            // Float literals are overloaded over `Field` (f32, f64) and default to f32.
            Literal::Float(_) => {
                let t = self.u.fresh();
                self.wanted
                    .push(Wanted::at(Pred::new("Field", vec![t.clone()]), span, 0));
                t
            }
            Literal::Str(_) => Ty::con("string"),
            Literal::Bool(_) => Ty::con("bool"),
        }
    }

    fn hole(&mut self, e: ExprId, name: Option<String>, expected: Ty) {
        let context = self.locals.context(self.span(e));
        self.holes.push(HoleSite {
            expr: e,
            name,
            expected,
            context,
        });
    }

    /// The value name `name` written at node `e`: the local name resolution says it
    /// denotes, else a top-level function or method.
    fn var_use(&mut self, e: ExprId, name: &str, span: Span) -> Ty {
        let def = self.locals.use_of(e);
        self.local_or_global(def, name, span)
    }

    /// A value name written implicitly at `span` (an operator, `negate` for `-x`): the
    /// innermost local of that name visible there, else a top-level function or method.
    pub fn var(&mut self, name: &str, span: Span) -> Ty {
        let def = self.locals.names.innermost(name, span);
        self.local_or_global(def, name, span)
    }

    fn local_or_global(&mut self, def: Option<usize>, name: &str, span: Span) -> Ty {
        if let Some(sc) = def.and_then(|d| self.locals.scheme(d)) {
            let sc = sc.clone();
            return self.instantiate(&sc, span);
        }
        // The operators are natives every program may use; other natives are internal.
        let operator = matches!(name, "&&" | "||");
        let name = match name {
            "&&" => "prim_and",
            "||" => "prim_or",
            other => other,
        };
        if let Some(v) = self.values.get(name) {
            if !name.starts_with("prim_")
                || operator
                || self.file == FileRef::Prelude
                || v.origin.is_prelude() == (self.file == FileRef::Prelude)
            {
                let sc = v.scheme.clone();
                return self.instantiate(&sc, span);
            }
        }
        if let Some(m) = self.env.methods.get(name) {
            let sc = m.scheme.clone();
            return self.instantiate(&sc, span);
        }
        if self.env.missing_glob {
            return Ty::Unknown; // it may come from the `(*)` import that is missing
        }
        let candidates = self.names_like(name, span);
        self.diags.push(Diag::unknown_name(name, candidates, span));
        Ty::Unknown
    }

    /// Exports of the module imported as `alias` spelled like `name` (without `alias.`).
    pub(super) fn members_like(&self, alias: &str, name: &str) -> Vec<String> {
        if !self.suggest {
            return Vec::new();
        }
        let pool = self
            .values
            .keys()
            .chain(self.env.methods.keys())
            .chain(self.env.ctor_index.keys())
            .map(|k| &**k);
        near_members(alias, name, pool)
    }

    /// The constructors spelled like `name`.
    fn ctors_like(&self, name: &str) -> Vec<String> {
        if !self.suggest {
            return Vec::new();
        }
        near_misses(name, self.env.ctor_index.keys().map(|k| &**k))
    }

    /// The names like `name` that could be meant at `span`: the locals name resolution
    /// says are visible there, the top-level values and the methods.
    fn names_like(&self, name: &str, span: Span) -> Vec<String> {
        if !self.suggest {
            return Vec::new();
        }
        let locals = self.locals.names_over(span);
        let globals = self
            .values
            .keys()
            .map(|k| &**k)
            .filter(|k| !k.starts_with("prim_"));
        let methods = self.env.methods.keys().map(|k| &**k);
        near_misses(name, locals.chain(globals).chain(methods))
    }

    /// Picks the constructor `name`, preferring one of the type `expected` names (for a
    /// constructor used as a function, the type its arrows end in), then the user's own
    /// over the prelude's.
    pub fn resolve_ctor(&mut self, name: &str, expected: Option<&Ty>) -> Option<usize> {
        let ids = self.env.ctor_index.get(name)?.clone();
        if ids.len() == 1 {
            return ids.first().copied();
        }
        if let Some(t) = expected {
            let mut t = self.u.zonk(t);
            while let Ty::Fun(_, r) = t {
                t = *r;
            }
            if let Some(adt) = t.head_name() {
                if let Some(id) = ids
                    .iter()
                    .find(|id| *self.env.adts[self.env.ctors[**id].adt].name == *adt)
                {
                    return Some(*id);
                }
            }
        }
        ids.iter()
            .find(|id| !self.env.ctors[**id].origin.is_prelude())
            .or(ids.first())
            .copied()
    }

    /// The type of constructor `name` used as a value at node `e`, where the spelling is
    /// ambiguous the one of the type `expected` names, else the user's own over the
    /// prelude's; the choice is recorded for `e`.
    pub(super) fn ctor_value(
        &mut self,
        e: ExprId,
        name: &str,
        span: Span,
        expected: Option<&Ty>,
    ) -> Ty {
        match self.resolve_ctor(name, expected) {
            Some(id) => {
                self.ctors.exprs.insert(e, id);
                let sc = self.env.ctors[id].scheme.clone();
                self.instantiate(&sc, span)
            }
            None if self.env.missing_names.contains(name) || self.env.missing_glob => Ty::Unknown,
            None => {
                let candidates = self.ctors_like(name);
                self.diags.push(Diag::unknown_name(name, candidates, span));
                Ty::Unknown
            }
        }
    }

    /// The prelude's list constructor `name` (`Cons` or `Empty`): what list syntax and a
    /// `::` pattern match, whatever constructors of that name the file declares.
    pub(super) fn list_ctor(&self, name: &str) -> Option<usize> {
        let ids = self.env.ctor_index.get(name)?;
        ids.iter().copied().find(|id| {
            let ctor = &self.env.ctors[*id];
            ctor.origin.is_prelude() && &*self.env.adts[ctor.adt].name == "List"
        })
    }

    /// How many arrows `t` shows once its bound variables are followed.
    fn arrows(&mut self, t: &Ty) -> usize {
        let mut n = 0;
        let mut t = self.u.shallow(t);
        while let Ty::Fun(_, r) = t {
            n += 1;
            t = self.u.shallow(&r);
        }
        n
    }

    fn lambda(
        &mut self,
        params: &[Param],
        constraints: &[Constraint],
        body: ExprId,
        expected: Option<&Ty>,
    ) -> Ty {
        let mut annotation_vars = Vec::new();
        let mut expected = expected.cloned();
        let mut param_tys = Vec::new();
        for p in params {
            let (pt, rest) = match expected.as_ref().map(|t| self.u.shallow(t)) {
                Some(Ty::Fun(a, r)) => (*a, Some(*r)),
                _ => (self.u.fresh(), None),
            };
            if let Some(ann) = p.ty {
                let mut lw = Lowering::new(self.env, NewVars::Fresh(&mut self.u))
                    .with_vars(std::mem::take(&mut annotation_vars));
                let at = lw.lower(self.arena, ann);
                annotation_vars = std::mem::take(&mut lw.vars);
                let diags = std::mem::take(&mut lw.diags);
                self.diags.extend(diags);
                self.expect_at(p.span, &at, &pt);
            }
            self.check_pat(p.pat, &pt);
            param_tys.push(pt);
            expected = rest;
        }
        if !constraints.is_empty() {
            let mut lw = Lowering::new(self.env, NewVars::Fresh(&mut self.u))
                .with_vars(std::mem::take(&mut annotation_vars));
            let preds: Vec<(Pred, Span)> = constraints
                .iter()
                .filter_map(|c| lw.constraint(self.arena, c).map(|p| (p, c.span)))
                .collect();
            let diags = std::mem::take(&mut lw.diags);
            self.diags.extend(diags);
            for (index, (pred, span)) in preds.into_iter().enumerate() {
                self.wanted.push(Wanted::at(pred, span, index as u32));
            }
        }
        let rt = match expected {
            Some(r) => self.check(body, &r),
            None => self.infer(body),
        };
        param_tys
            .into_iter()
            .rev()
            .fold(rt, |acc, p| Ty::fun(p, acc))
    }

    // ------------------------------------------------------------------ let

    fn annotation(&mut self, ty: TypeId) -> (Ty, Vec<Arc<str>>) {
        let mut lw = Lowering::new(self.env, NewVars::Rigid);
        let t = lw.lower(self.arena, ty);
        let names: Vec<Arc<str>> = lw.vars.iter().map(|(n, _)| n.clone()).collect();
        let diags = std::mem::take(&mut lw.diags);
        self.diags.extend(diags);
        (t, names)
    }

    /// `let` in either mode: the bindings scope over the body only.
    fn let_expr(
        &mut self,
        rec: bool,
        bindings: &[Binding],
        body: ExprId,
        expected: Option<&Ty>,
    ) -> Ty {
        self.bindings(rec, bindings);
        match expected {
            Some(t) => self.check(body, t),
            None => self.infer(body),
        }
    }

    fn bindings(&mut self, rec: bool, bindings: &[Binding]) {
        if rec {
            // Every name is in scope in every value, monomorphically until generalised.
            let mut tys = Vec::new();
            for b in bindings {
                let t = match b.ty {
                    Some(ann) => self.annotation(ann).0,
                    None => self.u.fresh(),
                };
                self.check_pat(b.pat, &t);
                tys.push(t);
            }
            let (wanted_mark, diag_mark) = (self.wanted.len(), self.diags.len());
            for (b, t) in bindings.iter().zip(&tys) {
                self.check(b.value, t);
            }
            let inferred = bindings.iter().all(|b| b.ty.is_none()) && self.diags.len() == diag_mark;
            // Every binding of the group is generalised over the group's constraints (they
            // share their variables); what no binding took stays wanted.
            // The environment is what is visible around the group, the group left out.
            let arena = self.arena;
            let in_group = |d: &LocalDef| {
                let pats = bindings.iter().map(|b| arena.pat(b.pat).span);
                pats.clone().any(|p| p.covers(d.span))
            };
            let around = bindings
                .first()
                .map_or(Span::default(), |b| self.span(b.value));
            let env = self.locals.env_types(around, in_group);
            let members: Vec<(Ty, PatId)> = tys
                .into_iter()
                .zip(bindings)
                .map(|(t, b)| (t, b.pat))
                .collect();
            let schemes = self.generalize_group(&members, wanted_mark, inferred, env);
            for (b, scheme) in bindings.iter().zip(schemes) {
                self.record_scheme(b.pat, &scheme);
                if let PatKind::Var(_) = &self.arena.pat(b.pat).kind {
                    let def = self.locals.pat_def(b.pat);
                    self.locals.set(def, scheme, None);
                }
            }
            return;
        }
        for b in bindings {
            let (wanted_mark, diag_mark) = (self.wanted.len(), self.diags.len());
            let t = match b.ty {
                Some(ann) => {
                    let (at, _) = self.annotation(ann);
                    self.check(b.value, &at);
                    at
                }
                None => self.infer(b.value),
            };
            let is_literal = matches!(
                self.arena.expr(b.value).kind,
                ExprKind::Lit(Literal::Int(_)) | ExprKind::Hole(_) | ExprKind::Error { .. }
            );
            if let PatKind::Var(_) = &self.arena.pat(b.pat).kind {
                let scheme = if is_literal {
                    Scheme::mono(t.clone())
                } else {
                    let inferred = b.ty.is_none() && self.diags.len() == diag_mark;
                    let env = self.locals.env_types(self.span(b.value), |_| false);
                    self.generalize_group(&[(t.clone(), b.pat)], wanted_mark, inferred, env)
                        .pop()
                        .unwrap_or_else(|| Scheme::mono(Ty::Unknown))
                };
                self.record_scheme(b.pat, &scheme);
                self.pat_types[b.pat.index()] = t;
                let known_ctor = self.known_ctor_of(b.value);
                let def = self.locals.pat_def(b.pat);
                self.locals.set(def, scheme, known_ctor);
            } else {
                self.check_pat(b.pat, &t);
            }
        }
    }

    /// Keeps a binding's scheme when it is polymorphic (tools show it at the binder).
    fn record_scheme(&mut self, pat: PatId, scheme: &Scheme) {
        if scheme.vars > 0 {
            self.let_schemes.push((pat, scheme.clone()));
        }
    }

    /// A value built by a record-carrying constructor keeps its constructor known.
    fn known_ctor_of(&self, e: ExprId) -> Option<usize> {
        if let ExprKind::App(f, _) = &self.arena.expr(e).kind {
            if let ExprKind::Ctor(_) = &self.arena.expr(*f).kind {
                return self.ctors.expr(*f);
            }
        }
        None
    }

    /// Generalises the bindings of one group (one `let` binding, or a `let rec` typed as a
    /// whole) together: each quantifies the variables of its type that are not free in the
    /// types of the environment `env`, with the wanted predicates (added since
    /// `wanted_mark`) that mention only them; the group's predicates are shared, and each
    /// binding takes those over its own variables. Evaluation passes the group's
    /// dictionaries to every member. With `inferred` (no annotation gave the type, and
    /// nothing went wrong inside), a constrained variable the type does not mention is an
    /// ambiguity.
    fn generalize_group(
        &mut self,
        members: &[(Ty, PatId)],
        wanted_mark: usize,
        inferred: bool,
        env: Vec<Ty>,
    ) -> Vec<Scheme> {
        let Some(owner) = members.first().map(|m| m.1) else {
            return Vec::new();
        };
        // A field whose record type is now known fixes its type before generalisation;
        // the variables of fields still waiting stay monomorphic for a later use to fix.
        self.solve_fields();
        let tys: Vec<Ty> = members.iter().map(|(t, _)| self.u.zonk(t)).collect();
        let mut env_vars = self.field_vars();
        for t in &env {
            self.u.zonk(t).free_vars(&mut env_vars);
        }
        // A variable tied by a constraint to one the environment fixes is fixed too
        // (`Indexable t b` with `t` in scope determines `b`).
        let start = wanted_mark.min(self.wanted.len());
        let pred_vars: Vec<Vec<crate::types::TyVar>> = self.wanted[start..]
            .to_vec()
            .iter()
            .map(|w| {
                let mut vs = Vec::new();
                for a in &w.pred.args {
                    self.u.zonk(a).free_vars(&mut vs);
                }
                vs
            })
            .collect();
        loop {
            let before = env_vars.len();
            for vs in &pred_vars {
                if vs.iter().any(|v| env_vars.contains(v)) {
                    for v in vs {
                        if !env_vars.contains(v) {
                            env_vars.push(*v);
                        }
                    }
                }
            }
            if env_vars.len() == before {
                break;
            }
        }
        let mut tvars = Vec::new();
        for t in &tys {
            t.free_vars(&mut tvars);
        }
        if inferred {
            self.binding_ambiguity(owner, start, &env_vars, &tvars);
        }
        let gen: Vec<_> = tvars
            .into_iter()
            .filter(|v| !env_vars.contains(v))
            .collect();
        let mut preds: Vec<Pred> = Vec::new();
        let mut keep = Vec::new();
        // Candidates for the group's parameters, with their index among `preds`.
        let mut candidates: Vec<(Wanted, usize)> = Vec::new();
        let wanted: Vec<Wanted> = self.wanted.drain(start..).collect();
        for w in wanted {
            let p = w.pred.map_types(|t| self.u.zonk(t));
            let mut pvars = Vec::new();
            for a in &p.args {
                a.free_vars(&mut pvars);
            }
            if !pvars.is_empty() && pvars.iter().all(|v| gen.contains(v)) && !gen.is_empty() {
                let at = match preds.iter().position(|q| *q == p) {
                    Some(at) => at,
                    None => {
                        preds.push(p);
                        preds.len() - 1
                    }
                };
                candidates.push((w, at));
            } else {
                keep.push(w);
            }
        }
        let first = self.let_preds.len();
        let mut schemes = Vec::with_capacity(members.len());
        for ((_, pat), t) in members.iter().zip(&tys) {
            let mut own = Vec::new();
            t.free_vars(&mut own);
            own.retain(|v| gen.contains(v));
            let subst = |ty: &Ty| {
                ty.map(&mut |x| match x {
                    Ty::Var(v) => own.iter().position(|g| g == v).map(|i| Ty::Gen(i as u32)),
                    _ => None,
                })
            };
            let mut indices = Vec::new();
            let mut own_preds = Vec::new();
            for (i, p) in preds.iter().enumerate() {
                let mut pvars = Vec::new();
                for a in &p.args {
                    a.free_vars(&mut pvars);
                }
                if pvars.iter().all(|v| own.contains(v)) {
                    indices.push(i as u32);
                    own_preds.push(p.map_types(subst));
                }
            }
            self.let_preds.push(super::evidence::LetDicts {
                binding: *pat,
                owner,
                total: preds.len() as u32,
                indices,
            });
            schemes.push(Scheme {
                vars: own.len() as u32,
                var_names: vec![],
                preds: own_preds,
                ty: subst(t),
            });
        }
        // A constraint no binding took (it spans several bindings' variables) stays wanted.
        let taken: Vec<bool> = (0..preds.len() as u32)
            .map(|i| {
                self.let_preds[first..]
                    .iter()
                    .any(|l| l.indices.contains(&i))
            })
            .collect();
        for (w, at) in candidates {
            if taken[at] {
                self.let_param_evidence(&w, owner, at as u32);
            } else {
                keep.push(w);
            }
        }
        self.wanted.extend(keep);
        schemes
    }

    // ------------------------------------------------------------------ match

    fn match_expr(
        &mut self,
        e: ExprId,
        scrutinee: ExprId,
        arms: &[Arm],
        expected: Option<&Ty>,
    ) -> Ty {
        let st = self.infer(scrutinee);
        let result = match expected {
            Some(t) => t.clone(),
            None => self.u.fresh(),
        };
        let scrut_var = match &self.arena.expr(scrutinee).kind {
            ExprKind::Var(n) => Some((n.as_str(), self.locals.use_of(scrutinee))),
            _ => None,
        };
        for arm in arms {
            self.check_pat(arm.pat, &st);
            // An arm with a constructor pattern proves which constructor a scrutinee
            // variable holds in its body (unless the pattern binds that name again).
            let body = self.span(arm.body);
            if let (Some((var, def)), Some(ctor)) = (scrut_var, self.ctors.pat(arm.pat)) {
                if self.locals.names.innermost(var, body) == def {
                    self.locals.prove(var, def, st.clone(), ctor, body);
                }
            }
            self.check(arm.body, &result);
        }
        self.exhaustiveness(e, &st, arms);
        result
    }

    // ------------------------------------------------------------------ patterns

    /// Gives binder `def` (if name resolution found one) the type `t`.
    pub fn bind(&mut self, def: Option<usize>, t: Ty) {
        self.locals.set(def, Scheme::mono(t), None);
    }

    pub fn check_pat(&mut self, p: PatId, expected: &Ty) {
        self.pat_types[p.index()] = expected.clone();
        let arena = self.arena;
        let pat = arena.pat(p);
        let span = pat.span;
        match &pat.kind {
            PatKind::Error | PatKind::Wildcard => {}
            PatKind::Var(_) => self.bind(self.locals.pat_def(p), expected.clone()),
            PatKind::Lit(lit) => {
                let t = self.literal(lit, span);
                self.expect_at(span, &t, expected);
            }
            PatKind::Tuple(ps) => {
                let ts: Vec<Ty> = ps.iter().map(|_| self.u.fresh()).collect();
                if self.expect_at(span, &Ty::Tuple(ts.clone()), expected) {
                    for (p, t) in ps.iter().zip(&ts) {
                        self.check_pat(*p, t);
                    }
                } else {
                    for p in ps {
                        self.check_pat(*p, &Ty::Unknown);
                    }
                }
            }
            PatKind::List(ps) => {
                let elem = self.u.fresh();
                let list = Ty::con_app("List", vec![elem.clone()]);
                let ok = self.expect_at(span, &list, expected);
                for p in ps {
                    self.check_pat(*p, if ok { &elem } else { &Ty::Unknown });
                }
            }
            // `h :: t` is `Cons h t`: the `Cons` of the scrutinee's type where the file
            // declares one of its own, as for the constructor pattern and the expression.
            PatKind::Cons(h, t) => match self.resolve_ctor("Cons", Some(expected)) {
                Some(id) => self.check_ctor_pat(p, id, &[*h, *t], span, expected),
                None => {
                    let elem = self.u.fresh();
                    let list = Ty::con_app("List", vec![elem.clone()]);
                    let ok = self.expect_at(span, &list, expected);
                    self.check_pat(*h, if ok { &elem } else { &Ty::Unknown });
                    self.check_pat(*t, if ok { &list } else { &Ty::Unknown });
                }
            },
            PatKind::Dict(fields) => {
                let shape = self.u.shallow(expected);
                let elem = match &shape {
                    Ty::App(..) if shape.head_name() == Some("Dict") => shape
                        .spine()
                        .1
                        .first()
                        .map(|t| (*t).clone())
                        .unwrap_or(Ty::Unknown),
                    Ty::Var(_) => {
                        let el = self.u.fresh();
                        let _ = self.u.unify(&shape, &Ty::con_app("Dict", vec![el.clone()]));
                        el
                    }
                    _ => Ty::Unknown,
                };
                for f in fields {
                    let ft = match &shape {
                        Ty::Record(fs) => match fs.iter().find(|(n, _)| **n == *f.name.text) {
                            Some((_, t)) => t.clone(),
                            None => {
                                let shown = self.show(&shape);
                                self.diags
                                    .push(Diag::field(&f.name.text, shown, "", f.name.span));
                                Ty::Unknown
                            }
                        },
                        _ => elem.clone(),
                    };
                    match f.pat {
                        Some(sub) => self.check_pat(sub, &ft),
                        None => self.bind(self.locals.field_def(p, &f.name.text), ft),
                    }
                }
            }
            PatKind::Ctor { path, args } => {
                let Some(spelled) = self.env.ctor_spelled(path) else {
                    let q = path
                        .qualifier
                        .as_ref()
                        .map(|q| q.text.clone())
                        .unwrap_or_default();
                    if !self.env.is_missing_module(&q) {
                        self.diags.push(
                            <TypeDiag as super::errors::LoweringDiags>::unknown_module(&q, span),
                        );
                    }
                    for a in args {
                        self.check_pat(*a, &Ty::Unknown);
                    }
                    return;
                };
                let Some(id) = self.resolve_ctor(&spelled, Some(expected)) else {
                    if !self.env.missing_names.contains(spelled.as_str()) && !self.env.missing_glob
                    {
                        let candidates = self.ctors_like(&path.name.text);
                        let mut d = Diag::unknown_name(&path.name.text, candidates, path.name.span);
                        d.code = Code::UnknownConstructor;
                        self.diags.push(d);
                    }
                    for a in args {
                        self.check_pat(*a, &Ty::Unknown);
                    }
                    return;
                };
                self.check_ctor_pat(p, id, args, span, expected);
            }
        }
    }

    /// Checks pattern `p`, constructor `id` (the one chosen, recorded for the evaluator and
    /// exhaustiveness) applied to the patterns `args`, against `expected`.
    fn check_ctor_pat(&mut self, p: PatId, id: usize, args: &[PatId], span: Span, expected: &Ty) {
        self.ctors.pats.insert(p, id);
        let ctor = self.env.ctors[id].clone();
        let vars: Vec<Ty> = (0..ctor.scheme.vars).map(|_| self.u.fresh()).collect();
        let adt = &self.env.adts[ctor.adt];
        let result = Ty::con_app(&adt.name.clone(), vars.clone());
        let ok = self.expect_at(span, &result, expected);
        let fields: Vec<Ty> = ctor.fields.iter().map(|f| f.instantiate(&vars)).collect();
        if args.len() != fields.len() {
            self.diags
                .push(Diag::ctor_arity(&ctor.name, fields.len(), args.len(), span));
            for a in args {
                self.check_pat(*a, &Ty::Unknown);
            }
            return;
        }
        for (a, f) in args.iter().zip(&fields) {
            self.check_pat(*a, if ok { f } else { &Ty::Unknown });
        }
    }
}

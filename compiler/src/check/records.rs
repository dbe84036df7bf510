//! Records: dictionary literals, field access and record update, and the field constraints
//! that wait until a record's type is known.
//!
//! * `{a = 1, b = 2}` is a `Dict` (its values share one type) unless a record type is
//!   expected: as the payload of a record constructor, or where an annotation asks for one
//!   (LANGUAGE.md, "Tuples, Lists, Dictionaries").
//! * A field of a value whose type is still a variable (`\p -> p.age`, with `p` fixed only
//!   by a later use) becomes a [`FieldWanted`]. It is discharged as soon as the type is
//!   known; at the end of the item, a type still unknown is taken from the only
//!   single-constructor record type with that field, and failing that the field is
//!   reported (E0307). A `let` does not generalise the variables of a pending field
//!   constraint, so the later use fixes them.
//! * The expected type reaches a record update's subject (`let a: A = { default with ... }`).

use std::sync::Arc;

use super::errors::Diag;
use super::infer::Infer;
use crate::span::Span;
use crate::syntax::ast::*;
use crate::types::{Ty, TyVar};

/// A field of a value whose type was not known where the field was used.
#[derive(Clone, Debug)]
pub struct FieldWanted {
    /// The record's type (a variable when the constraint was made).
    pub base: Ty,
    pub field: Arc<str>,
    /// The field's type as the use sees it: the projection's result, or the type of the
    /// update's new value.
    pub ty: Ty,
    /// Where a missing field is reported: the field's name.
    pub span: Span,
    /// Where a disagreeing type is reported: the projection, or the update's new value.
    pub value_span: Span,
    /// True for an update's field (the value must fit the field), false for a projection.
    pub update: bool,
    /// The constructor the value is known to hold (refined by `match`).
    pub known: Option<usize>,
}

impl Infer<'_> {
    pub(super) fn dict(&mut self, e: ExprId, fields: &[FieldInit], expected: Option<&Ty>) -> Ty {
        let exp = expected.map(|t| self.u.shallow(t));
        match exp {
            Some(Ty::Record(fs)) => {
                // Each field once: `{x = 1, x = 2}` is not a `{x, y}`.
                let names_match = fs.len() == fields.len()
                    && fields
                        .iter()
                        .all(|f| fs.iter().any(|(n, _)| **n == *f.name.text))
                    && fs
                        .iter()
                        .all(|(n, _)| fields.iter().any(|f| **n == *f.name.text));
                if names_match {
                    for f in fields {
                        if let Some((_, ft)) = fs.iter().find(|(n, _)| **n == *f.name.text) {
                            let ft = ft.clone();
                            self.check(f.value, &ft);
                        }
                    }
                    return Ty::Record(fs);
                }
                // The wrong fields for the record asked for: the record the literal
                // spells, and a mismatch.
                let mut fs: Vec<(Arc<str>, Ty)> = fields
                    .iter()
                    .map(|f| (Arc::from(f.name.text.as_str()), self.infer(f.value)))
                    .collect();
                fs.sort_by(|a, b| a.0.cmp(&b.0));
                let t = Ty::Record(fs);
                if let Some(exp) = expected {
                    self.expect_at(self.arena.expr(e).span, &t, exp);
                }
                t
            }
            Some(ref d @ Ty::App(..)) if d.head_name() == Some("Dict") => {
                let (_, args) = d.spine();
                let elem = args.first().map(|t| (*t).clone()).unwrap_or(Ty::Unknown);
                for f in fields {
                    self.check(f.value, &elem);
                }
                d.clone()
            }
            _ => {
                let elem = self.u.fresh();
                for f in fields {
                    self.check(f.value, &elem);
                }
                let t = Ty::con_app("Dict", vec![elem]);
                if let Some(exp) = expected {
                    self.expect_at(self.arena.expr(e).span, &t, exp);
                }
                t
            }
        }
    }

    /// The record shape definitely available on a value of type `t`.
    fn record_shape(
        &mut self,
        t: &Ty,
        known: Option<usize>,
    ) -> Result<Vec<(Arc<str>, Ty)>, &'static str> {
        let t = self.u.zonk(t);
        match &t {
            Ty::Record(fs) => Ok(fs.clone()),
            Ty::App(..) | Ty::Con(_) => {
                let Some(adt) = self.env.adt_of_type(&t) else {
                    return Err("");
                };
                let ctor_id = match (known, adt.ctors.as_slice()) {
                    (Some(k), _) if adt.ctors.contains(&k) => k,
                    (_, [only]) => *only,
                    _ => return Err(" (it has several constructors; `match` on it first)"),
                };
                let ctor = &self.env.ctors[ctor_id];
                if ctor.record.is_none() {
                    return Err("");
                }
                let (_, args) = t.spine();
                let args: Vec<Ty> = args.into_iter().cloned().collect();
                match ctor.fields.first().map(|f| f.instantiate(&args)) {
                    Some(Ty::Record(fs)) => Ok(fs),
                    _ => Err(""),
                }
            }
            _ => Err(""),
        }
    }

    fn known_ctor_of_expr(&self, e: ExprId) -> Option<usize> {
        if let ExprKind::Var(name) = &self.arena.expr(e).kind {
            let def = self.locals.use_of(e);
            return self.locals.known_ctor(name, def, self.arena.expr(e).span);
        }
        None
    }

    pub(super) fn project(&mut self, e: ExprId, base: ExprId, field: &Name, span: Span) -> Ty {
        if let ExprKind::Ctor(alias) = &self.arena.expr(base).kind {
            // `M.x` through a module alias: a value or constructor the module exports.
            if let Some(&module) = self.env.module_aliases.get(alias.as_str()) {
                if module == super::imports::MISSING_MODULE {
                    return Ty::Unknown;
                }
                let spelled = format!("{alias}.{}", field.text);
                if self.env.ctor_index.contains_key(spelled.as_str()) {
                    return self.ctor_value(e, &spelled, span, None);
                }
                let known = self.values.contains_key(spelled.as_str())
                    || self.env.methods.contains_key(spelled.as_str());
                if !known {
                    let candidates = self.members_like(alias, &field.text);
                    self.diags.push(Diag::not_exported(
                        alias,
                        &field.text,
                        candidates,
                        field.span,
                    ));
                    return Ty::Unknown;
                }
                return self.var(&spelled, span);
            }
            if !self.env.ctor_index.contains_key(alias.as_str()) {
                self.diags.push(
                    <super::errors::TypeDiag as super::errors::LoweringDiags>::unknown_module(
                        alias,
                        self.arena.expr(base).span,
                    ),
                );
                return Ty::Unknown;
            }
        }
        let bt = self.infer(base);
        let bt = self.u.shallow(&bt);
        if let Ok(index) = field.text.parse::<usize>() {
            if let Ty::Tuple(ts) = &bt {
                if let Some(t) = ts.get(index) {
                    return t.clone();
                }
            }
            if matches!(bt, Ty::Unknown) {
                return Ty::Unknown;
            }
            let shown = self.show(&bt);
            self.diags.push(Diag::field(&field.text, shown, "", span));
            return Ty::Unknown;
        }
        let known = self.known_ctor_of_expr(base);
        match bt {
            Ty::Unknown => Ty::Unknown,
            Ty::Var(_) => {
                let t = self.u.fresh();
                self.fields.push(FieldWanted {
                    base: bt,
                    field: Arc::from(field.text.as_str()),
                    ty: t.clone(),
                    span,
                    value_span: span,
                    update: false,
                    known,
                });
                t
            }
            _ => self
                .field_type(&bt, known, &field.text, span)
                .unwrap_or(Ty::Unknown),
        }
    }

    /// The type of field `field` of a value of (known) type `bt`; reports at `span` and
    /// gives `None` when the type has no such field.
    fn field_type(&mut self, bt: &Ty, known: Option<usize>, field: &str, span: Span) -> Option<Ty> {
        let found = match self.record_shape(bt, known) {
            Ok(fs) => fs
                .iter()
                .find(|(n, _)| **n == *field)
                .map(|(_, t)| t.clone())
                .ok_or(""),
            Err(why) => Err(why),
        };
        match found {
            Ok(t) => Some(t),
            Err(why) => {
                if !matches!(self.u.shallow(bt), Ty::Unknown) {
                    let shown = self.show(bt);
                    self.diags.push(Diag::field(field, shown, why, span));
                }
                None
            }
        }
    }

    /// `{ base with { f = v, ... } }`; `expected`, where known, is the subject's type too.
    pub(super) fn update(
        &mut self,
        base: ExprId,
        fields: &[FieldInit],
        expected: Option<&Ty>,
    ) -> Ty {
        let bt = match expected {
            Some(t) => self.check(base, t),
            None => self.infer(base),
        };
        let known = self.known_ctor_of_expr(base);
        match self.u.shallow(&bt) {
            Ty::Unknown => {
                for f in fields {
                    self.infer(f.value);
                }
                return Ty::Unknown;
            }
            Ty::Var(_) => {
                for f in fields {
                    let ty = self.infer(f.value);
                    self.fields.push(FieldWanted {
                        base: bt.clone(),
                        field: Arc::from(f.name.text.as_str()),
                        ty,
                        span: f.name.span,
                        value_span: self.arena.expr(f.value).span,
                        update: true,
                        known,
                    });
                }
                return bt;
            }
            _ => {}
        }
        match self.record_shape(&bt, known) {
            Ok(fs) => {
                for f in fields {
                    match fs.iter().find(|(n, _)| **n == *f.name.text) {
                        Some((_, t)) => {
                            let t = t.clone();
                            self.check(f.value, &t);
                        }
                        None => {
                            let shown = self.show(&bt);
                            self.diags
                                .push(Diag::field(&f.name.text, shown, "", f.name.span));
                            self.infer(f.value);
                        }
                    }
                }
                bt
            }
            Err(why) => {
                let shown = self.show(&bt);
                let span = self.arena.expr(base).span;
                let field = fields
                    .first()
                    .map(|f| f.name.text.clone())
                    .unwrap_or_default();
                self.diags.push(Diag::field(&field, shown, why, span));
                for f in fields {
                    self.infer(f.value);
                }
                Ty::Unknown
            }
        }
    }

    /// Discharges the field constraints whose record type is now known; true when any was.
    pub(super) fn solve_fields(&mut self) -> bool {
        let pending = std::mem::take(&mut self.fields);
        let mut progressed = false;
        for w in pending {
            match self.u.shallow(&w.base) {
                Ty::Var(_) => self.fields.push(w),
                Ty::Unknown => progressed = true,
                bt => {
                    progressed = true;
                    if let Some(t) = self.field_type(&bt, w.known, &w.field, w.span) {
                        if w.update {
                            self.expect_at(w.value_span, &w.ty, &t);
                        } else {
                            self.expect_at(w.value_span, &t, &w.ty);
                        }
                    }
                }
            }
        }
        progressed
    }

    /// For field constraints whose record type is still unknown, the only
    /// single-constructor record type with that field, if there is one; true when any
    /// type was chosen.
    pub(super) fn guess_field_owners(&mut self) -> bool {
        let mut chosen = false;
        for i in 0..self.fields.len() {
            let (base, field) = (self.fields[i].base.clone(), self.fields[i].field.clone());
            if !matches!(self.u.shallow(&base), Ty::Var(_)) {
                continue;
            }
            let owners: Vec<usize> = self
                .env
                .adts
                .iter()
                .enumerate()
                .filter(|(_, a)| {
                    a.ctors.len() == 1
                        && self.env.ctors[a.ctors[0]]
                            .record
                            .as_ref()
                            .is_some_and(|r| r.iter().any(|n| **n == *field))
                })
                .map(|(i, _)| i)
                .collect();
            if let [only] = owners.as_slice() {
                let adt = &self.env.adts[*only];
                let args: Vec<Ty> = adt.params.iter().map(|_| self.u.fresh()).collect();
                let t = Ty::con_app(&adt.name.clone(), args);
                chosen |= self.u.unify(&base, &t).is_ok();
            }
        }
        chosen
    }

    /// Reports the field constraints whose record type never became known.
    pub(super) fn report_fields(&mut self) {
        for w in std::mem::take(&mut self.fields) {
            let shown = self.show(&w.base);
            self.diags.push(Diag::field(&w.field, shown, "", w.span));
        }
    }

    /// The type variables of pending field constraints: `let` leaves them ungeneralised.
    pub(super) fn field_vars(&mut self) -> Vec<TyVar> {
        let mut vars = Vec::new();
        for i in 0..self.fields.len() {
            let base = self.u.zonk(&self.fields[i].base);
            let ty = self.u.zonk(&self.fields[i].ty);
            base.free_vars(&mut vars);
            ty.free_vars(&mut vars);
        }
        vars
    }
}

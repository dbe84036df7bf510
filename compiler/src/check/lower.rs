//! Surface types (`TypeExpr`) to checker types (`Ty`).

use std::sync::Arc;

use super::env::{Env, Unresolved};
use super::errors::{near_members, Diag, LoweringDiags, TypeDiag};
use crate::syntax::ast::{Arena, Constraint, TypeId, TypeKind};
use crate::types::{Pred, Ty, Unifier};

/// What a not-yet-seen type variable name becomes.
pub enum NewVars<'u> {
    /// The next quantified variable of the scheme being built.
    Gen,
    /// A rigid variable (a signature checked against its body).
    Rigid,
    /// A fresh unification variable (annotations inside expressions).
    Fresh(&'u mut Unifier),
}

pub struct Lowering<'e, 'u> {
    pub env: &'e Env,
    pub vars: Vec<(Arc<str>, Ty)>,
    pub new_vars: NewVars<'u>,
    pub diags: Vec<TypeDiag>,
}

impl<'e, 'u> Lowering<'e, 'u> {
    pub fn new(env: &'e Env, new_vars: NewVars<'u>) -> Self {
        Lowering {
            env,
            vars: Vec::new(),
            new_vars,
            diags: Vec::new(),
        }
    }

    pub fn with_vars(mut self, vars: Vec<(Arc<str>, Ty)>) -> Self {
        self.vars = vars;
        self
    }

    pub fn var(&mut self, name: &str) -> Ty {
        if let Some((_, t)) = self.vars.iter().find(|(n, _)| &**n == name) {
            return t.clone();
        }
        let t = match &mut self.new_vars {
            NewVars::Gen => Ty::Gen(self.vars.len() as u32),
            NewVars::Rigid => Ty::Rigid(Arc::from(name)),
            NewVars::Fresh(u) => u.fresh(),
        };
        self.vars.push((Arc::from(name), t.clone()));
        t
    }

    pub fn lower(&mut self, arena: &Arena, id: TypeId) -> Ty {
        let node = arena.ty(id);
        match &node.kind {
            TypeKind::Error => Ty::Unknown,
            TypeKind::Name(n) => {
                if self.env.missing_names.contains(n.as_str()) {
                    return Ty::Unknown;
                }
                let bound = self.vars.iter().any(|(v, _)| &**v == n);
                match self.env.resolve_type(n) {
                    Some(id) if !bound && self.env.type_arity(&id) == Some(0) => Ty::Con(id),
                    _ => self.var(n),
                }
            }
            TypeKind::Con(path) => {
                let q = path.qualifier.as_ref().map_or("", |q| q.text.as_str());
                if !q.is_empty() && self.env.is_missing_module(q) {
                    return Ty::Unknown;
                }
                match self.env.type_spelled(path) {
                    Ok(id) => Ty::Con(id),
                    Err(Unresolved::Module) => {
                        self.diags.push(TypeDiag::unknown_module(q, node.span));
                        Ty::Unknown
                    }
                    Err(Unresolved::Name) => {
                        let name = &path.name.text;
                        if q.is_empty()
                            && (self.env.missing_names.contains(name.as_str())
                                || self.env.missing_glob)
                        {
                            return Ty::Unknown;
                        }
                        let d = if q.is_empty() {
                            TypeDiag::unknown_type(name, self.env.type_names_like(name), node.span)
                        } else {
                            let visible = self.env.visible_type_names().into_iter();
                            Diag::not_exported(
                                q,
                                name,
                                near_members(q, name, visible),
                                path.name.span,
                            )
                        };
                        self.diags.push(d);
                        Ty::Unknown
                    }
                }
            }
            TypeKind::App(f, args) => {
                let head = self.lower(arena, *f);
                let mut lowered: Vec<Ty> = args.iter().map(|a| self.lower(arena, *a)).collect();
                if let Ty::Con(n) = &head {
                    // Result is written success-first and stored error-first.
                    if &**n == "Result" && lowered.len() == 2 {
                        lowered.swap(0, 1);
                    }
                    if let Some(arity) = self.env.type_arity(n) {
                        if lowered.len() > arity {
                            self.diags.push(TypeDiag::type_arity(
                                n,
                                arity,
                                lowered.len(),
                                node.span,
                            ));
                            return Ty::Unknown;
                        }
                    }
                }
                lowered.into_iter().fold(head, Ty::app)
            }
            TypeKind::Arrow(a, b) => {
                let a = self.lower(arena, *a);
                let b = self.lower(arena, *b);
                Ty::fun(a, b)
            }
            TypeKind::Tuple(ts) => Ty::Tuple(ts.iter().map(|t| self.lower(arena, *t)).collect()),
            TypeKind::Record(fields) => {
                let mut fs: Vec<(Arc<str>, Ty)> = fields
                    .iter()
                    .map(|(n, t)| (Arc::from(n.text.as_str()), self.lower(arena, *t)))
                    .collect();
                fs.sort_by(|a, b| a.0.cmp(&b.0));
                Ty::Record(fs)
            }
        }
    }

    /// `C t1 .. tn`; a multi-parameter class may also be written `C (t1, .., tn)`.
    pub fn constraint(&mut self, arena: &Arena, c: &Constraint) -> Option<Pred> {
        let q = c.class.qualifier.as_ref().map_or("", |q| q.text.as_str());
        let name = &c.class.name.text;
        let declared = match self.env.class_spelled(&c.class) {
            Ok(id) => id,
            Err(_) if !q.is_empty() && self.env.is_missing_module(q) => return None,
            Err(_) if q.is_empty() && self.env.missing_names.contains(name.as_str()) => {
                return None
            }
            Err(Unresolved::Module) => {
                self.diags.push(TypeDiag::unknown_module(q, c.span));
                return None;
            }
            Err(Unresolved::Name) => {
                let d = if q.is_empty() {
                    TypeDiag::unknown_class(name, self.env.class_names_like(name), c.span)
                } else {
                    let visible = self.env.visible_class_names().into_iter();
                    Diag::not_exported(q, name, near_members(q, name, visible), c.class.name.span)
                };
                self.diags.push(d);
                return None;
            }
        };
        let class = self.env.classes.get(&declared)?;
        let mut args: Vec<Ty> = c.args.iter().map(|a| self.lower(arena, *a)).collect();
        if args.len() == 1 && class.params.len() > 1 {
            if let Ty::Tuple(ts) = &args[0] {
                if ts.len() == class.params.len() {
                    args = ts.clone();
                }
            }
        }
        if args.len() != class.params.len() {
            self.diags.push(TypeDiag::class_arity(
                name,
                class.params.len(),
                args.len(),
                c.span,
            ));
            return None;
        }
        Some(Pred::new(&declared, args))
    }
}

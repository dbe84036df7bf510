//! Values in scope at a position, innermost first, with their types: the binders of the
//! enclosing lambdas, `let`s and `match` arms, then the named parameters of the enclosing
//! `fn`. Types come from the checker's pattern types, so they are what inference found; a
//! `let` binding that generalisation made polymorphic keeps its scheme, so that every use an
//! assist tries instantiates it afresh, as the checker does.

use rex_compiler::check::env::fn_scheme;
use rex_compiler::db::program_env;
use rex_compiler::syntax::ast::{ExprId, ExprKind, ItemKind, PatId, PatKind};
use rex_compiler::types::{Scheme, Ty};

use crate::limits::MAX_IN_SCOPE_VALUES;
use crate::locate::{parents, Document, Located};

/// A value in scope.
#[derive(Clone, Debug, PartialEq)]
pub struct ScopeValue {
    pub name: String,
    /// The value's scheme: polymorphic for a generalised `let` binding, otherwise a
    /// monomorphic type whose variables are the item's inference variables.
    pub scheme: Scheme,
    /// 0 for the innermost binder group, growing outwards.
    pub depth: usize,
}

/// The locals visible at the located expression (or at the item level when the position is
/// in no expression), innermost first, shadowed names removed, capped.
pub fn locals_at(doc: &Document<'_>, at: &Located<'_>) -> Vec<ScopeValue> {
    let item = at.item;
    let mut out: Vec<ScopeValue> = Vec::new();
    let mut depth = 0;
    if let Some(start) = at.expr {
        let parent = parents(item);
        let mut child = start;
        let mut steps = 0;
        while let Some(p) = parent.get(child.index()).copied().flatten() {
            // A malformed parent chain cannot loop forever.
            steps += 1;
            if steps > parent.len() {
                break;
            }
            let mut group = Vec::new();
            binders_over(at, p, child, &mut group);
            if !group.is_empty() {
                for (name, ty) in group.into_iter().rev() {
                    push(&mut out, name, ty, depth);
                }
                depth += 1;
            }
            child = p;
        }
    }
    if let ItemKind::Fn(decl) = &item.kind {
        if !decl.params.is_empty() {
            let env = program_env(doc.db, doc.db.prelude(), doc.file);
            if let Some((scheme, _)) = fn_scheme(env, item, decl) {
                let mut t = scheme.rigid_ty();
                let mut params = Vec::new();
                for p in &decl.params {
                    if let Ty::Fun(a, r) = t {
                        params.push((p.name.text.clone(), *a));
                        t = *r;
                    }
                }
                for (name, ty) in params.into_iter().rev() {
                    push(&mut out, name, Scheme::mono(ty), depth);
                }
            }
        }
    }
    out.truncate(MAX_IN_SCOPE_VALUES);
    out
}

fn push(out: &mut Vec<ScopeValue>, name: String, scheme: Scheme, depth: usize) {
    if !out.iter().any(|v| v.name == name) {
        out.push(ScopeValue {
            name,
            scheme,
            depth,
        });
    }
}

/// The names `parent` binds over its sub-expression `child`, in binding order.
fn binders_over(at: &Located<'_>, parent: ExprId, child: ExprId, out: &mut Vec<(String, Scheme)>) {
    match &at.item.arena.expr(parent).kind {
        ExprKind::Lambda { params, body, .. } if *body == child => {
            for p in params {
                pattern_vars(at, p.pat, out);
            }
        }
        ExprKind::Let {
            rec,
            bindings,
            body,
        } => {
            let visible = if *body == child || *rec {
                bindings.len()
            } else {
                bindings
                    .iter()
                    .position(|b| b.value == child)
                    .unwrap_or(bindings.len())
            };
            for b in &bindings[..visible] {
                pattern_vars(at, b.pat, out);
            }
        }
        ExprKind::Match { arms, .. } => {
            if let Some(arm) = arms.iter().find(|a| a.body == child) {
                pattern_vars(at, arm.pat, out);
            }
        }
        _ => {}
    }
}

/// The variables a pattern binds, in source order, with their inferred types (the scheme
/// of a generalised `let` binding).
fn pattern_vars(at: &Located<'_>, pat: PatId, out: &mut Vec<(String, Scheme)>) {
    let arena = &at.item.arena;
    let pat_ty = |p: PatId| at.types.pat_types.get(p.index()).cloned();
    let generalised = |p: PatId| {
        at.types
            .let_schemes
            .iter()
            .find(|(q, _)| *q == p)
            .map(|(_, s)| s.clone())
    };
    // Patterns nest by index like expressions; an explicit stack avoids deep recursion.
    let mut stack = vec![pat];
    while let Some(p) = stack.pop() {
        let Some(node) = arena.pats.get(p.index()) else {
            continue;
        };
        match &node.kind {
            PatKind::Var(name) => {
                let scheme = generalised(p)
                    .unwrap_or_else(|| Scheme::mono(pat_ty(p).unwrap_or(Ty::Unknown)));
                out.push((name.clone(), scheme));
            }
            PatKind::Dict(fields) => {
                let shape = pat_ty(p).unwrap_or(Ty::Unknown);
                let mut children = Vec::new();
                for f in fields {
                    match f.pat {
                        Some(sub) => children.push(sub),
                        None => out.push((
                            f.name.text.clone(),
                            Scheme::mono(field_type(&shape, &f.name.text)),
                        )),
                    }
                }
                stack.extend(children.into_iter().rev());
            }
            kind => {
                let mut children = Vec::new();
                kind.for_each_child(|c| children.push(c));
                stack.extend(children.into_iter().rev());
            }
        }
    }
}

fn field_type(shape: &Ty, field: &str) -> Ty {
    match shape {
        Ty::Record(fs) => fs
            .iter()
            .find(|(n, _)| &**n == field)
            .map(|(_, t)| t.clone())
            .unwrap_or(Ty::Unknown),
        t if t.head_name() == Some("Dict") => t
            .spine()
            .1
            .first()
            .map(|t| (*t).clone())
            .unwrap_or(Ty::Unknown),
        _ => Ty::Unknown,
    }
}

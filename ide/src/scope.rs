//! Values in scope at a position, innermost first, with their types. Which locals are
//! visible is name resolution's answer (`resolve::item_names`: the binders whose scope
//! holds the expression at the position, grouped by the construct that bound them); the
//! types come from the checker's pattern types, so they are what inference found; a `let`
//! binding that generalisation made polymorphic keeps its scheme, so that every use an
//! assist tries instantiates it afresh, as the checker does. A `fn`'s parameters have the
//! types its signature declares.

use rex_compiler::check::env::fn_scheme;
use rex_compiler::db::program_env;
use rex_compiler::resolve::{item_names, LocalDef, LocalKind};
use rex_compiler::syntax::ast::ItemKind;
use rex_compiler::types::{Scheme, Ty};

use crate::limits::MAX_IN_SCOPE_VALUES;
use crate::locate::{Document, Located};

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

/// The locals visible at the located expression (or, at the item level when the position
/// is in no expression, the `fn`'s parameters), innermost first, shadowed names removed,
/// capped.
pub fn locals_at(doc: &Document<'_>, at: &Located<'_>) -> Vec<ScopeValue> {
    let names = item_names(doc.db, at.key);
    let visible: Vec<usize> = match at.expr {
        Some(e) => names.visible_over(at.item.arena.expr(e).span),
        None => (0..names.locals.len())
            .rev()
            .filter(|i| names.locals[*i].kind == LocalKind::FnParam)
            .collect(),
    };
    let params = param_types(doc, at);
    let mut out: Vec<ScopeValue> = Vec::new();
    let mut depth = 0;
    let mut site = None;
    for i in visible {
        let def = &names.locals[i];
        if site.is_some_and(|s| s != def.site) {
            depth += 1;
        }
        site = Some(def.site);
        let scheme = match def.param_index {
            Some(k) => match params.get(k) {
                Some(t) => Scheme::mono(t.clone()),
                None => continue,
            },
            None => scheme_of(at, def),
        };
        if !out.iter().any(|v| v.name == def.name) {
            out.push(ScopeValue {
                name: def.name.clone(),
                scheme,
                depth,
            });
        }
    }
    out.truncate(MAX_IN_SCOPE_VALUES);
    out
}

/// The parameter types a `fn`'s signature declares (rigid), first parameter first.
fn param_types(doc: &Document<'_>, at: &Located<'_>) -> Vec<Ty> {
    let ItemKind::Fn(decl) = &at.item.kind else {
        return Vec::new();
    };
    if decl.params.is_empty() {
        return Vec::new();
    }
    let env = program_env(doc.db, doc.db.prelude(), doc.file);
    let Some((scheme, _)) = fn_scheme(env, at.item, decl) else {
        return Vec::new();
    };
    let mut t = scheme.rigid_ty();
    let mut out = Vec::new();
    for _ in &decl.params {
        let Ty::Fun(a, r) = t else {
            break;
        };
        out.push(*a);
        t = *r;
    }
    out
}

/// The inferred type of a pattern-bound local (the scheme of a generalised `let` binding).
fn scheme_of(at: &Located<'_>, def: &LocalDef) -> Scheme {
    let pat_ty = |p: rex_compiler::syntax::ast::PatId| {
        at.types
            .pat_types
            .get(p.index())
            .cloned()
            .unwrap_or(Ty::Unknown)
    };
    if let Some(p) = def.pat {
        let generalised = at.types.let_schemes.iter().find(|(q, _)| *q == p);
        return match generalised {
            Some((_, s)) => s.clone(),
            None => Scheme::mono(pat_ty(p)),
        };
    }
    match def.field_of {
        Some(dict) => Scheme::mono(field_type(&pat_ty(dict), &def.name)),
        None => Scheme::mono(Ty::Unknown),
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

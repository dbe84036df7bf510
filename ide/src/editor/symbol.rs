//! What a name means at a position: the local binding or top-level declaration it refers
//! to, where that is declared, and its type, printed. Shared by hover, completion,
//! signature help and navigation.

use rex_compiler::check::{Env, ItemRef};
use rex_compiler::resolve::{GlobalKind, LocalDef, Target, UseKind};
use rex_compiler::syntax::ast::ItemKind;
use rex_compiler::types::{Scheme, Ty, TypePrinter};
use rex_compiler::Span;

use crate::locate::{self, ItemAt};
use rex_compiler::db::{Database, SourceFile};

/// The entity a name denotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Symbol {
    /// A local binding: the item it lives in and its index in that item's names.
    Local { item: usize, def: usize },
    /// A top-level name of the given kind (declared in the file, the prelude, or nowhere).
    Global { name: String, kind: GlobalKind },
}

/// The symbol whose name (a use or a binder) touches the position of `at`, with the
/// absolute span of that name.
pub fn symbol_at(db: &Database, at: &ItemAt<'_>) -> Option<(Symbol, Span)> {
    let names = at.names(db);
    if let Some(def) = names.local_at(at.rel) {
        let span = at.abs(names.locals[def].span);
        return Some((
            Symbol::Local {
                item: at.index,
                def,
            },
            span,
        ));
    }
    if let Some(g) = names.global_at(at.rel) {
        return Some((
            Symbol::Global {
                name: g.name.clone(),
                kind: g.kind,
            },
            at.abs(g.span),
        ));
    }
    let used = names.use_at(at.rel)?;
    let symbol = match used.target {
        Target::Local(def) => Symbol::Local {
            item: at.index,
            def,
        },
        Target::Global => Symbol::Global {
            name: used.name.clone(),
            kind: match used.kind {
                UseKind::MethodImpl => GlobalKind::Method,
                UseKind::Value => {
                    let env = locate::env(db, at_file(db, at));
                    if env.values.contains_key(used.name.as_str()) {
                        GlobalKind::Function
                    } else {
                        GlobalKind::Method
                    }
                }
                UseKind::Constructor => GlobalKind::Constructor,
                UseKind::Type => GlobalKind::Type,
                UseKind::Class => GlobalKind::Class,
            },
        },
    };
    Some((symbol, at.abs(used.span)))
}

fn at_file(db: &Database, at: &ItemAt<'_>) -> SourceFile {
    at.key.file(db)
}

/// The printed type of a local binding, from the checker's results for its item.
pub fn local_type(db: &Database, at: &ItemAt<'_>, def: &LocalDef) -> Option<String> {
    if let Some(scheme) = let_scheme(db, at, def) {
        return Some(TypePrinter::new().scheme(scheme));
    }
    local_ty(db, at, def).map(|t| TypePrinter::new().ty(&t))
}

/// The scheme of a polymorphic `let` binding (`'a -> 'a`, `Num 'a => 'a -> 'a`).
pub fn let_scheme<'d>(db: &'d Database, at: &ItemAt<'d>, def: &LocalDef) -> Option<&'d Scheme> {
    let pat = def.pat?;
    let types = at.types(db);
    types
        .let_schemes
        .iter()
        .find(|(p, _)| *p == pat)
        .map(|(_, s)| s)
}

/// The type of a local binding: its pattern's type, a `fn` parameter's declared type, or
/// else the type at one of its uses.
pub fn local_ty(db: &Database, at: &ItemAt<'_>, def: &LocalDef) -> Option<Ty> {
    let types = at.types(db);
    if let Some(p) = def.pat {
        if let Some(t) = types.pat_types.get(p.index()) {
            if *t != Ty::Unknown {
                return Some(t.clone());
            }
        }
    }
    if let (Some(i), ItemKind::Fn(decl)) = (def.param_index, &at.item.kind) {
        let env = locate::env(db, at.key.file(db));
        if let Some(v) = env.values.get(decl.name.text.as_str()) {
            let mut t = v.scheme.rigid_ty();
            for _ in 0..i {
                match t {
                    Ty::Fun(_, r) => t = *r,
                    _ => return None,
                }
            }
            if let Ty::Fun(a, _) = t {
                return Some(*a);
            }
        }
    }
    let names = at.names(db);
    let index = names.locals.iter().position(|d| d == def)?;
    let used = names
        .uses
        .iter()
        .find(|u| u.target == Target::Local(index))?;
    types.expr_types.get(used.expr?.index()).cloned()
}

/// The printed type scheme of a top-level name (for constructors: every constructor of
/// that name).
pub fn global_type(env: &Env, name: &str, kind: GlobalKind) -> Option<String> {
    match kind {
        GlobalKind::Function | GlobalKind::Method => env
            .values
            .get(name)
            .map(|v| &v.scheme)
            .or_else(|| env.methods.get(name).map(|m| &m.scheme))
            .map(|sc| TypePrinter::new().scheme(sc)),
        GlobalKind::Constructor => {
            let ids = env.ctor_index.get(name)?;
            let shown: Vec<String> = ids
                .iter()
                .map(|id| TypePrinter::new().scheme(&env.ctor(*id).scheme))
                .collect();
            Some(shown.join(" | "))
        }
        GlobalKind::Type | GlobalKind::Class => None,
    }
}

/// Where a top-level name is declared: the item, and whether that item is in the prelude.
pub fn global_origin(env: &Env, name: &str, kind: GlobalKind) -> Option<ItemRef> {
    match kind {
        GlobalKind::Function | GlobalKind::Method => {
            env.values.get(name).map(|v| v.origin).or_else(|| {
                let m = env.methods.get(name)?;
                env.classes.get(&m.class).map(|c| c.origin)
            })
        }
        GlobalKind::Constructor => {
            let ids = env.ctor_index.get(name)?;
            ids.iter()
                .map(|id| env.ctor(*id).origin)
                .find(|o| !o.is_prelude())
                .or_else(|| ids.first().map(|id| env.ctor(*id).origin))
        }
        GlobalKind::Type => {
            let adt = env.types.get(&env.resolve_type(name)?)?.adt?;
            env.adts.get(adt).map(|a| a.origin)
        }
        GlobalKind::Class => env.classes.get(&env.resolve_class(name)?).map(|c| c.origin),
    }
}

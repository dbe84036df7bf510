//! What a hole's grammar may name, read from the assists' context at the hole: the locals,
//! the offerable globals (`rex_ide::catalog`, internal names already left out), the
//! module-qualified names and operators of the file's scope, and the record fields of the
//! constructors in scope and of the record types the hole's values and expected type
//! mention.

use rex_compiler::types::ty::PRIMITIVE_TYPES;
use rex_compiler::types::Ty;
use rex_ide::catalog::Origin;
use rex_ide::context::Context;

use super::names::{is_lower_ident, is_operator};
use super::GrammarScope;

/// The names visible at the context's position (holes not allowed).
pub fn scope_at(ctx: &Context<'_>) -> GrammarScope {
    let mut scope = GrammarScope::default();
    for l in &ctx.locals {
        push_unique(&mut scope.values, &l.name);
    }
    let mut types: Vec<&Ty> = Vec::new();
    for g in &ctx.globals {
        match g.origin {
            Origin::UserConstructor | Origin::PreludeConstructor => {
                push_unique(&mut scope.constructors, &g.name)
            }
            origin => {
                push_unique(&mut scope.values, &g.name);
                if origin == Origin::UserFunction {
                    types.push(&g.scheme.ty);
                }
            }
        }
    }
    let env = ctx.env;
    // Qualified names (`M.x`, `M.C`) and operators, which the catalog does not offer.
    for name in env.values.keys().chain(env.methods.keys()) {
        if is_operator(name) {
            push_unique(&mut scope.operators, name);
        } else if name.contains('.') {
            push_unique(&mut scope.values, name);
        }
    }
    for (name, ids) in &env.ctor_index {
        if name.contains('.') {
            push_unique(&mut scope.constructors, name);
        }
        for &id in ids {
            if let Some(c) = env.ctors.get(id) {
                for f in c.record.iter().flatten() {
                    push_unique(&mut scope.fields, f);
                }
            }
        }
    }
    // Type names, for ascriptions: the program's and the prelude's, and the built-in ones
    // with parameters (`Dict`).
    for name in env.types.keys().chain(env.type_aliases.keys()) {
        push_unique(&mut scope.types, name);
    }
    for (name, _) in PRIMITIVE_TYPES.iter().filter(|(_, arity)| *arity > 0) {
        push_unique(&mut scope.types, name);
    }
    types.extend(ctx.locals.iter().map(|l| &l.scheme.ty));
    types.extend(ctx.expected.iter());
    for t in types {
        record_fields(t, &mut scope.fields, 0);
    }
    scope.fields.retain(|f| is_lower_ident(f));
    scope
}

/// The field names of the record types inside `t` (bounded depth: types are small, but a
/// grammar must never recurse without end).
fn record_fields(t: &Ty, out: &mut Vec<String>, depth: usize) {
    if depth > 32 {
        return;
    }
    match t {
        Ty::Record(fields) => {
            for (name, ty) in fields {
                push_unique(out, name);
                record_fields(ty, out, depth + 1);
            }
        }
        Ty::App(a, b) | Ty::Fun(a, b) => {
            record_fields(a, out, depth + 1);
            record_fields(b, out, depth + 1);
        }
        Ty::Tuple(ts) => {
            for t in ts {
                record_fields(t, out, depth + 1);
            }
        }
        Ty::Var(_) | Ty::Gen(_) | Ty::Rigid(_) | Ty::Con(_) | Ty::Unknown => {}
    }
}

fn push_unique(v: &mut Vec<String>, name: &str) {
    if !v.iter().any(|n| n == name) {
        v.push(name.to_string());
    }
}

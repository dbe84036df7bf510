//! Target types (the Hazel paper's term): the types a fill's parts may have to produce.
//! For an expected `Model -> Action -> Model` they are that type, `Action -> Model` and
//! `Model`; for `(List Todo, i32)`, the tuple and its parts; for `Option Model`, the
//! option and `Model`, its constructor's payload (a record payload gives its fields).

use rex_compiler::check::Env;
use rex_compiler::types::Ty;

use crate::fit::is_uninformative;
use crate::limits::{MAX_TARGET_DEPTH, MAX_TARGET_TYPES};

/// The target types of `expected`, itself first, then breadth first; each once, none a
/// bare variable or the unknown type.
pub fn target_types(env: &Env, expected: &Ty) -> Vec<Ty> {
    let mut out: Vec<Ty> = Vec::new();
    let mut level: Vec<Ty> = vec![expected.clone()];
    for _ in 0..=MAX_TARGET_DEPTH {
        let mut next: Vec<Ty> = Vec::new();
        for t in level {
            if is_uninformative(&t) || matches!(t, Ty::Rigid(_)) || out.contains(&t) {
                continue;
            }
            next.extend(parts(env, &t));
            out.push(t);
            if out.len() == MAX_TARGET_TYPES {
                return out;
            }
        }
        level = next;
    }
    out
}

/// The types one step inside `t`: an arrow's result, a tuple's or record's parts, the
/// payloads of an algebraic type's constructors (at the type's arguments).
fn parts(env: &Env, t: &Ty) -> Vec<Ty> {
    match t {
        Ty::Fun(_, result) => vec![(**result).clone()],
        Ty::Tuple(ts) => ts.clone(),
        Ty::Record(fields) => fields.iter().map(|(_, t)| t.clone()).collect(),
        Ty::App(..) | Ty::Con(_) => {
            let Some(adt) = env.adt_of_type(t) else {
                return Vec::new();
            };
            let args: Vec<Ty> = t.spine().1.into_iter().cloned().collect();
            // A record payload is no value of its own: its fields are the parts.
            let mut out = Vec::new();
            for field in adt.ctors.iter().flat_map(|id| env.ctor(*id).fields.iter()) {
                match field.instantiate(&args) {
                    Ty::Record(fields) => out.extend(fields.into_iter().map(|(_, t)| t)),
                    t => out.push(t),
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

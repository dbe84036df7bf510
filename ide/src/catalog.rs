//! The global values a candidate search may offer: the user's functions, constructors, the
//! prelude's public functions and the class methods. Natives (`prim_*`) and operators never
//! appear: an agent is to write names it can read back in the documentation.

use rex_compiler::check::{Env, FileRef};
use rex_compiler::types::Scheme;

use crate::limits::MAX_SCANNED_SCHEMES;

/// Where a global comes from; ranking prefers the user's own code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Origin {
    UserFunction,
    UserConstructor,
    PreludeConstructor,
    PreludeFunction,
    Method,
}

impl Origin {
    pub fn is_user(self) -> bool {
        matches!(self, Origin::UserFunction | Origin::UserConstructor)
    }
}

#[derive(Clone, Debug)]
pub struct Global {
    pub name: String,
    pub scheme: Scheme,
    pub origin: Origin,
}

/// Whether an agent may be offered `name`: a plain identifier, not a native.
pub fn is_user_visible(name: &str) -> bool {
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_alphabetic() || c == '_');
    first_ok && chars.all(|c| c.is_alphanumeric() || c == '_') && !name.starts_with("prim_")
}

/// `is_user_visible` of a name as a file spells it, `M.x` through a module alias included.
pub fn is_user_visible_spelling(name: &str) -> bool {
    is_user_visible(name.rsplit('.').next().unwrap_or(name))
}

/// Every offerable global: the user's (those of the checked file nearest to item `near`
/// first, then the modules' by position, back in declaration order once chosen), capped at
/// `MAX_SCANNED_SCHEMES`, then the prelude's constructors and functions and the class
/// methods, which are always there (a big file must not hide `Ok` or `map`).
pub fn globals(env: &Env, near: Option<u32>) -> Vec<Global> {
    let mut out = Vec::new();
    // The file's own declarations first, then the modules' (as imported), by position.
    let mut user: Vec<(rex_compiler::check::ItemRef, Global)> = Vec::new();
    for (name, v) in &env.values {
        if !is_user_visible(name) {
            continue;
        }
        let g = Global {
            name: name.to_string(),
            scheme: v.scheme.clone(),
            origin: if v.origin.is_prelude() {
                Origin::PreludeFunction
            } else {
                Origin::UserFunction
            },
        };
        if v.origin.is_prelude() {
            out.push(g);
        } else {
            user.push((v.origin, g));
        }
    }
    // Constructors as the file's scope spells them.
    let mut ctors: Vec<(usize, &str)> = env
        .ctor_index
        .iter()
        .flat_map(|(name, ids)| ids.iter().map(move |id| (*id, &**name)))
        .collect();
    ctors.sort_unstable();
    for (name, c) in ctors.into_iter().map(|(id, name)| (name, env.ctor(id))) {
        if !is_user_visible(name) {
            continue;
        }
        let g = Global {
            name: name.to_string(),
            scheme: c.scheme.clone(),
            origin: if c.origin.is_prelude() {
                Origin::PreludeConstructor
            } else {
                Origin::UserConstructor
            },
        };
        if c.origin.is_prelude() {
            out.push(g);
        } else {
            user.push((c.origin, g));
        }
    }
    for (name, m) in &env.methods {
        if is_user_visible(name) {
            out.push(Global {
                name: name.to_string(),
                scheme: m.scheme.clone(),
                origin: Origin::Method,
            });
        }
    }
    if user.len() > MAX_SCANNED_SCHEMES {
        let distance = |at: &rex_compiler::check::ItemRef| match (at.file, near) {
            (FileRef::Root, Some(n)) => (0, at.index.abs_diff(n)),
            (FileRef::Root, None) => (0, at.index),
            _ => (1, 0),
        };
        user.sort_by_key(|(at, _)| (distance(at), *at));
        user.truncate(MAX_SCANNED_SCHEMES);
    }
    user.sort_by_key(|(at, _)| *at);
    out.sort_by_key(|g| g.origin);
    let mut all: Vec<Global> = user.into_iter().map(|(_, g)| g).collect();
    all.extend(out);
    all
}

//! The environment one item is checked in, cut down to what the item can read, so that it
//! stays equal when the program changes elsewhere (see `db::item_types_in`):
//!
//! * the program-wide tables with every origin reduced to its file: inference asks whether
//!   a declaration is the prelude's or this file's, never where in the file it stands, so
//!   inserting a declaration above does not change them;
//! * of the top-level values, only those whose names the item spells. A name the item
//!   spells that no value has makes the checker list near misses from every value; for
//!   that, `all_values` gives the whole table (also with origins reduced to files).
//!
//! Everything else of the file's scope (methods, constructors, aliases, imports) is kept
//! as it is: it changes only when a type, class or import does.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::env::{Env, Exports, ItemRef, Value};
use crate::syntax::ast::{ExprKind, Item};

/// A file's environment without its values, every origin reduced to its file: equal
/// after a `fn` is inserted, removed, moved or given another type.
pub fn scope_without_values(env: &Env) -> Env {
    let adts = env.adts.iter().map(|a| reduced(a, |a| &mut a.origin));
    let ctors = env.ctors.iter().map(|c| reduced(c, |c| &mut c.origin));
    let classes = env
        .classes
        .iter()
        .map(|(k, c)| (k.clone(), reduced(c, |c| &mut c.origin)));
    let instances = env.instances.iter().map(|i| reduced(i, |i| &mut i.origin));
    let exports = env
        .exports
        .iter()
        .map(|e| Exports {
            values: positionless(&e.values),
            ..e.clone()
        })
        .collect();
    Env {
        adts: Arc::new(adts.collect()),
        ctors: Arc::new(ctors.collect()),
        classes: Arc::new(classes.collect()),
        instances: Arc::new(instances.collect()),
        exports: Arc::new(exports),
        prelude_diagnostics: Vec::new(),
        values: BTreeMap::new(),
        diagnostics: Vec::new(),
        ..env.clone()
    }
}

/// The values one item reads (origins reduced to files), and the index of the instance it
/// declares if it is an `instance` item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemValues {
    pub values: BTreeMap<Arc<str>, Value>,
    pub instance: Option<usize>,
}

impl ItemValues {
    /// What `item`, standing at `at`, reads of the values of its file's environment `env`:
    /// those it spells, or with `all`, every one.
    pub fn new(env: &Env, item: &Item, at: ItemRef, all: bool) -> ItemValues {
        let values = if all {
            positionless(&env.values)
        } else {
            names_spelled(item)
                .iter()
                .filter_map(|name| env.values.get_key_value(name.as_str()))
                .map(|(name, v)| (name.clone(), positionless_value(v)))
                .collect()
        };
        ItemValues {
            values,
            instance: env.instances.iter().position(|i| i.origin == at),
        }
    }
}

/// Every name inference may look up among the values for `item`: variables, operators,
/// `Alias.name` projections, and `negate` for a prefix minus.
fn names_spelled(item: &Item) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut add = |name: &str| {
        names.insert(match name {
            "&&" => "prim_and".to_string(),
            "||" => "prim_or".to_string(),
            other => other.to_string(),
        });
    };
    for e in &item.arena.exprs {
        match &e.kind {
            ExprKind::Var(name) => add(name),
            ExprKind::OpRef(op) | ExprKind::Binary { op, .. } => add(&op.text),
            ExprKind::Negate(_) => add("negate"),
            ExprKind::Project { base, field } => {
                if let ExprKind::Ctor(alias) = &item.arena.expr(*base).kind {
                    add(&format!("{alias}.{}", field.text));
                }
            }
            _ => {}
        }
    }
    names
}

fn file_only(at: ItemRef) -> ItemRef {
    ItemRef::new(at.file, 0)
}

/// A copy of `x` whose origin (where `origin` finds it) is reduced to its file.
fn reduced<T: Clone>(x: &T, origin: fn(&mut T) -> &mut ItemRef) -> T {
    let mut x = x.clone();
    let at = origin(&mut x);
    *at = file_only(*at);
    x
}

fn positionless_value(v: &Value) -> Value {
    reduced(v, |v| &mut v.origin)
}

fn positionless(values: &BTreeMap<Arc<str>, Value>) -> BTreeMap<Arc<str>, Value> {
    values
        .iter()
        .map(|(k, v)| (k.clone(), positionless_value(v)))
        .collect()
}

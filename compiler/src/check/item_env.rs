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
    let adts = env
        .adts
        .iter()
        .map(|a| {
            let mut a = a.clone();
            a.origin = file_only(a.origin);
            a
        })
        .collect();
    let ctors = env
        .ctors
        .iter()
        .map(|c| {
            let mut c = c.clone();
            c.origin = file_only(c.origin);
            c
        })
        .collect();
    let classes = env
        .classes
        .iter()
        .map(|(k, c)| {
            let mut c = c.clone();
            c.origin = file_only(c.origin);
            (k.clone(), c)
        })
        .collect();
    let instances = env
        .instances
        .iter()
        .map(|i| {
            let mut i = i.clone();
            i.origin = file_only(i.origin);
            i
        })
        .collect();
    let exports = env
        .exports
        .iter()
        .map(|e| Exports {
            values: positionless(&e.values),
            ..e.clone()
        })
        .collect();
    Env {
        adts: Arc::new(adts),
        ctors: Arc::new(ctors),
        classes: Arc::new(classes),
        instances: Arc::new(instances),
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

fn positionless_value(v: &Value) -> Value {
    Value {
        scheme: v.scheme.clone(),
        origin: file_only(v.origin),
    }
}

fn positionless(values: &BTreeMap<Arc<str>, Value>) -> BTreeMap<Arc<str>, Value> {
    values
        .iter()
        .map(|(k, v)| (k.clone(), positionless_value(v)))
        .collect()
}

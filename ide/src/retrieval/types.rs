//! The definitions of the user types around a hole: those named by the target types and by
//! the types of the values in scope, then, transitively, those their constructors' fields
//! name (a `Model` whose field is a `List Todo` brings `Todo`), wherever they are declared:
//! the file itself or any module it loads. Types are followed by identity, not by the
//! words of a text, so two modules' `Model`s never mix and a prelude type never counts.

use std::sync::Arc;

use rex_compiler::check::env::FileRef;
use rex_compiler::db::program;
use rex_compiler::types::Ty;

use crate::context::Context;
use crate::limits::MAX_TYPES;
use crate::locate::Document;
use rex_compiler::check::spelling::Spelling;

/// One relevant type definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeDef {
    /// The type as the hole's site writes it (`Model`, `A.Model`).
    pub name: String,
    /// The path of the module that declares it; None for the file itself.
    pub module: Option<String>,
    /// The declaration as written in its file.
    pub source: String,
    /// 0 for a type a target type or a value in scope names; n for one reached through n
    /// other definitions.
    pub depth: usize,
}

/// The relevant definitions, nearest first (then in the order they were met), capped.
pub fn relevant_types(ctx: &Context<'_>, targets: &[Ty], spelling: &Spelling) -> Vec<TypeDef> {
    let env = ctx.env;
    let mut seeds: Vec<Arc<str>> = Vec::new();
    for t in targets
        .iter()
        .chain(ctx.locals.iter().map(|l| &l.scheme.ty))
    {
        names_in(t, &mut seeds);
    }
    let mut seen: Vec<Arc<str>> = Vec::new();
    let mut out: Vec<TypeDef> = Vec::new();
    let mut level = seeds;
    let mut depth = 0;
    while !level.is_empty() && out.len() < MAX_TYPES {
        let mut next: Vec<Arc<str>> = Vec::new();
        for id in level {
            if seen.contains(&id) || out.len() == MAX_TYPES {
                continue;
            }
            seen.push(id.clone());
            let Some(adt) = env.types.get(&id).and_then(|c| c.adt).map(|a| &env.adts[a]) else {
                continue;
            };
            let Some((module, source)) = declaration(ctx, adt.origin.file, adt.origin.index) else {
                continue;
            };
            for ctor in &adt.ctors {
                for field in &env.ctor(*ctor).fields {
                    names_in(field, &mut next);
                }
            }
            out.push(TypeDef {
                name: spelling.type_name(&id),
                module,
                source,
                depth,
            });
        }
        level = next;
        depth += 1;
    }
    out
}

/// The type constructors `t` names, in order, each once.
fn names_in(t: &Ty, out: &mut Vec<Arc<str>>) {
    t.visit(&mut |t| {
        if let Ty::Con(id) = t {
            if !out.contains(id) {
                out.push(id.clone());
            }
        }
    });
}

/// The module path (None for the file itself) and the text of item `index` of `file`;
/// None for the prelude's declarations, which every model is told about elsewhere.
fn declaration(ctx: &Context<'_>, file: FileRef, index: u32) -> Option<(Option<String>, String)> {
    let (module, doc) = match file {
        FileRef::Prelude => return None,
        FileRef::Root => (None, Document::new(ctx.doc.db, ctx.doc.file)),
        FileRef::Module(k) => {
            let info = program(ctx.doc.db, ctx.doc.db.prelude(), ctx.doc.file);
            let (path, f) = info.modules.get(k as usize)?;
            (Some(path.clone()), Document::new(ctx.doc.db, *f))
        }
    };
    let item = doc.item(index as usize)?;
    Some((module, doc.item_source(item).0.trim().to_string()))
}

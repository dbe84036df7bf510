//! Imports: which module each `import` of a file loads, and the names it brings into the
//! file's scope, with the conflict rules of LANGUAGE.md.
//!
//! A loaded module's declarations are visible only where it is imported: `import m as M`
//! gives `M.x` for every export `x` (values, constructors and methods, and `M.T` / `M.C`
//! in type and class positions), `import m (*)` every export unqualified, and
//! `import m (x, y as z)` the named ones, each with all the facets (value, type, class)
//! the module exports under that name. Only `pub` declarations are exported (a `pub`
//! class exports its methods). Instances are global.
//!
//! Each file's imports are processed twice while its environment is built (see
//! `declare`): first for the type and class facets, before signatures are lowered; then
//! for values, constructors and methods, reporting what is wrong.

use std::sync::Arc;

use super::declare::Builder;
use super::env::{Exports, FileRef, ItemRef, Value};
use crate::diagnostic::{Code, Diagnostic, DiagnosticData};
use crate::span::Span;
use crate::syntax::ast::{ImportSpec, Item, ItemKind};
use crate::types::{Scheme, Ty};

/// The module index of an alias whose module is missing: `M.x` is then of unknown type.
pub const MISSING_MODULE: u32 = u32::MAX;

/// The module index of the checked file itself, imported back by one of its modules.
pub const ROOT_MODULE: u32 = u32::MAX - 1;

/// The modules a file's imports load, transitively (built by the database).
#[derive(Default)]
pub struct Program<'a> {
    pub modules: Vec<LoadedModule<'a>>,
    /// The file's own imports.
    pub imports: Vec<ImportLink>,
    /// The checked file's path (normalised), for modules that import it back.
    pub root_path: String,
}

impl Program<'_> {
    fn links(&self, file: FileRef) -> &[ImportLink] {
        match file {
            FileRef::Root => &self.imports,
            FileRef::Module(k) => self.modules.get(k as usize).map_or(&[][..], |m| &m.imports),
            FileRef::Prelude => &[],
        }
    }
}

pub struct LoadedModule<'a> {
    /// The module file's path (normalised).
    pub path: String,
    pub items: &'a [Item],
    /// The module's own imports.
    pub imports: Vec<ImportLink>,
}

/// Where one `import` item leads.
#[derive(Clone, Debug)]
pub struct ImportLink {
    pub item: u32,
    /// The module's index in `Program::modules` (`ROOT_MODULE` for the checked file
    /// itself, imported back by a module), or the paths that were tried.
    pub target: Result<u32, Vec<String>>,
}

/// Where an imported name comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedName {
    /// The module file's path.
    pub module: String,
    /// The name as the module declares it.
    pub name: Arc<str>,
}

/// Which facets an import pass brings in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// Types and classes, silently (before signatures are lowered).
    Types,
    /// Values, constructors and methods, reporting missing modules (E0401), names a
    /// module does not export (E0402) and conflicts (E0403).
    Values,
}

impl Builder {
    /// Brings in what `file`'s imports name; `file`'s scope is the current one.
    pub(super) fn import(
        &mut self,
        program: &Program<'_>,
        file: FileRef,
        items: &[Item],
        values: bool,
    ) {
        let pass = if values { Pass::Values } else { Pass::Types };
        let own = own_names(items);
        let mut taken: Vec<Arc<str>> = Vec::new();
        let mut aliases: Vec<Arc<str>> = Vec::new();
        for link in program.links(file) {
            let Some(item) = items.get(link.item as usize) else {
                continue;
            };
            let ItemKind::Import(decl) = &item.kind else {
                continue;
            };
            let at = ItemRef::new(file, link.item);
            let path: String = decl
                .path
                .iter()
                .map(|n| n.text.as_str())
                .collect::<Vec<_>>()
                .join(".");
            let path_span = match (decl.path.first(), decl.path.last()) {
                (Some(f), Some(l)) => f.span.cover(l.span),
                _ => item.span,
            };
            let module = match &link.target {
                Ok(k) => *k,
                Err(tried) => {
                    if pass == Pass::Values {
                        let mut d = Diagnostic::error(
                            Code::ModuleNotFound,
                            path_span,
                            format!("module `{path}` not found"),
                        )
                        .with_data(DiagnosticData::Module { path: path.clone() });
                        if !tried.is_empty() {
                            d = d.with_note(format!("looked for {}", tried.join(", ")));
                        }
                        self.report(at, d);
                    } else {
                        self.stand_in_for_missing(&decl.spec, at);
                    }
                    continue;
                }
            };
            if file == FileRef::Root && module == ROOT_MODULE {
                if pass == Pass::Values {
                    self.report(
                        at,
                        Diagnostic::error(
                            Code::ImportConflict,
                            path_span,
                            format!("`{path}` is this file itself; a file cannot import itself"),
                        ),
                    );
                }
                continue;
            }
            let module_path = match module {
                ROOT_MODULE => program.root_path.clone(),
                k => match program.modules.get(k as usize) {
                    Some(m) => m.path.clone(),
                    None => continue,
                },
            };
            let Some(exports) = self.exports(module).cloned() else {
                continue;
            };
            let mut bring = |b: &mut Self, declared: &Arc<str>, spelled: Arc<str>, span: Span| {
                let conflict = if own.contains(&spelled) {
                    Some("a declaration of this file")
                } else if taken.contains(&spelled) {
                    Some("another import")
                } else {
                    None
                };
                taken.push(spelled.clone());
                if let Some(other) = conflict {
                    if pass == Pass::Values {
                        b.report(
                            at,
                            Diagnostic::error(
                                Code::ImportConflict,
                                span,
                                format!("`{spelled}` is imported here and also defined by {other}"),
                            ),
                        );
                    }
                    return;
                }
                if pass == Pass::Types {
                    b.bring_types(&exports, declared, &spelled);
                } else if b.bring_values(&exports, declared, &spelled) {
                    b.env.imported.insert(
                        spelled,
                        ImportedName {
                            module: module_path.clone(),
                            name: declared.clone(),
                        },
                    );
                } else {
                    b.report(
                        at,
                        Diagnostic::error(
                            Code::MissingExport,
                            span,
                            format!(
                                "module `{path}` does not export `{declared}` (only `pub` declarations can be imported)"
                            ),
                        )
                        .with_data(DiagnosticData::Module { path: path.clone() }),
                    );
                }
            };
            match &decl.spec {
                ImportSpec::Plain => {}
                ImportSpec::Alias(alias) => {
                    let alias_name: Arc<str> = Arc::from(alias.text.as_str());
                    let used = aliases.contains(&alias_name);
                    aliases.push(alias_name.clone());
                    if pass == Pass::Types {
                        if used {
                            continue;
                        }
                        self.env.module_aliases.insert(alias_name, module);
                    } else if used {
                        self.report(
                            at,
                            Diagnostic::error(
                                Code::ImportConflict,
                                alias.span,
                                format!("the module alias `{alias_name}` is already used"),
                            ),
                        );
                        continue;
                    }
                    for name in export_names(&exports) {
                        let spelled: Arc<str> = Arc::from(format!("{}.{name}", alias.text));
                        bring(self, &name, spelled, alias.span);
                    }
                }
                ImportSpec::All => {
                    for name in export_names(&exports) {
                        bring(self, &name, name.clone(), path_span);
                    }
                }
                ImportSpec::Items(items) => {
                    let public = match module {
                        ROOT_MODULE => None,
                        k => program.modules.get(k as usize).map(|m| pub_names(m.items)),
                    };
                    for it in items {
                        let declared: Arc<str> = Arc::from(it.name.text.as_str());
                        let (spelled, span) = match &it.alias {
                            Some(a) => (Arc::from(a.text.as_str()), it.name.span.cover(a.span)),
                            None => (declared.clone(), it.name.span),
                        };
                        // A name the module does not export is reported once (E0402)
                        // and stands for something of unknown type where it is used.
                        let exported = public.as_ref().is_none_or(|p| p.contains(&declared));
                        if pass == Pass::Types && !exported {
                            self.stand_in(spelled.clone(), at);
                        }
                        bring(self, &declared, spelled, span);
                    }
                }
            }
        }
    }

    /// The type and class facets of `declared`, spelled `spelled` here.
    fn bring_types(&mut self, exports: &Exports, declared: &Arc<str>, spelled: &Arc<str>) {
        if let Some(id) = exports.types.get(declared) {
            self.env.type_aliases.insert(spelled.clone(), id.clone());
        }
        if let Some(id) = exports.classes.get(declared) {
            self.env.class_aliases.insert(spelled.clone(), id.clone());
        }
    }

    /// The value facets (function, constructor, method) of `declared`; true when the
    /// module exports `declared` in any facet.
    fn bring_values(&mut self, exports: &Exports, declared: &Arc<str>, spelled: &Arc<str>) -> bool {
        let mut found =
            exports.types.contains_key(declared) || exports.classes.contains_key(declared);
        if let Some(v) = exports.values.get(declared) {
            self.env.values.insert(spelled.clone(), v.clone());
            found = true;
        }
        if let Some(id) = exports.ctors.get(declared) {
            self.env
                .ctor_index
                .entry(spelled.clone())
                .or_default()
                .push(*id);
            found = true;
        }
        if let Some(m) = exports.methods.get(declared) {
            self.env.methods.insert(spelled.clone(), m.clone());
            found = true;
        }
        found
    }

    /// The names a missing module's import would bring get the unknown type, so their
    /// uses are not reported again (one fault, one diagnostic).
    fn stand_in_for_missing(&mut self, spec: &ImportSpec, at: ItemRef) {
        match spec {
            ImportSpec::Alias(alias) => {
                self.env
                    .module_aliases
                    .insert(Arc::from(alias.text.as_str()), MISSING_MODULE);
            }
            ImportSpec::Items(items) => {
                for it in items {
                    let spelled = it.alias.as_ref().unwrap_or(&it.name);
                    self.stand_in(Arc::from(spelled.text.as_str()), at);
                }
            }
            ImportSpec::All => self.env.missing_glob = true,
            ImportSpec::Plain => {}
        }
    }
}

impl Builder {
    /// `name` stands for something of unknown type in every facet (its import failed and
    /// was reported).
    fn stand_in(&mut self, name: Arc<str>, at: ItemRef) {
        let value = Value {
            scheme: Scheme::mono(Ty::Unknown),
            origin: at,
        };
        self.env.values.insert(name.clone(), value);
        self.env.missing_names.insert(name);
    }
}

/// The names a module's `pub` declarations define, in any facet, from its syntax (known
/// before its signatures are lowered).
fn pub_names(items: &[Item]) -> Vec<Arc<str>> {
    names_of(items.iter().filter(|item| match &item.kind {
        ItemKind::Fn(d) => d.is_pub,
        ItemKind::Type(d) => d.is_pub,
        ItemKind::Class(d) => d.is_pub,
        _ => false,
    }))
}

/// Every name a module exports, in any facet, once.
fn export_names(exports: &Exports) -> Vec<Arc<str>> {
    let mut names: Vec<Arc<str>> = exports
        .values
        .keys()
        .chain(exports.ctors.keys())
        .chain(exports.types.keys())
        .chain(exports.classes.keys())
        .chain(exports.methods.keys())
        .cloned()
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The names the file's own top-level declarations define, in any facet.
fn own_names(items: &[Item]) -> Vec<Arc<str>> {
    names_of(items.iter())
}

/// The names `items` declare, in any facet.
fn names_of<'a>(items: impl Iterator<Item = &'a Item>) -> Vec<Arc<str>> {
    let mut out: Vec<Arc<str>> = Vec::new();
    for item in items {
        match &item.kind {
            ItemKind::Fn(d) => out.push(Arc::from(d.name.text.as_str())),
            ItemKind::Type(d) => {
                out.push(Arc::from(d.name.text.as_str()));
                out.extend(d.variants.iter().map(|v| Arc::from(v.name.text.as_str())));
            }
            ItemKind::Class(d) => {
                out.push(Arc::from(d.name.text.as_str()));
                out.extend(d.methods.iter().map(|m| Arc::from(m.name.text.as_str())));
            }
            _ => {}
        }
    }
    out
}

//! Imports: which module each `import` of a file loads, and the names it brings into the
//! file's scope, with the conflict rules of LANGUAGE.md.
//!
//! Every loaded module's types, classes and instances are part of the program (types and
//! classes keep their declared names, so two loaded files may not declare the same one);
//! its `pub` values and constructors are in scope only as the file's imports say:
//! `import m as M` gives `M.x` for every export `x` (values and constructors, and `M.T` /
//! `M.C` in type and class positions), `import m (*)` every export unqualified, and
//! `import m (x, y as z)` the named ones, each with all the facets (value, type, class) the
//! module exports under that name.

use std::sync::Arc;

use super::env::{EnvBuilder, ItemRef};
use crate::diagnostic::{Code, Diagnostic, DiagnosticData};
use crate::span::Span;
use crate::syntax::ast::{ImportSpec, Item, ItemKind};

/// Module items are numbered from here up in `ItemRef::index`, `MODULE_STRIDE` per module,
/// so they never meet the file's own item indices.
const MODULE_BASE: u32 = 1 << 31;
const MODULE_STRIDE: u32 = 1 << 16;

/// The module index of an alias whose module is missing: `M.x` is then of unknown type.
pub const MISSING_MODULE: u32 = u32::MAX;

/// The file a declaration comes from while the environment is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Prelude,
    /// The file being checked.
    User,
    /// A loaded module, by index into `Program::modules`.
    Module(u32),
}

impl Origin {
    pub fn at(self, index: usize) -> ItemRef {
        match self {
            Origin::Prelude => ItemRef {
                prelude: true,
                index: index as u32,
            },
            Origin::User => ItemRef {
                prelude: false,
                index: index as u32,
            },
            Origin::Module(k) => ItemRef {
                prelude: false,
                index: MODULE_BASE
                    .saturating_add(k.saturating_mul(MODULE_STRIDE))
                    .saturating_add(index as u32),
            },
        }
    }

    pub fn is_prelude(self) -> bool {
        self == Origin::Prelude
    }
}

/// True for a declaration of a loaded module (not of the file being checked).
pub fn is_module_item(at: ItemRef) -> bool {
    !at.prelude && at.index >= MODULE_BASE
}

/// The modules a file's imports load, transitively (built by the database).
#[derive(Default)]
pub struct Program<'a> {
    pub modules: Vec<LoadedModule<'a>>,
    /// The file's own imports, by item index.
    pub imports: Vec<ImportLink>,
}

pub struct LoadedModule<'a> {
    /// The module file's path (normalised).
    pub path: String,
    pub items: &'a [Item],
}

/// Where one `import` item leads.
#[derive(Clone, Debug)]
pub struct ImportLink {
    pub item: u32,
    /// The module's index in `Program::modules`, or the paths that were tried.
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

impl EnvBuilder<'_> {
    /// Puts the names the file's imports bring into scope, reporting missing modules
    /// (E0401), names a module does not export (E0402) and conflicts (E0403).
    pub(super) fn resolve_imports(&mut self, program: &Program<'_>, user: &[Item]) {
        let own = own_names(user);
        let mut taken: Vec<Arc<str>> = Vec::new();
        for link in &program.imports {
            let Some(item) = user.get(link.item as usize) else {
                continue;
            };
            let ItemKind::Import(decl) = &item.kind else {
                continue;
            };
            let at = ItemRef {
                prelude: false,
                index: link.item,
            };
            let path: Vec<&str> = decl.path.iter().map(|n| n.text.as_str()).collect();
            let path_span = match (decl.path.first(), decl.path.last()) {
                (Some(f), Some(l)) => f.span.cover(l.span),
                _ => item.span,
            };
            let module = match &link.target {
                Ok(k) => *k,
                Err(tried) => {
                    let mut d = Diagnostic::error(
                        Code::ModuleNotFound,
                        path_span,
                        format!("module `{}` not found", path.join(".")),
                    )
                    .with_data(DiagnosticData::Module {
                        path: path.join("."),
                    });
                    if !tried.is_empty() {
                        d = d.with_note(format!("looked for {}", tried.join(", ")));
                    }
                    self.report(at, d);
                    self.stand_in_for_missing(&decl.spec, at);
                    continue;
                }
            };
            let module_path = program
                .modules
                .get(module as usize)
                .map(|m| m.path.clone())
                .unwrap_or_default();
            let exports = self.exports(module).clone();
            let mut bring = |b: &mut Self, declared: &Arc<str>, spelled: Arc<str>, span: Span| {
                let conflict = if own.contains(&spelled) {
                    Some("a declaration of this file")
                } else if taken.contains(&spelled) {
                    Some("another import")
                } else {
                    None
                };
                if let Some(other) = conflict {
                    b.report(
                        at,
                        Diagnostic::error(
                            Code::ImportConflict,
                            span,
                            format!("`{spelled}` is imported here and also defined by {other}"),
                        ),
                    );
                    return;
                }
                taken.push(spelled.clone());
                let mut found = false;
                if let Some(v) = exports.values.get(declared) {
                    b.env.values.insert(spelled.clone(), v.clone());
                    found = true;
                }
                if let Some(id) = exports.ctors.get(declared) {
                    b.env
                        .ctor_index
                        .entry(spelled.clone())
                        .or_default()
                        .push(*id);
                    found = true;
                }
                if exports.types.contains(declared) {
                    b.env.type_aliases.insert(spelled.clone(), declared.clone());
                    found = true;
                }
                if exports.classes.contains(declared) {
                    b.env
                        .class_aliases
                        .insert(spelled.clone(), declared.clone());
                    found = true;
                }
                if found {
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
                                "module `{}` does not export `{declared}` (only `pub` declarations can be imported)",
                                path.join(".")
                            ),
                        )
                        .with_data(DiagnosticData::Module {
                            path: path.join("."),
                        }),
                    );
                }
            };
            match &decl.spec {
                ImportSpec::Plain => {}
                ImportSpec::Alias(alias) => {
                    let alias_name: Arc<str> = Arc::from(alias.text.as_str());
                    if self.env.module_aliases.contains_key(&alias_name) {
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
                    self.env.module_aliases.insert(alias_name, module);
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
                    for it in items {
                        let declared: Arc<str> = Arc::from(it.name.text.as_str());
                        let (spelled, span) = match &it.alias {
                            Some(a) => (Arc::from(a.text.as_str()), it.name.span.cover(a.span)),
                            None => (declared.clone(), it.name.span),
                        };
                        bring(self, &declared, spelled, span);
                    }
                }
            }
        }
    }
}

impl EnvBuilder<'_> {
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
                    let value = super::env::Value {
                        scheme: crate::types::Scheme::mono(crate::types::Ty::Unknown),
                        origin: at,
                    };
                    let name: Arc<str> = Arc::from(spelled.text.as_str());
                    self.env.values.insert(name.clone(), value);
                    self.env.missing_names.insert(name);
                }
            }
            ImportSpec::All => self.env.missing_glob = true,
            ImportSpec::Plain => {}
        }
    }
}

/// Every name a module exports, in any facet, once.
fn export_names(exports: &super::env::Exports) -> Vec<Arc<str>> {
    let mut names: Vec<Arc<str>> = exports
        .values
        .keys()
        .chain(exports.ctors.keys())
        .chain(exports.types.iter())
        .chain(exports.classes.iter())
        .cloned()
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The names the file's own top-level declarations define, in any facet.
fn own_names(items: &[Item]) -> Vec<Arc<str>> {
    let mut out: Vec<Arc<str>> = Vec::new();
    for item in items {
        match &item.kind {
            ItemKind::Fn(d) => out.push(Arc::from(d.name.text.as_str())),
            ItemKind::Type(d) => {
                out.push(Arc::from(d.name.text.as_str()));
                out.extend(d.variants.iter().map(|v| Arc::from(v.name.text.as_str())));
            }
            ItemKind::Class(d) => out.push(Arc::from(d.name.text.as_str())),
            _ => {}
        }
    }
    out
}

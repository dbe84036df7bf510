//! The environment a file's items are checked in. Global tables (types, constructors,
//! classes, instances) hold every declaration of the program under its *identity*: the
//! declared name for the prelude and the checked file, `tag.Name` for a loaded module's
//! declarations (`dep.Boxed`), so two modules may declare the same name. On top of them,
//! the file's *scope* says what each spelling means there: its values, constructors and
//! methods, and which type and class identity each type and class name stands for. Built
//! from signatures alone (`declare`), so editing a function body never changes it.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::errors::{near_misses, Diag, TypeDiag};
use super::imports::ImportedName;
use super::lower::{Lowering, NewVars};
use crate::diagnostic::Code;
use crate::syntax::ast::Item;
use crate::types::{Pred, Scheme, Ty};

/// The file a declaration belongs to, within one program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum FileRef {
    Prelude,
    /// The file being checked (or run).
    #[default]
    Root,
    /// A module the program loads, by index into `Program::modules`.
    Module(u32),
}

/// A top-level item: its file and its index among that file's items.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ItemRef {
    pub file: FileRef,
    pub index: u32,
}

impl ItemRef {
    pub fn new(file: FileRef, index: u32) -> ItemRef {
        ItemRef { file, index }
    }

    pub fn prelude(index: u32) -> ItemRef {
        ItemRef::new(FileRef::Prelude, index)
    }

    pub fn root(index: u32) -> ItemRef {
        ItemRef::new(FileRef::Root, index)
    }

    pub fn is_prelude(&self) -> bool {
        self.file == FileRef::Prelude
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeCon {
    pub arity: usize,
    pub adt: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adt {
    /// The type's identity (see the module comment).
    pub name: Arc<str>,
    pub params: Vec<Arc<str>>,
    pub ctors: Vec<usize>,
    pub origin: ItemRef,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ctor {
    /// As declared (constructors are printed and matched by this name).
    pub name: Arc<str>,
    pub adt: usize,
    pub tag: u32,
    /// Positional fields, or the single record payload.
    pub fields: Vec<Ty>,
    /// Field names when the payload is a record.
    pub record: Option<Vec<Arc<str>>>,
    /// `fields -> Adt params`, quantified over the ADT's parameters.
    pub scheme: Scheme,
    pub origin: ItemRef,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Class {
    /// The class's identity.
    pub name: Arc<str>,
    pub params: Vec<Arc<str>>,
    /// Superclass predicates over `Gen(0..params)`.
    pub supers: Vec<Pred>,
    /// Method names as declared, in declaration order (a dictionary's layout).
    pub methods: Vec<Arc<str>>,
    pub origin: ItemRef,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Method {
    /// The class's identity.
    pub class: Arc<str>,
    /// The method's name as the class declares it.
    pub name: Arc<str>,
    /// Quantified over the class parameters first; `preds[0]` is the class predicate.
    pub scheme: Scheme,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    pub class: Arc<str>,
    pub vars: u32,
    pub var_names: Vec<Arc<str>>,
    pub head: Vec<Ty>,
    pub context: Vec<Pred>,
    pub origin: ItemRef,
    /// The class and its arguments in the declaration (item-relative).
    pub head_span: crate::span::Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value {
    pub scheme: Scheme,
    pub origin: ItemRef,
}

/// A class method by (class identity, declared method name).
pub type MethodKey = (Arc<str>, Arc<str>);

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Env {
    // ---- the program's declarations, by identity; shared by the environments of all
    // the files of one program (`Arc`), so a program of many modules holds them once
    pub types: Arc<BTreeMap<Arc<str>, TypeCon>>,
    pub adts: Arc<Vec<Adt>>,
    pub ctors: Arc<Vec<Ctor>>,
    pub classes: Arc<BTreeMap<Arc<str>, Class>>,
    /// Every class method, by (class identity, declared method name).
    pub class_methods: Arc<BTreeMap<MethodKey, Method>>,
    pub instances: Arc<Vec<Instance>>,
    /// What each loaded module exports (`pub`), by index into `Program::modules`, then
    /// the checked file's own.
    pub exports: Arc<Vec<Exports>>,
    /// Diagnostics on the prelude (there should be none).
    pub prelude_diagnostics: Vec<(u32, TypeDiag)>,

    // ---- the scope of the file this environment checks
    pub file: FileRef,
    pub values: BTreeMap<Arc<str>, Value>,
    pub ctor_index: BTreeMap<Arc<str>, Vec<usize>>,
    /// Class methods in scope, by spelling.
    pub methods: BTreeMap<Arc<str>, Method>,
    /// Diagnostics on this file's declarations: (item index, item-relative diagnostic).
    pub diagnostics: Vec<(u32, TypeDiag)>,
    /// Where each name the file imports comes from (for evaluation and tools), by the
    /// spelling the file uses (`z` for `y as z`, `M.x` through an alias).
    pub imported: BTreeMap<Arc<str>, ImportedName>,
    /// Type and class spellings whose identity is another string: a module's own
    /// declarations (`Boxed` is `dep.Boxed` inside dep), imports (`z`, `M.T`).
    pub type_aliases: BTreeMap<Arc<str>, Arc<str>>,
    pub class_aliases: BTreeMap<Arc<str>, Arc<str>>,
    /// `import a.b as M`: `M` and the module's index.
    pub module_aliases: BTreeMap<Arc<str>, u32>,
    /// Names imported from modules that could not be loaded (already reported): in every
    /// facet they stand for something of unknown type.
    pub missing_names: BTreeSet<Arc<str>>,
    /// An `import m (*)` whose module could not be loaded: any unknown name may be one of
    /// its exports, so none is reported.
    pub missing_glob: bool,
}

/// Why a type or class path names nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unresolved {
    /// Its qualifier is no module alias.
    Module,
    /// No such name is visible (or the module does not export it).
    Name,
}

/// The `pub` declarations of one module, by declared name.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Exports {
    pub values: BTreeMap<Arc<str>, Value>,
    pub ctors: BTreeMap<Arc<str>, usize>,
    /// Declared name -> identity.
    pub types: BTreeMap<Arc<str>, Arc<str>>,
    pub classes: BTreeMap<Arc<str>, Arc<str>>,
    pub methods: BTreeMap<Arc<str>, Method>,
}

impl Env {
    /// The identity of the type spelled `name` (unqualified, or `M.T` as one string) in
    /// this scope, if one is visible.
    pub fn resolve_type(&self, name: &str) -> Option<Arc<str>> {
        if let Some(id) = self.type_aliases.get(name) {
            return Some(id.clone());
        }
        let (key, con) = self.types.get_key_value(name)?;
        let visible = match con.adt {
            None => true,
            Some(adt) => self.sees_bare(self.adts[adt].origin),
        };
        visible.then(|| key.clone())
    }

    /// The identity of the class spelled `name` in this scope, if one is visible.
    pub fn resolve_class(&self, name: &str) -> Option<Arc<str>> {
        if let Some(id) = self.class_aliases.get(name) {
            return Some(id.clone());
        }
        let (key, class) = self.classes.get_key_value(name)?;
        self.sees_bare(class.origin).then(|| key.clone())
    }

    /// Declarations whose identity is their declared name (prelude, checked file) are
    /// visible by that name: the prelude's everywhere, the checked file's in itself.
    fn sees_bare(&self, origin: ItemRef) -> bool {
        origin.is_prelude() || origin.file == self.file
    }

    pub fn type_arity(&self, identity: &str) -> Option<usize> {
        self.types.get(identity).map(|t| t.arity)
    }

    /// The method `name` of the class with identity `class`.
    pub fn class_method(&self, class: &str, name: &str) -> Option<&Method> {
        self.class_methods.get(&(Arc::from(class), Arc::from(name)))
    }

    /// The identity of the class `path` spells: `C`, an imported `C` under another name,
    /// or `M.C` through a module alias.
    pub fn class_spelled(&self, path: &crate::syntax::ast::Path) -> Result<Arc<str>, Unresolved> {
        self.spelled(path, &self.class_aliases, |n| self.resolve_class(n))
    }

    /// The identity of the type `path` spells (see `class_spelled`).
    pub fn type_spelled(&self, path: &crate::syntax::ast::Path) -> Result<Arc<str>, Unresolved> {
        self.spelled(path, &self.type_aliases, |n| self.resolve_type(n))
    }

    fn spelled(
        &self,
        path: &crate::syntax::ast::Path,
        aliases: &BTreeMap<Arc<str>, Arc<str>>,
        bare: impl Fn(&str) -> Option<Arc<str>>,
    ) -> Result<Arc<str>, Unresolved> {
        match &path.qualifier {
            Some(q) => {
                let spelled = format!("{}.{}", q.text, path.name.text);
                match aliases.get(spelled.as_str()) {
                    Some(id) => Ok(id.clone()),
                    None if self.module_aliases.contains_key(q.text.as_str()) => {
                        Err(Unresolved::Name)
                    }
                    None => Err(Unresolved::Module),
                }
            }
            None => bare(&path.name.text).ok_or(Unresolved::Name),
        }
    }

    /// True for `M` of `import a.b as M` when `a.b` could not be loaded (already reported).
    pub fn is_missing_module(&self, alias: &str) -> bool {
        self.module_aliases.get(alias) == Some(&super::imports::MISSING_MODULE)
    }

    /// How a constructor pattern's path is spelled in `ctor_index` (`M.C` through a module
    /// alias); `None` when the qualifier is no module alias.
    pub fn ctor_spelled(&self, path: &crate::syntax::ast::Path) -> Option<String> {
        match &path.qualifier {
            Some(q) if self.module_aliases.contains_key(q.text.as_str()) => {
                (!self.is_missing_module(&q.text)).then(|| format!("{}.{}", q.text, path.name.text))
            }
            Some(_) => None,
            None => Some(path.name.text.clone()),
        }
    }

    /// Every type name this scope can spell.
    pub fn visible_type_names(&self) -> Vec<&str> {
        visible(self.types.keys(), &self.type_aliases, |k| {
            self.resolve_type(k)
        })
    }

    /// Every class name this scope can spell.
    pub fn visible_class_names(&self) -> Vec<&str> {
        visible(self.classes.keys(), &self.class_aliases, |k| {
            self.resolve_class(k)
        })
    }

    pub fn type_names_like(&self, name: &str) -> Vec<String> {
        near_misses(name, self.visible_type_names().into_iter())
    }

    pub fn class_names_like(&self, name: &str) -> Vec<String> {
        near_misses(name, self.visible_class_names().into_iter())
    }

    pub fn ctor(&self, id: usize) -> &Ctor {
        &self.ctors[id]
    }

    pub fn adt_of_type(&self, t: &Ty) -> Option<&Adt> {
        let name = t.head_name()?;
        let adt = self.types.get(name)?.adt?;
        self.adts.get(adt)
    }
}

/// The identities spelled as themselves (`resolve` maps them to themselves) and the
/// aliases, sorted, once each.
fn visible<'e>(
    identities: impl Iterator<Item = &'e Arc<str>>,
    aliases: &'e BTreeMap<Arc<str>, Arc<str>>,
    resolve: impl Fn(&str) -> Option<Arc<str>>,
) -> Vec<&'e str> {
    let bare = identities.filter(|k| resolve(k).as_deref() == Some(&***k));
    let mut out: Vec<&str> = bare.chain(aliases.keys()).map(|k| &**k).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The declared scheme of a top-level `fn`, from its annotation alone.
pub fn fn_scheme(
    env: &Env,
    item: &Item,
    decl: &crate::syntax::ast::FnDecl,
) -> Option<(Scheme, Vec<TypeDiag>)> {
    let mut lw = Lowering::new(env, NewVars::Gen);
    let params: Vec<Ty> = decl
        .params
        .iter()
        .map(|p| lw.lower(&item.arena, p.ty))
        .collect();
    let ret = lw.lower(&item.arena, decl.ret);
    let preds: Vec<Pred> = decl
        .constraints
        .iter()
        .filter_map(|c| lw.constraint(&item.arena, c))
        .collect();
    let ty = params.into_iter().rev().fold(ret, |acc, p| Ty::fun(p, acc));
    let mut diags = std::mem::take(&mut lw.diags);
    if !matches!(ty, Ty::Fun(..) | Ty::Unknown) {
        diags.push(Diag::simple(
            Code::SignatureNotFunction,
            item.arena.ty(decl.ret).span,
            "a top-level `fn` needs a function type after `:`; use `let` for other values",
        ));
    }
    Some((
        Scheme {
            vars: lw.vars.len() as u32,
            var_names: lw.vars.iter().map(|(n, _)| n.clone()).collect(),
            preds,
            ty,
        },
        diags,
    ))
}

//! Building the environments of a program from declarations alone: the prelude, the
//! modules the checked file loads, and the file itself. Every file gets its own scope
//! over one set of global tables, so a module's declarations are visible where it is
//! imported and nowhere else, and each module is checked in its own scope (its own
//! declarations and imports).
//!
//! Order: all types and classes are declared first (their identities exist before any
//! signature mentions one); then each file's imports bring in types and classes; then
//! constructors, class methods, function signatures and instances are lowered in their
//! file's scope; then each file's imports bring in values, reporting what is wrong.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::env::{
    fn_scheme, Adt, Class, Ctor, Env, Exports, FileRef, Instance, ItemRef, Method, TypeCon, Value,
};
use super::errors::{Diag, LoweringDiags, TypeDiag};
use super::imports::{ImportedName, Program, ROOT_MODULE};
use super::lower::{Lowering, NewVars};
use crate::diagnostic::Code;
use crate::syntax::ast::{Item, ItemKind, VariantPayload};
use crate::types::ty::PRIMITIVE_TYPES;
use crate::types::{Pred, Scheme, Ty, Unifier};

/// The environments of one program: the checked file's and each loaded module's (by
/// index into `Program::modules`).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ProgramEnv {
    pub root: Env,
    pub modules: Vec<Env>,
}

impl ProgramEnv {
    /// The environment the items of `file` are checked in (the prelude has its own).
    pub fn of(&self, file: FileRef) -> Option<&Env> {
        match file {
            FileRef::Root => Some(&self.root),
            FileRef::Module(k) => self.modules.get(k as usize),
            FileRef::Prelude => None,
        }
    }
}

/// The two namespaces declared before any signature is lowered.
#[derive(Clone, Copy)]
enum Facet {
    Type,
    Class,
}

/// The part of an `Env` that belongs to one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Scope {
    values: BTreeMap<Arc<str>, Value>,
    ctor_index: BTreeMap<Arc<str>, Vec<usize>>,
    methods: BTreeMap<Arc<str>, Method>,
    imported: BTreeMap<Arc<str>, ImportedName>,
    type_aliases: BTreeMap<Arc<str>, Arc<str>>,
    class_aliases: BTreeMap<Arc<str>, Arc<str>>,
    module_aliases: BTreeMap<Arc<str>, u32>,
    missing_names: std::collections::BTreeSet<Arc<str>>,
    missing_glob: bool,
}

impl Scope {
    fn swap(&mut self, env: &mut Env) {
        std::mem::swap(&mut self.values, &mut env.values);
        std::mem::swap(&mut self.ctor_index, &mut env.ctor_index);
        std::mem::swap(&mut self.methods, &mut env.methods);
        std::mem::swap(&mut self.imported, &mut env.imported);
        std::mem::swap(&mut self.type_aliases, &mut env.type_aliases);
        std::mem::swap(&mut self.class_aliases, &mut env.class_aliases);
        std::mem::swap(&mut self.module_aliases, &mut env.module_aliases);
        std::mem::swap(&mut self.missing_names, &mut env.missing_names);
        std::mem::swap(&mut self.missing_glob, &mut env.missing_glob);
    }
}

/// The prelude declared: the program's tables and the prelude's scope after every phase
/// below ran for the prelude alone. Every program starts from it (`build_program`), so
/// the prelude is declared once, not once per program and once more for its own
/// environment. The prelude reads nothing a module or the checked file declares (its
/// scope holds its own names; a name declared again elsewhere is reported there), so
/// declaring it first gives the environments that declaring all files phase by phase did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreludeDecls {
    env: Env,
    scope: Scope,
    /// The prelude's instances come first in the table: their overlaps are checked here.
    instances: usize,
}

/// Declares the prelude's `items` (see `PreludeDecls`).
pub fn declare_prelude(items: &[Item]) -> PreludeDecls {
    let mut b = Builder {
        env: Env::default(),
        scopes: vec![Scope::default()],
        diags: vec![Vec::new()],
        tags: Vec::new(),
        current: None,
    };
    for (name, arity) in PRIMITIVE_TYPES {
        Arc::make_mut(&mut b.env.types).insert(
            Arc::from(*name),
            TypeCon {
                arity: *arity,
                adt: None,
            },
        );
    }
    b.declare_files(&[(FileRef::Prelude, items)], &Program::default());
    b.check_overlap(0);
    let scope = std::mem::take(&mut b.scopes[0]);
    let instances = b.env.instances.len();
    PreludeDecls {
        env: b.env,
        scope,
        instances,
    }
}

/// Builds the environments of the file `user`, of the modules `program` loads for it, over
/// the declared prelude.
pub fn build_program(prelude: &PreludeDecls, user: &[Item], program: &Program<'_>) -> ProgramEnv {
    let mut files: Vec<(FileRef, &[Item])> = program
        .modules
        .iter()
        .enumerate()
        .map(|(k, m)| (FileRef::Module(k as u32), m.items))
        .collect();
    files.push((FileRef::Root, user));
    let nfiles = files.len() + 1;
    let mut scopes = vec![Scope::default(); nfiles];
    scopes[0] = prelude.scope.clone();
    let mut b = Builder {
        env: prelude.env.clone(),
        scopes,
        diags: vec![Vec::new(); nfiles],
        tags: module_tags(program),
        current: None,
    };
    // One per module, then the checked file's own (a module may import it back).
    b.env.exports = Arc::new(vec![Exports::default(); program.modules.len() + 1]);
    b.declare_files(&files, program);
    b.check_overlap(prelude.instances);
    b.finish(program.modules.len())
}

/// A short, unique tag per module for its declarations' identities: the file's stem
/// (`lib/dep.rex` is `dep`), numbered when two modules share one.
fn module_tags(program: &Program<'_>) -> Vec<Arc<str>> {
    let mut tags: Vec<Arc<str>> = Vec::new();
    for m in &program.modules {
        let file = m.path.rsplit('/').next().unwrap_or(&m.path);
        let stem = file.strip_suffix(".rex").unwrap_or(file);
        let mut tag = stem.to_string();
        let mut n = 2;
        while tags.iter().any(|t| **t == *tag) {
            tag = format!("{stem}{n}");
            n += 1;
        }
        tags.push(Arc::from(tag));
    }
    tags
}

pub(super) struct Builder {
    /// The global tables, and the scope of the file being processed (`current`).
    pub(super) env: Env,
    scopes: Vec<Scope>,
    /// Diagnostics per file, by slot.
    diags: Vec<Vec<(u32, TypeDiag)>>,
    tags: Vec<Arc<str>>,
    current: Option<usize>,
}

impl Builder {
    /// The declaration phases, each run over every file of `files` in turn: all types and
    /// classes first, then imports of types and classes, constructors, class methods,
    /// function signatures, instances, and imports of values (the prelude imports nothing).
    fn declare_files(&mut self, files: &[(FileRef, &[Item])], program: &Program<'_>) {
        for &(file, items) in files {
            self.declare_types(file, items);
        }
        for &(file, items) in files {
            self.declare_classes(file, items);
            if let FileRef::Module(_) = file {
                self.reject_expressions(file, items);
            }
        }
        let importing = || files.iter().filter(|(f, _)| *f != FileRef::Prelude);
        for &(file, items) in importing() {
            self.in_scope(file, |b| b.import(program, file, items, false));
        }
        for &(file, items) in files {
            self.in_scope(file, |b| b.define_adts(file, items));
        }
        for &(file, items) in files {
            self.in_scope(file, |b| b.define_classes(file, items));
        }
        for &(file, items) in files {
            self.in_scope(file, |b| b.define_values(file, items));
        }
        for &(file, items) in files {
            self.in_scope(file, |b| b.define_instances(file, items));
        }
        for &(file, items) in importing() {
            self.in_scope(file, |b| b.import(program, file, items, true));
        }
    }

    fn slot(&self, file: FileRef) -> usize {
        match file {
            FileRef::Prelude => 0,
            FileRef::Module(k) => 1 + k as usize,
            FileRef::Root => self.scopes.len() - 1,
        }
    }

    /// Runs `f` with `file`'s scope in `self.env`.
    fn in_scope(&mut self, file: FileRef, f: impl FnOnce(&mut Self)) {
        let slot = self.slot(file);
        let mut scope = std::mem::take(&mut self.scopes[slot]);
        scope.swap(&mut self.env);
        self.env.file = file;
        self.current = Some(slot);
        f(self);
        self.current = None;
        scope.swap(&mut self.env);
        self.scopes[slot] = scope;
    }

    /// The stored scope of `file` (declarations are made outside `in_scope`).
    fn stored_scope(&mut self, file: FileRef) -> &mut Scope {
        debug_assert!(self.current.is_none());
        let slot = self.slot(file);
        &mut self.scopes[slot]
    }

    /// The identity of a declaration `name` of `file`.
    fn identity(&self, file: FileRef, name: &str) -> Arc<str> {
        match file {
            FileRef::Module(k) => Arc::from(format!("{}.{name}", self.tags[k as usize])),
            _ => Arc::from(name),
        }
    }

    /// What the module an import leads to exports (`ROOT_MODULE`: the checked file).
    pub(super) fn exports(&self, module: u32) -> Option<&Exports> {
        let file = match module {
            ROOT_MODULE => FileRef::Root,
            k => FileRef::Module(k),
        };
        self.env.exports.get(self.export_slot(file)?)
    }

    fn exports_of(&mut self, file: FileRef) -> Option<&mut Exports> {
        let k = self.export_slot(file)?;
        Arc::make_mut(&mut self.env.exports).get_mut(k)
    }

    /// Where a file's exports are kept: one slot per module, then the checked file's.
    fn export_slot(&self, file: FileRef) -> Option<usize> {
        match file {
            FileRef::Prelude => None,
            FileRef::Module(k) => Some(k as usize),
            FileRef::Root => self.env.exports.len().checked_sub(1),
        }
    }

    pub(super) fn report(&mut self, at: ItemRef, d: TypeDiag) {
        if at.is_prelude() {
            self.env.prelude_diagnostics.push((at.index, d));
        } else {
            let slot = self.slot(at.file);
            self.diags[slot].push((at.index, d));
        }
    }

    /// A second declaration of a name (E0205).
    fn duplicate(&mut self, at: ItemRef, span: crate::span::Span, message: String) {
        self.report(at, Diag::simple(Code::DuplicateDefinition, span, message));
    }

    fn report_all(&mut self, at: ItemRef, ds: Vec<TypeDiag>) {
        for d in ds {
            self.report(at, d);
        }
    }

    /// The prelude's methods are in every scope (merged in `finish`).
    fn prelude_method(&self, name: &str) -> bool {
        let slot = self.slot(FileRef::Prelude);
        if self.current == Some(slot) {
            self.env.methods.contains_key(name)
        } else {
            self.scopes[slot].methods.contains_key(name)
        }
    }

    fn declare_types(&mut self, file: FileRef, items: &[Item]) {
        for (i, item) in items.iter().enumerate() {
            let at = ItemRef::new(file, i as u32);
            let ItemKind::Type(decl) = &item.kind else {
                continue;
            };
            let declared: Arc<str> = Arc::from(decl.name.text.as_str());
            let id = self.identity(file, &declared);
            if self.env.types.contains_key(&id) {
                self.duplicate(
                    at,
                    decl.name.span,
                    format!("type `{declared}` is already defined"),
                );
                continue;
            }
            Arc::make_mut(&mut self.env.adts).push(Adt {
                name: id.clone(),
                params: decl
                    .params
                    .iter()
                    .map(|p| Arc::from(p.text.as_str()))
                    .collect(),
                ctors: vec![],
                origin: at,
            });
            Arc::make_mut(&mut self.env.types).insert(
                id.clone(),
                TypeCon {
                    arity: decl.params.len(),
                    adt: Some(self.env.adts.len() - 1),
                },
            );
            self.name_declared(file, Facet::Type, declared, id, decl.is_pub);
        }
    }

    fn declare_classes(&mut self, file: FileRef, items: &[Item]) {
        for (i, item) in items.iter().enumerate() {
            let at = ItemRef::new(file, i as u32);
            let ItemKind::Class(decl) = &item.kind else {
                continue;
            };
            let declared: Arc<str> = Arc::from(decl.name.text.as_str());
            let id = self.identity(file, &declared);
            if self.env.classes.contains_key(&id) {
                self.duplicate(
                    at,
                    decl.name.span,
                    format!("class `{declared}` is already defined"),
                );
                continue;
            }
            if decl.params.is_empty() {
                // The class is still declared (its methods and instances are checked), but
                // a class ranges over at least one type.
                self.report(
                    at,
                    Diag::simple(
                        Code::KindArity,
                        decl.name.span,
                        format!("class `{declared}` needs a type parameter: `class {declared} a`"),
                    ),
                );
            }
            Arc::make_mut(&mut self.env.classes).insert(
                id.clone(),
                Class {
                    name: id.clone(),
                    params: decl
                        .params
                        .iter()
                        .map(|p| Arc::from(p.text.as_str()))
                        .collect(),
                    supers: vec![],
                    methods: vec![],
                    origin: at,
                },
            );
            self.name_declared(file, Facet::Class, declared, id, decl.is_pub);
        }
    }

    /// A module spells its own type or class `declared` (its identity is `id`); a `pub`
    /// one is exported.
    fn name_declared(
        &mut self,
        file: FileRef,
        facet: Facet,
        declared: Arc<str>,
        id: Arc<str>,
        public: bool,
    ) {
        if let FileRef::Module(_) = file {
            let scope = self.stored_scope(file);
            let aliases = match facet {
                Facet::Type => &mut scope.type_aliases,
                Facet::Class => &mut scope.class_aliases,
            };
            aliases.insert(declared.clone(), id.clone());
        }
        if let (Some(exports), true) = (self.exports_of(file), public) {
            let names = match facet {
                Facet::Type => &mut exports.types,
                Facet::Class => &mut exports.classes,
            };
            names.insert(declared, id);
        }
    }

    /// Module files are declaration-only (LANGUAGE.md).
    fn reject_expressions(&mut self, file: FileRef, items: &[Item]) {
        for (i, item) in items.iter().enumerate() {
            if let ItemKind::Expr(e) = &item.kind {
                self.report(
                    ItemRef::new(file, i as u32),
                    Diag::simple(
                        Code::ModuleExpression,
                        item.arena.expr(*e).span,
                        "a module file cannot have a top-level expression (it is imported, not run); move it into the program that imports this module",
                    ),
                );
            }
        }
    }

    fn define_adts(&mut self, file: FileRef, items: &[Item]) {
        for (i, item) in items.iter().enumerate() {
            let at = ItemRef::new(file, i as u32);
            let ItemKind::Type(decl) = &item.kind else {
                continue;
            };
            let id = self.identity(file, &decl.name.text);
            let Some(adt_id) = self.env.types.get(&id).and_then(|t| t.adt) else {
                continue;
            };
            if self.env.adts[adt_id].origin != at {
                continue; // a duplicate, already reported
            }
            let params = self.env.adts[adt_id].params.clone();
            let vars: Vec<(Arc<str>, Ty)> = params
                .iter()
                .enumerate()
                .map(|(i, p)| (p.clone(), Ty::Gen(i as u32)))
                .collect();
            let result = Ty::con_app(&id, (0..params.len() as u32).map(Ty::Gen).collect());
            for (tag, v) in decl.variants.iter().enumerate() {
                let mut lw = Lowering::new(&self.env, NewVars::Rigid).with_vars(vars.clone());
                let (fields, record) = match &v.payload {
                    VariantPayload::Positional(ts) => (
                        ts.iter()
                            .map(|t| lw.lower(&item.arena, *t))
                            .collect::<Vec<_>>(),
                        None,
                    ),
                    VariantPayload::Record(fs) => {
                        let mut lowered: Vec<(Arc<str>, Ty)> = fs
                            .iter()
                            .map(|(n, t)| (Arc::from(n.text.as_str()), lw.lower(&item.arena, *t)))
                            .collect();
                        lowered.sort_by(|a, b| a.0.cmp(&b.0));
                        let names = lowered.iter().map(|(n, _)| n.clone()).collect();
                        (vec![Ty::Record(lowered)], Some(names))
                    }
                };
                let mut diags = std::mem::take(&mut lw.diags);
                // Type variables not among the parameters are errors.
                for (n, t) in &lw.vars {
                    if matches!(t, Ty::Rigid(_)) {
                        diags.push(Diag::simple(
                            Code::UnknownType,
                            v.span,
                            format!(
                                "type variable `{n}` is not a parameter of `{}`",
                                decl.name.text
                            ),
                        ));
                    }
                }
                let fields: Vec<Ty> = fields
                    .into_iter()
                    .map(|f| f.map(&mut |t| matches!(t, Ty::Rigid(_)).then_some(Ty::Unknown)))
                    .collect();
                self.report_all(at, diags);
                let ty = fields
                    .iter()
                    .rev()
                    .fold(result.clone(), |acc, f| Ty::fun(f.clone(), acc));
                let ctor = Ctor {
                    name: Arc::from(v.name.text.as_str()),
                    adt: adt_id,
                    tag: tag as u32,
                    fields,
                    record,
                    scheme: Scheme {
                        vars: params.len() as u32,
                        var_names: params.clone(),
                        preds: vec![],
                        ty,
                    },
                    origin: at,
                };
                let same_adt_dup = self.env.adts[adt_id]
                    .ctors
                    .iter()
                    .any(|c| self.env.ctors[*c].name == ctor.name);
                if same_adt_dup {
                    self.duplicate(
                        at,
                        v.name.span,
                        format!("constructor `{}` appears twice", v.name.text),
                    );
                    continue;
                }
                let ctor_id = self.env.ctors.len();
                if let (Some(exports), true) = (self.exports_of(file), decl.is_pub) {
                    exports.ctors.insert(ctor.name.clone(), ctor_id);
                }
                self.env
                    .ctor_index
                    .entry(ctor.name.clone())
                    .or_default()
                    .push(ctor_id);
                Arc::make_mut(&mut self.env.ctors).push(ctor);
                Arc::make_mut(&mut self.env.adts)[adt_id]
                    .ctors
                    .push(ctor_id);
            }
        }
    }

    fn define_classes(&mut self, file: FileRef, items: &[Item]) {
        for (i, item) in items.iter().enumerate() {
            let at = ItemRef::new(file, i as u32);
            let ItemKind::Class(decl) = &item.kind else {
                continue;
            };
            let id = self.identity(file, &decl.name.text);
            let Some(class) = self.env.classes.get(&id) else {
                continue;
            };
            if class.origin != at {
                continue;
            }
            let params = class.params.clone();
            let vars: Vec<(Arc<str>, Ty)> = params
                .iter()
                .enumerate()
                .map(|(i, p)| (p.clone(), Ty::Gen(i as u32)))
                .collect();
            let mut lw = Lowering::new(&self.env, NewVars::Gen).with_vars(vars.clone());
            let supers: Vec<Pred> = decl
                .supers
                .iter()
                .filter_map(|c| lw.constraint(&item.arena, c))
                .collect();
            let diags = std::mem::take(&mut lw.diags);
            self.report_all(at, diags);
            let class_pred = Pred {
                class: id.clone(),
                args: (0..params.len() as u32).map(Ty::Gen).collect(),
            };
            let mut methods = Vec::new();
            for m in &decl.methods {
                let mut lw = Lowering::new(&self.env, NewVars::Gen).with_vars(vars.clone());
                let ty = lw.lower(&item.arena, m.ty);
                let var_names = lw.vars.iter().map(|(n, _)| n.clone()).collect();
                let nvars = lw.vars.len() as u32;
                let diags = std::mem::take(&mut lw.diags);
                self.report_all(at, diags);
                let name: Arc<str> = Arc::from(m.name.text.as_str());
                let taken = self.env.methods.contains_key(&name)
                    || (!at.is_prelude() && self.prelude_method(&name));
                if taken {
                    self.duplicate(
                        at,
                        m.name.span,
                        format!("method `{name}` is already defined"),
                    );
                    continue;
                }
                methods.push(name.clone());
                let method = Method {
                    class: id.clone(),
                    name: name.clone(),
                    scheme: Scheme {
                        vars: nvars,
                        var_names,
                        preds: vec![class_pred.clone()],
                        ty,
                    },
                };
                if let (Some(exports), true) = (self.exports_of(file), decl.is_pub) {
                    exports.methods.insert(name.clone(), method.clone());
                }
                Arc::make_mut(&mut self.env.class_methods)
                    .insert((id.clone(), name.clone()), method.clone());
                self.env.methods.insert(name, method);
            }
            if let Some(c) = Arc::make_mut(&mut self.env.classes).get_mut(&id) {
                c.supers = supers;
                c.methods = methods;
            }
        }
    }

    fn define_values(&mut self, file: FileRef, items: &[Item]) {
        for (i, item) in items.iter().enumerate() {
            let at = ItemRef::new(file, i as u32);
            let ItemKind::Fn(decl) = &item.kind else {
                continue;
            };
            let Some((scheme, diags)) = fn_scheme(&self.env, item, decl) else {
                continue;
            };
            self.report_all(at, diags);
            let name: Arc<str> = Arc::from(decl.name.text.as_str());
            if self.env.values.contains_key(&name) {
                self.duplicate(at, decl.name.span, format!("`{name}` is already defined"));
                continue;
            }
            if !at.is_prelude()
                && (self.prelude_method(&name) || self.env.methods.contains_key(&name))
            {
                self.duplicate(
                    at,
                    decl.name.span,
                    format!("`{name}` is a class method and cannot be redefined"),
                );
                continue;
            }
            let value = Value { scheme, origin: at };
            if let (Some(exports), true) = (self.exports_of(file), decl.is_pub) {
                exports.values.insert(name.clone(), value.clone());
            }
            self.env.values.insert(name, value);
        }
    }

    fn define_instances(&mut self, file: FileRef, items: &[Item]) {
        for (i, item) in items.iter().enumerate() {
            let at = ItemRef::new(file, i as u32);
            let ItemKind::Instance(decl) = &item.kind else {
                continue;
            };
            let q = decl
                .class
                .qualifier
                .as_ref()
                .map(|q| q.text.clone())
                .unwrap_or_default();
            let class_id = match self.env.class_spelled(&decl.class) {
                Ok(id) => id,
                Err(_) if !q.is_empty() && self.env.is_missing_module(&q) => continue,
                Err(super::env::Unresolved::Module) => {
                    self.report(at, TypeDiag::unknown_module(&q, decl.class.span()));
                    continue;
                }
                Err(super::env::Unresolved::Name) => {
                    let name = &decl.class.name.text;
                    let cands = self.env.class_names_like(name);
                    self.report(at, TypeDiag::unknown_class(name, cands, decl.class.span()));
                    continue;
                }
            };
            let Some(class) = self.env.classes.get(&class_id) else {
                continue;
            };
            let nparams = class.params.len();
            let class_methods = class.methods.clone();
            let mut lw = Lowering::new(&self.env, NewVars::Gen);
            let mut head: Vec<Ty> = decl
                .args
                .iter()
                .map(|a| lw.lower(&item.arena, *a))
                .collect();
            if head.len() == 1 && nparams > 1 {
                if let Ty::Tuple(ts) = &head[0] {
                    if ts.len() == nparams {
                        head = ts.clone();
                    }
                }
            }
            let context: Vec<Pred> = decl
                .context
                .iter()
                .filter_map(|c| lw.constraint(&item.arena, c))
                .collect();
            let var_names: Vec<Arc<str>> = lw.vars.iter().map(|(n, _)| n.clone()).collect();
            let diags = std::mem::take(&mut lw.diags);
            self.report_all(at, diags);
            let shown = &decl.class.name.text;
            if head.len() != nparams {
                self.report(
                    at,
                    Diag::simple(
                        Code::KindArity,
                        decl.class.span(),
                        format!(
                            "class `{shown}` takes {nparams} type(s), given {}",
                            head.len()
                        ),
                    ),
                );
                continue;
            }
            for m in &decl.methods {
                if !class_methods.iter().any(|cm| **cm == *m.name.text) {
                    self.report(
                        at,
                        Diag::simple(
                            Code::InstanceMethod,
                            m.name.span,
                            format!("`{}` is not a method of class `{shown}`", m.name.text),
                        ),
                    );
                }
            }
            for cm in &class_methods {
                if !decl.methods.iter().any(|m| *m.name.text == **cm) {
                    self.report(
                        at,
                        Diag::simple(
                            Code::InstanceMethod,
                            decl.class.span(),
                            format!("this instance does not define method `{cm}`"),
                        ),
                    );
                }
            }
            let head_span = decl.args.iter().fold(decl.class.span(), |span, a| {
                span.cover(item.arena.ty(*a).span)
            });
            Arc::make_mut(&mut self.env.instances).push(Instance {
                class: class_id,
                vars: var_names.len() as u32,
                var_names,
                head,
                context,
                origin: at,
                head_span,
            });
        }
    }

    /// Instance heads of one class must not unify with each other; the later instance is
    /// reported, on its head. Only the instances from `from` on are checked against those
    /// before them (the earlier ones were checked among themselves already).
    fn check_overlap(&mut self, from: usize) {
        if from >= self.env.instances.len() {
            // No instance of its own: nothing new can overlap (most programs).
            return;
        }
        let mut reports = Vec::new();
        // Only instances of one class whose heads agree on every outer constructor may
        // overlap: the others are told apart without unifying (the prelude's 144
        // instances made 10,000 pairs).
        let mut by_class: BTreeMap<&str, Vec<(usize, Heads)>> = BTreeMap::new();
        for (j, b) in self.env.instances.iter().enumerate() {
            let head: Heads = b.head.iter().map(outer).collect();
            let earlier = by_class.entry(&b.class).or_default();
            if j >= from {
                let apart = |other: &[Option<Outer>]| {
                    other
                        .iter()
                        .zip(&head)
                        .any(|(x, y)| matches!((x, y), (Some(x), Some(y)) if x != y))
                };
                let overlapping = earlier.iter().find(|(i, other)| {
                    let a = &self.env.instances[*i];
                    !apart(other) && heads_unify(a, b)
                });
                if overlapping.is_some() {
                    // One report per instance, however many earlier ones it overlaps.
                    reports.push((b.origin, b.head_span, b.class.clone()));
                }
            }
            earlier.push((j, head));
        }
        for (at, span, class) in reports {
            self.report(
                at,
                Diag::simple(
                    Code::OverlappingInstances,
                    span,
                    format!("this instance of `{class}` overlaps another instance"),
                ),
            );
        }
    }

    /// One environment per file: the global tables, with the file's scope over the
    /// prelude's (the file's own names and imports shadow the prelude's).
    fn finish(mut self, nmodules: usize) -> ProgramEnv {
        let prelude = std::mem::take(&mut self.scopes[0]);
        let globals = std::mem::take(&mut self.env);
        let mut file_env = |slot: usize, file: FileRef, prelude: Scope| {
            let mut env = Env {
                file,
                diagnostics: std::mem::take(&mut self.diags[slot]),
                ..Env::default()
            };
            merge_scope(&mut env, prelude, std::mem::take(&mut self.scopes[slot]));
            env
        };
        let mut modules: Vec<Env> = Vec::with_capacity(nmodules);
        for k in 0..nmodules {
            let mut env = file_env(1 + k, FileRef::Module(k as u32), prelude.clone());
            share_globals(&mut env, &globals);
            modules.push(env);
        }
        // The root file, the last, takes the prelude's tables rather than a copy.
        let mut root = file_env(nmodules + 1, FileRef::Root, prelude);
        share_globals(&mut root, &globals);
        root.prelude_diagnostics = globals.prelude_diagnostics;
        ProgramEnv { root, modules }
    }
}

/// `scope` over the prelude's scope, into `env`.
fn merge_scope(env: &mut Env, prelude: Scope, scope: Scope) {
    env.values = prelude.values;
    env.values.extend(scope.values);
    env.ctor_index = prelude.ctor_index;
    for (name, ids) in scope.ctor_index {
        env.ctor_index.entry(name).or_default().extend(ids);
    }
    env.methods = prelude.methods;
    env.methods.extend(scope.methods);
    env.imported = scope.imported;
    env.type_aliases = scope.type_aliases;
    env.class_aliases = scope.class_aliases;
    env.module_aliases = scope.module_aliases;
    env.missing_names = scope.missing_names;
    env.missing_glob = scope.missing_glob;
}

/// The program's tables, shared (`Arc`) with `env`.
fn share_globals(env: &mut Env, globals: &Env) {
    env.types = globals.types.clone();
    env.adts = globals.adts.clone();
    env.ctors = globals.ctors.clone();
    env.classes = globals.classes.clone();
    env.class_methods = globals.class_methods.clone();
    env.instances = globals.instances.clone();
    env.exports = globals.exports.clone();
}

/// The outer constructor of an instance head's type, `None` where unification could
/// match it with anything of another shape (a variable; a record, which unifies with a
/// `Dict`): two heads whose outer constructors differ cannot be unified.
#[derive(PartialEq)]
enum Outer<'a> {
    /// A constructor applied to this many arguments.
    Con(&'a str, usize),
    Fun,
    Tuple(usize),
}

/// The outer constructors of an instance's head types, in order.
type Heads<'a> = Vec<Option<Outer<'a>>>;

fn outer(t: &Ty) -> Option<Outer<'_>> {
    let mut args = 0;
    let mut t = t;
    while let Ty::App(f, _) = t {
        args += 1;
        t = f;
    }
    match t {
        Ty::Con(name) => Some(Outer::Con(name, args)),
        Ty::Fun(..) if args == 0 => Some(Outer::Fun),
        Ty::Tuple(parts) if args == 0 => Some(Outer::Tuple(parts.len())),
        _ => None,
    }
}

/// Whether two instances' heads unify (their variables renamed apart).
fn heads_unify(a: &Instance, b: &Instance) -> bool {
    let mut u = Unifier::new();
    let fresh_a: Vec<Ty> = (0..a.vars).map(|_| u.fresh()).collect();
    let fresh_b: Vec<Ty> = (0..b.vars).map(|_| u.fresh()).collect();
    a.head.iter().zip(&b.head).all(|(x, y)| {
        u.unify(&x.instantiate(&fresh_a), &y.instantiate(&fresh_b))
            .is_ok()
    })
}

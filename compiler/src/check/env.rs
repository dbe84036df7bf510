//! The global environment of a program: types, constructors, classes, methods, instances
//! and top-level function signatures, from the prelude and the user's declarations. Built
//! from signatures alone, so editing a function body never changes it.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::errors::{near_misses, Diag, TypeDiag};
use super::lower::{Lowering, NewVars};
use crate::diagnostic::Code;
use crate::syntax::ast::{Item, ItemKind, VariantPayload};
use crate::types::ty::PRIMITIVE_TYPES;
use crate::types::{Pred, Scheme, Ty, Unifier};

/// Which file a declaration comes from, and its item index there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ItemRef {
    pub prelude: bool,
    pub index: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeCon {
    pub arity: usize,
    pub adt: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adt {
    pub name: Arc<str>,
    pub params: Vec<Arc<str>>,
    pub ctors: Vec<usize>,
    pub origin: ItemRef,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ctor {
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
    pub name: Arc<str>,
    pub params: Vec<Arc<str>>,
    /// Superclass predicates over `Gen(0..params)`.
    pub supers: Vec<Pred>,
    pub methods: Vec<Arc<str>>,
    pub origin: ItemRef,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Method {
    pub class: Arc<str>,
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

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Env {
    pub types: BTreeMap<Arc<str>, TypeCon>,
    pub adts: Vec<Adt>,
    pub ctors: Vec<Ctor>,
    pub ctor_index: BTreeMap<Arc<str>, Vec<usize>>,
    pub classes: BTreeMap<Arc<str>, Class>,
    pub methods: BTreeMap<Arc<str>, Method>,
    pub instances: Vec<Instance>,
    pub values: BTreeMap<Arc<str>, Value>,
    /// Diagnostics on user declarations: (item index, item-relative diagnostic).
    pub diagnostics: Vec<(u32, TypeDiag)>,
    /// Diagnostics on the prelude (there should be none).
    pub prelude_diagnostics: Vec<(u32, TypeDiag)>,
}

impl Env {
    pub fn type_arity(&self, name: &str) -> Option<usize> {
        self.types.get(name).map(|t| t.arity)
    }

    pub fn type_names_like(&self, name: &str) -> Vec<String> {
        near_misses(name, self.types.keys().map(|k| &**k))
    }

    pub fn class_names_like(&self, name: &str) -> Vec<String> {
        near_misses(name, self.classes.keys().map(|k| &**k))
    }

    pub fn ctor(&self, id: usize) -> &Ctor {
        &self.ctors[id]
    }

    pub fn adt_of_type(&self, t: &Ty) -> Option<&Adt> {
        let name = t.head_name()?;
        let adt = self.types.get(name)?.adt?;
        self.adts.get(adt)
    }

    /// Builds the environment of a program from its prelude items and its own items.
    pub fn build(prelude: &[Item], user: &[Item]) -> Env {
        let mut env = Env::default();
        for (name, arity) in PRIMITIVE_TYPES {
            env.types.insert(
                Arc::from(*name),
                TypeCon {
                    arity: *arity,
                    adt: None,
                },
            );
        }
        let files: [(bool, &[Item]); 2] = [(true, prelude), (false, user)];
        let mut b = EnvBuilder { env: &mut env };
        for (is_prelude, items) in files {
            b.declare_types(is_prelude, items);
        }
        for (is_prelude, items) in files {
            b.declare_classes(is_prelude, items);
        }
        for (is_prelude, items) in files {
            b.define_adts(is_prelude, items);
            b.define_classes(is_prelude, items);
        }
        for (is_prelude, items) in files {
            b.define_values(is_prelude, items);
            b.define_instances(is_prelude, items);
        }
        b.check_overlap();
        b.report_imports(user);
        env
    }
}

struct EnvBuilder<'e> {
    env: &'e mut Env,
}

impl EnvBuilder<'_> {
    fn report(&mut self, at: ItemRef, d: TypeDiag) {
        if at.prelude {
            self.env.prelude_diagnostics.push((at.index, d));
        } else {
            self.env.diagnostics.push((at.index, d));
        }
    }

    fn report_all(&mut self, at: ItemRef, ds: Vec<TypeDiag>) {
        for d in ds {
            self.report(at, d);
        }
    }

    fn declare_types(&mut self, prelude: bool, items: &[Item]) {
        for (i, item) in items.iter().enumerate() {
            let at = ItemRef {
                prelude,
                index: i as u32,
            };
            if let ItemKind::Type(decl) = &item.kind {
                let name: Arc<str> = Arc::from(decl.name.text.as_str());
                if self.env.types.contains_key(&name) {
                    self.report(
                        at,
                        Diag::simple(
                            Code::DuplicateDefinition,
                            decl.name.span,
                            format!("type `{name}` is already defined"),
                        ),
                    );
                    continue;
                }
                self.env.adts.push(Adt {
                    name: name.clone(),
                    params: decl
                        .params
                        .iter()
                        .map(|p| Arc::from(p.text.as_str()))
                        .collect(),
                    ctors: vec![],
                    origin: at,
                });
                self.env.types.insert(
                    name,
                    TypeCon {
                        arity: decl.params.len(),
                        adt: Some(self.env.adts.len() - 1),
                    },
                );
            }
        }
    }

    fn declare_classes(&mut self, prelude: bool, items: &[Item]) {
        for (i, item) in items.iter().enumerate() {
            let at = ItemRef {
                prelude,
                index: i as u32,
            };
            if let ItemKind::Class(decl) = &item.kind {
                let name: Arc<str> = Arc::from(decl.name.text.as_str());
                if self.env.classes.contains_key(&name) {
                    self.report(
                        at,
                        Diag::simple(
                            Code::DuplicateDefinition,
                            decl.name.span,
                            format!("class `{name}` is already defined"),
                        ),
                    );
                    continue;
                }
                self.env.classes.insert(
                    name.clone(),
                    Class {
                        name,
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
            }
        }
    }

    fn define_adts(&mut self, prelude: bool, items: &[Item]) {
        for (i, item) in items.iter().enumerate() {
            let at = ItemRef {
                prelude,
                index: i as u32,
            };
            let ItemKind::Type(decl) = &item.kind else {
                continue;
            };
            let Some(adt_id) = self
                .env
                .types
                .get(decl.name.text.as_str())
                .and_then(|t| t.adt)
            else {
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
            let result = Ty::con_app(
                &decl.name.text,
                (0..params.len() as u32).map(Ty::Gen).collect(),
            );
            for (tag, v) in decl.variants.iter().enumerate() {
                let mut lw = Lowering::new(self.env, NewVars::Rigid).with_vars(vars.clone());
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
                let id = self.env.ctors.len();
                let same_adt_dup = self
                    .env
                    .ctor_index
                    .get(&ctor.name)
                    .is_some_and(|ids| ids.iter().any(|c| self.env.ctors[*c].adt == adt_id));
                if same_adt_dup {
                    self.report(
                        at,
                        Diag::simple(
                            Code::DuplicateDefinition,
                            v.name.span,
                            format!("constructor `{}` appears twice", v.name.text),
                        ),
                    );
                    continue;
                }
                self.env
                    .ctor_index
                    .entry(ctor.name.clone())
                    .or_default()
                    .push(id);
                self.env.ctors.push(ctor);
                self.env.adts[adt_id].ctors.push(id);
            }
        }
    }

    fn define_classes(&mut self, prelude: bool, items: &[Item]) {
        for (i, item) in items.iter().enumerate() {
            let at = ItemRef {
                prelude,
                index: i as u32,
            };
            let ItemKind::Class(decl) = &item.kind else {
                continue;
            };
            let Some(class) = self.env.classes.get(decl.name.text.as_str()) else {
                continue;
            };
            if class.origin != at {
                continue;
            }
            let class_name = class.name.clone();
            let params = class.params.clone();
            let vars: Vec<(Arc<str>, Ty)> = params
                .iter()
                .enumerate()
                .map(|(i, p)| (p.clone(), Ty::Gen(i as u32)))
                .collect();
            let mut lw = Lowering::new(self.env, NewVars::Gen).with_vars(vars.clone());
            let supers: Vec<Pred> = decl
                .supers
                .iter()
                .filter_map(|c| lw.constraint(&item.arena, c))
                .collect();
            let diags = std::mem::take(&mut lw.diags);
            self.report_all(at, diags);
            let class_pred = Pred {
                class: class_name.clone(),
                args: (0..params.len() as u32).map(Ty::Gen).collect(),
            };
            let mut methods = Vec::new();
            for m in &decl.methods {
                let mut lw = Lowering::new(self.env, NewVars::Gen).with_vars(vars.clone());
                let ty = lw.lower(&item.arena, m.ty);
                let var_names = lw.vars.iter().map(|(n, _)| n.clone()).collect();
                let nvars = lw.vars.len() as u32;
                let diags = std::mem::take(&mut lw.diags);
                self.report_all(at, diags);
                let name: Arc<str> = Arc::from(m.name.text.as_str());
                if self.env.methods.contains_key(&name) {
                    self.report(
                        at,
                        Diag::simple(
                            Code::DuplicateDefinition,
                            m.name.span,
                            format!("method `{name}` is already defined"),
                        ),
                    );
                    continue;
                }
                methods.push(name.clone());
                self.env.methods.insert(
                    name,
                    Method {
                        class: class_name.clone(),
                        scheme: Scheme {
                            vars: nvars,
                            var_names,
                            preds: vec![class_pred.clone()],
                            ty,
                        },
                    },
                );
            }
            if let Some(c) = self.env.classes.get_mut(&class_name) {
                c.supers = supers;
                c.methods = methods;
            }
        }
    }

    fn define_values(&mut self, prelude: bool, items: &[Item]) {
        for (i, item) in items.iter().enumerate() {
            let at = ItemRef {
                prelude,
                index: i as u32,
            };
            let ItemKind::Fn(decl) = &item.kind else {
                continue;
            };
            let Some((scheme, diags)) = fn_scheme(self.env, item, decl) else {
                continue;
            };
            self.report_all(at, diags);
            let name: Arc<str> = Arc::from(decl.name.text.as_str());
            if let Some(prev) = self.env.values.get(&name) {
                if prev.origin.prelude == prelude {
                    self.report(
                        at,
                        Diag::simple(
                            Code::DuplicateDefinition,
                            decl.name.span,
                            format!("`{name}` is already defined"),
                        ),
                    );
                    continue;
                }
            }
            if self.env.methods.contains_key(&name) && !prelude {
                self.report(
                    at,
                    Diag::simple(
                        Code::DuplicateDefinition,
                        decl.name.span,
                        format!(
                            "`{name}` is a class method of the prelude and cannot be redefined"
                        ),
                    ),
                );
                continue;
            }
            self.env.values.insert(name, Value { scheme, origin: at });
        }
    }

    fn define_instances(&mut self, prelude: bool, items: &[Item]) {
        for (i, item) in items.iter().enumerate() {
            let at = ItemRef {
                prelude,
                index: i as u32,
            };
            let ItemKind::Instance(decl) = &item.kind else {
                continue;
            };
            let class_name = &decl.class.name.text;
            if decl.class.qualifier.is_some() {
                let q = decl
                    .class
                    .qualifier
                    .as_ref()
                    .map(|q| q.text.clone())
                    .unwrap_or_default();
                self.report(
                    at,
                    <TypeDiag as super::errors::LoweringDiags>::unknown_module(
                        &q,
                        decl.class.span(),
                    ),
                );
                continue;
            }
            let Some(class) = self.env.classes.get(class_name.as_str()) else {
                let cands = self.env.class_names_like(class_name);
                self.report(
                    at,
                    <TypeDiag as super::errors::LoweringDiags>::unknown_class(
                        class_name,
                        cands,
                        decl.class.span(),
                    ),
                );
                continue;
            };
            let nparams = class.params.len();
            let class_methods = class.methods.clone();
            let mut lw = Lowering::new(self.env, NewVars::Gen);
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
            if head.len() != nparams {
                self.report(
                    at,
                    Diag::simple(
                        Code::KindArity,
                        decl.class.span(),
                        format!(
                            "class `{class_name}` takes {nparams} type(s), given {}",
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
                            format!("`{}` is not a method of class `{class_name}`", m.name.text),
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
            self.env.instances.push(Instance {
                class: Arc::from(class_name.as_str()),
                vars: var_names.len() as u32,
                var_names,
                head,
                context,
                origin: at,
                head_span,
            });
        }
    }

    /// Module loading is not implemented yet: every import is reported as unresolved.
    fn report_imports(&mut self, items: &[Item]) {
        for (i, item) in items.iter().enumerate() {
            if let ItemKind::Import(decl) = &item.kind {
                let path: Vec<&str> = decl.path.iter().map(|n| n.text.as_str()).collect();
                let span = match (decl.path.first(), decl.path.last()) {
                    (Some(f), Some(l)) => f.span.cover(l.span),
                    _ => item.span,
                };
                let d = crate::diagnostic::Diagnostic::error(
                    Code::ModuleNotFound,
                    span,
                    format!(
                        "module `{}` cannot be loaded (module imports are not supported yet)",
                        path.join(".")
                    ),
                )
                .with_data(crate::diagnostic::DiagnosticData::Module {
                    path: path.join("."),
                });
                self.report(
                    ItemRef {
                        prelude: false,
                        index: i as u32,
                    },
                    d,
                );
            }
        }
    }

    /// Instance heads of one class must not unify with each other; the later instance is
    /// reported, on its head.
    fn check_overlap(&mut self) {
        let n = self.env.instances.len();
        let mut reports = Vec::new();
        for j in 0..n {
            for i in 0..j {
                let (a, b) = (&self.env.instances[i], &self.env.instances[j]);
                if a.class != b.class {
                    continue;
                }
                let mut u = Unifier::new();
                let fresh_a: Vec<Ty> = (0..a.vars).map(|_| u.fresh()).collect();
                let fresh_b: Vec<Ty> = (0..b.vars).map(|_| u.fresh()).collect();
                let overlaps = a.head.iter().zip(&b.head).all(|(x, y)| {
                    u.unify(&x.instantiate(&fresh_a), &y.instantiate(&fresh_b))
                        .is_ok()
                });
                if overlaps {
                    // One report per instance, however many earlier ones it overlaps.
                    reports.push((b.origin, b.head_span, b.class.clone()));
                    break;
                }
            }
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

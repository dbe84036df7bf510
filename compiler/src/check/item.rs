//! Checking one top-level item against the program environment.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::env::{fn_scheme, Env, FileRef, ItemRef, Value};
use super::evidence::EvidenceTable;
use super::infer::Infer;
use crate::diagnostic::{Category, Code, Diagnostic, Severity};
use crate::resolve::{resolve_item, ItemNames};
use crate::span::Span;
use crate::syntax::ast::{ExprId, Item, ItemKind, PatId};
use crate::types::{Pred, Scheme, Ty, TypePrinter};

/// A hole with its expected type and typing context, printed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HoleInfo {
    pub name: Option<String>,
    /// Item-relative.
    pub span: Span,
    pub expected: Ty,
    pub expected_type: String,
    /// Innermost first: (name, printed type).
    pub context: Vec<(String, String)>,
}

/// The constructor the checker chose at each constructor use of an item, as an index into
/// `Env::ctors`. Where a spelling names several constructors the checker picks one
/// (`Infer::resolve_ctor`); whoever needs to know which (the evaluator) reads it here.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CtorChoices {
    /// By expression node: `C`, `M.C`, and the `::` operator (`x :: xs` is `Cons x xs`).
    pub exprs: BTreeMap<ExprId, usize>,
    /// By constructor pattern (`C p..`, `M.C p..`).
    pub pats: BTreeMap<PatId, usize>,
}

impl CtorChoices {
    pub fn expr(&self, e: ExprId) -> Option<usize> {
        self.exprs.get(&e).copied()
    }

    pub fn pat(&self, p: PatId) -> Option<usize> {
        self.pats.get(&p).copied()
    }
}

/// Everything inference learned about one item. Spans are item-relative.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ItemTypes {
    /// The type of every expression node, fully resolved.
    pub expr_types: Vec<Ty>,
    /// The type each expression was checked against, where one was known.
    pub expected: Vec<Option<Ty>>,
    pub pat_types: Vec<Ty>,
    pub diagnostics: Vec<Diagnostic>,
    pub holes: Vec<HoleInfo>,
    /// For the result expression: its type.
    pub result: Option<Ty>,
    /// Which instance or dictionary parameter satisfies each class constraint.
    pub evidence: EvidenceTable,
    /// The dictionary parameters of each generalised `let` binding.
    pub let_preds: Vec<super::evidence::LetDicts>,
    /// The scheme of each `let` binding generalisation made polymorphic, by its pattern.
    pub let_schemes: Vec<(PatId, Scheme)>,
    /// The constructor chosen at each constructor use.
    pub ctors: CtorChoices,
}

/// Checks `item` in `env`, resolving its names first.
pub fn check_item(env: &Env, item: &Item, at: ItemRef) -> ItemTypes {
    let instance = env.instances.iter().position(|i| i.origin == at);
    let names = resolve_item(item);
    check_item_in(env, &env.values, item, &names, at.file, instance)
}

/// Checks `item` of `file` in `env`, reading the top-level values from `values` (all of
/// `env.values`, or the part the item reads: see `item_env`) and the binder of every local
/// use from `names` (`resolve_item` of the item). `instance` is the index of the instance
/// the item declares, if it is an `instance` item; nothing else about where the item stands
/// matters.
pub fn check_item_in(
    env: &Env,
    values: &BTreeMap<Arc<str>, Value>,
    item: &Item,
    names: &ItemNames,
    file: FileRef,
    instance: Option<usize>,
) -> ItemTypes {
    check_with(env, values, item, names, file, instance, true)
}

/// `check_item` for a caller that only counts the errors (the fill oracle, a fix's
/// verification): an unknown name's diagnostic does not list the names it may have meant,
/// a search over every name in scope that would make each check cost as much as the file
/// is big.
pub fn check_item_quietly(env: &Env, item: &Item, at: ItemRef) -> ItemTypes {
    let instance = env.instances.iter().position(|i| i.origin == at);
    let names = resolve_item(item);
    check_with(env, &env.values, item, &names, at.file, instance, false)
}

fn check_with(
    env: &Env,
    values: &BTreeMap<Arc<str>, Value>,
    item: &Item,
    names: &ItemNames,
    file: FileRef,
    instance: Option<usize>,
    suggest: bool,
) -> ItemTypes {
    let mut inf = Infer::new(env, values, &item.arena, names, file);
    inf.suggest = suggest;
    let mut result = None;
    match &item.kind {
        ItemKind::Fn(decl) => {
            if let Some((scheme, _)) = fn_scheme(env, item, decl) {
                let rigid = scheme.rigid_args();
                let ty = scheme.ty.instantiate(&rigid);
                inf.givens = scheme
                    .preds
                    .iter()
                    .map(|p| p.map_types(|t| t.instantiate(&rigid)))
                    .collect();
                let mut body_ty = ty;
                for (i, _) in decl.params.iter().enumerate() {
                    if let Ty::Fun(a, r) = body_ty.clone() {
                        inf.bind(inf.locals.param_def(i), *a);
                        body_ty = *r;
                    }
                }
                inf.check(decl.body, &body_ty);
            }
        }
        ItemKind::Instance(decl) => {
            if let Some(inst) = instance.and_then(|k| env.instances.get(k)) {
                let rigid: Vec<Ty> = inst
                    .var_names
                    .iter()
                    .map(|n| Ty::Rigid(n.clone()))
                    .collect();
                let head: Vec<Ty> = inst.head.iter().map(|t| t.instantiate(&rigid)).collect();
                let mut givens: Vec<Pred> = inst
                    .context
                    .iter()
                    .map(|p| p.map_types(|t| t.instantiate(&rigid)))
                    .collect();
                givens.push(Pred {
                    class: inst.class.clone(),
                    args: head.clone(),
                });
                inf.givens = givens;
                for m in &decl.methods {
                    let Some(method) = env.class_method(&inst.class, &m.name.text) else {
                        inf.infer(m.body);
                        continue;
                    };
                    let sc = &method.scheme;
                    let nclass = head.len();
                    let mut args = head.clone();
                    for i in nclass..sc.vars as usize {
                        let name = sc
                            .var_names
                            .get(i)
                            .cloned()
                            .unwrap_or_else(|| Arc::from(format!("t{i}")));
                        args.push(Ty::Rigid(Arc::from(format!("{name}{i}"))));
                    }
                    let ty = sc.ty.instantiate(&args);
                    inf.check(m.body, &ty);
                }
            } else {
                for m in &decl.methods {
                    inf.infer(m.body);
                }
            }
        }
        ItemKind::Expr(e) => {
            let t = inf.infer(*e);
            result = Some(t);
        }
        ItemKind::Type(_) | ItemKind::Class(_) | ItemKind::Import(_) | ItemKind::Error => {}
    }
    inf.solve();
    finish(inf, result)
}

fn finish(mut inf: Infer<'_>, result: Option<Ty>) -> ItemTypes {
    let mut expr_types = std::mem::take(&mut inf.expr_types);
    let mut expected = std::mem::take(&mut inf.expected);
    let mut pat_types = std::mem::take(&mut inf.pat_types);
    let types = expr_types
        .iter_mut()
        .chain(expected.iter_mut().flatten())
        .chain(pat_types.iter_mut());
    types.for_each(|t| inf.u.zonk_in_place(t));
    let mut holes = Vec::new();
    // Printed as the file writes its types (`Model`, not the identity `app.Model`).
    let spelling = (!inf.holes.is_empty()).then(|| super::spelling::Spelling::new(inf.env));
    for h in std::mem::take(&mut inf.holes) {
        let expected = inf.u.zonk(&h.expected);
        let spelled = |t: &Ty| {
            spelling
                .as_ref()
                .map_or_else(|| t.clone(), |s| s.respell(t))
        };
        let mut printer = TypePrinter::new();
        let expected_type = printer.ty(&spelled(&expected));
        let context = h
            .context
            .iter()
            .map(|(n, sc)| {
                let sc = Scheme {
                    ty: inf.u.zonk(&sc.ty),
                    preds: sc
                        .preds
                        .iter()
                        .map(|p| p.map_types(|t| inf.u.zonk(t)))
                        .collect(),
                    ..sc.clone()
                };
                let sc = match &spelling {
                    Some(s) => s.respell_scheme(&sc),
                    None => sc,
                };
                (n.to_string(), TypePrinter::new().scheme(&sc))
            })
            .collect();
        let span = inf.arena.expr(h.expr).span;
        holes.push(HoleInfo {
            name: h.name,
            span,
            expected,
            expected_type,
            context,
        });
    }
    let mut diagnostics = std::mem::take(&mut inf.diags);
    diagnostics.extend(super::literals::out_of_range(inf.arena, &expr_types));
    for h in &holes {
        let label = match &h.name {
            Some(n) => format!("?{n}"),
            None => "?".to_string(),
        };
        diagnostics.push(Diagnostic {
            code: Code::HoleInfo,
            severity: Severity::Info,
            category: Category::Hole,
            message: format!("hole `{label}` expects `{}`", h.expected_type),
            span: h.span,
            notes: vec![],
            data: crate::diagnostic::DiagnosticData::None,
        });
    }
    ItemTypes {
        expr_types,
        expected,
        pat_types,
        diagnostics,
        holes,
        result: result.map(|t| inf.u.zonk(&t)),
        evidence: std::mem::take(&mut inf.evidence),
        let_preds: std::mem::take(&mut inf.let_preds),
        let_schemes: std::mem::take(&mut inf.let_schemes),
        ctors: std::mem::take(&mut inf.ctors),
    }
}

//! Lowering typed items to the evaluator's form, once per program. Names become frame
//! slots, captures, globals or constructor ids: which binder a name denotes is name
//! resolution's answer (`resolve::ItemNames`), which constructor the checker's; class methods and overloaded literals take
//! the dictionaries the checker's evidence names; unreadable or ill-typed nodes become
//! indeterminate.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::demand::{Demand, Needed};
use super::dicts::{new_dict, super_dict};
use super::ir::Pat;
use super::ir::*;
use super::natives::Prim;
use super::specialise::{Generic, Specialisations};
use super::value::{DictRef, Value};
use crate::check::evidence::{instance_supers, Evidence, LetDicts, Owner};
use crate::check::{Env, FileRef, ItemRef, ItemTypes};
use crate::resolve::{ItemNames, Target};
use crate::span::Span;
use crate::syntax::ast::*;

/// One item to lower, with what the checker learned about it.
pub struct ItemInput<'a> {
    pub item: &'a Item,
    pub types: Checked<'a>,
    /// Its names: the binder of every local use.
    pub names: &'a ItemNames,
    /// The environment the item was checked in (its file's scope).
    pub env: &'a Env,
    pub at: ItemRef,
}

impl ItemInput<'_> {
    fn prelude(&self) -> bool {
        self.at.is_prelude()
    }
}

/// What the checker learned about an item: at hand, or asked for (`check(index)`) when
/// the item is lowered, which only an item the program uses is (`demand`).
#[derive(Clone, Copy)]
pub enum Checked<'a> {
    Done(&'a ItemTypes),
    OnDemand {
        check: &'a dyn Fn(u32) -> &'a ItemTypes,
        index: u32,
    },
}

impl<'a> Checked<'a> {
    fn get(self) -> &'a ItemTypes {
        match self {
            Checked::Done(types) => types,
            Checked::OnDemand { check, index } => check(index),
        }
    }
}

/// A name in scope during lowering.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    /// A local binding: its index in `ItemNames::locals`.
    Local(u32),
    /// A variable name resolution did not record (never looked up).
    Unbound,
    /// A dictionary parameter of the item.
    ItemDict(u32),
    /// A dictionary parameter of a generalised `let` binding.
    LetDict(PatId, u32),
}

/// How a bound value is used at a reference.
#[derive(Clone, Debug)]
enum Kind {
    Plain,
    /// A generalised binding lowered for the one instance its uses give
    /// (`uniform_evidence`): used as it is, and left out of hole environments as the
    /// other generalised bindings are.
    Specialised,
    /// A generalised binding with constraints: apply it to `n` dictionaries.
    DictAbs(u32),
    /// Member `index` of a constrained `let rec`: the group takes `total` dictionaries,
    /// of which this member's own constraints are those at `indices`.
    GroupMember {
        index: u32,
        indices: Rc<[u32]>,
        total: u32,
    },
}

#[derive(Clone, Copy, Debug)]
enum Access {
    At(Loc),
    Member(u32),
}

#[derive(Default)]
struct Frame {
    locals: Vec<(Key, Kind, u32)>,
    next_slot: u32,
    max_slots: u32,
    captures: Vec<(Key, Kind, Source)>,
    /// When lowering a member of a rec group: the group's names, by member index.
    group: Vec<Key>,
    /// 1 in rec-group members (capture 0 is the group itself).
    capture_base: u32,
}

impl Frame {
    fn alloc(&mut self) -> u32 {
        let s = self.next_slot;
        self.next_slot += 1;
        self.max_slots = self.max_slots.max(self.next_slot);
        s
    }
}

pub struct Lowerer<'a> {
    pub env: &'a Env,
    pub program: Program,
    static_dicts: HashMap<Evidence, DictRef>,
    /// Each top-level `fn`'s global, by its item.
    globals: HashMap<ItemRef, u32>,
    /// The prelude's list constructors.
    pub list: super::natives::ListIds,
    /// The prelude's instance method bodies that are a native (`+ = prim_add`) or a
    /// literal (`one = 1` of `i64`), as the value they are, by (instance, method): read
    /// where the dictionary is static, a constant a kernel loads rather than a method only
    /// the machine reads.
    constant_methods: HashMap<(u32, u32), Value>,
    /// One shared string per field name, so that the machine finds a field by comparing
    /// pointers (`ir::field_index`).
    field_names: HashMap<String, Rc<str>>,
    /// The globals and instances referred to so far.
    demand: Demand,
    /// The instances whose superclass dictionary codes are computed (`ensure_supers`).
    supers_done: Vec<bool>,
    /// Constrained globals and methods copied for the instances their calls give them.
    specialisations: Specialisations,
    /// The methods each instance defines: bit `m` for method index `m` (a class of more
    /// than 64 methods has its others copied never).
    defined: Vec<u64>,
}

impl<'a> Lowerer<'a> {
    pub fn new(env: &'a Env) -> Lowerer<'a> {
        let mut program = Program::default();
        let mut list = super::natives::ListIds { empty: 0, cons: 0 };
        for (id, c) in env.ctors.iter().enumerate() {
            let adt = &env.adts[c.adt];
            let is_list = c.origin.is_prelude() && &*adt.name == "List";
            let kind = match (is_list, &*c.name) {
                (true, "Empty") => {
                    list.empty = id as u32;
                    Some(ListCtor::Empty)
                }
                (true, "Cons") => {
                    list.cons = id as u32;
                    Some(ListCtor::Cons)
                }
                _ => None,
            };
            program.ctors.push(CtorInfo {
                name: Rc::from(&*c.name),
                arity: c.fields.len() as u32,
                adt: c.adt as u32,
                list: kind,
            });
        }
        Lowerer {
            env,
            program,
            static_dicts: HashMap::new(),
            globals: HashMap::new(),
            list,
            constant_methods: HashMap::new(),
            field_names: HashMap::new(),
            demand: Demand::default(),
            supers_done: Vec::new(),
            specialisations: Specialisations::default(),
            defined: Vec::new(),
        }
    }

    /// Lowers the program: the root file's and its modules' items, the root file's result
    /// expression, and the prelude's functions and instances they use (`demand`).
    pub fn lower_program(mut self, inputs: &[ItemInput<'_>]) -> Program {
        let by_ref: HashMap<ItemRef, usize> =
            inputs.iter().enumerate().map(|(i, x)| (x.at, i)).collect();
        // Globals first, so bodies can refer to any of them.
        let mut sources = Vec::new();
        for (k, input) in inputs.iter().enumerate() {
            if let ItemKind::Fn(decl) = &input.item.kind {
                // The scheme its file's environment declared (lowered again only for a
                // `fn` that did not get its name there, one declared twice).
                let dicts = match input.env.values.get(decl.name.text.as_str()) {
                    Some(v) if v.origin == input.at => v.scheme.preds.len() as u32,
                    _ => crate::check::env::fn_scheme(self.env, input.item, decl)
                        .map(|(s, _)| s.preds.len() as u32)
                        .unwrap_or(0),
                };
                let name: Rc<str> = Rc::from(decl.name.text.as_str());
                let id = self.program.globals.len() as u32;
                self.program.globals.push(Global {
                    name: name.clone(),
                    body: 0,
                    dicts,
                });
                self.globals.insert(input.at, id);
                sources.push(k);
            }
        }
        self.declare_instances(inputs, &by_ref);
        self.demand = Demand::new(sources.len(), self.env.instances.len());
        for (g, k) in sources.iter().enumerate() {
            if !inputs[*k].prelude() {
                self.demand.global(g as u32);
            }
        }
        for (i, inst) in self.env.instances.iter().enumerate() {
            if !inst.origin.is_prelude() {
                self.demand.instance(i as u32);
            }
        }
        if let Some(input) = inputs
            .iter()
            .rev()
            .find(|i| i.at.file == FileRef::Root && matches!(i.item.kind, ItemKind::Expr(_)))
        {
            if let ItemKind::Expr(e) = input.item.kind {
                let mut cx = ItemLowering::new(&mut self, input);
                let main = cx.body(0, |cx| cx.expr(e));
                self.program.main = Some(main);
            }
        }
        loop {
            if let Some(next) = self.demand.take() {
                match next {
                    Needed::Global(g) => {
                        self.lower_global(g, &inputs[sources[g as usize]], Vec::new())
                    }
                    Needed::Instance(i) => self.lower_instance(i as usize, inputs, &by_ref),
                }
            } else if let Some((copy, generic, evidence)) = self.specialisations.take() {
                match generic {
                    Generic::Fn(g) => {
                        self.lower_global(copy, &inputs[sources[g as usize]], evidence)
                    }
                    Generic::Method { instance, method } => {
                        self.lower_method_copy(copy, instance, method, evidence, inputs, &by_ref)
                    }
                }
            } else {
                break;
            }
        }
        super::liveness::mark_last_uses(&mut self.program);
        self.program
    }

    /// Lowers the body of global `id`, the `fn` item `input`: with its dictionaries as
    /// parameters, or, for a copy (`specialise`), for the instances `evidence` names.
    fn lower_global(&mut self, id: u32, input: &ItemInput<'_>, evidence: Vec<Evidence>) {
        let ItemKind::Fn(decl) = &input.item.kind else {
            return;
        };
        let dicts = self.program.globals[id as usize].dicts;
        let native = input.prelude() && Prim::by_name(&decl.name.text).is_some();
        let body = if native {
            let code = self.program.add(Code::Const(Value::Unit));
            self.program.add_lambda(Lambda {
                arity: 0,
                slots: 0,
                captures: Box::new([]),
                body: code,
            })
        } else {
            let mut cx = ItemLowering::new(self, input);
            cx.static_item = evidence;
            cx.body(dicts, |cx| {
                if decl.params.is_empty() {
                    cx.expr(decl.body)
                } else {
                    cx.named_lambda(decl.params.len(), decl.body)
                }
            })
        };
        self.program.globals[id as usize].body = body;
    }

    /// The shared string of field name `name`.
    fn field_name(&mut self, name: &str) -> Rc<str> {
        if let Some(rc) = self.field_names.get(name) {
            return rc.clone();
        }
        let rc: Rc<str> = Rc::from(name);
        self.field_names.insert(name.to_string(), rc.clone());
        rc
    }

    fn declare_instances(&mut self, inputs: &[ItemInput<'_>], by_ref: &HashMap<ItemRef, usize>) {
        let env = self.env;
        self.defined = vec![0; env.instances.len()];
        for (i, inst) in env.instances.iter().enumerate() {
            let class = env.classes.get(&inst.class);
            let nmethods = class.map(|c| c.methods.len()).unwrap_or(0);
            let nsupers = class.map(|c| c.supers.len()).unwrap_or(0);
            let head = inst.head.first().and_then(|t| t.head_name()).map(Rc::from);
            // Superclass placeholders until `ensure_supers` (dictionaries size by them).
            self.program.instances.push(InstanceInfo {
                class: inst.class.to_string().into(),
                head,
                methods: vec![None; nmethods],
                supers: vec![DictCode::Static(None); nsupers],
            });
            // Methods that are natives or literals resolve statically.
            let Some((input, decl)) = instance_item(inst.origin, inputs, by_ref) else {
                continue;
            };
            for m in &decl.methods {
                let Some(index) =
                    class.and_then(|c| c.methods.iter().position(|n| **n == *m.name.text))
                else {
                    continue;
                };
                if let Some(bit) = 1u64.checked_shl(index as u32) {
                    self.defined[i] |= bit;
                }
                match &input.item.arena.expr(m.body).kind {
                    ExprKind::Var(name) => {
                        if let (true, Some(p)) = (input.prelude(), Prim::by_name(name)) {
                            let v = Value::Native(p.id());
                            self.constant_methods.insert((i as u32, index as u32), v);
                        }
                    }
                    ExprKind::Lit(lit) if input.prelude() => {
                        let head = self.program.instances[i].head.clone();
                        if let Some(v) = head.and_then(|ty| literal_of(lit, &ty)) {
                            self.constant_methods.insert((i as u32, index as u32), v);
                        }
                    }
                    _ => {}
                }
            }
        }
        self.supers_done = vec![false; env.instances.len()];
    }

    /// Computes the superclass dictionary codes of instance `i` in place of their
    /// placeholders, once: only for the instances a lowered program can build a dictionary
    /// of (`lower_instance`) or whose superclass a static dictionary reads (`static_dict`),
    /// not for all the prelude's at every run.
    fn ensure_supers(&mut self, i: usize) {
        match self.supers_done.get_mut(i) {
            Some(done @ false) => *done = true,
            _ => return,
        }
        let supers = instance_supers(self.env, i)
            .iter()
            .map(|ev| self.instance_param_dict(ev))
            .collect();
        self.program.instances[i].supers = supers;
    }

    /// A dictionary in terms of an instance's parameters (superclass evidence).
    fn instance_param_dict(&mut self, ev: &Evidence) -> DictCode {
        if ev.is_static() {
            return DictCode::Static(self.static_dict(ev));
        }
        match ev {
            Evidence::Param { index, .. } => DictCode::At(Loc::Local(*index)),
            Evidence::Super { of, index } => DictCode::Super {
                of: Box::new(self.instance_param_dict(of)),
                index: *index,
            },
            Evidence::Instance { instance, args } => DictCode::Build {
                instance: *instance,
                args: args.iter().map(|a| self.instance_param_dict(a)).collect(),
            },
            Evidence::Unresolved => DictCode::Static(None),
        }
    }

    /// Lowers the methods of instance `i`; the instances its superclass dictionaries come
    /// from are needed with it.
    fn lower_instance(
        &mut self,
        i: usize,
        inputs: &[ItemInput<'_>],
        by_ref: &HashMap<ItemRef, usize>,
    ) {
        self.ensure_supers(i);
        for code in self.program.instances[i].supers.clone() {
            self.demand.dict(&code);
        }
        let env = self.env;
        let inst = &env.instances[i];
        let Some((input, decl)) = instance_item(inst.origin, inputs, by_ref) else {
            return;
        };
        let Some(class) = env.classes.get(&inst.class) else {
            return;
        };
        let params = inst.context.len() as u32 + 1;
        for m in &decl.methods {
            let Some(index) = class.methods.iter().position(|n| **n == *m.name.text) else {
                continue;
            };
            let mut cx = ItemLowering::new(self, input);
            if params == 1 {
                cx.static_item = vec![Evidence::Instance {
                    instance: i as u32,
                    args: Vec::new(),
                }];
            }
            let lambda = cx.body(params, |cx| cx.expr(m.body));
            self.program.instances[i].methods[index] = Some(lambda);
        }
    }

    /// Lowers `copy`, method `method` of instance `instance` for the instances `evidence`
    /// names (its context's, then its own: `specialise`).
    fn lower_method_copy(
        &mut self,
        copy: u32,
        instance: u32,
        method: u32,
        evidence: Vec<Evidence>,
        inputs: &[ItemInput<'_>],
        by_ref: &HashMap<ItemRef, usize>,
    ) {
        let env = self.env;
        let inst = &env.instances[instance as usize];
        let item = instance_item(inst.origin, inputs, by_ref);
        let name = env
            .classes
            .get(&inst.class)
            .and_then(|c| c.methods.get(method as usize));
        let (Some((input, decl)), Some(name)) = (item, name) else {
            return;
        };
        let Some(m) = decl.methods.iter().find(|m| *m.name.text == **name) else {
            return;
        };
        let mut cx = ItemLowering::new(self, input);
        cx.static_item = evidence;
        let body = cx.body(0, |cx| cx.expr(m.body));
        self.program.globals[copy as usize].body = body;
    }

    /// The dictionary for static evidence, built once and shared.
    fn static_dict(&mut self, ev: &Evidence) -> DictRef {
        if let Some(d) = self.static_dicts.get(ev) {
            return d.clone();
        }
        let d = match ev {
            Evidence::Instance { instance, args } => {
                let args: Vec<DictRef> = args.iter().map(|a| self.static_dict(a)).collect();
                Some(new_dict(&self.program, *instance, args))
            }
            Evidence::Super { of, index } => {
                let of = self.static_dict(of);
                if let Some(d) = &of {
                    self.ensure_supers(d.instance as usize);
                }
                of.and_then(|d| super_dict(&self.program, &d, *index))
            }
            Evidence::Param { .. } | Evidence::Unresolved => None,
        };
        self.static_dicts.insert(ev.clone(), d.clone());
        d
    }
}

/// The item and declaration of the instance declared at `origin`, where that item is
/// among `inputs`.
fn instance_item<'x, 't>(
    origin: ItemRef,
    inputs: &'x [ItemInput<'t>],
    by_ref: &HashMap<ItemRef, usize>,
) -> Option<(&'x ItemInput<'t>, &'x InstanceDecl)> {
    let input = &inputs[*by_ref.get(&origin)?];
    match &input.item.kind {
        ItemKind::Instance(decl) => Some((input, decl)),
        _ => None,
    }
}

/// A numeric literal's digits, without the `_` separators.
fn digits(s: &str) -> Cow<'_, str> {
    if s.contains('_') {
        Cow::Owned(s.replace('_', ""))
    } else {
        Cow::Borrowed(s)
    }
}

/// Literal `lit` as a value of the primitive type named `ty`; `None` where it is not
/// one of that type.
fn literal_of(lit: &Literal, ty: &str) -> Option<Value> {
    match lit {
        Literal::Int(s) | Literal::Float(s) => super::machine::literal_value(&digits(s), ty).ok(),
        Literal::Str(s) if ty == "string" => Some(Value::str(s.as_str())),
        Literal::Bool(b) if ty == "bool" => Some(Value::Bool(*b)),
        _ => None,
    }
}

/// Lowering one item's bodies.
struct ItemLowering<'l, 'a, 'i, 't> {
    lw: &'l mut Lowerer<'a>,
    input: &'i ItemInput<'t>,
    /// What the checker learned about the item.
    types: &'i ItemTypes,
    /// Item-relative spans of the checker's errors: nodes there are indeterminate.
    errors: HashSet<Span>,
    let_preds: HashMap<PatId, LetDicts>,
    frames: Vec<Frame>,
    /// The binder of each local use, by expression node.
    uses: HashMap<ExprId, u32>,
    /// The local each variable pattern binds.
    binders: HashMap<PatId, u32>,
    /// Dictionary parameters of local bindings lowered for the one instance every use
    /// gives them (`uniform_evidence`), by owner and index.
    static_let: HashMap<(PatId, u32), Evidence>,
    /// The evidence of the item's dictionary parameters where it is static: in the
    /// methods of an instance without a context, the instance's own dictionary (their one
    /// dictionary parameter), so that a method calling one of its instance's methods
    /// (`size rest` in `size`) captures nothing; in a copy of a constrained `fn`
    /// (`specialise`), the instances it is copied for.
    static_item: Vec<Evidence>,
}

impl<'l, 'a, 'i, 't: 'i> ItemLowering<'l, 'a, 'i, 't> {
    fn new(lw: &'l mut Lowerer<'a>, input: &'i ItemInput<'t>) -> Self {
        let types = input.types.get();
        let errors = types
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.span)
            .collect();
        let let_preds = types
            .let_preds
            .iter()
            .map(|l| (l.binding, l.clone()))
            .collect();
        let names = input.names;
        let uses = names
            .uses
            .iter()
            .filter_map(|u| match (u.expr, &u.target) {
                (Some(e), Target::Local(i)) => Some((e, *i as u32)),
                _ => None,
            })
            .collect();
        let binders = names
            .locals
            .iter()
            .enumerate()
            .filter_map(|(i, d)| Some((d.pat?, i as u32)))
            .collect();
        ItemLowering {
            lw,
            input,
            types,
            errors,
            let_preds,
            frames: Vec::new(),
            uses,
            binders,
            static_item: Vec::new(),
            static_let: HashMap::new(),
        }
    }

    /// The local that variable pattern `p` binds.
    fn pat_key(&self, p: PatId) -> Key {
        self.binders
            .get(&p)
            .map_or(Key::Unbound, |i| Key::Local(*i))
    }

    /// The local that the field shorthand `name` of dict pattern `dict` binds.
    fn field_key(&self, dict: PatId, name: &str) -> Key {
        let locals = &self.input.names.locals;
        locals
            .iter()
            .position(|d| d.field_of == Some(dict) && d.name == name)
            .map_or(Key::Unbound, |i| Key::Local(i as u32))
    }

    /// The `fn`'s parameter number `index`.
    fn param_key(&self, index: usize) -> Key {
        let locals = &self.input.names.locals;
        locals
            .iter()
            .position(|d| d.param_index == Some(index))
            .map_or(Key::Unbound, |i| Key::Local(i as u32))
    }

    /// The local a name written implicitly (an operator, `negate` for `-x`) denotes at
    /// `span`: the innermost one of that name visible there, if any.
    fn implicit_key(&self, name: &str, span: Span) -> Option<Key> {
        let names = self.input.names;
        names
            .visible_over(span)
            .into_iter()
            .find(|i| names.locals[*i].name == name)
            .map(|i| Key::Local(i as u32))
    }

    fn arena(&self) -> &'i Arena {
        &self.input.item.arena
    }

    fn add(&mut self, c: Code) -> CodeId {
        self.lw.program.add(c)
    }

    fn abs(&self, span: Span) -> Span {
        self.input.item.abs(span)
    }

    fn frame(&mut self) -> &mut Frame {
        let n = self.frames.len();
        &mut self.frames[n - 1]
    }

    /// A top-level body whose parameters are the item's `dicts` dictionaries.
    fn body(&mut self, dicts: u32, f: impl FnOnce(&mut Self) -> CodeId) -> u32 {
        self.frames.push(Frame::default());
        for i in 0..dicts {
            let slot = self.frame().alloc();
            self.frame()
                .locals
                .push((Key::ItemDict(i), Kind::Plain, slot));
        }
        let body = f(self);
        let frame = self.frames.pop().unwrap_or_default();
        self.lw.program.add_lambda(Lambda {
            arity: dicts,
            slots: frame.max_slots,
            captures: Box::new([]),
            body,
        })
    }

    // ------------------------------------------------------------------ names

    fn bind(&mut self, key: Key, kind: Kind) -> u32 {
        let slot = self.frame().alloc();
        self.frame().locals.push((key, kind, slot));
        slot
    }

    fn mark(&mut self) -> (usize, u32) {
        let f = self.frame();
        (f.locals.len(), f.next_slot)
    }

    fn release(&mut self, mark: (usize, u32)) {
        let f = self.frame();
        f.locals.truncate(mark.0);
        f.next_slot = mark.1;
    }

    fn resolve(&mut self, key: &Key) -> Option<(Kind, Access)> {
        let top = self.frames.len().checked_sub(1)?;
        self.resolve_in(top, key)
    }

    fn resolve_in(&mut self, level: usize, key: &Key) -> Option<(Kind, Access)> {
        let frame = &self.frames[level];
        if let Some((_, kind, slot)) = frame.locals.iter().rev().find(|(k, _, _)| k == key) {
            return Some((kind.clone(), Access::At(Loc::Local(*slot))));
        }
        if let Some(j) = frame.group.iter().position(|k| k == key) {
            return Some((Kind::Plain, Access::Member(j as u32)));
        }
        if let Some(i) = frame.captures.iter().position(|(k, _, _)| k == key) {
            let kind = frame.captures[i].1.clone();
            return Some((
                kind,
                Access::At(Loc::Capture(frame.capture_base + i as u32)),
            ));
        }
        let parent = level.checked_sub(1)?;
        let (kind, access) = self.resolve_in(parent, key)?;
        let source = match access {
            Access::At(loc) => Source::At(loc),
            Access::Member(j) => Source::Member(j),
        };
        let frame = &mut self.frames[level];
        frame.captures.push((key.clone(), kind.clone(), source));
        let index = frame.capture_base + frame.captures.len() as u32 - 1;
        Some((kind, Access::At(Loc::Capture(index))))
    }

    fn access_code(&mut self, access: Access) -> CodeId {
        match access {
            Access::At(Loc::Local(s)) => self.add(Code::Local(s)),
            Access::At(Loc::Capture(i)) => self.add(Code::Capture(i)),
            Access::Member(j) => self.add(Code::Member(j)),
        }
    }

    // ------------------------------------------------------------------ evidence

    fn evidence(&self, span: Span, index: u32) -> Evidence {
        self.types
            .evidence
            .get(&(span, index))
            .cloned()
            .unwrap_or(Evidence::Unresolved)
    }

    /// The dictionary code for `ev`; the instances it can build are needed (`demand`).
    fn dict(&mut self, ev: &Evidence) -> DictCode {
        let code = self.dict_code(ev);
        self.lw.demand.dict(&code);
        code
    }

    fn dict_code(&mut self, ev: &Evidence) -> DictCode {
        let specialised;
        let ev = if self.static_let.is_empty() && self.static_item.is_empty() {
            ev
        } else {
            specialised = self.specialise(ev);
            &specialised
        };
        if ev.is_static() {
            return DictCode::Static(self.lw.static_dict(ev));
        }
        match ev {
            Evidence::Param { owner, index } => {
                let key = match owner {
                    Owner::Item => Key::ItemDict(*index),
                    Owner::Let(p) => Key::LetDict(*p, *index),
                };
                match self.resolve(&key) {
                    Some((_, Access::At(loc))) => DictCode::At(loc),
                    _ => DictCode::Static(None),
                }
            }
            Evidence::Super { of, index } => DictCode::Super {
                of: Box::new(self.dict_code(of)),
                index: *index,
            },
            Evidence::Instance { instance, args } => DictCode::Build {
                instance: *instance,
                args: args.iter().map(|a| self.dict_code(a)).collect(),
            },
            Evidence::Unresolved => DictCode::Static(None),
        }
    }

    /// `ev` with the dictionary parameters of specialised local bindings replaced by the
    /// evidence all their uses give, and the item's own by its static evidence
    /// (`static_item`).
    fn specialise(&self, ev: &Evidence) -> Evidence {
        match ev {
            Evidence::Param {
                owner: Owner::Item,
                index,
            } => self
                .static_item
                .get(*index as usize)
                .cloned()
                .unwrap_or_else(|| ev.clone()),
            Evidence::Param {
                owner: Owner::Let(p),
                index,
            } => self
                .static_let
                .get(&(*p, *index))
                .cloned()
                .unwrap_or_else(|| ev.clone()),
            Evidence::Super { of, index } => Evidence::Super {
                of: Box::new(self.specialise(of)),
                index: *index,
            },
            Evidence::Instance { instance, args } => Evidence::Instance {
                instance: *instance,
                args: args.iter().map(|a| self.specialise(a)).collect(),
            },
            other => other.clone(),
        }
    }

    /// The evidence for each of the `total` dictionaries of generalised local `bindings`
    /// when every use of them (outside their own bodies, `inside`) supplies the same
    /// static instances: a loop written as a local `let rec` is nearly always used at
    /// one type. The bindings are then lowered once, for those instances, like
    /// unconstrained ones (methods become natives, literals constants). `None` when a
    /// use differs, needs a parameter, is unresolved, or there is no use.
    fn uniform_evidence(
        &self,
        bindings: &[PatId],
        total: u32,
        inside: &[Span],
    ) -> Option<Vec<Evidence>> {
        let arena = self.arena();
        let mut found: Vec<Option<Evidence>> = vec![None; total as usize];
        let mut used = false;
        for b in bindings {
            let local = *self.binders.get(b)? as usize;
            let indices = &self.let_preds.get(b)?.indices;
            for u in &self.input.names.uses {
                if !matches!(u.target, Target::Local(i) if i == local) {
                    continue;
                }
                let span = arena.expr(u.expr?).span;
                if inside
                    .iter()
                    .any(|s| s.start <= span.start && span.end <= s.end)
                {
                    continue;
                }
                used = true;
                for (k, group_index) in indices.iter().enumerate() {
                    // In terms of the enclosing specialised bindings' instances.
                    let ev = self.specialise(self.types.evidence.get(&(span, k as u32))?);
                    if !ev.is_instances_only() {
                        return None;
                    }
                    let slot = found.get_mut(*group_index as usize)?;
                    match slot {
                        None => *slot = Some(ev),
                        Some(prev) if *prev == ev => {}
                        Some(_) => return None,
                    }
                }
            }
        }
        if !used {
            return None;
        }
        found.into_iter().collect()
    }

    fn dicts_at(&mut self, span: Span, count: u32) -> Box<[DictCode]> {
        (0..count)
            .map(|i| {
                let ev = self.evidence(span, i);
                self.dict(&ev)
            })
            .collect()
    }

    // ------------------------------------------------------------------ expressions

    fn marked(&mut self, span: Span) -> CodeId {
        let abs = self.abs(span);
        self.add(Code::Marked(abs))
    }

    fn expr(&mut self, e: ExprId) -> CodeId {
        let arena = self.arena();
        let node = arena.expr(e);
        if self.errors.contains(&node.span) {
            return self.marked(node.span);
        }
        match &node.kind {
            ExprKind::Error { .. } => self.marked(node.span),
            ExprKind::Hole(name) => self.hole(name.clone(), node.span),
            ExprKind::Var(name) => {
                let key = self.uses.get(&e).map(|i| Key::Local(*i));
                self.var(name, key, node.span, node.span)
            }
            ExprKind::OpRef(op) => {
                let key = self.implicit_key(&op.text, node.span);
                self.var(&op.text, key, node.span, node.span)
            }
            ExprKind::Ctor(_) => self.ctor_at(e),
            ExprKind::Lit(lit) => self.literal(lit, node.span),
            ExprKind::App(..) => {
                let mut args = Vec::new();
                let mut head = e;
                while let ExprKind::App(f, a) = &arena.expr(head).kind {
                    if self.errors.contains(&arena.expr(head).span) {
                        break;
                    }
                    args.push(*a);
                    head = *f;
                }
                args.reverse();
                let f = self.expr(head);
                let args: Vec<CodeId> = args.iter().map(|a| self.expr(*a)).collect();
                self.apply(f, args)
            }
            ExprKind::Binary { op, lhs, rhs } => match op.text.as_str() {
                "::" => {
                    let Some(cons) = self.types.ctors.expr(e) else {
                        return self.marked(node.span);
                    };
                    let (l, r) = (self.expr(*lhs), self.expr(*rhs));
                    self.add(Code::Construct {
                        ctor: cons as u32,
                        args: Box::new([l, r]),
                    })
                }
                "&&" | "||" => {
                    let (l, r) = (self.expr(*lhs), self.expr(*rhs));
                    if op.text == "&&" {
                        self.add(Code::And(l, r))
                    } else {
                        self.add(Code::Or(l, r))
                    }
                }
                name => {
                    let key = self.implicit_key(name, op.span);
                    let f = self.var(name, key, op.span, op.span);
                    let args = vec![self.expr(*lhs), self.expr(*rhs)];
                    self.apply(f, args)
                }
            },
            ExprKind::Negate(x) => {
                let key = self.implicit_key("negate", node.span);
                let f = self.var("negate", key, node.span, node.span);
                let args = vec![self.expr(*x)];
                self.apply(f, args)
            }
            ExprKind::Lambda { params, body, .. } => self.lambda(params, *body),
            ExprKind::Let {
                rec,
                bindings,
                body,
            } => {
                if *rec {
                    self.let_rec(bindings, *body)
                } else {
                    self.let_seq(bindings, *body)
                }
            }
            ExprKind::If(c, t, f) => {
                let (c, t, f) = (self.expr(*c), self.expr(*t), self.expr(*f));
                self.add(Code::If(c, t, f))
            }
            ExprKind::Match { scrutinee, arms } => {
                let s = self.expr(*scrutinee);
                let mut lowered = Vec::with_capacity(arms.len());
                for arm in arms {
                    let mark = self.mark();
                    let p = self.pat(arm.pat);
                    let body = self.expr(arm.body);
                    self.release(mark);
                    lowered.push((p, body));
                }
                if let Code::Tuple(items) = &self.lw.program.code[s as usize] {
                    let n = items.len();
                    let apart = lowered.iter().all(|(p, _)| match p {
                        Pat::Wild => true,
                        Pat::Tuple(subs) => subs.len() == n,
                        _ => false,
                    });
                    if apart {
                        let items = items.clone();
                        let code = &self.lw.program.code;
                        let in_place = items.len() <= MAX_IN_PLACE
                            && items.iter().all(|i| {
                                matches!(code[*i as usize], Code::Local(_) | Code::Capture(_))
                            })
                            && lowered.iter().all(|(p, _)| match p {
                                Pat::Tuple(subs) => subs.iter().all(Pat::shallow),
                                _ => true,
                            });
                        return self.add(Code::MatchTuple {
                            items,
                            arms: lowered.into(),
                            in_place,
                        });
                    }
                }
                self.add(Code::Match {
                    scrutinee: s,
                    arms: lowered.into(),
                })
            }
            ExprKind::Tuple(es) => {
                if es.is_empty() {
                    return self.add(Code::Const(Value::Unit));
                }
                let codes: Vec<CodeId> = es.iter().map(|x| self.expr(*x)).collect();
                self.add(Code::Tuple(codes.into()))
            }
            ExprKind::List(es) => {
                let codes: Vec<CodeId> = es.iter().map(|x| self.expr(*x)).collect();
                self.add(Code::List(codes.into()))
            }
            ExprKind::Dict(fields) => {
                let mut pairs: Vec<(Rc<str>, CodeId)> = fields
                    .iter()
                    .map(|f| {
                        let name = self.lw.field_name(&f.name.text);
                        (name, self.expr(f.value))
                    })
                    .collect();
                pairs.sort_by(|a, b| a.0.cmp(&b.0));
                pairs.dedup_by(|a, b| a.0 == b.0);
                let names: Rc<[Rc<str>]> = pairs.iter().map(|p| p.0.clone()).collect();
                let values: Box<[CodeId]> = pairs.iter().map(|p| p.1).collect();
                self.add(Code::Record { names, values })
            }
            ExprKind::Update { base, fields } => {
                let base = self.expr(*base);
                let names: Box<[Rc<str>]> = fields
                    .iter()
                    .map(|f| self.lw.field_name(&f.name.text))
                    .collect();
                let values: Box<[CodeId]> = fields.iter().map(|f| self.expr(f.value)).collect();
                self.add(Code::Update {
                    base,
                    names,
                    values,
                })
            }
            ExprKind::Project { base, field } => {
                if let ExprKind::Ctor(alias) = &arena.expr(*base).kind {
                    if self.input.env.module_aliases.contains_key(alias.as_str()) {
                        // `M.x`: what the module exports as `x`.
                        let spelled = format!("{alias}.{}", field.text);
                        if self.input.env.ctor_index.contains_key(spelled.as_str()) {
                            return self.ctor_at(e);
                        }
                        return self.var(&spelled, None, node.span, node.span);
                    }
                    if !self.input.env.ctor_index.contains_key(alias.as_str()) {
                        return self.marked(node.span);
                    }
                }
                let b = self.expr(*base);
                match field.text.parse::<u32>() {
                    Ok(index) => self.add(Code::TupleField { base: b, index }),
                    Err(_) => {
                        let name = self.lw.field_name(&field.text);
                        self.add(Code::Field { base: b, name })
                    }
                }
            }
            ExprKind::Ascribe { expr, .. } => self.expr(*expr),
        }
    }

    /// `f args`, specialised where `f` is known: a native, a constructor, a loop call.
    fn apply(&mut self, f: CodeId, args: Vec<CodeId>) -> CodeId {
        if args.is_empty() {
            return f;
        }
        match &self.lw.program.code[f as usize] {
            Code::Const(Value::Native(id)) if !Prim::from_id(*id).calls_back() => {
                let p = Prim::from_id(*id);
                match (p.arity(), args.as_slice()) {
                    (1, [a]) => return self.add(Code::Prim1(p, *a)),
                    (2, [a, b]) => return self.add(Code::Prim2(p, *a, *b)),
                    _ => {}
                }
            }
            Code::Const(Value::CtorFn(id)) => {
                let id = *id;
                if self.lw.program.ctors[id as usize].arity as usize == args.len() {
                    return self.add(Code::Construct {
                        ctor: id,
                        args: args.into(),
                    });
                }
            }
            Code::Member(j) => {
                let j = *j;
                return self.add(Code::CallMember(j, args.into()));
            }
            Code::Global(g) => {
                let g = *g;
                return self.add(Code::CallGlobal {
                    global: g,
                    func: f,
                    args: args.into(),
                });
            }
            _ => {}
        }
        self.add(Code::App(f, args.into()))
    }

    fn hole(&mut self, name: Option<String>, span: Span) -> CodeId {
        // The innermost binding of each name, as `resolve_in` looks: a frame's locals, its
        // rec group, its captures, then the enclosing frame.
        let locals = &self.input.names.locals;
        let mut seen: Vec<(Rc<str>, Key)> = Vec::new();
        for frame in self.frames.iter().rev() {
            let visible = frame
                .locals
                .iter()
                .rev()
                .map(|(k, _, _)| k)
                .chain(frame.group.iter())
                .chain(frame.captures.iter().map(|(k, _, _)| k));
            for key in visible {
                if let Key::Local(i) = key {
                    let name = &locals[*i as usize].name;
                    if !seen.iter().any(|(n, _)| **n == **name) {
                        seen.push((Rc::from(name.as_str()), key.clone()));
                    }
                }
            }
        }
        let mut env = Vec::new();
        for (n, key) in seen {
            if let Some((Kind::Plain, Access::At(loc))) = self.resolve(&key) {
                env.push((n, loc));
            }
        }
        let site = HoleSite {
            name,
            span: self.abs(span),
            file: self.input.at.file,
            env,
        };
        self.lw.program.holes.push(site);
        let id = self.lw.program.holes.len() as u32 - 1;
        self.add(Code::Hole(id))
    }

    /// A value name at `site` (the span its evidence is recorded under).
    /// `key` is the local it denotes, if it is one.
    fn var(&mut self, name: &str, key: Option<Key>, site: Span, span: Span) -> CodeId {
        if let Some((kind, access)) = key.and_then(|key| self.resolve(&key)) {
            let code = self.access_code(access);
            return match kind {
                Kind::Plain | Kind::Specialised => code,
                Kind::DictAbs(n) => {
                    let dicts = self.dicts_at(site, n);
                    self.apply_dicts(code, dicts)
                }
                Kind::GroupMember {
                    index,
                    indices,
                    total,
                } => {
                    let own = self.dicts_at(site, indices.len() as u32);
                    let dicts: Vec<DictCode> = (0..total)
                        .map(|i| {
                            indices
                                .iter()
                                .position(|x| *x == i)
                                .and_then(|k| own.get(k).cloned())
                                .unwrap_or(DictCode::Static(None))
                        })
                        .collect();
                    let group = self.apply_dicts(code, dicts.into());
                    self.add(Code::TupleField { base: group, index })
                }
            };
        }
        let global_name = match name {
            "&&" => "prim_and",
            "||" => "prim_or",
            other => other,
        };
        // The file's scope says which top-level `fn` the name is (its own, an import, the
        // prelude's); the prelude's natives are used directly.
        let origin = self.input.env.values.get(global_name).map(|v| v.origin);
        if let (Some(o), Some(p)) = (origin, Prim::by_name(global_name)) {
            let visible = self.input.prelude() || matches!(global_name, "prim_and" | "prim_or");
            if o.is_prelude() && visible {
                return self.add(Code::Const(Value::Native(p.id())));
            }
        }
        if let Some(g) = origin.and_then(|o| self.lw.globals.get(&o)).copied() {
            let n = self.lw.program.globals[g as usize].dicts;
            if n > 0 && Prim::by_name(global_name).is_none() {
                let evidence = (0..n)
                    .map(|i| self.specialise(&self.evidence(site, i)))
                    .collect();
                let lw = &mut *self.lw;
                let name = lw.program.globals[g as usize].name.clone();
                let copy = lw
                    .specialisations
                    .copy(&mut lw.program, Generic::Fn(g), name, evidence);
                if let Some(copy) = copy {
                    return self.add(Code::Global(copy));
                }
            }
            self.lw.demand.global(g);
            if n == 0 {
                return self.add(Code::Global(g));
            }
            let dicts = self.dicts_at(site, n);
            return self.add(Code::GlobalWith(g, dicts));
        }
        if let Some(m) = self.input.env.methods.get(name) {
            let index = self
                .lw
                .env
                .classes
                .get(&m.class)
                .and_then(|c| c.methods.iter().position(|n| *n == m.name))
                .unwrap_or(0) as u32;
            let ev = self.evidence(site, 0);
            if let Some(copy) = self.method_copy(&ev, index, name) {
                return self.add(Code::Global(copy));
            }
            let dict = self.dict(&ev);
            if let DictCode::Static(Some(d)) = &dict {
                if let Some(v) = self.lw.constant_methods.get(&(d.instance, index)) {
                    return self.add(Code::Const(v.clone()));
                }
            }
            return self.add(Code::Method {
                dict,
                method: index,
                name: Rc::from(name),
            });
        }
        self.marked(span)
    }

    /// The copy of method `index` for evidence `ev` (`specialise`), where `ev` names an
    /// instance with a context that defines the method, and instances alone.
    fn method_copy(&mut self, ev: &Evidence, index: u32, name: &str) -> Option<u32> {
        // (Most methods are read at an instance without a context: nothing to copy, and
        // nothing to clone to find that out.)
        if let Evidence::Instance { args, .. } = ev {
            if args.is_empty() {
                return None;
            }
        }
        let Evidence::Instance { instance, args } = self.specialise(ev) else {
            return None;
        };
        let defined = self.lw.defined.get(instance as usize).copied().unwrap_or(0);
        if args.is_empty() || defined & 1u64.checked_shl(index).unwrap_or(0) == 0 {
            return None;
        }
        let mut evidence = args.clone();
        evidence.push(Evidence::Instance { instance, args });
        let generic = Generic::Method {
            instance,
            method: index,
        };
        let lw = &mut *self.lw;
        lw.specialisations
            .copy(&mut lw.program, generic, Rc::from(name), evidence)
    }

    fn apply_dicts(&mut self, f: CodeId, dicts: Box<[DictCode]>) -> CodeId {
        let args: Vec<CodeId> = dicts
            .into_vec()
            .into_iter()
            .map(|d| self.add_dict(d))
            .collect();
        self.add(Code::App(f, args.into()))
    }

    /// A dictionary as an argument expression.
    fn add_dict(&mut self, d: DictCode) -> CodeId {
        match d {
            DictCode::Static(d) => self.add(Code::Const(Value::Dict(d))),
            DictCode::At(Loc::Local(s)) => self.add(Code::Local(s)),
            DictCode::At(Loc::Capture(i)) => self.add(Code::Capture(i)),
            other => self.add(Code::Dict(other)),
        }
    }

    fn literal(&mut self, lit: &Literal, span: Span) -> CodeId {
        let s = match lit {
            Literal::Int(s) | Literal::Float(s) => s,
            Literal::Str(s) => return self.add(Code::Const(Value::str(s.as_str()))),
            Literal::Bool(b) => return self.add(Code::Const(Value::Bool(*b))),
        };
        let float = matches!(lit, Literal::Float(_));
        let ev = self.evidence(span, 0);
        let dict = self.dict(&ev);
        match &dict {
            DictCode::Static(d) => {
                let ty = d
                    .as_ref()
                    .and_then(|d| self.lw.program.instances[d.instance as usize].head.clone());
                let ty: &str = match (&ty, float) {
                    (Some(t), _) => t,
                    (None, true) => "f32",
                    (None, false) => "i32",
                };
                match literal_of(lit, ty) {
                    Some(v) => self.add(Code::Const(v)),
                    None => self.marked(span),
                }
            }
            _ => {
                let text: Rc<str> = Rc::from(&*digits(s));
                let values = NUMERIC_TYPES
                    .iter()
                    .map(|ty| super::machine::literal_value(&text, ty).ok())
                    .collect();
                self.add(Code::Literal { text, dict, values })
            }
        }
    }

    // ------------------------------------------------------------------ constructors

    /// The constructor the checker chose at node `e` (`C` or `M.C`), as a value; an
    /// indeterminate one where it chose none.
    fn ctor_at(&mut self, e: ExprId) -> CodeId {
        let Some(id) = self.types.ctors.expr(e) else {
            let span = self.arena().expr(e).span;
            return self.marked(span);
        };
        let id = id as u32;
        if self.lw.program.ctors[id as usize].arity == 0 {
            self.add(Code::Const(Value::Tag(id)))
        } else {
            self.add(Code::Const(Value::CtorFn(id)))
        }
    }

    // ------------------------------------------------------------------ patterns

    fn pat(&mut self, p: PatId) -> Pat {
        let arena = self.arena();
        let pat = arena.pat(p);
        if self.errors.contains(&pat.span) {
            // Still bind its variables, so the arm's body resolves them.
            self.bind_all(p);
            return Pat::Marked;
        }
        match &pat.kind {
            PatKind::Error => Pat::Marked,
            PatKind::Wildcard => Pat::Wild,
            PatKind::Var(_) => Pat::Bind(self.bind(self.pat_key(p), Kind::Plain)),
            PatKind::Lit(lit) => match lit {
                Literal::Int(s) => Pat::Int(Rc::from(s.replace('_', ""))),
                Literal::Float(s) => Pat::Float(Rc::from(s.replace('_', ""))),
                Literal::Str(s) => Pat::Str(Rc::from(s.as_str())),
                Literal::Bool(b) => Pat::Bool(*b),
            },
            PatKind::Ctor { args, .. } => {
                let id = self.types.ctors.pat(p);
                let subs: Vec<Pat> = args.iter().map(|a| self.pat(*a)).collect();
                match id {
                    Some(id) => Pat::Ctor(id as u32, subs.into()),
                    None => Pat::Marked,
                }
            }
            PatKind::Tuple(ps) => Pat::Tuple(ps.iter().map(|x| self.pat(*x)).collect()),
            PatKind::List(ps) => {
                let subs: Vec<Pat> = ps.iter().map(|x| self.pat(*x)).collect();
                let list = self.lw.list;
                subs.into_iter()
                    .rev()
                    .fold(Pat::Ctor(list.empty, Box::new([])), |tail, h| {
                        Pat::Ctor(list.cons, Box::new([h, tail]))
                    })
            }
            PatKind::Cons(h, t) => {
                // The `Cons` the checker chose (the prelude's list unless the scrutinee's
                // type has its own).
                let id = self.types.ctors.pat(p);
                let h = self.pat(*h);
                let t = self.pat(*t);
                let cons = id.map_or(self.lw.list.cons, |id| id as u32);
                Pat::Ctor(cons, Box::new([h, t]))
            }
            PatKind::Dict(fields) => {
                let mut parts: Vec<(Rc<str>, Pat)> = fields
                    .iter()
                    .map(|f| {
                        let sub = match f.pat {
                            Some(sp) => self.pat(sp),
                            None => {
                                Pat::Bind(self.bind(self.field_key(p, &f.name.text), Kind::Plain))
                            }
                        };
                        (self.lw.field_name(&f.name.text), sub)
                    })
                    .collect();
                // Parts that cannot fail are matched in any order: in the records' own
                // (sorted) order, each is where the machine looks for it first
                // (`field_index_near`). Parts that can fail keep the order written.
                if parts
                    .iter()
                    .all(|(_, q)| matches!(q, Pat::Bind(_) | Pat::Wild))
                {
                    parts.sort_by(|a, b| a.0.cmp(&b.0));
                }
                Pat::Fields(parts.into())
            }
        }
    }

    fn bind_all(&mut self, p: PatId) {
        let arena = self.arena();
        match &arena.pat(p).kind {
            PatKind::Var(_) => {
                self.bind(self.pat_key(p), Kind::Plain);
            }
            PatKind::Dict(fields) => {
                for f in fields {
                    match f.pat {
                        Some(sp) => self.bind_all(sp),
                        None => {
                            self.bind(self.field_key(p, &f.name.text), Kind::Plain);
                        }
                    }
                }
            }
            kind => {
                let mut children = Vec::new();
                kind.for_each_child(|c| children.push(c));
                for c in children {
                    self.bind_all(c);
                }
            }
        }
    }

    // ------------------------------------------------------------------ functions

    fn lambda(&mut self, params: &[Param], body: ExprId) -> CodeId {
        self.frames.push(Frame::default());
        let code = self.lambda_in_frame(params, body);
        self.finish_lambda(params.len() as u32, code)
    }

    fn finish_lambda(&mut self, arity: u32, body: CodeId) -> CodeId {
        let frame = self.frames.pop().unwrap_or_default();
        let captures: Box<[Source]> = frame.captures.iter().map(|c| c.2).collect();
        let id = self.lw.program.add_lambda(Lambda {
            arity,
            slots: frame.max_slots,
            captures,
            body,
        });
        self.add(Code::Lambda(id))
    }

    /// `fn f x y: A -> B -> C = body`: a lambda over the named parameters.
    fn named_lambda(&mut self, params: usize, body: ExprId) -> CodeId {
        self.frames.push(Frame::default());
        for i in 0..params {
            self.bind(self.param_key(i), Kind::Plain);
        }
        let code = self.expr(body);
        self.finish_lambda(params as u32, code)
    }

    // ------------------------------------------------------------------ let

    fn let_seq(&mut self, bindings: &[Binding], body: ExprId) -> CodeId {
        let mark = self.mark();
        enum Step {
            Slot(u32, CodeId),
            Destructure(CodeId, Pat),
        }
        let mut steps = Vec::new();
        for b in bindings {
            let arena = self.arena();
            match &arena.pat(b.pat).kind {
                PatKind::Var(_) => {
                    let n = self.let_preds.get(&b.pat).map_or(0, |l| l.total);
                    let key = self.pat_key(b.pat);
                    let special =
                        n > 0 && self.is_lambda(b.value) && self.specialise_let(&[b.pat], n, &[]);
                    if n == 0 || special {
                        let kind = if special {
                            Kind::Specialised
                        } else {
                            Kind::Plain
                        };
                        let value = self.expr(b.value);
                        let slot = self.bind(key, kind);
                        steps.push(Step::Slot(slot, value));
                    } else {
                        let value = self.dict_abstraction(b.pat, n, |cx| cx.expr(b.value));
                        let slot = self.bind(key, Kind::DictAbs(n));
                        steps.push(Step::Slot(slot, value));
                    }
                }
                _ => {
                    let value = self.expr(b.value);
                    let p = self.pat(b.pat);
                    steps.push(Step::Destructure(value, p));
                }
            }
        }
        let mut code = self.expr(body);
        for step in steps.into_iter().rev() {
            code = match step {
                Step::Slot(slot, value) => self.add(Code::Let {
                    slot,
                    value,
                    body: code,
                }),
                Step::Destructure(value, p) => self.add(Code::Match {
                    scrutinee: value,
                    arms: Box::new([(p, code)]),
                }),
            };
        }
        self.release(mark);
        code
    }

    /// Records the uniform evidence of `bindings` (see `uniform_evidence`) for their
    /// owner's dictionaries; true when there is one and they are to be lowered without
    /// dictionary parameters.
    fn specialise_let(&mut self, bindings: &[PatId], total: u32, inside: &[Span]) -> bool {
        let Some(owner) = bindings
            .first()
            .and_then(|b| self.let_preds.get(b))
            .map(|l| l.owner)
        else {
            return false;
        };
        let Some(evs) = self.uniform_evidence(bindings, total, inside) else {
            return false;
        };
        for (i, ev) in evs.into_iter().enumerate() {
            self.static_let.insert((owner, i as u32), ev);
        }
        true
    }

    /// True when `e` is a lambda (under ascriptions): building it has no effect, so it
    /// may be built where it is bound rather than at each use.
    fn is_lambda(&self, mut e: ExprId) -> bool {
        let arena = self.arena();
        while let ExprKind::Ascribe { expr, .. } = &arena.expr(e).kind {
            e = *expr;
        }
        matches!(arena.expr(e).kind, ExprKind::Lambda { .. })
    }

    /// A lambda over the `total` dictionaries `owner` supplies, around `f`'s code.
    fn dict_abstraction(
        &mut self,
        owner: PatId,
        total: u32,
        f: impl FnOnce(&mut Self) -> CodeId,
    ) -> CodeId {
        self.frames.push(Frame::default());
        for i in 0..total {
            self.bind(Key::LetDict(owner, i), Kind::Plain);
        }
        let code = f(self);
        self.finish_lambda(total, code)
    }

    fn let_rec(&mut self, bindings: &[Binding], body: ExprId) -> CodeId {
        let arena = self.arena();
        let mut members: Vec<(Key, PatId, &[Param], ExprId)> = Vec::new();
        for b in bindings {
            let name = match &arena.pat(b.pat).kind {
                PatKind::Var(_) => self.pat_key(b.pat),
                _ => return self.let_seq(bindings, body),
            };
            let mut value = b.value;
            while let ExprKind::Ascribe { expr, .. } = &arena.expr(value).kind {
                value = *expr;
            }
            match &arena.expr(value).kind {
                ExprKind::Lambda { params, body, .. }
                    if !self.errors.contains(&arena.expr(value).span) =>
                {
                    members.push((name, b.pat, params, *body))
                }
                _ => return self.let_seq(bindings, body),
            }
        }
        let group_dicts = members
            .first()
            .and_then(|m| self.let_preds.get(&m.1))
            .map(|l| (l.owner, l.total));
        let special = group_dicts.is_some_and(|(_, total)| {
            let pats: Vec<PatId> = members.iter().map(|m| m.1).collect();
            let inside: Vec<Span> = bindings.iter().map(|b| arena.expr(b.value).span).collect();
            total > 0 && self.specialise_let(&pats, total, &inside)
        });
        let mark = self.mark();
        let code = if special || group_dicts.is_none_or(|(_, total)| total == 0) {
            let (group, first_slot) = self.rec_group(&members);
            let kind = if special {
                Kind::Specialised
            } else {
                Kind::Plain
            };
            for m in &members {
                self.bind(m.0.clone(), kind.clone());
            }
            let body = self.expr(body);
            self.add(Code::LetRec {
                group,
                first_slot,
                body,
            })
        } else {
            let (owner, total) = group_dicts.unwrap_or((members[0].1, 0));
            let value = self.dict_abstraction(owner, total, |cx| {
                let (group, first_slot) = cx.rec_group(&members);
                let slots: Box<[CodeId]> = (0..members.len() as u32)
                    .map(|i| cx.add(Code::Local(first_slot + i)))
                    .collect();
                let tuple = cx.add(Code::Tuple(slots));
                cx.add(Code::LetRec {
                    group,
                    first_slot,
                    body: tuple,
                })
            });
            let mut slot = 0;
            for (index, m) in members.iter().enumerate() {
                let indices: Rc<[u32]> = self
                    .let_preds
                    .get(&m.1)
                    .map(|l| l.indices.iter().copied().collect())
                    .unwrap_or_else(|| Rc::from(Vec::new()));
                let kind = Kind::GroupMember {
                    index: index as u32,
                    indices,
                    total,
                };
                if index == 0 {
                    slot = self.bind(m.0.clone(), kind);
                } else {
                    self.frame().locals.push((m.0.clone(), kind, slot));
                }
            }
            let body = self.expr(body);
            self.add(Code::Let { slot, value, body })
        };
        self.release(mark);
        code
    }

    /// Lowers the members of a rec group; their slots follow in the current frame.
    fn rec_group(&mut self, members: &[(Key, PatId, &[Param], ExprId)]) -> (u32, u32) {
        let names: Vec<Key> = members.iter().map(|m| m.0.clone()).collect();
        let mut captures: Vec<(Key, Kind, Source)> = Vec::new();
        let mut lambdas = Vec::new();
        for m in members {
            self.frames.push(Frame {
                group: names.clone(),
                capture_base: 1,
                captures: std::mem::take(&mut captures),
                ..Frame::default()
            });
            let code = self.lambda_in_frame(m.2, m.3);
            let frame = self.frames.pop().unwrap_or_default();
            captures = frame.captures;
            lambdas.push(self.lw.program.add_lambda(Lambda {
                arity: m.2.len() as u32,
                slots: frame.max_slots,
                captures: Box::new([]),
                body: code,
            }));
        }
        let group = RecGroup {
            members: lambdas.into(),
            captures: captures.iter().map(|c| c.2).collect(),
        };
        self.lw.program.groups.push(group);
        let first_slot = self.frame().next_slot;
        for _ in members {
            self.frame().alloc();
        }
        // The slots are claimed here and named by the caller.
        self.frame().next_slot = first_slot;
        ((self.lw.program.groups.len() - 1) as u32, first_slot)
    }

    /// The body of a lambda whose frame is already pushed.
    fn lambda_in_frame(&mut self, params: &[Param], body: ExprId) -> CodeId {
        let mut destructure = Vec::new();
        for p in params {
            match &self.arena().pat(p.pat).kind {
                PatKind::Var(_) => {
                    self.bind(self.pat_key(p.pat), Kind::Plain);
                }
                // A wildcard takes its argument's slot and nothing else: matching it could
                // neither fail nor stick, and a `match` in the body would keep the
                // lambda off the quick path (`\n _ -> n + 1` in the prelude's `count`).
                PatKind::Wildcard => {
                    self.frame().alloc();
                }
                _ => {
                    let slot = self.frame().alloc();
                    destructure.push((slot, p.pat));
                }
            }
        }
        let mut pats = Vec::new();
        for (slot, p) in destructure {
            pats.push((slot, self.pat(p)));
        }
        let mut code = self.expr(body);
        for (slot, p) in pats.into_iter().rev() {
            let s = self.add(Code::Local(slot));
            code = self.add(Code::Match {
                scrutinee: s,
                arms: Box::new([(p, code)]),
            });
        }
        code
    }
}

//! Compiling kernels (`kernel`): which functions qualify, and their register code.
//!
//! A kernel's frame holds its lambda's slots (parameters, then `let`s), then, for a member
//! of a `let rec` group, the group's captured values, then temporaries. A call lays its
//! callee's frame out above the caller's live registers: the arguments, and the captured
//! values where the callee's slots end.

use std::rc::Rc;

use super::ir::{Code, CodeId, DictCode, ListCtor, Loc, Pat, Program, Source};
use super::kernel::{Ins, Kernel, Kernels, Lit, Reg, Regs, MAX_ARGS, MAX_REGS, MAX_UNPACK, WHOLE};
use super::kernel_register::{Register, Scalar};
use super::liveness::{self, Slots};
use super::natives::{ListIds, Prim};
use super::value::{NodeKind, Value};

/// Most values a lambda a kernel calls as a function value captures.
const MAX_CAPTURES: usize = 16;

/// A kernel waiting to be compiled.
struct Job {
    kernel: u32,
    lambda: u32,
    /// For a member of a rec group: the kernels of the group's members.
    group: Option<Rc<[u32]>>,
}

/// What the kernels compiled so far share.
struct Builder {
    code: Vec<Ins>,
    consts: Vec<Value>,
    names: Vec<Rc<[Rc<str>]>>,
    kernels: Vec<Kernel>,
    jobs: Vec<Job>,
    /// Whether each kernel compiled, and the kernels each calls.
    ok: Vec<bool>,
    calls: Vec<Vec<u32>>,
    widest: u32,
}

impl Builder {
    /// A kernel to compile for `lambda`, whose frame keeps `captures` captured values.
    fn add(&mut self, prog: &Program, lambda: u32, captures: u32, group: Option<Rc<[u32]>>) -> u32 {
        let lam = &prog.lambdas[lambda as usize];
        let kernel = self.kernels.len() as u32;
        self.kernels.push(Kernel {
            arity: lam.arity,
            entry: 0,
            slots: lam.slots.max(lam.arity),
            captures,
            scalar: false,
        });
        self.ok.push(true);
        self.calls.push(Vec::new());
        self.jobs.push(Job {
            kernel,
            lambda,
            group,
        });
        kernel
    }
}

/// Compiles every top-level function and instance method that qualifies (see `kernel`'s
/// documentation), and the `let rec` loops in them.
pub(super) fn compile(prog: &Program) -> Kernels {
    let mut b = Builder {
        code: Vec::new(),
        consts: Vec::new(),
        names: Vec::new(),
        kernels: Vec::new(),
        jobs: Vec::new(),
        ok: Vec::new(),
        calls: Vec::new(),
        widest: 0,
    };
    // Candidates: globals without dictionaries whose value is a lambda over nothing, and
    // the methods of instances without a context that are such lambdas (`get` of lists).
    let mut of_lambda: Vec<Option<u32>> = vec![None; prog.lambdas.len()];
    let globals = (0..prog.globals.len() as u32).filter_map(|g| global_lambda(prog, g));
    let methods = prog.instances.iter().enumerate().flat_map(|(i, inst)| {
        (0..inst.methods.len() as u32).filter_map(move |m| method_lambda(prog, i as u32, m))
    });
    for l in globals.chain(methods) {
        let lam = &prog.lambdas[l as usize];
        if lam.captures.is_empty()
            && (1..=MAX_ARGS as u32).contains(&lam.arity)
            && of_lambda[l as usize].is_none()
        {
            of_lambda[l as usize] = Some(b.add(prog, l, 0, None));
        }
    }
    // And the lambdas a program passes as values (`\\x -> x % 2 == 0` to `filter`), but
    // the members of `let rec` groups (which see their group): those over nothing, which
    // `map`, `filter` and `foldl` run too, and those with captured values (`\\x -> x * k`),
    // which a kernel's `Ins::Apply` calls with them.
    let first_passed = b.kernels.len() as u32;
    let mut members = vec![false; prog.lambdas.len()];
    for g in &prog.groups {
        for m in g.members.iter() {
            members[*m as usize] = true;
        }
    }
    for (l, lam) in prog.lambdas.iter().enumerate() {
        if of_lambda[l].is_none()
            && !members[l]
            && lam.captures.len() <= MAX_CAPTURES
            && (1..=MAX_ARGS as u32).contains(&lam.arity)
        {
            let captures = lam.captures.len() as u32;
            of_lambda[l] = Some(b.add(prog, l as u32, captures, None));
        }
    }
    b.jobs.reverse();
    while let Some(job) = b.jobs.pop() {
        let kernel = b.kernels[job.kernel as usize];
        let entry = b.code.len() as u32;
        let base = kernel.slots + kernel.captures;
        let mut cx = Compile {
            prog,
            of_lambda: &of_lambda,
            b: &mut b,
            me: job.kernel,
            group: job.group,
            slots: kernel.slots,
            captures: kernel.captures,
            rec: Vec::new(),
            next: base,
            high: base,
            nodes: 0,
            tokens: Vec::new(),
            known: Vec::new(),
            pending: Vec::new(),
            not_ctors: Vec::new(),
        };
        // The result into a temporary: the parameters stay readable to the end.
        let body = prog.lambdas[job.lambda as usize].body;
        let compiled = (base as usize) < MAX_REGS
            && match cx.temp() {
                Some(dst) => cx.expr(body, dst, true).is_some(),
                None => false,
            };
        let (regs, nodes) = (cx.high, cx.nodes);
        // (A kernel that did not compile never runs: a large lambda that does not bounds
        // no one's depth.)
        if compiled {
            b.widest = b.widest.max(regs + nodes + 2);
        } else {
            b.ok[job.kernel as usize] = false;
        }
        let code = &b.code[entry as usize..];
        let kernel = &mut b.kernels[job.kernel as usize];
        kernel.entry = entry;
        // On scalars while its own code computes on nothing else (its callees below).
        kernel.scalar = code.iter().all(|ins| on_scalars(ins, &b.consts));
    }
    // The fold kernel (`kernel_fold`), where the program has the prelude's lists.
    let fold = list_ids(prog).map(|list| {
        let me = b.kernels.len() as u32;
        let entry = b.code.len() as u32;
        b.kernels.push(Kernel {
            entry,
            ..super::kernel_fold::kernel()
        });
        b.ok.push(true);
        b.calls.push(Vec::new());
        b.code.extend(super::kernel_fold::code(me, entry, list));
        b.widest = b.widest.max(super::kernel_fold::REGS + 2);
        me
    });
    super::kernel_peephole::tidy(&mut b.code, &mut b.kernels);
    super::kernel_coalesce::coalesce(&mut b.code, &mut b.kernels);
    super::kernel_frames::shrink(&mut b.code, &b.kernels);
    super::kernel_chain::link_calls(&mut b.code, &mut b.kernels);
    super::kernel_peephole::pairs_in_place(&mut b.code, &mut b.kernels);
    super::kernel_clears::place(&mut b.code, &mut b.kernels, &b.consts);
    super::kernel_relink::fuse(&mut b.code, &b.kernels);
    super::kernel_relink::keep_tails(&mut b.code, &b.kernels);
    link(&mut b.code, &b.kernels);
    // A kernel that calls one that did not compile does not qualify either, nor does one
    // calling a kernel not on scalars run on them.
    spread_false(&mut b.ok, &b.calls);
    let mut scalar: Vec<bool> = b.kernels.iter().map(|k| k.scalar).collect();
    spread_false(&mut scalar, &b.calls);
    for (kernel, scalar) in b.kernels.iter_mut().zip(scalar) {
        kernel.scalar = scalar;
    }
    // The machine calls the candidates that qualified.
    let of_lambda = of_lambda
        .into_iter()
        .map(|k| k.filter(|k| b.ok[*k as usize]))
        .collect();
    Kernels {
        code: b.code,
        consts: b.consts,
        names: b.names,
        kernels: b.kernels,
        of_lambda,
        first_passed,
        widest: b.widest,
        fold,
    }
}

/// The prelude's list constructors, where the program has them.
fn list_ids(prog: &Program) -> Option<ListIds> {
    let find = |kind| prog.ctors.iter().position(|c| c.list == Some(kind));
    Some(ListIds {
        empty: find(ListCtor::Empty)? as u32,
        cons: find(ListCtor::Cons)? as u32,
    })
}

/// Sets where each call's callee starts (`Ins::Call`'s `entry`), once the code is laid
/// out for good.
fn link(code: &mut [Ins], kernels: &[Kernel]) {
    for ins in code {
        if let Ins::Call { kernel, entry, .. } | Ins::TailCall { kernel, entry, .. } = ins {
            *entry = kernels[*kernel as usize].entry;
        }
    }
}

/// Whether `Ins::Unpack` takes apart a node of `n` parts (one to `MAX_UNPACK`).
fn unpackable(n: usize) -> bool {
    (1..=MAX_UNPACK).contains(&n)
}

/// Makes `flags[k]` false wherever a kernel `k` calls (`calls[k]`, transitively) has it
/// false.
fn spread_false(flags: &mut [bool], calls: &[Vec<u32>]) {
    loop {
        let mut changed = false;
        for (k, callees) in calls.iter().enumerate() {
            if flags[k] && callees.iter().any(|c| !flags[*c as usize]) {
                flags[k] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

/// The lambda global `g`'s value is, when it is a function without dictionaries.
fn global_lambda(prog: &Program, g: u32) -> Option<u32> {
    let global = prog.globals.get(g as usize)?;
    if global.dicts != 0 {
        return None;
    }
    body_lambda(prog, global.body, 0)
}

/// The lambda method `method` of instance `instance` is, when the instance has no
/// context (its method bodies take its own dictionary alone) and the method's value is a
/// lambda.
fn method_lambda(prog: &Program, instance: u32, method: u32) -> Option<u32> {
    let instance = prog.instances.get(instance as usize)?;
    body_lambda(prog, (*instance.methods.get(method as usize)?)?, 1)
}

/// The lambda that body `body` (a lambda over its `dicts` dictionary parameters)
/// evaluates to, where its code is that lambda.
fn body_lambda(prog: &Program, body: u32, dicts: u32) -> Option<u32> {
    let outer = prog.lambdas.get(body as usize)?;
    match prog.code.get(outer.body as usize)? {
        Code::Lambda(l) if outer.arity == dicts => Some(*l),
        _ => None,
    }
}

/// A slot a `let rec` bound to a member's kernel, and the registers of the captured
/// values a call of it passes.
#[derive(Clone)]
struct RecSlot {
    slot: u32,
    kernel: u32,
    captures: Rc<[Reg]>,
}

struct Compile<'a> {
    prog: &'a Program,
    of_lambda: &'a [Option<u32>],
    b: &'a mut Builder,
    /// The kernel being compiled, and its group's members' kernels if it is a member.
    me: u32,
    group: Option<Rc<[u32]>>,
    /// The lambda's slots (registers below this are its parameters and `let`s), then
    /// its captured values.
    slots: u32,
    captures: u32,
    rec: Vec<RecSlot>,
    /// The next free temporary, and the most registers used so far.
    next: u32,
    high: u32,
    /// Nodes compiled (bounds the continuations the machine keeps for one call).
    nodes: u32,
    /// Registers keeping an emptied node of so many parts for a `NodeIn`, on the path
    /// being compiled (`Unpack`, `Spare`).
    tokens: Vec<(Reg, u8)>,
    /// Variables holding a node of so many parts whose parts an enclosing arm copied
    /// out (a `Spare` where a branch reads them no more).
    known: Vec<(Reg, u8)>,
    /// Parts of nodes held by variables that an arm in tail position binds where its
    /// code reads them (`Pending`).
    pending: Vec<Pending>,
    /// The constructors a `match`'s scrutinee register holds none of, from the tests of
    /// the arms before the one being compiled (`arms`).
    not_ctors: Vec<(Reg, u32)>,
}

/// What a path keeps (`Compile::tokens`, `known` and `pending`).
struct Path {
    tokens: Vec<(Reg, u8)>,
    known: Vec<(Reg, u8)>,
    pending: Vec<Pending>,
}

/// The parts of the node a variable holds, bound to the variable registers `to` (`None`:
/// bound already, or read nowhere) where the code of its arm reads them: a branch that
/// reads the node no more takes it apart (`Unpack`), moving them out, and any other code
/// copies out those it reads (`Part`).
#[derive(Clone)]
struct Pending {
    node: Reg,
    to: Vec<Option<Reg>>,
}

/// An operand of a comparison that reads the pending parts it compares in place
/// (`Compile::in_place`): the variable's register, and the node register and part index
/// of the pending part bound to it, if it is one.
#[derive(Clone, Copy)]
struct InPlace {
    var: Reg,
    part: Option<(Reg, u8)>,
}

impl InPlace {
    /// The register and part (or `WHOLE`) `Ins::JumpUnlessPartBin` reads.
    fn read(self) -> (Reg, u8) {
        self.part.unwrap_or((self.var, WHOLE))
    }
}

/// What an arm binds once all its tests pass.
enum Binding {
    /// The value in register `src` to variable register `dst`.
    Whole { src: Reg, dst: Reg },
    /// The parts of the node in register `node` to the variable registers `to` (`None`:
    /// a wildcard, or a part the tests read into a temporary of their own; a temporary:
    /// a part a nested pattern tested in place, `Ins::JumpUnlessPartCtor`, and takes
    /// apart). A node comes before the nodes inside it.
    Parts { node: Reg, to: Vec<Option<Reg>> },
}

impl Compile<'_> {
    fn emit(&mut self, ins: Ins) -> usize {
        self.b.code.push(ins);
        self.b.code.len() - 1
    }

    /// The kernels' table entry of field names `names`.
    fn names(&mut self, names: &[Rc<str>]) -> u32 {
        self.b.names.push(names.into());
        (self.b.names.len() - 1) as u32
    }

    /// A fresh temporary register.
    fn temp(&mut self) -> Option<Reg> {
        let r = self.next;
        self.next += 1;
        self.high = self.high.max(self.next);
        (r < MAX_REGS as u32).then_some(r as Reg)
    }

    /// The register of a parameter or `let` (slot `s`), if it holds a scalar: one of the
    /// lambda's slots, not one a `let rec` bound to a function.
    fn slot(&self, s: u32) -> Option<Reg> {
        (s < self.slots && !self.rec.iter().any(|r| r.slot == s)).then_some(s as Reg)
    }

    /// The register of captured value `i`: of a closure's, or of a `let rec` member's
    /// group's (whose capture 0 is the group itself, no scalar).
    fn capture(&self, i: u32) -> Option<Reg> {
        let first = u32::from(self.group.is_some());
        (i >= first && i - first < self.captures).then_some((self.slots + i - first) as Reg)
    }

    fn source(&self, s: Source) -> Option<Reg> {
        match s {
            Source::At(Loc::Local(i)) => self.slot(i),
            Source::At(Loc::Capture(i)) => self.capture(i),
            Source::Member(_) => None,
        }
    }

    /// A register holding node `id`'s value: a variable's own (read where the register
    /// is used), or a temporary it is computed into.
    fn operand(&mut self, id: CodeId) -> Option<Reg> {
        match &self.prog.code[id as usize] {
            Code::Local(s) | Code::Move(s) => self.slot(*s),
            Code::Capture(i) => self.capture(*i),
            _ => {
                let r = self.temp()?;
                self.expr(id, r, false)?;
                Some(r)
            }
        }
    }

    /// Registers holding the values of `items`, read together after the last is
    /// computed: variables' own registers when every item is a variable or a constant,
    /// and otherwise each computed into a temporary in turn (a later item may move a
    /// variable out, `Code::Move`, that an earlier one reads), except a variable that no
    /// later item reads, which is read in place.
    fn operands(&mut self, items: &[CodeId]) -> Option<Vec<Reg>> {
        if items.iter().all(|i| self.is_leaf(*i)) {
            return items.iter().map(|i| self.operand(*i)).collect();
        }
        let mut regs = Vec::with_capacity(items.len());
        for (at, item) in items.iter().enumerate() {
            if let Code::Local(s) = self.prog.code[*item as usize] {
                let later = &items[at + 1..];
                if let Some(r) = self.slot(s) {
                    if !later.iter().any(|l| liveness::reads(self.prog, *l).has(s)) {
                        regs.push(r);
                        continue;
                    }
                }
            }
            let r = self.temp()?;
            self.expr(*item, r, false)?;
            regs.push(r);
        }
        Some(regs)
    }

    fn is_leaf(&self, id: CodeId) -> bool {
        self.prog.code[id as usize].is_leaf()
    }

    /// The values of `items` into consecutive temporaries (each computed in turn), from
    /// the register returned on.
    fn consecutive(&mut self, items: &[CodeId]) -> Option<Reg> {
        let base = self.next;
        for _ in items {
            self.temp()?;
        }
        for (i, item) in items.iter().enumerate() {
            self.expr(*item, (base + i as u32) as Reg, false)?;
            self.next = base + items.len() as u32;
        }
        Some(base as Reg)
    }

    /// Emits code computing node `id` into `dst`; in tail position, code returning it
    /// (or calling in the frame's place). `None` when a part is outside the subset.
    fn expr(&mut self, id: CodeId, dst: Reg, tail: bool) -> Option<()> {
        self.nodes += 1;
        // (Pending parts exist on paths in tail position only; the code under a node in
        // tail position finds those it reads bound.)
        if tail && !self.pending.is_empty() {
            self.bind_pending(id)?;
        }
        let mark = self.next;
        match &self.prog.code[id as usize] {
            Code::Const(v) => {
                let k = self.b.consts.len() as u32;
                self.b.consts.push(v.clone());
                self.emit(Ins::Const { dst, k });
            }
            Code::Local(_) | Code::Capture(_) => {
                let src = self.operand(id)?;
                self.emit(Ins::Copy { dst, src });
            }
            Code::Move(_) => {
                let src = self.operand(id)?;
                self.emit(Ins::Take { dst, src });
            }
            Code::Prim1(p, a) if !p.calls_back() && p.arity() == 1 => {
                let p = *p;
                // (`reverse` of a list the frame gives up turns it around in place.)
                let take = p == Prim::ListReverse
                    && !matches!(
                        self.prog.code[*a as usize],
                        Code::Local(_) | Code::Capture(_)
                    );
                let a = self.operand(*a)?;
                self.emit(Ins::Un { p, dst, a, take });
            }
            Code::Prim2(p, a, b) if !p.calls_back() && p.arity() == 2 => {
                let p = *p;
                let (a, b) = (*a, *b);
                match self.prog.code[b as usize] {
                    Code::Const(Value::I32(k)) => {
                        let a = self.operand(a)?;
                        self.emit(Ins::BinK { p, dst, a, k });
                    }
                    _ => {
                        let regs = self.operands(&[a, b])?;
                        let (a, b) = (regs[0], regs[1]);
                        self.emit(Ins::Bin { p, dst, a, b });
                    }
                }
            }
            Code::Construct { ctor, args } => {
                let kind = NodeKind::Data(*ctor);
                self.node(kind, args, dst)?;
            }
            Code::Tuple(items) => self.node(NodeKind::Tuple, items, dst)?,
            // (Its values are in the order of its names, `NodeKind::Record`.)
            Code::Record { values, .. } => self.node(NodeKind::Record(id), values, dst)?,
            Code::Field { base, name } => {
                let names = self.names(std::slice::from_ref(name));
                let src = self.operand(*base)?;
                self.emit(Ins::Field { dst, src, names });
            }
            Code::Update {
                base: record,
                names,
                values,
            } => {
                let n = u8::try_from(values.len()).ok()?;
                let names = self.names(names);
                let items: Vec<CodeId> = std::iter::once(*record)
                    .chain(values.iter().copied())
                    .collect();
                let base = self.consecutive(&items)?;
                self.emit(Ins::Update {
                    dst,
                    base,
                    n,
                    names,
                });
            }
            Code::TupleField { base, index } => {
                let index = *index;
                let src = self.operand(*base)?;
                self.emit(Ins::TupleField { dst, src, index });
            }
            Code::And(a, b) | Code::Or(a, b) => {
                // `a && b` is `b` where `a` is true, and false otherwise (`||` alike).
                let when = matches!(self.prog.code[id as usize], Code::Or(..));
                let (a, b) = (*a, *b);
                self.expr(a, dst, false)?;
                let jump = self.emit(Ins::JumpIf {
                    r: dst,
                    when,
                    to: 0,
                });
                let tokens = self.tokens.clone();
                self.expr(b, dst, false)?;
                self.tokens = tokens;
                self.patch(jump);
            }
            Code::If(c, t, e) => {
                let (c, t, e) = (*c, *t, *e);
                let to_else = self.jumps(c, false)?;
                self.next = mark;
                self.branch(t, e, dst, tail)?;
                let to_end = (!tail).then(|| self.emit(Ins::Jump { to: 0 }));
                for j in to_else {
                    self.patch(j);
                }
                self.branch(e, t, dst, tail)?;
                if let Some(j) = to_end {
                    self.patch(j);
                }
                self.next = mark;
                return Some(());
            }
            Code::Match { scrutinee, arms } => {
                let moved = matches!(self.prog.code[*scrutinee as usize], Code::Move(_));
                let r = self.operand(*scrutinee)?;
                self.arms(&[(r, moved)], arms, false, dst, tail)?;
                self.next = mark;
                return Some(());
            }
            Code::MatchTuple { items, arms, .. } => {
                let regs = self.operands(items)?;
                let items: Vec<(Reg, bool)> = regs
                    .into_iter()
                    .zip(items.iter())
                    .map(|(r, i)| (r, matches!(self.prog.code[*i as usize], Code::Move(_))))
                    .collect();
                self.arms(&items, arms, true, dst, tail)?;
                self.next = mark;
                return Some(());
            }
            Code::Let { slot, value, body } => {
                let (value, body) = (*value, *body);
                let r = self.slot(*slot)?;
                self.expr(value, r, false)?;
                self.next = mark;
                self.expr(body, dst, tail)?;
                self.next = mark;
                return Some(());
            }
            Code::LetRec {
                group,
                first_slot,
                body,
            } => {
                let (first_slot, body) = (*first_slot, *body);
                // The members' slots name them in the body only.
                let scope = self.rec.len();
                self.let_rec(*group, first_slot)?;
                self.expr(body, dst, tail)?;
                self.rec.truncate(scope);
                self.next = mark;
                return Some(());
            }
            Code::CallGlobal { global, args, .. } => {
                let l = global_lambda(self.prog, *global)?;
                return self.call_candidate(l, args, dst, tail);
            }
            Code::CallMember(j, args) => {
                let kernel = *self.group.as_ref()?.get(*j as usize)?;
                let captures: Vec<Reg> = (1..=self.captures)
                    .map(|i| self.capture(i))
                    .collect::<Option<_>>()?;
                return self.call(kernel, &captures, args, dst, tail);
            }
            // A call of a `let rec` function from the body it scopes over (`go 1 0`).
            // And of a method of an instance the program names statically (`get i xs`).
            Code::App(f, args) => {
                if let Code::Method {
                    dict: DictCode::Static(Some(d)),
                    method,
                    ..
                } = &self.prog.code[*f as usize]
                {
                    let l = method_lambda(self.prog, d.instance, *method)?;
                    return self.call_candidate(l, args, dst, tail);
                }
                // Otherwise, of a function value a variable holds (`f x` in `my_map f xs`).
                let held = match self.prog.code[*f as usize] {
                    Code::Local(s) | Code::Move(s) => {
                        if let Some(rec) = self.rec.iter().find(|r| r.slot == s).cloned() {
                            return self.call(rec.kernel, &rec.captures, args, dst, tail);
                        }
                        let r = self.slot(s)?;
                        // (An argument may move the variable out first: `f (g f)`.)
                        if args.iter().any(|a| liveness::reads(self.prog, *a).has(s)) {
                            let copy = self.temp()?;
                            self.emit(Ins::Copy { dst: copy, src: r });
                            copy
                        } else {
                            r
                        }
                    }
                    Code::Capture(i) => self.capture(i)?,
                    _ => return None,
                };
                self.apply(held, args, dst)?;
                self.next = mark;
                if tail {
                    self.emit(Ins::Ret {
                        src: dst,
                        clear: Regs::NONE,
                    });
                }
                return Some(());
            }
            _ => return None,
        }
        self.next = mark;
        if tail {
            self.emit(Ins::Ret {
                src: dst,
                clear: Regs::NONE,
            });
        }
        Some(())
    }

    /// A `let rec` group's members as kernels (compiled later), bound to their slots
    /// here, with the values the group captures from this frame copied into temporaries
    /// (free again after the body), as the machine's group keeps them when it is built:
    /// the body may move a captured variable out of its own register (its last read as a
    /// local, `Code::Move`) before it calls a member.
    fn let_rec(&mut self, group: u32, first_slot: u32) -> Option<()> {
        let g = &self.prog.groups[group as usize];
        let sources: Vec<Reg> = g
            .captures
            .iter()
            .map(|s| self.source(*s))
            .collect::<Option<_>>()?;
        let captures: Rc<[Reg]> = sources
            .into_iter()
            .map(|src| {
                let dst = self.temp()?;
                self.emit(Ins::Copy { dst, src });
                Some(dst)
            })
            .collect::<Option<_>>()?;
        let first = self.b.kernels.len() as u32;
        let members: Rc<[u32]> = (first..first + g.members.len() as u32).collect();
        for lambda in g.members.iter() {
            self.b.add(
                self.prog,
                *lambda,
                captures.len() as u32,
                Some(members.clone()),
            );
        }
        for (j, kernel) in members.iter().enumerate() {
            self.rec.push(RecSlot {
                slot: first_slot + j as u32,
                kernel: *kernel,
                captures: captures.clone(),
            });
        }
        Some(())
    }

    /// A call of the kernel of candidate lambda `l` (a top-level function or a method,
    /// over nothing) with `args`.
    fn call_candidate(&mut self, l: u32, args: &[CodeId], dst: Reg, tail: bool) -> Option<()> {
        let kernel = (*self.of_lambda.get(l as usize)?)?;
        self.call(kernel, &[], args, dst, tail)
    }

    /// A call of `kernel` with `args` and the captured values in `captures`: its frame
    /// laid out in temporaries above the live registers (free again after it), then a
    /// call into `dst` (or, in tail position, the frame moved down in place of the
    /// running one, which needs no `Ret`).
    fn call(
        &mut self,
        kernel: u32,
        captures: &[Reg],
        args: &[CodeId],
        dst: Reg,
        tail: bool,
    ) -> Option<()> {
        let callee = self.b.kernels[kernel as usize];
        if callee.arity as usize != args.len() || callee.captures as usize != captures.len() {
            return None;
        }
        let width = callee.frame_width();
        // A kernel calling itself in tail position keeps its captured values where they
        // are (its own registers), and computes an argument straight into its parameter
        // where that parameter's value is read no more (`free_from`, `stays`, `direct`):
        // `q` in `safe q (d + 1) rest` stays, `d + 1` and `rest` go there.
        let again = tail
            && kernel == self.me
            && captures
                .iter()
                .enumerate()
                .all(|(i, r)| u32::from(*r) == self.slots + i as u32);
        let base = self.next;
        for _ in 0..width {
            self.temp()?;
        }
        let mut keep = 0u8;
        for (i, a) in args.iter().enumerate() {
            let mut dst = (base + i as u32) as Reg;
            if again && self.free_from(args, i) {
                if self.stays(*a, i) {
                    keep |= 1 << i;
                    continue;
                }
                if self.direct(*a, i) {
                    keep |= 1 << i;
                    dst = i as Reg;
                }
            }
            self.expr(*a, dst, false)?;
            self.next = base + width;
        }
        if !again {
            // (Moved, in tail position: nothing in this frame reads them after the call.)
            for (i, src) in captures.iter().enumerate() {
                let (dst, src) = ((base + callee.slots + i as u32) as Reg, *src);
                self.emit(if tail {
                    Ins::Take { dst, src }
                } else {
                    Ins::Copy { dst, src }
                });
            }
        }
        self.b.calls[self.me as usize].push(kernel);
        self.next = base;
        let base = base as Reg;
        if tail {
            // (Its `let`s' registers are emptied as before: the reserved temporaries
            // above the arguments hold nothing.)
            let moved = if again && !captures.is_empty() {
                callee.slots
            } else {
                width
            };
            let mut n = u8::try_from(moved).ok()?;
            // (Nothing to move from the last parameters on that hold theirs already.)
            while n > 0 && n <= 8 && keep & (1 << (n - 1)) != 0 {
                n -= 1;
                keep &= !(1 << n);
            }
            self.emit(Ins::TailCall {
                kernel,
                entry: 0,
                base,
                n,
                keep,
                clear: Regs::NONE,
            });
        } else {
            self.emit(Ins::Call {
                kernel,
                entry: 0,
                dst,
                base,
            });
        }
        Some(())
    }

    /// A call of the function value register `f` holds with `args` (`Ins::Apply`): the
    /// arguments computed into temporaries above the live registers, where the callee's
    /// frame starts (free again after it).
    fn apply(&mut self, f: Reg, args: &[CodeId], dst: Reg) -> Option<()> {
        let n = u8::try_from(args.len()).ok()?;
        if n == 0 || usize::from(n) > MAX_ARGS {
            return None;
        }
        let base = self.consecutive(args)?;
        self.next = u32::from(base);
        self.emit(Ins::Apply { f, dst, base, n });
        Some(())
    }

    /// Whether, from argument `i` of a kernel's call of itself in tail position on, the
    /// code reads parameter `i`'s register no more but for that argument: no later
    /// argument reads the parameter, and the register keeps no node for the code below
    /// (a `NodeIn`'s token, parts to bind or to release).
    fn free_from(&self, args: &[CodeId], i: usize) -> bool {
        let (s, r) = (i as u32, i as Reg);
        self.slot(s) == Some(r)
            && !args[i + 1..]
                .iter()
                .any(|l| liveness::reads(self.prog, *l).has(s))
            && !self.tokens.iter().any(|t| t.0 == r)
            && !self.known.iter().any(|k| k.0 == r)
            && !self.pending.iter().any(|p| p.node == r)
    }

    /// Whether argument `arg`, at position `i` (`free_from` it), is parameter `i`'s own
    /// value: it stays in its register.
    fn stays(&self, arg: CodeId, i: usize) -> bool {
        matches!(self.prog.code[arg as usize], Code::Local(v) | Code::Move(v) if v == i as u32)
    }

    /// Whether argument `arg`, at position `i` (`free_from` it), can be computed straight
    /// into parameter `i`'s register: its code does not read the parameter, or reads it in
    /// its one instruction (a native on variables and constants, `d + 1`; code such as
    /// `&&` stores into its register before it reads its operands again).
    fn direct(&self, arg: CodeId, i: usize) -> bool {
        let one_instruction = match &self.prog.code[arg as usize] {
            Code::Prim1(_, a) => self.is_leaf(*a),
            Code::Prim2(_, a, b) => self.is_leaf(*a) && self.is_leaf(*b),
            _ => false,
        };
        one_instruction || !liveness::reads(self.prog, arg).has(i as u32)
    }

    /// A node of `kind` whose parts are `parts`, into `dst`: in the memory of an emptied
    /// node of as many parts, where the path keeps one.
    fn node(&mut self, kind: NodeKind, parts: &[CodeId], dst: Reg) -> Option<()> {
        let n = u8::try_from(parts.len()).ok()?;
        let moved = self.moved_in_order(parts);
        let base = match moved {
            Some(first) => first,
            None => self.consecutive(parts)?,
        };
        // (Looked up once the parts are computed: a node among them may take a token.)
        let token = self.tokens.iter().rposition(|t| {
            t.1 == n && (moved.is_none() || !(base..base.saturating_add(n)).contains(&t.0))
        });
        match token {
            Some(i) => {
                let token = self.tokens.remove(i).0;
                self.emit(Ins::NodeIn {
                    kind,
                    dst,
                    base,
                    n,
                    token,
                })
            }
            None => self.emit(Ins::Node { kind, dst, base, n }),
        };
        Some(())
    }

    /// The register of the first of `parts` where each is a variable's last read
    /// (`Code::Move`) and their registers follow each other in order (`Cons k acc` over
    /// parameters `k` and `acc`): a node takes its parts out of them in place, as the
    /// moves into temporaries would have.
    fn moved_in_order(&self, parts: &[CodeId]) -> Option<Reg> {
        let mut first = None;
        for (i, part) in parts.iter().enumerate() {
            let Code::Move(s) = self.prog.code[*part as usize] else {
                return None;
            };
            let r = self.slot(s)?;
            let first = *first.get_or_insert(r);
            if usize::from(r) != usize::from(first) + i {
                return None;
            }
        }
        first
    }

    /// A branch of an `if` (`body`, the other being `other`): the nodes kept for re-use
    /// on the path before it are kept for each branch alike; in tail position, what only
    /// the other branch reads is released first (`release_dead`).
    fn branch(&mut self, body: CodeId, other: CodeId, dst: Reg, tail: bool) -> Option<()> {
        let saved = self.path();
        if tail {
            let here = liveness::reads(self.prog, body);
            let others = liveness::reads(self.prog, other);
            self.open_dead(body, &here);
            self.release_dead(body, &here, &others);
        }
        self.expr(body, dst, tail)?;
        self.restore(saved);
        Some(())
    }

    /// What the path compiled so far keeps, to compile another path from the same point.
    fn path(&self) -> Path {
        Path {
            tokens: self.tokens.clone(),
            known: self.known.clone(),
            pending: self.pending.clone(),
        }
    }

    fn restore(&mut self, path: Path) {
        (self.tokens, self.known, self.pending) = (path.tokens, path.known, path.pending);
    }

    /// Before node `id`, in tail position: binds the pending parts it reads (`Pending`).
    /// An `if`, a `let` or a `match` binds those its condition, value or scrutinee reads,
    /// and leaves the others to its branches; any other node binds all it reads, and the
    /// nodes they are parts of become known (`Compile::known`).
    fn bind_pending(&mut self, id: CodeId) -> Option<()> {
        let first: &[CodeId] = match &self.prog.code[id as usize] {
            Code::If(c, _, _) | Code::Let { value: c, .. } | Code::Match { scrutinee: c, .. } => {
                std::slice::from_ref(c)
            }
            Code::MatchTuple { items, .. } => items,
            _ => {
                let reads = liveness::reads(self.prog, id);
                for p in std::mem::take(&mut self.pending) {
                    self.copy_parts(p.node, &p.to, |r| reads.has(r as u32))?;
                    self.know(p.node, p.to.len());
                }
                return Some(());
            }
        };
        let mut reads = Slots::new(0);
        for c in first {
            reads.union(&liveness::reads(self.prog, *c));
        }
        // Code that reads a node itself may move it away: its parts are bound before.
        self.settle_pending(|p| reads.has(p.node as u32))?;
        // An `if` comparing parts reads them in place (`in_place`): they stay pending.
        let in_place: Vec<Reg> = match &self.prog.code[id as usize] {
            Code::If(c, _, _) => self.in_place(*c).map_or(Vec::new(), |ops| {
                ops.iter().filter_map(|o| o.part.map(|_| o.var)).collect()
            }),
            _ => Vec::new(),
        };
        let bound = |r: Reg| reads.has(r as u32) && !in_place.contains(&r);
        let mut pending = std::mem::take(&mut self.pending);
        for p in &mut pending {
            self.copy_parts(p.node, &p.to, bound)?;
            for to in &mut p.to {
                *to = to.filter(|r| !bound(*r));
            }
        }
        self.pending = pending;
        Some(())
    }

    /// The operands of comparison `c`, an `if`'s condition in tail position, where it
    /// reads at least one pending part (`Pending`) and nothing but variables: each a
    /// variable's register, or the pending part bound to it, read in place
    /// (`Ins::JumpUnlessPartBin`).
    fn in_place(&self, c: CodeId) -> Option<[InPlace; 2]> {
        let Code::Prim2(p, a, b) = self.prog.code[c as usize] else {
            return None;
        };
        if !is_comparison(p) {
            return None;
        }
        let operand = |id: CodeId| -> Option<InPlace> {
            let var = match self.prog.code[id as usize] {
                Code::Local(s) | Code::Move(s) => self.slot(s)?,
                Code::Capture(i) => self.capture(i)?,
                _ => return None,
            };
            let part = self.pending.iter().find_map(|p| {
                let i = p.to.iter().position(|t| *t == Some(var))?;
                Some((p.node, u8::try_from(i).ok()?))
            });
            Some(InPlace { var, part })
        };
        let ops = [operand(a)?, operand(b)?];
        ops.iter().any(|o| o.part.is_some()).then_some(ops)
    }

    /// Binds every part of the pending nodes `which` picks (`Part`), which then become
    /// known (`Compile::known`).
    fn settle_pending(&mut self, which: impl Fn(&Pending) -> bool) -> Option<()> {
        let (settled, pending) = std::mem::take(&mut self.pending)
            .into_iter()
            .partition::<Vec<_>, _>(which);
        self.pending = pending;
        for p in settled {
            self.copy_parts(p.node, &p.to, |_| true)?;
            self.know(p.node, p.to.len());
        }
        Some(())
    }

    /// Notes that variable register `node` holds a node of `n` parts, copied out.
    fn know(&mut self, node: Reg, n: usize) {
        let known = (node, n as u8);
        if unpackable(n) && !self.known.contains(&known) {
            self.known.push(known);
        }
    }

    /// `Part`s copying out of node register `node` the parts bound to the registers `to`
    /// that `wanted` picks.
    fn copy_parts(
        &mut self,
        node: Reg,
        to: &[Option<Reg>],
        wanted: impl Fn(Reg) -> bool,
    ) -> Option<()> {
        for (i, dst) in to.iter().enumerate() {
            if let Some(dst) = dst.filter(|r| wanted(*r)) {
                let i = u8::try_from(i).ok()?;
                self.emit(Ins::Part { dst, src: node, i });
            }
        }
        Some(())
    }

    /// Where a branch in tail position starts (`body`, reading the slots `here`): the
    /// pending nodes (`Pending`) it reads no more, if `unpackable`, are taken apart, their
    /// parts it reads moved to their variables, their memory kept for a node it builds of
    /// as many parts.
    fn open_dead(&mut self, body: CodeId, here: &Slots) {
        let mut i = 0;
        while i < self.pending.len() {
            let p = &self.pending[i];
            if here.has(p.node as u32) || !unpackable(p.to.len()) {
                i += 1;
                continue;
            }
            let p = self.pending.remove(i);
            self.unpack(p.node, &p.to, |r| here.has(r as u32), body);
        }
    }

    /// `Unpack` of the node (of `unpackable` parts) in register `node`, read no more: its
    /// parts bound to the registers `to` that `wanted` picks are moved there, the others
    /// released, and its memory is kept for a node of as many parts that `body` builds.
    fn unpack(
        &mut self,
        node: Reg,
        to: &[Option<Reg>],
        wanted: impl Fn(Reg) -> bool,
        body: CodeId,
    ) {
        let n = to.len() as u8;
        let keep = builds(self.prog, body, n);
        let to = std::array::from_fn(|i| {
            let r = to.get(i).copied().flatten();
            r.filter(|r| wanted(*r)).unwrap_or(node)
        });
        self.emit(Ins::Unpack {
            src: node,
            to,
            n,
            keep,
        });
        if keep {
            self.tokens.push((node, n));
        }
    }

    /// Where a branch in tail position starts (`body`, reading the slots `here`; its
    /// siblings read `others`): the known nodes (`Compile::known`) it reads no more are
    /// spared for a node it builds of as many parts (or released), and the variables only
    /// its siblings read are released, so that nothing holds on to what this path is done
    /// with (a part still held keeps its node shared: taking it apart would copy).
    fn release_dead(&mut self, body: CodeId, here: &Slots, others: &Slots) {
        let mut i = 0;
        while i < self.known.len() {
            let (r, n) = self.known[i];
            if here.has(r as u32) {
                i += 1;
                continue;
            }
            self.known.remove(i);
            if builds(self.prog, body, n) {
                self.emit(Ins::Spare { r });
                self.tokens.push((r, n));
            } else {
                self.emit(Ins::Clear { from: r, n: 1 });
            }
        }
        // Parts not bound yet hold nothing.
        let unbound = |r: Reg| self.pending.iter().any(|p| p.to.contains(&Some(r)));
        let dead: Vec<Reg> = others
            .iter()
            .filter(|s| !here.has(*s))
            .filter_map(|s| self.slot(s))
            .filter(|r| !self.tokens.iter().any(|t| t.0 == *r) && !unbound(*r))
            .collect();
        for r in dead {
            self.emit(Ins::Clear { from: r, n: 1 });
        }
    }

    /// The arms of a `match`, tried in order as `Machine::arm` tries them, on the value in
    /// register `items[0]`; or, for a `match` on a tuple expression (`tuple`), on the
    /// tuple's parts in `items`, as `Machine::tuple_arm` tries them (a tuple pattern's
    /// parts matched against them, any other pattern matching). Each arm's tests jump to
    /// the next arm; its variables are bound once they all pass. With each register, whether
    /// it is its variable's last read (`Code::Move`).
    fn arms(
        &mut self,
        items: &[(Reg, bool)],
        arms: &[(Pat, CodeId)],
        tuple: bool,
        dst: Reg,
        tail: bool,
    ) -> Option<()> {
        let mut to_end = Vec::new();
        let mark = self.next;
        // In tail position, the slots each arm's body reads, and of those, the ones it
        // reads from before the match (not bound by its pattern).
        let reads: Option<Vec<(Slots, Slots)>> = tail.then(|| {
            arms.iter()
                .map(|(pat, body)| {
                    let here = liveness::reads(self.prog, *body);
                    let mut before = here.clone();
                    liveness::pat_binds(pat, &mut |s| before.remove(s));
                    (here, before)
                })
                .collect()
        });
        let outer = std::mem::take(&mut self.not_ctors);
        for (k, (pat, body)) in arms.iter().enumerate() {
            let mut fails = Vec::new();
            let mut binds = Vec::new();
            match pat {
                Pat::Tuple(subs) if tuple => {
                    if subs.len() != items.len() {
                        return None;
                    }
                    for (sub, (r, _)) in subs.iter().zip(items) {
                        self.pattern(sub, *r, &mut fails, &mut binds)?;
                    }
                }
                Pat::Wild if tuple => {}
                _ if tuple => return None,
                _ => self.pattern(pat, items[0].0, &mut fails, &mut binds)?,
            }
            // An arm whose one test is a constructor's on a scrutinee tells the next
            // arms that the scrutinee holds another constructor.
            let excluded = match fails[..] {
                [at] => match self.b.code[at] {
                    Ins::JumpUnlessCtor { r, ctor, .. } if items.iter().any(|i| i.0 == r) => {
                        Some((r, ctor))
                    }
                    _ => None,
                },
                _ => None,
            };
            let tested = std::mem::take(&mut self.not_ctors);
            // The pattern's temporaries stay the arm's: they may keep emptied nodes.
            let temps = (mark, self.next);
            let saved = self.path();
            let here = reads.as_ref().map(|r| &r[k].0);
            self.bind(&binds, items, *body, here)?;
            if let (Some(reads), Some(here)) = (&reads, here) {
                self.open_dead(*body, here);
                let mut others = Slots::new(0);
                for (j, (_, before)) in reads.iter().enumerate() {
                    if j != k {
                        others.union(before);
                    }
                }
                self.release_dead(*body, here, &others);
            }
            self.expr(*body, dst, tail)?;
            self.restore(saved);
            self.next = mark;
            self.not_ctors = tested;
            self.not_ctors.extend(excluded);
            if !tail {
                to_end.push(self.emit(Ins::Jump { to: 0 }));
            }
            let always = fails.is_empty();
            for jump in fails {
                self.patch(jump);
            }
            // Where a test failed, parts the tests read go: the nodes they are parts of
            // stay held by the scrutinee alone.
            if !always && temps.1 > temps.0 {
                let from = temps.0 as Reg;
                let n = u8::try_from(temps.1 - temps.0).ok()?;
                self.emit(Ins::Clear { from, n });
            }
            // Later arms are never tried.
            if always {
                break;
            }
        }
        self.not_ctors = outer;
        self.emit(Ins::GiveUp);
        for jump in to_end {
            self.patch(jump);
        }
        Some(())
    }

    /// Whether register `r` holds constructor `ctor` for certain: the tests of earlier
    /// arms found it to be none of the other constructors of its type (so it is no
    /// indeterminate value either), and a pattern of its arity matches it.
    fn only_left(&self, r: Reg, ctor: u32, bare: bool) -> bool {
        let ctors = &self.prog.ctors;
        let Some(info) = ctors.get(ctor as usize) else {
            return false;
        };
        let excluded = |c: u32| self.not_ctors.contains(&(r, c));
        bare == (info.arity == 0)
            && self.not_ctors.iter().any(|n| n.0 == r)
            && (0..ctors.len() as u32)
                .filter(|c| *c != ctor && ctors[*c as usize].adt == info.adt)
                .all(excluded)
    }

    /// Binds an arm's variables once its tests passed (`binds`, from `pattern`). A node
    /// the arm's `body` reads no more is taken apart (`Unpack`), its memory kept for a
    /// node the body builds; the parts of another are copied out (`Part`). `reads`: the
    /// slots the body reads, where nothing after it reads the frame (tail position).
    fn bind(
        &mut self,
        binds: &[Binding],
        items: &[(Reg, bool)],
        body: CodeId,
        reads: Option<&Slots>,
    ) -> Option<()> {
        // A variable the body does not read is bound to nothing; a temporary holds a part
        // that a pattern takes apart further (its `Binding` comes after its node's).
        let temps = self.slots + self.captures;
        let is_temp = move |r: Reg| r as u32 >= temps;
        let read = |r: &Reg| is_temp(*r) || reads.is_none_or(|l| l.has(*r as u32));
        let matched = |b: &Binding| match b {
            Binding::Whole { src, .. } => *src,
            Binding::Parts { node, .. } => *node,
        };
        // A node an enclosing arm left pending, matched again here, has its parts bound
        // first: this arm may take it apart.
        let again: Vec<Reg> = binds.iter().map(matched).collect();
        self.settle_pending(|p| again.contains(&p.node))?;
        for b in binds {
            match b {
                Binding::Whole { src, dst } => {
                    let (src, dst) = (*src, *dst);
                    if !read(&dst) {
                        continue;
                    }
                    if self.dead(src, items, reads) {
                        self.emit(Ins::Take { dst, src });
                    } else {
                        self.emit(Ins::Copy { dst, src });
                    }
                }
                Binding::Parts { node, to } => {
                    let node = *node;
                    if unpackable(to.len()) && self.dead(node, items, reads) {
                        self.unpack(node, to, |r| read(&r), body);
                        continue;
                    }
                    let to: Vec<Option<Reg>> = to.iter().map(|r| r.filter(read)).collect();
                    // In tail position, a variable's parts are bound where they are read
                    // (unless the arm matches the variable twice: a branch would take
                    // it apart twice).
                    let twice = again.iter().filter(|r| **r == node).count() > 1;
                    if reads.is_some() && (node as u32) < self.slots && !twice {
                        self.copy_parts(node, &to, is_temp)?;
                        let to = to.into_iter().map(|r| r.filter(|r| !is_temp(*r)));
                        self.pending.push(Pending {
                            node,
                            to: to.collect(),
                        });
                        continue;
                    }
                    self.copy_parts(node, &to, |_| true)?;
                    if (node as u32) < self.slots {
                        self.know(node, to.len());
                    }
                }
            }
        }
        Some(())
    }

    /// Whether register `r`, which an arm's pattern reads, is read no more once the arm's
    /// variables are bound: a temporary (a part, a computed scrutinee); or a variable
    /// matched once at its last read, or read nowhere in the arm's body in tail position
    /// (`reads`), not a captured value nor a `let rec` member.
    fn dead(&self, r: Reg, items: &[(Reg, bool)], reads: Option<&Slots>) -> bool {
        let at = r as u32;
        if at >= self.slots + self.captures {
            return true;
        }
        if at >= self.slots || self.rec.iter().any(|x| x.slot == at) {
            return false;
        }
        let mut matched = items.iter().filter(|(i, _)| *i == r);
        match (matched.next(), matched.next()) {
            (Some((_, moved)), None) => *moved || reads.is_some_and(|l| !l.has(at)),
            _ => false,
        }
    }

    /// Tests of pattern `p` on register `r`: each test that fails jumps (patched by the
    /// caller, from `fails`) to the next arm. What it binds goes to `binds`, parts that
    /// are tested further read into temporaries here. `None` for patterns outside the
    /// subset (strings, floats, records).
    fn pattern(
        &mut self,
        p: &Pat,
        r: Reg,
        fails: &mut Vec<usize>,
        binds: &mut Vec<Binding>,
    ) -> Option<()> {
        let subs = match p {
            Pat::Wild => return Some(()),
            Pat::Bind(s) => {
                let dst = self.slot(*s)?;
                binds.push(Binding::Whole { src: r, dst });
                return Some(());
            }
            Pat::Int(text) => {
                let v = text.parse::<i32>().map_or(Lit::BeyondI32, Lit::I32);
                fails.push(self.emit(Ins::JumpUnless { r, v, to: 0 }));
                return Some(());
            }
            Pat::Bool(b) => {
                let v = Lit::Bool(*b);
                fails.push(self.emit(Ins::JumpUnless { r, v, to: 0 }));
                return Some(());
            }
            Pat::Ctor(ctor, subs) => {
                let (ctor, bare) = (*ctor, subs.is_empty());
                if !self.only_left(r, ctor, bare) {
                    fails.push(self.emit(Ins::JumpUnlessCtor {
                        r,
                        bare,
                        ctor,
                        to: 0,
                    }));
                }
                subs
            }
            Pat::Tuple(subs) => {
                let n = u8::try_from(subs.len()).ok()?;
                fails.push(self.emit(Ins::JumpUnlessTuple { r, n, to: 0 }));
                subs
            }
            // Fields bound as they are found (the record is left whole).
            Pat::Fields(fs) => {
                let mut to = [r; MAX_UNPACK];
                let mut names = Vec::new();
                for (name, sub) in fs.iter() {
                    match sub {
                        Pat::Wild => {}
                        Pat::Bind(s) => {
                            *to.get_mut(names.len())? = self.slot(*s)?;
                            names.push(name.clone());
                        }
                        _ => return None,
                    }
                }
                let n = names.len() as u8;
                let names = self.names(&names);
                self.emit(Ins::Fields {
                    src: r,
                    to,
                    n,
                    names,
                });
                return Some(());
            }
            Pat::Float(_) | Pat::Str(_) | Pat::Marked => return None,
        };
        if subs.is_empty() {
            return Some(());
        }
        let at = binds.len();
        binds.push(Binding::Parts {
            node: r,
            to: Vec::new(),
        });
        let mut to = Vec::with_capacity(subs.len());
        for (i, sub) in subs.iter().enumerate() {
            let i = u8::try_from(i).ok()?;
            match sub {
                Pat::Wild => to.push(None),
                Pat::Bind(s) => to.push(Some(self.slot(*s)?)),
                // A constructor of variables (`Cons b rest`, `Empty`) is tested in place;
                // its parts, if it has some, go to a temporary of its own as its node is
                // taken apart (or copied), once every test passed.
                Pat::Ctor(ctor, parts)
                    if parts.iter().all(|p| matches!(p, Pat::Wild | Pat::Bind(_))) =>
                {
                    let (ctor, bare) = (*ctor, parts.is_empty());
                    fails.push(self.emit(Ins::JumpUnlessPartCtor {
                        r,
                        i,
                        bare,
                        ctor,
                        to: 0,
                    }));
                    if bare {
                        to.push(None);
                        continue;
                    }
                    let t = self.temp()?;
                    to.push(Some(t));
                    let mut vars = Vec::with_capacity(parts.len());
                    for p in parts {
                        vars.push(match p {
                            Pat::Bind(s) => Some(self.slot(*s)?),
                            _ => None,
                        });
                    }
                    binds.push(Binding::Parts { node: t, to: vars });
                }
                _ => {
                    let t = self.temp()?;
                    self.emit(Ins::Part { dst: t, src: r, i });
                    self.pattern(sub, t, fails, binds)?;
                    to.push(None);
                }
            }
        }
        binds[at] = Binding::Parts { node: r, to };
        Some(())
    }

    /// Jumps, to be patched, taken where condition `c` is `when`; elsewhere control falls
    /// through. A comparison jumps on its operands without storing the boolean
    /// (`JumpUnlessBin`; where the jump is taken on true, only `==` and `!=` are turned
    /// into each other, as the negation of an ordering is not one for every value), and
    /// `&&` and `||` jump straight to where their value sends control: the jumps of `a`
    /// that decide `a && b` (`a || b`) go where the whole does, the others past `b`.
    fn jumps(&mut self, c: CodeId, when: bool) -> Option<Vec<usize>> {
        match self.prog.code[c as usize] {
            Code::And(a, b) | Code::Or(a, b) => {
                let decides = matches!(self.prog.code[c as usize], Code::Or(..));
                let mut first = self.jumps(a, decides)?;
                // `b` runs on one path only: what it uses of the nodes kept for re-use is
                // not used on the other (as for `&&` and `||` as values, `expr`).
                let tokens = self.tokens.clone();
                let second = self.jumps(b, when)?;
                self.tokens = tokens;
                if when == decides {
                    first.extend(second);
                    return Some(first);
                }
                for j in first {
                    self.patch(j);
                }
                Some(second)
            }
            Code::Prim2(p, a, b)
                if is_comparison(p) && (!when || matches!(p, Prim::Eq | Prim::Ne)) =>
            {
                let p = match (when, p) {
                    (true, Prim::Eq) => Prim::Ne,
                    (true, _) => Prim::Eq,
                    (false, p) => p,
                };
                if let Code::Const(Value::I32(k)) = self.prog.code[b as usize] {
                    let a = self.operand(a)?;
                    return Some(vec![self.emit(Ins::JumpUnlessBinK { p, a, k, to: 0 })]);
                }
                if let Some([x, y]) = self.in_place(c) {
                    let ((a, ia), (b, ib)) = (x.read(), y.read());
                    let ins = Ins::JumpUnlessPartBin {
                        p,
                        a,
                        ia,
                        b,
                        ib,
                        to: 0,
                    };
                    return Some(vec![self.emit(ins)]);
                }
                let regs = self.operands(&[a, b])?;
                let (a, b) = (regs[0], regs[1]);
                Some(vec![self.emit(Ins::JumpUnlessBin { p, a, b, to: 0 })])
            }
            _ => {
                let r = self.operand(c)?;
                Some(vec![self.emit(Ins::JumpIf { r, when, to: 0 })])
            }
        }
    }

    /// Points the jump at `at` here.
    fn patch(&mut self, at: usize) {
        let here = self.b.code.len() as u32;
        match &mut self.b.code[at] {
            Ins::JumpIf { to, .. }
            | Ins::Jump { to }
            | Ins::JumpUnless { to, .. }
            | Ins::JumpUnlessCtor { to, .. }
            | Ins::JumpUnlessPartCtor { to, .. }
            | Ins::JumpUnlessTuple { to, .. }
            | Ins::JumpUnlessBin { to, .. }
            | Ins::JumpUnlessPartBin { to, .. }
            | Ins::JumpUnlessBinK { to, .. } => *to = here,
            _ => {}
        }
    }
}

/// Whether `ins` computes on scalars alone (`Register` for `Scalar` decides it as on
/// values: its natives are those of `natives::i32_binary`'s table, and negation).
fn on_scalars(ins: &Ins, consts: &[Value]) -> bool {
    match ins {
        Ins::Const { k, .. } => Scalar::of(&consts[*k as usize]).is_some(),
        Ins::Bin { p, .. }
        | Ins::BinK { p, .. }
        | Ins::JumpUnlessBin { p, .. }
        | Ins::JumpUnlessBinK { p, .. } => matches!(
            p,
            Prim::Add
                | Prim::Sub
                | Prim::Mul
                | Prim::Div
                | Prim::Mod
                | Prim::Eq
                | Prim::Ne
                | Prim::Lt
                | Prim::Le
                | Prim::Gt
                | Prim::Ge
        ),
        Ins::Un { p, .. } => *p == Prim::Neg,
        Ins::Copy { .. }
        | Ins::Take { .. }
        | Ins::JumpIf { .. }
        | Ins::Jump { .. }
        | Ins::JumpUnless { .. }
        | Ins::GiveUp
        | Ins::Call { .. }
        | Ins::TailCall { .. }
        | Ins::Ret { .. } => true,
        Ins::JumpUnlessCtor { .. }
        | Ins::JumpUnlessPartCtor { .. }
        | Ins::JumpUnlessTuple { .. }
        | Ins::JumpUnlessPartBin { .. }
        | Ins::Part { .. }
        | Ins::Node { .. }
        | Ins::NodeIn { .. }
        | Ins::NodeInPair { .. }
        | Ins::NodeRet { .. }
        | Ins::NodeInRet { .. }
        | Ins::Link { .. }
        | Ins::Relink { .. }
        | Ins::Unpack { .. }
        | Ins::Spare { .. }
        | Ins::Fields { .. }
        | Ins::Field { .. }
        | Ins::Update { .. }
        | Ins::TupleField { .. }
        | Ins::Apply { .. } => false,
        Ins::Clear { .. } => true,
    }
}

/// Whether node `id` builds a constructor or tuple of `n` parts (somewhere in it, on some
/// path), which an emptied node of as many parts could hold.
fn builds(prog: &Program, id: CodeId, n: u8) -> bool {
    let mut todo = vec![id];
    while let Some(id) = todo.pop() {
        let code = &prog.code[id as usize];
        match code {
            Code::Construct { args: parts, .. } | Code::Tuple(parts)
                if parts.len() == n as usize =>
            {
                return true
            }
            _ => code.for_each_child(|c| todo.push(c)),
        }
    }
    false
}

/// Whether native `p` compares two values (its result a boolean).
fn is_comparison(p: Prim) -> bool {
    matches!(
        p,
        Prim::Eq | Prim::Ne | Prim::Lt | Prim::Le | Prim::Gt | Prim::Ge
    )
}

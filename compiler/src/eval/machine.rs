//! The abstract machine. Control is an explicit stack of continuations and frames live in
//! one value stack, so evaluation never recurses natively: a call in tail position (an
//! `if` or `match` branch, a `let` body) replaces its caller's frame, and deep non-tail
//! recursion grows heap stacks up to a limit that stops it with a clear error.

use std::borrow::Cow;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::dicts;
use super::ir::*;
use super::kernel::{Env, Kernels, Stop};
use super::kernel_register::{Register, Scalar};
use super::natives::{self, ListIds, Prim};
use super::print::Names;
use super::value::{
    into_pair_parts, pair_parts, truncate, Dict, DictRef, Fields, Node, NodeKind, Stuck, Value,
};
use super::{runtime, Fault, RunError};

mod fold_shared;
mod in_place;
mod quick_form;

use quick_form::Body;

/// Steps between two looks at the gas budget and the interrupt flag.
const CHECK_EVERY: u32 = 1 << 14;

/// How deep natives on quick operands nest and still count as quick.
const QUICK_DEPTH: u32 = 3;

/// How many emptied `map`/`filter` result buffers are kept for re-use, and the largest
/// kept (in values).
const MAX_SPARE: usize = 8;
const MAX_SPARE_LEN: usize = 1 << 12;

/// How many emptied nodes (taken apart by a `match`) are kept for the next constructors
/// of as many parts: a search tree's `insert` takes a node apart at each level and builds
/// one of the same shape on the way back, deeper than this only in degenerate trees.
const MAX_SPARE_NODES: usize = 64;

/// How many times a kernel may give up (`Machine::run_kernel`) before the machine stops
/// trying it: recursion too deep for kernels gives up at every level of the machine's.
const MAX_KERNEL_FAILURES: u8 = 2;

/// At most this many reached holes keep their environment (the rest are counted).
pub const MAX_RECORDED_HOLES: usize = 1000;

enum K {
    Eval(CodeId),
    Return {
        bp: u32,
        cp: u32,
    },
    /// Apply the function below `n` arguments on the value stack.
    Call(u32),
    /// Apply the value on top to the `n` arguments below it.
    ApplyRest(u32),
    CallMember(u32, u32),
    CallGlobal(u32, u32),
    Prim1(Prim),
    Prim2(Prim),
    And(CodeId),
    Or(CodeId),
    If(CodeId, CodeId),
    Let(u32, CodeId),
    Match(CodeId),
    MatchTuple(CodeId),
    Construct(u32, u32),
    Tuple(u32),
    List(u32),
    Record(CodeId),
    Field(CodeId),
    TupleField(u32),
    Update(CodeId),
    CacheGlobal(u32),
    CacheMethod(Rc<Dict>, u32),
    /// The next step of a fold: the accumulator on top, the rest of the list and the
    /// function below it.
    FoldNext,
    /// The next step of a `map` (`false`) or `filter` (`true`): the function's result on
    /// top (for `filter`, the element below it), the rest of the list and the function
    /// below; the results so far are the innermost of `Machine::building`.
    MapNext(bool),
}

/// The result of a running `map` or `filter`, built front to back.
#[derive(Default)]
struct Building {
    items: Vec<Value>,
    /// The input's cells the loop emptied (nothing else held them), to build the result
    /// in instead of freeing them and allocating as many.
    cells: Vec<Rc<Node>>,
    /// For `filter`: the last indeterminate condition, which the fold-and-reverse
    /// definition ends its result with (its `if` left stuck as the accumulator).
    stuck: Option<Value>,
    /// The front of the result done in the input's own cells (`map_in_place`), ending in
    /// the `Unit` that the rest of the result takes (`Unit` itself when nothing was).
    prefix: Value,
}

#[derive(Clone)]
enum GlobalState {
    Pending,
    Running,
    Done(Value),
}

/// A hole evaluation reached, with the values of the locals in scope there.
pub struct Reached {
    pub site: u32,
    pub env: Vec<(Rc<str>, Value)>,
}

pub struct Settings {
    pub gas: Option<u64>,
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Most entries of the continuation stack, and of the frame stack.
    pub max_stack: usize,
    /// Whether calls of kernels run them (`kernel`).
    pub kernels: bool,
}

/// What `eval` does next: stop, or continue with another node.
enum Flow {
    Done,
    Next(CodeId),
}

/// Runs kernel `k` on the values `args` (an expression giving them, read with the
/// machine's register stacks taken out): on scalars where the kernel computes on nothing
/// else and they all are, on values otherwise. `Ok(None)` where one is indeterminate, the
/// kernel gave the call back (`Machine::run_kernel`), or it gave back too many already.
macro_rules! kernel_on {
    ($m:ident, $k:expr, $args:expr) => {{
        let k = $k;
        if $m.kernel_failures[k as usize] >= MAX_KERNEL_FAILURES {
            Ok(None)
        } else {
            let mut scalars = std::mem::take(&mut $m.scalar_regs);
            if $m.kernels.on_scalars(k) && Kernels::load(&mut scalars, $args) {
                let run = $m.run_kernel(k, &mut scalars);
                $m.scalar_regs = scalars;
                run
            } else {
                $m.scalar_regs = scalars;
                let mut values = std::mem::take(&mut $m.kernel_regs);
                let run = if Kernels::load(&mut values, $args) {
                    $m.run_kernel(k, &mut values)
                } else {
                    Ok(None)
                };
                $m.kernel_regs = values;
                run
            }
        }
    }};
}

// (After `kernel_on`, which they call.)
mod each;
mod nested_call;

impl Flow {
    /// Runs `f` when done (everything was pushed), keeping a continuation as it is.
    fn or_else(self, f: impl FnOnce()) -> Flow {
        if let Flow::Done = self {
            f();
        }
        self
    }
}

/// A function value's kernel (`Machine::kernel_fn`), with what the value holds: the
/// arguments of a partial application, and the closure's captured values.
#[derive(Clone, Copy)]
struct KernelFn<'f> {
    k: u32,
    saved: &'f [Value],
    captured: &'f [Value],
}

/// What `apply_quick` did: the function's result, or nothing (the arguments back).
enum Quick<const N: usize> {
    Done(Result<Value, Fault>),
    Not([Value; N]),
}

enum Matched {
    Yes,
    No,
    Stuck,
}

pub struct Machine<'p> {
    prog: &'p Program,
    list: ListIds,
    /// Each instance's head as an index into `NUMERIC_TYPES`, for reading literals.
    numeric: Vec<Option<u8>>,
    ctrl: Vec<K>,
    vals: Vec<Value>,
    locals: Vec<Value>,
    bp: usize,
    cp: usize,
    globals: Vec<GlobalState>,
    settings: Settings,
    pub steps: u64,
    /// Steps left before the next look at the limits.
    budget: u32,
    pub reached: Vec<Reached>,
    pub reached_total: u64,
    /// The results of the running `map`s and `filter`s, innermost last.
    building: Vec<Building>,
    /// Emptied result buffers of finished `map`s and `filter`s, for the next ones (a
    /// `map` over a short list per step of a loop otherwise grows a new one each time).
    spare: Vec<Vec<Value>>,
    /// What `apply_quick` knows of each lambda's body.
    bodies: Vec<Body>,
    /// Nodes a `match` took apart (every part `Unit`), nothing else holding them, kept
    /// for the next node of as many parts (`node_of_vals`): their memory is re-used
    /// instead of freed and allocated again.
    spare_nodes: Vec<Rc<Node>>,
    /// The program's kernels (`kernel`), the registers they run on, and how many times
    /// each gave up.
    kernels: Kernels,
    kernel_regs: Vec<Value>,
    scalar_regs: Vec<Scalar>,
    kernel_failures: Vec<u8>,
    /// Times a kernel gave its call back.
    pub kernel_give_ups: u64,
}

impl<'p> Machine<'p> {
    pub fn new(prog: &'p Program, list: ListIds, settings: Settings) -> Machine<'p> {
        let numeric = prog
            .instances
            .iter()
            .map(|i| {
                let head = i.head.as_deref()?;
                NUMERIC_TYPES
                    .iter()
                    .position(|t| *t == head)
                    .map(|k| k as u8)
            })
            .collect();
        let kernels = if settings.kernels {
            Kernels::compile(prog)
        } else {
            Kernels::default()
        };
        let kernel_failures = vec![0; kernels.len()];
        Machine {
            prog,
            list,
            numeric,
            ctrl: Vec::new(),
            vals: Vec::new(),
            locals: Vec::new(),
            bp: 0,
            cp: 0,
            globals: vec![GlobalState::Pending; prog.globals.len()],
            settings,
            steps: 0,
            budget: CHECK_EVERY,
            reached: Vec::new(),
            reached_total: 0,
            building: Vec::new(),
            spare: Vec::new(),
            bodies: std::iter::repeat_with(|| Body::Unread)
                .take(prog.lambdas.len())
                .collect(),
            spare_nodes: Vec::new(),
            kernels,
            kernel_regs: Vec::new(),
            scalar_regs: Vec::new(),
            kernel_failures,
            kernel_give_ups: 0,
        }
    }

    /// Runs body `entry` (no parameters) to a value.
    pub fn run(&mut self, entry: u32) -> Result<Value, Fault> {
        let start = self.vals.len();
        let result = match self.enter(entry, start, 0, &[], None) {
            Ok(Flow::Next(body)) => {
                self.ctrl.push(K::Eval(body));
                self.run_loop()
            }
            Ok(Flow::Done) => self.run_loop(),
            Err(e) => Err(e),
        };
        // Drop what an error left behind before reporting it.
        self.ctrl.clear();
        self.locals.clear();
        self.building.clear();
        let v = result.map(|_| self.vals.pop().unwrap_or_default());
        self.vals.clear();
        v
    }

    fn run_loop(&mut self) -> Result<(), Fault> {
        let prog = self.prog;
        while let Some(k) = self.ctrl.pop() {
            self.tick()?;
            match k {
                K::Eval(id) => self.eval(prog, id)?,
                K::Return { bp, cp } => {
                    truncate(&mut self.locals, self.bp);
                    self.bp = bp as usize;
                    self.cp = cp as usize;
                }
                K::Call(n) => {
                    let flow = self.call(n as usize)?;
                    self.follow(prog, flow)?;
                }
                K::ApplyRest(n) => {
                    let f = self.pop();
                    let at = self.vals.len() - n as usize;
                    self.vals.insert(at, f);
                    let flow = self.call(n as usize)?;
                    self.follow(prog, flow)?;
                }
                K::CallMember(j, n) => {
                    let flow = self.call_member(j, n as usize)?;
                    self.follow(prog, flow)?;
                }
                K::CallGlobal(g, n) => {
                    let flow = self.call_global(g, n as usize)?;
                    self.follow(prog, flow)?;
                }
                K::Prim1(p) => {
                    let a = self.pop();
                    let v = natives::unary_owned(p, a, self.list)?;
                    self.vals.push(v);
                }
                K::Prim2(p) => {
                    let b = self.pop();
                    let a = self.pop();
                    let v = natives::binary(p, &a, &b);
                    a.release();
                    b.release();
                    self.vals.push(v?);
                }
                K::And(rhs) | K::Or(rhs) => {
                    let is_and = matches!(k, K::And(_));
                    match self.pop() {
                        Value::Bool(b) if b == is_and => self.ctrl.push(K::Eval(rhs)),
                        Value::Bool(b) => self.vals.push(Value::Bool(b)),
                        v @ Value::Stuck(_) => self.vals.push(Value::stuck(Stuck::Op {
                            op: if is_and { "&&" } else { "||" },
                            args: vec![v],
                        })),
                        _ => return Err(runtime("`&&`/`||` expect booleans")),
                    }
                }
                K::If(t, e) => match self.pop() {
                    Value::Bool(true) => self.eval(prog, t)?,
                    Value::Bool(false) => self.eval(prog, e)?,
                    c => self.branch(c, t, e)?,
                },
                K::Let(slot, body) => {
                    let v = self.pop();
                    self.locals[self.bp + slot as usize].set(v);
                    self.eval(prog, body)?;
                }
                K::Match(id) => {
                    let v = self.pop();
                    if let Some(body) = self.arm(prog, id, v)? {
                        self.eval(prog, body)?;
                    }
                }
                K::MatchTuple(id) => {
                    if let Some(body) = self.tuple_arm(prog, id)? {
                        self.eval(prog, body)?;
                    }
                }
                K::Construct(ctor, n) => {
                    let v = self.node_of_vals(NodeKind::Data(ctor), n as usize);
                    self.vals.push(v);
                }
                K::Tuple(n) => {
                    let v = self.node_of_vals(NodeKind::Tuple, n as usize);
                    self.vals.push(v);
                }
                K::List(n) => {
                    let items = self.pop_n(n as usize);
                    let v = self.build_list(items.into_iter());
                    self.vals.push(v);
                }
                K::Record(id) => self.finish_record(prog, id),
                K::Field(id) => {
                    if let Code::Field { name, .. } = &prog.code[id as usize] {
                        let base = self.pop();
                        let v = field(&prog.code, &base, name)?;
                        self.vals.push(v);
                    }
                }
                K::TupleField(i) => {
                    let base = self.pop();
                    let v = tuple_field(&base, i)?;
                    self.vals.push(v);
                }
                K::Update(id) => {
                    if let Code::Update { names, .. } = &prog.code[id as usize] {
                        let values = self.pop_n(names.len());
                        let base = self.pop();
                        let v = update(&prog.code, base, names, values)?;
                        self.vals.push(v);
                    }
                }
                K::FoldNext => {
                    let acc = self.pop();
                    let rest = self.pop();
                    let f = self.pop();
                    let flow = self.fold_step(f, acc, rest)?;
                    self.follow(prog, flow)?;
                }
                K::MapNext(filter) => {
                    let result = self.pop();
                    self.map_result(filter, result)?;
                    let flow = self.map_step(filter)?;
                    self.follow(prog, flow)?;
                }
                K::CacheGlobal(g) => {
                    if let Some(v) = self.vals.last() {
                        self.globals[g as usize] = GlobalState::Done(v.clone());
                    }
                }
                K::CacheMethod(d, m) => {
                    if let (Some(v), Some(cell)) = (self.vals.last(), d.methods.get(m as usize)) {
                        let _ = cell.set(v.clone());
                    }
                }
            }
        }
        Ok(())
    }

    /// Counts one step; every `CHECK_EVERY` steps, looks at the limits.
    #[inline(always)]
    fn tick(&mut self) -> Result<(), Fault> {
        self.budget -= 1;
        if self.budget == 0 {
            self.budget = CHECK_EVERY;
            self.check_limits()?;
        }
        Ok(())
    }

    fn check_limits(&mut self) -> Result<(), Fault> {
        check_limits(&mut self.steps, &self.settings)
    }

    /// The steps counted so far (`steps` adds them up a batch at a time).
    pub fn steps_taken(&self) -> u64 {
        self.steps + u64::from(CHECK_EVERY - self.budget)
    }

    /// A call of kernel `k` on the `n` values from `at` on (`n` is its arity: the call
    /// sites check it), in the frame slots being filled (`in_locals`) or on the value
    /// stack: when none is indeterminate and the kernel gives the value, the stack they
    /// are on is cut back to `cut`, the value pushed, and `true`. Out of line: the call
    /// sites only look up the kernel.
    #[inline(never)]
    fn kernel_value(
        &mut self,
        k: u32,
        in_locals: bool,
        at: usize,
        n: usize,
        cut: usize,
    ) -> Result<bool, Fault> {
        let run = kernel_on!(self, k, {
            let stack = if in_locals { &self.locals } else { &self.vals };
            &stack[at..at + n]
        });
        let Some(v) = run? else {
            return Ok(false);
        };
        truncate(
            if in_locals {
                &mut self.locals
            } else {
                &mut self.vals
            },
            cut,
        );
        self.vals.push(v);
        Ok(true)
    }

    /// The kernel of `kernel_fn` on `args` after the arguments it holds (as `map` and
    /// `foldl` apply it), its captured values where its slots end: its value, or `None`
    /// where an argument is indeterminate or the kernel gave the call back.
    fn kernel_apply<const N: usize>(
        &mut self,
        kernel: KernelFn<'_>,
        args: [&Value; N],
    ) -> Result<Option<Value>, Fault> {
        let KernelFn { k, saved, captured } = kernel;
        if captured.is_empty() && saved.is_empty() {
            // A top-level function, most often: the arguments alone, loaded without a
            // loop over a chain of two.
            kernel_on!(self, k, args)
        } else if captured.is_empty() {
            kernel_on!(self, k, saved.iter().chain(args))
        } else {
            self.kernel_apply_captured(k, saved, captured, args)
        }
    }

    /// `kernel_apply` of a closure with captured values. Out of line: the loops of
    /// `map`, `filter` and `foldl` keep their code for the calls they make most.
    #[inline(never)]
    fn kernel_apply_captured<const N: usize>(
        &mut self,
        k: u32,
        saved: &[Value],
        captured: &[Value],
        args: [&Value; N],
    ) -> Result<Option<Value>, Fault> {
        // (The `let`s between the parameters and the captured values start empty.)
        let unit = Value::Unit;
        let lets = self.kernels.lets(k);
        kernel_on!(
            self,
            k,
            saved
                .iter()
                .chain(args)
                .chain(std::iter::repeat_n(&unit, lets))
                .chain(captured)
        )
    }

    /// Runs kernel `k` on the arguments `Kernels::load`ed into `regs`. `None` when the
    /// machine is to run the call: the kernel gave up (the steps it counted taken back).
    #[inline(never)]
    fn run_kernel<R: Register>(
        &mut self,
        k: u32,
        regs: &mut Vec<R>,
    ) -> Result<Option<Value>, Fault> {
        let (budget, steps) = (self.budget, self.steps);
        let (settings, steps_now) = (&self.settings, &mut self.steps);
        let mut check = |budget: &mut u32| -> Result<(), Fault> {
            *budget = CHECK_EVERY;
            check_limits(steps_now, settings)
        };
        let used = self.locals.len().max(self.ctrl.len());
        let max_depth = self
            .kernels
            .max_depth(self.settings.max_stack.saturating_sub(used));
        let env = Env {
            list: self.list,
            code: &self.prog.code,
        };
        let run = self
            .kernels
            .run(env, k, regs, max_depth, &mut self.budget, &mut check);
        match run {
            Ok(v) => Ok(Some(v)),
            Err(Stop::Limit(fault)) => Err(fault),
            Err(Stop::GiveUp) => {
                (self.budget, self.steps) = (budget, steps);
                self.kernel_failures[k as usize] += 1;
                self.kernel_give_ups += 1;
                Ok(None)
            }
        }
    }

    fn pop(&mut self) -> Value {
        self.vals.pop().unwrap_or_default()
    }

    fn pop_n(&mut self, n: usize) -> Vec<Value> {
        let at = self.vals.len().saturating_sub(n);
        self.vals.split_off(at)
    }

    /// The `n` values on top, as the parts of a node (without an intermediate vector).
    fn pop_fields(&mut self, n: usize) -> Fields {
        if n == 2 && self.vals.len() >= 2 {
            // A list cell or a pair: popped straight into place.
            let b = self.pop();
            let a = self.pop();
            return Fields::pair(a, b);
        }
        let at = self.vals.len().saturating_sub(n);
        if n > 2 {
            // More parts than fit in place: one vector, copied out whole.
            return Fields::from(self.vals.split_off(at));
        }
        self.vals.drain(at..).collect()
    }

    /// A value that needs no machine step (a constant or a variable), by reference.
    #[inline(always)]
    fn peek<'a>(&'a self, prog: &'a Program, id: CodeId) -> Option<&'a Value> {
        self.peek_code(&prog.code[id as usize])
    }

    /// `peek` on the node itself.
    #[inline(always)]
    fn peek_code<'a>(&'a self, code: &'a Code) -> Option<&'a Value> {
        match code {
            Code::Const(v) => Some(v),
            Code::Local(s) | Code::Move(s) => Some(&self.locals[self.bp + *s as usize]),
            Code::Capture(i) => Some(&self.locals[self.cp + *i as usize]),
            _ => None,
        }
    }

    /// The value of a local whose last read this is (`Code::Move`), moved out of its slot.
    #[inline(always)]
    fn take_local(&mut self, s: u32) -> Value {
        std::mem::take(&mut self.locals[self.bp + s as usize])
    }

    /// `quick`, moving a local out of its slot at its last read.
    #[inline(always)]
    fn operand(&mut self, prog: &Program, id: CodeId) -> Option<Value> {
        match &prog.code[id as usize] {
            Code::Move(s) => Some(self.take_local(*s)),
            other => self.quick_code(other),
        }
    }

    #[inline(always)]
    fn quick(&self, prog: &Program, id: CodeId) -> Option<Value> {
        self.quick_code(&prog.code[id as usize])
    }

    /// `quick` on the node itself (one dispatch on its kind).
    #[inline(always)]
    fn quick_code(&self, code: &Code) -> Option<Value> {
        match code {
            Code::Method { dict, method, .. } => self.cached_method(dict, *method),
            Code::Literal { dict, values, .. } => self.known_literal(dict, values),
            other => self.peek_code(other).cloned(),
        }
    }

    /// A method already computed for the dictionary `dict` names (no machine step).
    #[inline]
    fn cached_method(&self, dict: &DictCode, method: u32) -> Option<Value> {
        match dict {
            DictCode::Build { .. } => None,
            DictCode::Super { .. } => {
                let d = self.dict(dict)?;
                d.methods.get(method as usize)?.get().cloned()
            }
            _ => {
                let d = self.dict_ref(dict)?;
                d.methods.get(method as usize)?.get().cloned()
            }
        }
    }

    /// The dictionary a `Static` or `At` code names, borrowed (`None` for the others, and
    /// where no dictionary could be supplied).
    #[inline]
    fn dict_ref<'a>(&'a self, dict: &'a DictCode) -> Option<&'a Rc<Dict>> {
        match dict {
            DictCode::Static(d) => d.as_ref(),
            DictCode::At(loc) => {
                let at = match loc {
                    Loc::Local(i) => self.bp + *i as usize,
                    Loc::Capture(i) => self.cp + *i as usize,
                };
                match self.locals.get(at) {
                    Some(Value::Dict(d)) => d.as_ref(),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// A literal whose dictionary is at hand and names a primitive numeric type it fits.
    #[inline]
    fn known_literal(&self, dict: &DictCode, values: &[Option<Value>]) -> Option<Value> {
        let d = self.dict_ref(dict)?;
        let k = (*self.numeric.get(d.instance as usize)?)?;
        values.get(k as usize)?.clone()
    }

    /// Like `quick`, and also a native applied to quick operands (`n - 1`, `n < 2`,
    /// `(x * 7) % 1000`, `k == 0` where `==` is a method: natives nest up to
    /// `QUICK_DEPTH` deep).
    #[inline(always)]
    fn quick_op(&self, prog: &Program, id: CodeId) -> Option<Result<Value, Fault>> {
        // The commonest case, a native on two variables or constants (`n < 2`, `k - 1`),
        // inline.
        if let Code::Prim2(p, a, b) = &prog.code[id as usize] {
            match (self.peek(prog, *a), self.peek(prog, *b)) {
                (Some(x), Some(y)) => return Some(natives::binary(*p, x, y)),
                // One level of nesting on the left, the next commonest (`(x * 7) % 1000`,
                // `x % 2 == 0`), also without going through `quick_at`'s copies.
                (None, Some(y)) => {
                    if let Some(v) = self.quick_nested(prog, *p, *a, y) {
                        return Some(v);
                    }
                }
                _ => {}
            }
        }
        self.quick_at(prog, id, QUICK_DEPTH)
    }

    /// `p a y` where `a` is a native on two variables or constants, computed in place.
    #[inline(never)]
    fn quick_nested(
        &self,
        prog: &Program,
        p: Prim,
        a: CodeId,
        y: &Value,
    ) -> Option<Result<Value, Fault>> {
        let Code::Prim2(q, c, d) = &prog.code[a as usize] else {
            return None;
        };
        let (u, w) = (self.peek(prog, *c)?, self.peek(prog, *d)?);
        let x = match natives::binary(*q, u, w) {
            Ok(x) => x,
            Err(e) => return Some(Err(e)),
        };
        let v = natives::binary(p, &x, y);
        x.release();
        Some(v)
    }

    fn quick_at(&self, prog: &Program, id: CodeId, depth: u32) -> Option<Result<Value, Fault>> {
        match &prog.code[id as usize] {
            Code::Prim2(p, a, b) => {
                if let (Some(x), Some(y)) = (self.peek(prog, *a), self.peek(prog, *b)) {
                    return Some(natives::binary(*p, x, y));
                }
                let a = match self.quick_arg(prog, *a, depth)? {
                    Ok(a) => a,
                    Err(e) => return Some(Err(e)),
                };
                let b = match self.quick_arg(prog, *b, depth)? {
                    Ok(b) => b,
                    Err(e) => return Some(Err(e)),
                };
                Some(natives::binary(*p, &a, &b))
            }
            Code::Prim1(p, a) => {
                let a = match self.quick_arg(prog, *a, depth)? {
                    Ok(a) => a,
                    Err(e) => return Some(Err(e)),
                };
                Some(natives::unary(*p, &a, self.list))
            }
            // A native reached through a computed method (`==` in a constrained loop).
            Code::App(f, args) if matches!(args.len(), 1 | 2) => {
                let Some(Value::Native(native)) = self.quick(prog, *f) else {
                    return None;
                };
                let p = Prim::from_id(native);
                if p.calls_back() || p.arity() as usize != args.len() {
                    return None;
                }
                let a = match self.quick_arg(prog, args[0], depth)? {
                    Ok(a) => a,
                    Err(e) => return Some(Err(e)),
                };
                let [_, b] = args[..] else {
                    return Some(natives::unary(p, &a, self.list));
                };
                let b = match self.quick_arg(prog, b, depth)? {
                    Ok(b) => b,
                    Err(e) => return Some(Err(e)),
                };
                Some(natives::binary(p, &a, &b))
            }
            other => self.quick_code(other).map(Ok),
        }
    }

    /// An operand of a quick native: a variable or constant by reference, or (while
    /// `depth` lasts) a quick native's result. Evaluating it has no effect but its value,
    /// or the error the machine would stop at in the same order.
    #[inline(always)]
    fn quick_arg<'a>(
        &'a self,
        prog: &'a Program,
        id: CodeId,
        depth: u32,
    ) -> Option<Result<Cow<'a, Value>, Fault>> {
        if let Some(v) = self.peek(prog, id) {
            return Some(Ok(Cow::Borrowed(v)));
        }
        match &prog.code[id as usize] {
            Code::Prim2(..) | Code::Prim1(..) | Code::App(..) if depth > 0 => self
                .quick_at(prog, id, depth - 1)
                .map(|r| r.map(Cow::Owned)),
            Code::Literal { dict, values, .. } => {
                self.known_literal(dict, values).map(|v| Ok(Cow::Owned(v)))
            }
            _ => None,
        }
    }

    /// Pushes the values of `items` in order: quick ones at once, the rest through the
    /// machine (after `then` is scheduled). `Done` when all were quick; otherwise the
    /// first item to evaluate next.
    #[inline]
    fn push_all(&mut self, prog: &Program, items: &[CodeId], then: K) -> Result<Flow, Fault> {
        for (i, id) in items.iter().enumerate() {
            match self.quick_item(prog, *id) {
                Some(v) => self.vals.push(v?),
                None => return Ok(self.schedule(items, i, then)),
            }
        }
        Ok(Flow::Done)
    }

    /// An operand's value when it needs no machine step. Variables and constants, the
    /// most common operands, are read without a call; calls, constructions and the like,
    /// never quick, go straight to the machine.
    #[inline(always)]
    fn quick_item(&mut self, prog: &Program, id: CodeId) -> Option<Result<Value, Fault>> {
        match &prog.code[id as usize] {
            Code::Prim1(..)
            | Code::Prim2(..)
            | Code::App(..)
            | Code::Method { .. }
            | Code::Literal { .. } => self.quick_op(prog, id),
            Code::Move(s) => Some(Ok(self.take_local(*s))),
            Code::Construct { ctor, args } => {
                self.quick_node(prog, NodeKind::Data(*ctor), args).map(Ok)
            }
            Code::Tuple(items) => self.quick_node(prog, NodeKind::Tuple, items).map(Ok),
            other => self.peek_code(other).map(|v| Ok(v.clone())),
        }
    }

    /// A constructor or tuple whose parts are all variables or constants (`Cons k acc`),
    /// built at once: no part can fail or need the machine, so nothing is moved out
    /// unless all are read.
    #[inline]
    fn quick_node(&mut self, prog: &Program, kind: NodeKind, parts: &[CodeId]) -> Option<Value> {
        if !parts.iter().all(|id| prog.code[*id as usize].is_leaf()) {
            return None;
        }
        let fields = match parts {
            [a, b] => {
                let a = self.leaf_value(prog, *a);
                let b = self.leaf_value(prog, *b);
                if let Some(mut rc) = self.spare_node(2) {
                    if let Some(parts) = Node::reuse(&mut rc, kind) {
                        parts[0].set(a);
                        parts[1].set(b);
                        return Some(Value::Node(rc));
                    }
                }
                Fields::pair(a, b)
            }
            _ => parts.iter().map(|p| self.leaf_value(prog, *p)).collect(),
        };
        Some(Node::value(kind, fields))
    }

    /// A spare node of `n` parts, if the last one kept has as many.
    #[inline(always)]
    fn spare_node(&mut self, n: usize) -> Option<Rc<Node>> {
        match self.spare_nodes.last() {
            Some(node) if node.fields.len() == n => self.spare_nodes.pop(),
            _ => None,
        }
    }

    /// A node of `kind` whose `n` parts are the values on top, in a spare node's memory
    /// when one of `n` parts is at hand.
    #[inline]
    fn node_of_vals(&mut self, kind: NodeKind, n: usize) -> Value {
        if self.vals.len() >= n {
            if let Some(mut rc) = self.spare_node(n) {
                if let Some(parts) = Node::reuse(&mut rc, kind) {
                    for slot in parts.iter_mut().rev() {
                        slot.set(self.vals.pop().unwrap_or_default());
                    }
                    return Value::Node(rc);
                }
            }
        }
        let fields = self.pop_fields(n);
        Node::value(kind, fields)
    }

    /// The value of a variable or constant, moved out of its slot at its last read.
    #[inline(always)]
    fn leaf_value(&mut self, prog: &Program, id: CodeId) -> Value {
        match &prog.code[id as usize] {
            Code::Move(s) => self.take_local(*s),
            other => self.peek_code(other).cloned().unwrap_or_default(),
        }
    }

    /// Schedules `then` after the operands `items[i..]` (the ones before are pushed), and
    /// continues with `items[i]`.
    fn schedule(&mut self, items: &[CodeId], i: usize, then: K) -> Flow {
        self.ctrl.push(then);
        for rest in items[i + 1..].iter().rev() {
            self.ctrl.push(K::Eval(*rest));
        }
        Flow::Next(items[i])
    }

    /// A call of global `g`, a closure over nothing, not in tail position: quick
    /// arguments are computed straight into the new frame's slots (no trip through the
    /// value stack). At the first argument that needs the machine, those computed so far
    /// move to the value stack and the call goes the general way (`K::CallGlobal`).
    fn call_global_direct(
        &mut self,
        prog: &'p Program,
        g: u32,
        lam: u32,
        args: &[CodeId],
    ) -> Result<Flow, Fault> {
        let bp = self.locals.len();
        for (i, id) in args.iter().enumerate() {
            match self.quick_item(prog, *id) {
                Some(Ok(v)) => self.locals.push(v),
                Some(Err(e)) => {
                    truncate(&mut self.locals, bp);
                    return Err(e);
                }
                None => {
                    self.vals.extend(self.locals.drain(bp..));
                    return Ok(self.schedule(args, i, K::CallGlobal(g, args.len() as u32)));
                }
            }
        }
        if let Some(k) = self.kernels.of(lam) {
            if self.kernel_value(k, true, bp, args.len(), bp)? {
                return Ok(Flow::Done);
            }
        }
        let l = &prog.lambdas[lam as usize];
        self.ctrl.push(K::Return {
            bp: self.bp as u32,
            cp: self.cp as u32,
        });
        self.bp = bp;
        grow(
            &mut self.locals,
            bp + l.slots.max(args.len() as u32) as usize,
        );
        self.cp = self.locals.len();
        self.check_stack()?;
        Ok(Flow::Next(l.body))
    }

    /// Stops the run when the frames or the continuations outgrow the stack limit.
    #[inline]
    fn check_stack(&self) -> Result<(), Fault> {
        if self.locals.len() > self.settings.max_stack || self.ctrl.len() > self.settings.max_stack
        {
            return Err(Box::new(RunError::StackOverflow));
        }
        Ok(())
    }

    /// Gives global `g`, where it is a function written in place (`fn f = \\x -> ...`) not
    /// evaluated yet, its value at once: the closure over nothing that evaluating its body
    /// makes, without the frame the machine enters to evaluate a global's body.
    #[inline]
    fn settle_global(&mut self, g: u32) {
        if let GlobalState::Pending = self.globals[g as usize] {
            let prog = self.prog;
            // (The body is a lambda taking the global's dictionaries: none here.)
            let body = &prog.lambdas[prog.globals[g as usize].body as usize];
            if let (0, Code::Lambda(l)) = (body.arity, &prog.code[body.body as usize]) {
                let l = *l;
                if prog.lambdas[l as usize].captures.is_empty() {
                    let closure = Node::value(NodeKind::Closure(l), Fields::new());
                    self.globals[g as usize] = GlobalState::Done(closure);
                }
            }
        }
    }

    /// The lambda of global `g` where it is an evaluated closure over nothing that takes
    /// `n` parameters.
    #[inline(always)]
    fn global_lambda(&self, g: u32, n: usize) -> Option<u32> {
        let GlobalState::Done(Value::Node(node)) = &self.globals[g as usize] else {
            return None;
        };
        let NodeKind::Closure(l) = node.kind else {
            return None;
        };
        let fits = node.fields.is_empty() && self.prog.lambdas[l as usize].arity as usize == n;
        fits.then_some(l)
    }

    /// `global_lambda` where a call of it can place its arguments straight into its frame
    /// (`call_global_direct`): called from a position that is not a tail.
    #[inline(always)]
    fn direct_callee(&self, g: u32, n: usize) -> Option<u32> {
        let tail = matches!(self.ctrl.last(), Some(K::Return { .. }));
        self.global_lambda(g, n).filter(|_| !tail)
    }

    /// Evaluates `id`, pushing its value (or scheduling what computes it). Subexpressions
    /// in tail position continue in this loop instead of going through the stack.
    fn eval(&mut self, prog: &'p Program, mut id: CodeId) -> Result<(), Fault> {
        loop {
            let next = match &prog.code[id as usize] {
                Code::Const(v) => {
                    self.vals.push(v.clone());
                    Flow::Done
                }
                Code::Local(s) => {
                    let v = self.locals[self.bp + *s as usize].clone();
                    self.vals.push(v);
                    Flow::Done
                }
                Code::Move(s) => {
                    let v = self.take_local(*s);
                    self.vals.push(v);
                    Flow::Done
                }
                Code::Capture(i) => {
                    let v = self.locals[self.cp + *i as usize].clone();
                    self.vals.push(v);
                    Flow::Done
                }
                Code::Global(g) => self.global(*g)?,
                Code::App(f, args) => {
                    let n = args.len() as u32;
                    match self.quick(prog, *f) {
                        Some(fv) => {
                            self.vals.push(fv);
                            match self.push_all(prog, args, K::Call(n))? {
                                Flow::Done => self.call(args.len())?,
                                next => next,
                            }
                        }
                        None => {
                            self.ctrl.push(K::Call(n));
                            for a in args.iter().rev() {
                                self.ctrl.push(K::Eval(*a));
                            }
                            Flow::Next(*f)
                        }
                    }
                }
                Code::CallGlobal {
                    global: g,
                    func,
                    args,
                } => {
                    self.settle_global(*g);
                    if !matches!(self.globals[*g as usize], GlobalState::Done(_)) {
                        // First use: evaluate the function value the ordinary way.
                        self.ctrl.push(K::Call(args.len() as u32));
                        for a in args.iter().rev() {
                            self.ctrl.push(K::Eval(*a));
                        }
                        Flow::Next(*func)
                    } else if self.nested_call(prog, *g, args)? {
                        Flow::Done
                    } else if let Some(lam) = self.direct_callee(*g, args.len()) {
                        self.call_global_direct(prog, *g, lam, args)?
                    } else {
                        match self.push_all(prog, args, K::CallGlobal(*g, args.len() as u32))? {
                            Flow::Done => self.call_global(*g, args.len())?,
                            next => next,
                        }
                    }
                }
                Code::CallMember(j, args) => {
                    match self.push_all(prog, args, K::CallMember(*j, args.len() as u32))? {
                        Flow::Done => self.call_member(*j, args.len())?,
                        next => next,
                    }
                }
                // (A variable's last read moved out: `reverse` turns a list nothing else
                // holds around in place.)
                Code::Prim1(p, a) => match self.quick_item(prog, *a) {
                    Some(v) => {
                        let v = natives::unary_owned(*p, v?, self.list)?;
                        self.vals.push(v);
                        Flow::Done
                    }
                    None => {
                        self.ctrl.push(K::Prim1(*p));
                        Flow::Next(*a)
                    }
                },
                Code::Prim2(p, a, b) => {
                    let flow = self.push_all(prog, &[*a, *b], K::Prim2(*p))?;
                    if let Flow::Done = flow {
                        let b = self.pop();
                        let a = self.pop();
                        let v = natives::binary(*p, &a, &b);
                        a.release();
                        b.release();
                        self.vals.push(v?);
                    }
                    flow
                }
                Code::And(a, b) => {
                    self.ctrl.push(K::And(*b));
                    Flow::Next(*a)
                }
                Code::Or(a, b) => {
                    self.ctrl.push(K::Or(*b));
                    Flow::Next(*a)
                }
                // The condition is matched where `quick_op` left it: moving the `Value` out
                // first read it whole right after it was written in parts (a stalled load).
                Code::If(c, t, e) => match self.quick_op(prog, *c) {
                    Some(Ok(Value::Bool(b))) => Flow::Next(if b { *t } else { *e }),
                    Some(Ok(other)) => {
                        self.branch(other, *t, *e)?;
                        Flow::Done
                    }
                    Some(Err(err)) => return Err(err),
                    None => {
                        self.ctrl.push(K::If(*t, *e));
                        Flow::Next(*c)
                    }
                },
                Code::Let { slot, value, body } => match self.quick_op(prog, *value) {
                    Some(v) => {
                        self.locals[self.bp + *slot as usize].set(v?);
                        Flow::Next(*body)
                    }
                    None => {
                        self.ctrl.push(K::Let(*slot, *body));
                        Flow::Next(*value)
                    }
                },
                Code::Match { scrutinee, .. } => match self.operand(prog, *scrutinee) {
                    Some(v) => match self.arm(prog, id, v)? {
                        Some(body) => Flow::Next(body),
                        None => Flow::Done,
                    },
                    None => {
                        self.ctrl.push(K::Match(id));
                        Flow::Next(*scrutinee)
                    }
                },
                Code::MatchTuple {
                    items,
                    arms,
                    in_place: true,
                } => match self.tuple_in_place(items, arms)? {
                    Some(body) => Flow::Next(body),
                    None => Flow::Done,
                },
                Code::MatchTuple { items, .. } => {
                    match self.push_all(prog, items, K::MatchTuple(id))? {
                        Flow::Done => match self.tuple_arm(prog, id)? {
                            Some(body) => Flow::Next(body),
                            None => Flow::Done,
                        },
                        next => next,
                    }
                }
                Code::Construct { ctor, args } => {
                    // Cells and pairs built of variables at once (wider nodes, which a
                    // search tree's recursion builds around a call, go the general way).
                    if args.len() <= 2 {
                        if let Some(v) = self.quick_node(prog, NodeKind::Data(*ctor), args) {
                            self.vals.push(v);
                            return Ok(());
                        }
                    }
                    let flow = self.push_all(prog, args, K::Construct(*ctor, args.len() as u32))?;
                    if let Flow::Done = flow {
                        let v = self.node_of_vals(NodeKind::Data(*ctor), args.len());
                        self.vals.push(v);
                    }
                    flow
                }
                Code::Tuple(items) => {
                    let flow = self.push_all(prog, items, K::Tuple(items.len() as u32))?;
                    if let Flow::Done = flow {
                        let v = self.node_of_vals(NodeKind::Tuple, items.len());
                        self.vals.push(v);
                    }
                    flow
                }
                Code::Update {
                    base,
                    names,
                    values,
                } => {
                    if self.update_quick(prog, *base, names, values)? {
                        Flow::Done
                    } else {
                        self.ctrl.push(K::Update(id));
                        for v in values.iter().rev() {
                            self.ctrl.push(K::Eval(*v));
                        }
                        Flow::Next(*base)
                    }
                }
                _ => self.eval_rare(prog, id)?,
            };
            match next {
                Flow::Done => return Ok(()),
                Flow::Next(n) => {
                    self.tick()?;
                    id = n;
                }
            }
        }
    }

    /// `eval` for the nodes the benchmarks and most programs reach rarely (building
    /// closures, groups, records and lists, dictionaries, literals read at run time, holes),
    /// kept out of `eval` so that its hot loop stays small.
    #[inline(never)]
    fn eval_rare(&mut self, prog: &'p Program, id: CodeId) -> Result<Flow, Fault> {
        Ok(match &prog.code[id as usize] {
            Code::Member(j) => {
                let v = self.member_value(*j);
                self.vals.push(v);
                Flow::Done
            }
            Code::GlobalWith(g, dicts) => {
                let start = self.vals.len();
                for d in dicts.iter() {
                    let d = self.dict(d);
                    self.vals.push(Value::Dict(d));
                }
                let body = prog.globals[*g as usize].body;
                self.enter(body, start, dicts.len(), &[], None)?
            }
            Code::Method { dict, method, name } => {
                let d = self.dict(dict);
                self.method(d, *method, name)?
            }
            Code::Dict(d) => {
                let d = self.dict(d);
                self.vals.push(Value::Dict(d));
                Flow::Done
            }
            Code::Literal { text, dict, values } => {
                let d = self.dict(dict);
                let known = d
                    .as_ref()
                    .and_then(|d| self.numeric.get(d.instance as usize).copied().flatten())
                    .and_then(|k| values.get(k as usize).cloned().flatten());
                if let Some(v) = known {
                    self.vals.push(v);
                    return Ok(Flow::Done);
                }
                let ty = d
                    .as_ref()
                    .and_then(|d| prog.instances.get(d.instance as usize))
                    .and_then(|i| i.head.clone());
                let v = match ty {
                    Some(ty) => literal_value(text, &ty)?,
                    None => Value::stuck(Stuck::Literal { text: text.clone() }),
                };
                self.vals.push(v);
                Flow::Done
            }
            Code::Lambda(l) => {
                let lam = &prog.lambdas[*l as usize];
                let captured: Fields = lam.captures.iter().map(|s| self.source(*s)).collect();
                self.vals.push(Node::value(NodeKind::Closure(*l), captured));
                Flow::Done
            }
            Code::LetRec {
                group,
                first_slot,
                body,
            } => {
                let g = &prog.groups[*group as usize];
                let captured: Fields = g.captures.iter().map(|s| self.source(*s)).collect();
                let node = Node::value(NodeKind::Group(*group), captured);
                for j in 0..g.members.len() {
                    let member = Node::value(NodeKind::Member(j as u32), [node.clone()]);
                    self.locals[self.bp + *first_slot as usize + j] = member;
                }
                Flow::Next(*body)
            }
            Code::List(items) => {
                let flow = self.push_all(prog, items, K::List(items.len() as u32))?;
                if let Flow::Done = flow {
                    let items = self.pop_n(items.len());
                    let v = self.build_list(items.into_iter());
                    self.vals.push(v);
                }
                flow
            }
            Code::Record { values, .. } => {
                self.push_all(prog, values, K::Record(id))?.or_else(|| {
                    self.finish_record(prog, id);
                })
            }
            Code::Field { base, .. } => {
                self.ctrl.push(K::Field(id));
                Flow::Next(*base)
            }
            Code::TupleField { base, index } => {
                self.ctrl.push(K::TupleField(*index));
                Flow::Next(*base)
            }
            Code::Hole(site) => {
                let v = self.reach_hole(prog, *site);
                self.vals.push(v);
                Flow::Done
            }
            Code::Marked(span) => {
                self.vals.push(Value::stuck(Stuck::Marked { span: *span }));
                Flow::Done
            }
            _ => return Err(runtime("broken node")),
        })
    }

    /// Continues with the body a call entered, if any.
    #[inline]
    fn follow(&mut self, prog: &'p Program, flow: Flow) -> Result<(), Fault> {
        match flow {
            Flow::Next(body) => self.eval(prog, body),
            Flow::Done => Ok(()),
        }
    }

    /// A record update (`{ it with { count = count + 1 } }`) whose base and new values all
    /// need no machine step, done in place, in the machine's order: the base read first
    /// (its last read moves it out), then the values. `false`, with nothing done, when the
    /// base or a value needs the machine (a base moved out goes back to its slot).
    fn update_quick(
        &mut self,
        prog: &Program,
        base: CodeId,
        names: &[Rc<str>],
        values: &[CodeId],
    ) -> Result<bool, Fault> {
        let Some(record) = self.operand(prog, base) else {
            return Ok(false);
        };
        let start = self.vals.len();
        for v in values {
            match self.quick_op(prog, *v) {
                Some(Ok(v)) => self.vals.push(v),
                Some(Err(e)) => return Err(e),
                None => {
                    truncate(&mut self.vals, start);
                    if let Code::Move(s) = prog.code[base as usize] {
                        self.locals[self.bp + s as usize] = record;
                    }
                    return Ok(false);
                }
            }
        }
        let v = update(&prog.code, record, names, self.vals.drain(start..))?;
        self.vals.push(v);
        Ok(true)
    }

    fn finish_record(&mut self, prog: &Program, id: CodeId) {
        if let Code::Record { values, .. } = &prog.code[id as usize] {
            let fields = self.pop_fields(values.len());
            self.vals.push(Node::value(NodeKind::Record(id), fields));
        }
    }

    fn branch(&mut self, c: Value, t: CodeId, e: CodeId) -> Result<(), Fault> {
        match c {
            Value::Bool(true) => self.ctrl.push(K::Eval(t)),
            Value::Bool(false) => self.ctrl.push(K::Eval(e)),
            v @ Value::Stuck(_) => self.vals.push(Value::stuck(Stuck::If { cond: v })),
            _ => return Err(runtime("`if` expects a boolean")),
        }
        Ok(())
    }

    fn source(&self, s: Source) -> Value {
        match s {
            Source::At(Loc::Local(i)) => self.locals[self.bp + i as usize].clone(),
            Source::At(Loc::Capture(i)) => self.locals[self.cp + i as usize].clone(),
            Source::Member(j) => self.member_value(j),
        }
    }

    /// Member `j` of the running frame's rec group, as a function value.
    fn member_value(&self, j: u32) -> Value {
        let group = self.locals[self.cp].clone();
        Node::value(NodeKind::Member(j), [group])
    }

    fn dict(&self, code: &DictCode) -> DictRef {
        if let DictCode::Static(d) = code {
            return d.clone();
        }
        let (locals, bp, cp) = (&self.locals, self.bp, self.cp);
        let at = |loc: Loc| {
            let v = match loc {
                Loc::Local(i) => locals.get(bp + i as usize),
                Loc::Capture(i) => locals.get(cp + i as usize),
            };
            match v {
                Some(Value::Dict(d)) => d.clone(),
                _ => None,
            }
        };
        dicts::resolve(self.prog, code, &at)
    }

    fn global(&mut self, g: u32) -> Result<Flow, Fault> {
        match &self.globals[g as usize] {
            GlobalState::Done(v) => {
                let v = v.clone();
                self.vals.push(v);
                Ok(Flow::Done)
            }
            GlobalState::Running => {
                let name = &self.prog.globals[g as usize].name;
                Err(runtime(format!(
                    "`{name}` is defined in terms of its own value"
                )))
            }
            GlobalState::Pending => {
                self.globals[g as usize] = GlobalState::Running;
                self.ctrl.push(K::CacheGlobal(g));
                let body = self.prog.globals[g as usize].body;
                let start = self.vals.len();
                self.enter(body, start, 0, &[], None)
            }
        }
    }

    fn method(&mut self, d: DictRef, m: u32, name: &Rc<str>) -> Result<Flow, Fault> {
        let Some(d) = d else {
            self.vals.push(Value::stuck(Stuck::Unresolved {
                method: name.clone(),
            }));
            return Ok(Flow::Done);
        };
        if let Some(v) = d.methods.get(m as usize).and_then(|c| c.get()) {
            self.vals.push(v.clone());
            return Ok(Flow::Done);
        }
        let body = self
            .prog
            .instances
            .get(d.instance as usize)
            .and_then(|i| i.methods.get(m as usize).copied().flatten());
        let Some(body) = body else {
            self.vals.push(Value::stuck(Stuck::Unresolved {
                method: name.clone(),
            }));
            return Ok(Flow::Done);
        };
        self.ctrl.push(K::CacheMethod(d.clone(), m));
        let start = self.vals.len();
        for a in &d.args {
            self.vals.push(Value::Dict(a.clone()));
        }
        self.vals.push(Value::Dict(Some(d.clone())));
        let n = d.args.len() + 1;
        self.enter(body, start, n, &[], None)
    }

    fn reach_hole(&mut self, prog: &Program, site: u32) -> Value {
        let s = &prog.holes[site as usize];
        self.reached_total += 1;
        let reached = self.reached.len() as u32;
        if self.reached.len() < MAX_RECORDED_HOLES {
            let env = s
                .env
                .iter()
                .map(|(n, loc)| {
                    let v = match loc {
                        Loc::Local(i) => self.locals[self.bp + *i as usize].clone(),
                        Loc::Capture(i) => self.locals[self.cp + *i as usize].clone(),
                    };
                    (n.clone(), v)
                })
                .collect();
            self.reached.push(Reached { site, env });
        }
        Value::stuck(Stuck::Hole {
            name: s.name.clone(),
            reached,
        })
    }

    // ------------------------------------------------------------------ calls

    /// Enters lambda `lam` with the `n` arguments at `vals[start..]` (removed from there),
    /// in place of the running frame when the call is in tail position.
    #[inline]
    fn enter(
        &mut self,
        lam: u32,
        start: usize,
        n: usize,
        captures: &[Value],
        group: Option<&Value>,
    ) -> Result<Flow, Fault> {
        let l = &self.prog.lambdas[lam as usize];
        if matches!(self.ctrl.last(), Some(K::Return { .. })) {
            truncate(&mut self.locals, self.bp);
        } else {
            self.ctrl.push(K::Return {
                bp: self.bp as u32,
                cp: self.cp as u32,
            });
            self.bp = self.locals.len();
        }
        // The arguments are swapped into the new frame's first slots (the generic
        // `extend(drain(..))` cost more than the rest of a call together).
        let bp = self.bp;
        grow(&mut self.locals, bp + l.slots.max(n as u32) as usize);
        for (slot, arg) in self.locals[bp..bp + n]
            .iter_mut()
            .zip(&mut self.vals[start..start + n])
        {
            std::mem::swap(slot, arg);
        }
        if start + n == self.vals.len() {
            truncate(&mut self.vals, start);
        } else {
            self.vals.drain(start..start + n);
        }
        self.cp = self.locals.len();
        if let Some(g) = group {
            self.locals.push(g.clone());
        }
        self.locals.extend_from_slice(captures);
        self.check_stack()?;
        Ok(Flow::Next(l.body))
    }

    /// A tail call of lambda `lam`, whose captured values are those of the running frame,
    /// with the `n` arguments at `vals[start..]`: when its slots are as many as the
    /// running frame's, the arguments replace the slots and the captured values stay
    /// (no frame is rebuilt). `None` when the call is not in tail position or the frames
    /// differ in shape.
    #[inline(always)]
    fn reenter(&mut self, lam: u32, start: usize, n: usize) -> Option<Flow> {
        if !matches!(self.ctrl.last(), Some(K::Return { .. })) {
            return None;
        }
        let l = &self.prog.lambdas[lam as usize];
        let size = l.slots.max(n as u32) as usize;
        if self.cp - self.bp != size {
            return None;
        }
        let bp = self.bp;
        let (args, rest) = self.locals[bp..bp + size].split_at_mut(n);
        for (slot, arg) in args.iter_mut().zip(&mut self.vals[start..]) {
            std::mem::swap(slot, arg);
        }
        for slot in rest {
            *slot = Value::Unit;
        }
        truncate(&mut self.vals, start);
        Some(Flow::Next(l.body))
    }

    /// Applies `vals[len - n - 1]` to the `n` values above it.
    fn call(&mut self, n: usize) -> Result<Flow, Fault> {
        let base = self.vals.len() - n - 1;
        let f = std::mem::replace(&mut self.vals[base], Value::Unit);
        match &f {
            Value::Node(node) => match node.kind {
                NodeKind::Closure(l) => self.call_lambda(&f, l, &node.fields, None, base, n),
                NodeKind::Member(j) => {
                    let group = node.fields[0].clone();
                    let Value::Node(g) = &group else {
                        return Err(runtime("broken rec group"));
                    };
                    let NodeKind::Group(gid) = g.kind else {
                        return Err(runtime("broken rec group"));
                    };
                    let lam = self.prog.groups[gid as usize].members[j as usize];
                    self.call_lambda(&f, lam, &g.fields, Some(&group), base, n)
                }
                NodeKind::Partial => {
                    // The saved arguments go in front of the new ones: appended, then
                    // rotated into place (`Vec::splice` cost more than the call).
                    let inner = node.fields[0].clone();
                    let saved = node.fields.len() - 1;
                    self.vals[base] = inner;
                    self.vals.extend_from_slice(&node.fields[1..]);
                    if saved == 1 {
                        // The common case (`map (f x) xs`) without the rotation's copies.
                        for i in (base + 1..base + 1 + n).rev() {
                            self.vals.swap(i, i + 1);
                        }
                    } else {
                        self.vals[base + 1..].rotate_right(saved);
                    }
                    self.call(n + saved)
                }
                _ => self.not_a_function(f, base),
            },
            Value::CtorFn(c) => {
                let arity = self.prog.ctors[*c as usize].arity as usize;
                self.saturate(&f, arity, base, n, |fields| {
                    Ok(Node::value(NodeKind::Data(*c), fields))
                })
            }
            Value::Native(id) => {
                let p = Prim::from_id(*id);
                let list = self.list;
                if p == Prim::ListFoldl && n >= 3 {
                    return self.start_fold(base, n);
                }
                if matches!(p, Prim::ListMap | Prim::ListFilter) && n >= 2 {
                    return self.start_map(p == Prim::ListFilter, base, n);
                }
                if n == p.arity() as usize {
                    let v = match n {
                        1 => {
                            natives::unary_owned(p, std::mem::take(&mut self.vals[base + 1]), list)?
                        }
                        _ => natives::binary(p, &self.vals[base + 1], &self.vals[base + 2])?,
                    };
                    truncate(&mut self.vals, base);
                    self.vals.push(v);
                    return Ok(Flow::Done);
                }
                self.saturate(&f, p.arity() as usize, base, n, |args| {
                    match args.as_slice() {
                        [a] => natives::unary(p, a, list),
                        [a, b] => natives::binary(p, a, b),
                        _ => Err(runtime("native arity")),
                    }
                })
            }
            Value::Stuck(_) => {
                let args = self.vals.split_off(base + 1);
                truncate(&mut self.vals, base);
                self.vals.push(Value::stuck(Stuck::App { func: f, args }));
                Ok(Flow::Done)
            }
            _ => self.not_a_function(f, base),
        }
    }

    fn not_a_function(&mut self, f: Value, base: usize) -> Result<Flow, Fault> {
        let names = Names::of(self.prog);
        let shown = names.print(&f);
        truncate(&mut self.vals, base);
        Err(runtime(format!("{shown} is not a function")))
    }

    /// Replaces `f` and the arguments above `base` by a partial application of them.
    fn push_partial(&mut self, f: &Value, base: usize) {
        let fields: Fields = std::iter::once(f.clone())
            .chain(self.vals.drain(base + 1..))
            .collect();
        truncate(&mut self.vals, base);
        self.vals.push(Node::value(NodeKind::Partial, fields));
    }

    /// Applies a function of fixed `arity` built by `make` once it has all its arguments.
    fn saturate(
        &mut self,
        f: &Value,
        arity: usize,
        base: usize,
        n: usize,
        make: impl FnOnce(Vec<Value>) -> Result<Value, Fault>,
    ) -> Result<Flow, Fault> {
        if n < arity {
            self.push_partial(f, base);
            return Ok(Flow::Done);
        }
        let rest = self.vals.split_off(base + 1 + arity);
        let args = self.vals.split_off(base + 1);
        truncate(&mut self.vals, base);
        let v = make(args)?;
        self.vals.push(v);
        if rest.is_empty() {
            return Ok(Flow::Done);
        }
        let m = rest.len();
        self.vals.extend(rest);
        self.call(m)
    }

    fn call_lambda(
        &mut self,
        f: &Value,
        lam: u32,
        captures: &[Value],
        group: Option<&Value>,
        base: usize,
        n: usize,
    ) -> Result<Flow, Fault> {
        let arity = self.prog.lambdas[lam as usize].arity as usize;
        if let Some(k) = self.kernels.of(lam) {
            if n == arity
                && captures.is_empty()
                && group.is_none()
                && self.kernel_value(k, false, base + 1, n, base)?
            {
                return Ok(Flow::Done);
            }
        }
        if n == arity {
            let flow = self.enter(lam, base + 1, n, captures, group)?;
            truncate(&mut self.vals, base);
            return Ok(flow);
        }
        if n < arity {
            self.push_partial(f, base);
            return Ok(Flow::Done);
        }
        // More arguments than parameters: call, then apply the result to the rest.
        self.ctrl.push(K::ApplyRest((n - arity) as u32));
        let flow = self.enter(lam, base + 1, arity, captures, group)?;
        self.vals.remove(base);
        Ok(flow)
    }

    /// A call of global `g` (already evaluated) with the `n` values on top.
    fn call_global(&mut self, g: u32, n: usize) -> Result<Flow, Fault> {
        let GlobalState::Done(f) = &self.globals[g as usize] else {
            return Err(runtime("global called before it was evaluated"));
        };
        if let Value::Node(node) = f {
            if let NodeKind::Closure(l) = node.kind {
                if self.prog.lambdas[l as usize].arity as usize == n {
                    let base = self.vals.len() - n;
                    if node.fields.is_empty() {
                        if let Some(k) = self.kernels.of(l) {
                            if self.kernel_value(k, false, base, n, base)? {
                                return Ok(Flow::Done);
                            }
                        }
                        // From a frame without captured values, a tail call of a global
                        // without them keeps the frame.
                        if self.cp == self.locals.len() {
                            if let Some(flow) = self.reenter(l, base, n) {
                                return Ok(flow);
                            }
                        }
                        return self.enter(l, base, n, &[], None);
                    }
                    let node = node.clone();
                    return self.enter(l, base, n, &node.fields, None);
                }
            }
        }
        let f = f.clone();
        let base = self.vals.len() - n;
        self.vals.insert(base, f);
        self.call(n)
    }

    /// Applies `f` to `args` in place when it is a closure whose body `quick_op` computes
    /// (variables, constants and natives on them: `\\x -> (x * 7) % 1000`,
    /// `\\acc x -> acc + x`), without a machine step: straight from the arguments where
    /// the body is a quick form (`quick_form`), otherwise on a frame set up, the body
    /// computed and the frame dropped. The arguments come back when `f` is not such a
    /// closure.
    #[inline(always)]
    fn apply_quick<const N: usize>(&mut self, f: &Value, args: [Value; N]) -> Quick<N> {
        let Value::Node(node) = f else {
            return Quick::Not(args);
        };
        let NodeKind::Closure(lam) = node.kind else {
            return Quick::Not(args);
        };
        let list = self.list;
        match self.body(lam) {
            None | Some(Body::Slow) => Quick::Not(args),
            Some(Body::Form { arity, form }) if *arity as usize == N => {
                match form.apply(&args, &node.fields, list) {
                    Some(r) => {
                        args.into_iter().for_each(Value::release);
                        Quick::Done(r)
                    }
                    None => self.apply_quick_closure(node, lam, args),
                }
            }
            Some(_) => self.apply_quick_closure(node, lam, args),
        }
    }

    /// What `apply_quick` knows of lambda `lam`'s body, read the first time it is asked.
    fn body(&mut self, lam: u32) -> Option<&Body> {
        let body = self.bodies.get_mut(lam as usize)?;
        if let Body::Unread = body {
            *body = quick_form::read(self.prog, lam);
        }
        Some(body)
    }

    fn apply_quick_closure<const N: usize>(
        &mut self,
        node: &Node,
        lam: u32,
        args: [Value; N],
    ) -> Quick<N> {
        let l = &self.prog.lambdas[lam as usize];
        if l.arity as usize != N {
            return Quick::Not(args);
        }
        let (bp, cp) = (self.bp, self.cp);
        self.bp = self.locals.len();
        self.locals.extend(args);
        grow(&mut self.locals, self.bp + l.slots.max(N as u32) as usize);
        self.cp = self.locals.len();
        self.locals.extend_from_slice(&node.fields);
        let out = match self.quick_op(self.prog, l.body) {
            Some(r) => Quick::Done(r),
            None => {
                self.bodies[lam as usize] = Body::Slow;
                let at = self.bp;
                Quick::Not(std::array::from_fn(|i| {
                    std::mem::take(&mut self.locals[at + i])
                }))
            }
        };
        truncate(&mut self.locals, self.bp);
        self.bp = bp;
        self.cp = cp;
        out
    }

    /// `prim_list_foldl f z xs` applied at `base` (with `n - 3` more arguments for its
    /// result). Runs as the prelude's `foldl` would: `go acc ys = match ys when Empty ->
    /// acc when Cons y rest -> go (f acc y) rest`, one call of `f` per element in order,
    /// without a frame per step.
    fn start_fold(&mut self, base: usize, n: usize) -> Result<Flow, Fault> {
        let [f, z, xs] = self.native_args::<3>(base, n);
        self.fold_step(f, z, xs)
    }

    /// The `N` arguments of the native called at `base` with `n` arguments, taken off the
    /// value stack with the native; the arguments past `N` stay for `K::ApplyRest` to apply
    /// its result to.
    fn native_args<const N: usize>(&mut self, base: usize, n: usize) -> [Value; N] {
        let extra = self.vals.split_off(base + 1 + N);
        let mut args = self.vals.split_off(base + 1).into_iter();
        truncate(&mut self.vals, base);
        if n > N {
            self.vals.extend(extra);
            self.ctrl.push(K::ApplyRest((n - N) as u32));
        }
        std::array::from_fn(|_| args.next().unwrap_or_default())
    }

    /// Steps of a fold: calls `f acc y` for the next element (the function and the rest
    /// of the list wait below its arguments for `K::FoldNext`), or pushes the result.
    /// Elements whose call `apply_quick` computes in place are folded in this loop.
    fn fold_step(&mut self, f: Value, mut acc: Value, mut xs: Value) -> Result<Flow, Fault> {
        let mut each = self.each(&f, 2);
        if let Some((form, caps)) = &each.form {
            (acc, xs) = self.fold_shared(form, caps, acc, xs)?;
        }
        // Where each call goes straight to the function's kernel, the rest of the fold
        // runs as one kernel run (tried once; never for a quick form).
        let mut tried = !each.may_go_straight();
        loop {
            if !tried && each.straight() && matches!(xs, Value::Node(_)) {
                tried = true;
                if let Some(v) = self.fold_kernel(&each, &f, &acc, &xs)? {
                    acc.release();
                    drop(xs);
                    self.vals.push(v);
                    return Ok(Flow::Done);
                }
            }
            let cell = match xs {
                Value::Node(node) if matches!(node.kind, NodeKind::Data(c) if c == self.list.cons) => {
                    node
                }
                other => {
                    xs = other;
                    break;
                }
            };
            let Some((y, rest)) = into_pair_parts(cell) else {
                return Err(runtime("broken list cell"));
            };
            xs = rest;
            let args = [acc, y];
            // The form computed on the pair where `f` has one, `apply_fast` otherwise.
            if let Some(r) = quick_form::apply_found(&each.form, &args, self.list) {
                args.into_iter().for_each(Value::release);
                acc = r?;
                self.tick()?;
                continue;
            }
            match self.apply_fast(&f, &mut each, args) {
                Quick::Done(r) => {
                    acc = r?;
                    self.tick()?;
                }
                Quick::Not([a, y]) => {
                    self.ctrl.push(K::FoldNext);
                    self.vals.push(f.clone());
                    self.vals.push(xs);
                    self.vals.push(f);
                    self.vals.push(a);
                    self.vals.push(y);
                    return self.call(2);
                }
            }
        }
        match &xs {
            Value::Tag(t) if *t == self.list.empty => {
                self.vals.push(acc);
                Ok(Flow::Done)
            }
            Value::Stuck(_) => {
                self.vals.push(Value::stuck(Stuck::Match { scrutinee: xs }));
                Ok(Flow::Done)
            }
            _ => Err(no_arm_matches(self.prog, &xs)),
        }
    }

    /// `prim_list_map f xs` (`prim_list_filter` when `filter`) applied at `base` (with
    /// `n - 2` more arguments for its result): leaves `f` and `xs` on top and takes the
    /// first step.
    fn start_map(&mut self, filter: bool, base: usize, n: usize) -> Result<Flow, Fault> {
        let [f, mut xs] = self.native_args::<2>(base, n);
        let rest = match self.map_in_place(filter, &f, &mut xs)? {
            in_place::Rest::Done => {
                self.vals.push(xs);
                return Ok(Flow::Done);
            }
            in_place::Rest::Left(rest) => rest,
        };
        self.vals.push(f);
        self.vals.push(rest);
        let items = self.spare.pop().unwrap_or_default();
        self.building.push(Building {
            items,
            cells: Vec::new(),
            stuck: None,
            prefix: xs,
        });
        self.map_step(filter)
    }

    /// Takes in the result of the function for one element of a `map` or `filter` (for
    /// `filter`, the element lies below it), as the fold-and-reverse definitions would: a
    /// true condition keeps the element, an indeterminate one replaces the accumulator.
    fn map_result(&mut self, filter: bool, result: Value) -> Result<(), Fault> {
        let Some(b) = self.building.last_mut() else {
            return Err(runtime("broken map"));
        };
        if !filter {
            b.items.push(result);
            return Ok(());
        }
        let x = self.vals.pop().unwrap_or_default();
        match result {
            Value::Bool(true) => {
                if b.stuck.is_none() {
                    b.items.push(x);
                }
            }
            Value::Bool(false) => {}
            cond @ Value::Stuck(_) => b.stuck = Some(Value::stuck(Stuck::If { cond })),
            _ => return Err(runtime("`if` expects a boolean")),
        }
        Ok(())
    }

    /// Steps of a `map` or `filter` whose function and rest of the list are on top:
    /// calls the function on the next element (`K::MapNext` takes its result), or pushes
    /// the finished list in their place. Elements whose call `apply_quick` computes in
    /// place are taken in this loop.
    fn map_step(&mut self, filter: bool) -> Result<Flow, Fault> {
        let top = self.vals.len() - 1;
        let mut xs = std::mem::take(&mut self.vals[top]);
        let f = self.vals[top - 1].clone();
        let mut each = self.each(&f, 1);
        while let Value::Node(node) = &mut xs {
            if !matches!(node.kind, NodeKind::Data(c) if c == self.list.cons) {
                break;
            }
            let Some((y, rest)) = pair_parts(node) else {
                break;
            };
            let kept = if filter { Some(y.clone()) } else { None };
            // The form computed on the element where `f` has one, `apply_fast` otherwise.
            let done =
                match quick_form::apply_found(&each.form, std::slice::from_ref(&y), self.list) {
                    Some(r) => {
                        y.release();
                        Quick::Done(r)
                    }
                    None => self.apply_fast(&f, &mut each, [y]),
                };
            match done {
                Quick::Done(r) => {
                    let r = r?;
                    // A cell nothing else held was emptied: kept for the result.
                    if let Value::Node(mut rc) = std::mem::replace(&mut xs, rest) {
                        if let (Some(_), Some(b)) = (Rc::get_mut(&mut rc), self.building.last_mut())
                        {
                            b.cells.push(rc);
                        }
                    }
                    self.vals.extend(kept);
                    self.map_result(filter, r)?;
                    self.tick()?;
                }
                Quick::Not([y]) => {
                    self.vals[top] = rest;
                    drop(xs);
                    self.ctrl.push(K::MapNext(filter));
                    self.vals.extend(kept);
                    self.vals.push(f);
                    self.vals.push(y);
                    return self.call(1);
                }
            }
        }
        // The end of the list (or what stops the loop): `f` and the list go.
        truncate(&mut self.vals, top - 1);
        let mut built = self.building.pop().unwrap_or_default();
        let v = match &xs {
            Value::Tag(t) if *t == self.list.empty => match built.stuck {
                Some(stuck) => Value::stuck(Stuck::Match { scrutinee: stuck }),
                None => {
                    let suffix = self.build_list_in(built.items.drain(..), &mut built.cells);
                    in_place::attach(std::mem::take(&mut built.prefix), suffix)?
                }
            },
            // The fold stops on the tail (its accumulator lost), and the reversal on that.
            Value::Stuck(_) => Value::stuck(Stuck::Match {
                scrutinee: Value::stuck(Stuck::Match { scrutinee: xs }),
            }),
            _ => return Err(no_arm_matches(self.prog, &xs)),
        };
        built.items.clear();
        if self.spare.len() < MAX_SPARE && built.items.capacity() <= MAX_SPARE_LEN {
            self.spare.push(built.items);
        }
        self.vals.push(v);
        Ok(Flow::Done)
    }

    /// A loop call of member `j` of the running rec group with the `n` values on top.
    fn call_member(&mut self, j: u32, n: usize) -> Result<Flow, Fault> {
        // The group is read where it lies; it is copied only for a new frame.
        let gid = match &self.locals[self.cp] {
            Value::Node(g) => match g.kind {
                NodeKind::Group(gid) => gid,
                _ => return Err(runtime("broken rec group")),
            },
            _ => return Err(runtime("broken rec group")),
        };
        let lam = self.prog.groups[gid as usize].members[j as usize];
        let base = self.vals.len() - n;
        let saturated = self.prog.lambdas[lam as usize].arity as usize == n;
        if saturated {
            // The running frame is a member of the same group: its captured values are
            // the callee's, so a tail call keeps them where they are.
            if let Some(flow) = self.reenter(lam, base, n) {
                return Ok(flow);
            }
        }
        let group = self.locals[self.cp].clone();
        let Value::Node(g) = &group else {
            return Err(runtime("broken rec group"));
        };
        if saturated {
            return self.enter(lam, base, n, &g.fields, Some(&group));
        }
        let f = Node::value(NodeKind::Member(j), [group.clone()]);
        self.vals.insert(base, f);
        self.call(n)
    }

    // ------------------------------------------------------------------ data

    /// A list of `items`, built in the emptied cells `cells` as far as they go.
    fn build_list_in(
        &self,
        items: impl DoubleEndedIterator<Item = Value>,
        cells: &mut Vec<Rc<Node>>,
    ) -> Value {
        let cons = NodeKind::Data(self.list.cons);
        let mut out = Value::Tag(self.list.empty);
        for v in items.rev() {
            if let Some(mut rc) = cells.pop() {
                if let Some(parts) = Node::reuse(&mut rc, cons) {
                    parts[0].set(v);
                    parts[1].set(std::mem::take(&mut out));
                    out = Value::Node(rc);
                    continue;
                }
            }
            out = Node::value(cons, Fields::pair(v, out));
        }
        out
    }

    fn build_list(&self, items: impl DoubleEndedIterator<Item = Value>) -> Value {
        self.build_list_in(items, &mut Vec::new())
    }

    /// The body of the first arm of match `id` that `v` matches (its variables bound), or
    /// `None` when the match is indeterminate (its value pushed).
    fn arm(
        &mut self,
        prog: &'p Program,
        id: CodeId,
        mut v: Value,
    ) -> Result<Option<CodeId>, Fault> {
        let Code::Match { arms, .. } = &prog.code[id as usize] else {
            return Err(runtime("broken match"));
        };
        for (pat, body) in arms.iter() {
            if self.take_apart(pat, &mut v) {
                return Ok(Some(*body));
            }
            match self.matches(pat, &v) {
                Matched::Yes => return Ok(Some(*body)),
                Matched::No => {}
                Matched::Stuck => {
                    self.vals.push(Value::stuck(Stuck::Match { scrutinee: v }));
                    return Ok(None);
                }
            }
        }
        Err(no_arm_matches(prog, &v))
    }

    /// Like `arm`, for `MatchTuple` `id` whose parts are the values on top.
    fn tuple_arm(&mut self, prog: &'p Program, id: CodeId) -> Result<Option<CodeId>, Fault> {
        let Code::MatchTuple { items, arms, .. } = &prog.code[id as usize] else {
            return Err(runtime("broken match"));
        };
        let parts = self.pop_fields(items.len());
        for (pat, body) in arms.iter() {
            let matched = match pat {
                Pat::Tuple(subs) => self.all(subs.iter().zip(parts.iter())),
                _ => Matched::Yes,
            };
            match matched {
                Matched::Yes => return Ok(Some(*body)),
                Matched::No => {}
                Matched::Stuck => {
                    let scrutinee = Node::value(NodeKind::Tuple, parts);
                    self.vals.push(Value::stuck(Stuck::Match { scrutinee }));
                    return Ok(None);
                }
            }
        }
        Err(no_arm_matches(prog, &Node::value(NodeKind::Tuple, parts)))
    }

    /// `MatchTuple` on variables with shallow arms (`in_place`): each arm is tried
    /// against the parts where they lie, and only the chosen arm's variables are bound,
    /// copied, or moved out of a part read for the last time (`Code::Move`), which is
    /// then gone from its slot as if pushed. The same arm, bindings, indeterminate match
    /// and failure as `tuple_arm`, without copying the parts out and back. Out of line:
    /// inlined, it grew `eval` and slowed the programs that never reach it.
    #[inline(never)]
    fn tuple_in_place(
        &mut self,
        items: &[CodeId],
        arms: &[(Pat, CodeId)],
    ) -> Result<Option<CodeId>, Fault> {
        let prog = self.prog;
        let mut at = [(0, false); MAX_IN_PLACE];
        for (place, id) in at.iter_mut().zip(items) {
            *place = match prog.code[*id as usize] {
                Code::Local(s) => (self.bp + s as usize, false),
                Code::Move(s) => (self.bp + s as usize, true),
                Code::Capture(i) => (self.cp + i as usize, false),
                _ => return Err(runtime("broken match")),
            };
        }
        let at = &at[..items.len().min(MAX_IN_PLACE)];
        for (pat, body) in arms {
            let verdict = match pat {
                Pat::Tuple(subs) => self.shallow_all(subs, at),
                _ => Matched::Yes,
            };
            match verdict {
                Matched::Yes => {
                    self.bind_in_place(pat, at);
                    return Ok(Some(*body));
                }
                Matched::No => {}
                Matched::Stuck => {
                    let scrutinee = self.tuple_of(at);
                    self.vals.push(Value::stuck(Stuck::Match { scrutinee }));
                    return Ok(None);
                }
            }
        }
        Err(no_arm_matches(prog, &self.tuple_of(at)))
    }

    /// Whether the parts at `at` match the shallow patterns `subs`, in order, as `all`
    /// decides it, without binding anything.
    fn shallow_all(&self, subs: &[Pat], at: &[(usize, bool)]) -> Matched {
        for (p, (i, _)) in subs.iter().zip(at) {
            let Pat::Ctor(c, fields) = p else {
                continue;
            };
            match &self.locals[*i] {
                Value::Tag(t) if t == c && fields.is_empty() => {}
                Value::Node(n) if matches!(n.kind, NodeKind::Data(t) if t == *c) => {}
                Value::Stuck(_) => return Matched::Stuck,
                _ => return Matched::No,
            }
        }
        Matched::Yes
    }

    /// Binds the variables of `pat`, a tuple pattern of shallow parts (or a wildcard) the
    /// parts at `at` match; parts read for the last time leave their slots.
    fn bind_in_place(&mut self, pat: &Pat, at: &[(usize, bool)]) {
        let subs: &[Pat] = match pat {
            Pat::Tuple(subs) => subs,
            _ => &[],
        };
        for (k, &(i, last)) in at.iter().enumerate() {
            let sub = subs.get(k).unwrap_or(&Pat::Wild);
            if last {
                let mut v = std::mem::take(&mut self.locals[i]);
                match sub {
                    Pat::Bind(s) => self.locals[self.bp + *s as usize].set(v),
                    Pat::Ctor(_, fields) => {
                        if !self.take_apart(sub, &mut v) {
                            if let Value::Node(n) = &v {
                                self.all(fields.iter().zip(n.fields.iter()));
                            }
                        }
                        v.release();
                    }
                    _ => v.release(),
                }
                continue;
            }
            match sub {
                Pat::Bind(s) => {
                    let v = self.locals[i].clone();
                    self.locals[self.bp + *s as usize].set(v);
                }
                // The fields are read in the slot, not through a copy of the node given to
                // `all`: the copy's count up and down cost merge_sort 3.5% (812 -> 841 M).
                Pat::Ctor(_, fields) => {
                    for (f, q) in fields.iter().enumerate() {
                        if let Pat::Bind(s) = q {
                            let Value::Node(n) = &self.locals[i] else {
                                break;
                            };
                            let part = n.fields[f].clone();
                            self.locals[self.bp + *s as usize].set(part);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// The tuple of the parts at `at` (to report a match on it), taking the parts read
    /// for the last time out of their slots.
    fn tuple_of(&mut self, at: &[(usize, bool)]) -> Value {
        let parts: Vec<Value> = at
            .iter()
            .map(|&(i, last)| {
                if last {
                    std::mem::take(&mut self.locals[i])
                } else {
                    self.locals[i].clone()
                }
            })
            .collect();
        Node::value(NodeKind::Tuple, parts)
    }

    /// Matches a constructor or tuple pattern of variables and wildcards against a node
    /// nothing else holds (a local at its last read, a value just computed) by moving its fields
    /// into their variables, without copying them. `false` (nothing done) otherwise.
    #[inline(always)]
    fn take_apart(&mut self, p: &Pat, v: &mut Value) -> bool {
        let Value::Node(rc) = v else {
            return false;
        };
        let subs = match (p, rc.kind) {
            (Pat::Ctor(c, subs), NodeKind::Data(t)) if t == *c => subs,
            (Pat::Tuple(subs), NodeKind::Tuple) if subs.len() == rc.fields.len() => subs,
            _ => return false,
        };
        if !subs.iter().all(|q| matches!(q, Pat::Bind(_) | Pat::Wild)) {
            return false;
        }
        let Some(node) = Rc::get_mut(rc) else {
            return false;
        };
        let mut emptied = true;
        for (q, field) in subs.iter().zip(node.fields.iter_mut()) {
            match q {
                Pat::Bind(s) => self.locals[self.bp + *s as usize].set(std::mem::take(field)),
                _ => {
                    emptied &= !matches!(
                        field,
                        Value::Str(_) | Value::Node(_) | Value::Dict(_) | Value::Stuck(_)
                    )
                }
            }
        }
        // A node whose parts are all gone (or scalars) is kept for the next one built.
        if emptied && self.spare_nodes.len() < MAX_SPARE_NODES {
            if let Value::Node(rc) = std::mem::take(v) {
                self.spare_nodes.push(rc);
            }
        }
        true
    }

    /// Whether `v` matches `p`, binding its variables. Constructor and tuple patterns,
    /// the common ones, are decided here (inlined into `all`); the others in
    /// `matches_other`.
    #[inline]
    fn matches(&mut self, p: &Pat, v: &Value) -> Matched {
        if let Value::Stuck(_) = v {
            return match p {
                Pat::Wild => Matched::Yes,
                Pat::Bind(s) => {
                    self.locals[self.bp + *s as usize].set(v.clone());
                    Matched::Yes
                }
                _ => Matched::Stuck,
            };
        }
        match p {
            Pat::Wild => Matched::Yes,
            Pat::Bind(s) => {
                self.locals[self.bp + *s as usize].set(v.clone());
                Matched::Yes
            }
            Pat::Ctor(c, subs) => match v {
                Value::Tag(t) => yes_if(t == c && subs.is_empty()),
                Value::Node(n) if matches!(n.kind, NodeKind::Data(t) if t == *c) => {
                    self.all(subs.iter().zip(n.fields.iter()))
                }
                _ => Matched::No,
            },
            Pat::Tuple(subs) => match v {
                Value::Unit => yes_if(subs.is_empty()),
                Value::Node(n)
                    if matches!(n.kind, NodeKind::Tuple) && n.fields.len() == subs.len() =>
                {
                    self.all(subs.iter().zip(n.fields.iter()))
                }
                _ => Matched::No,
            },
            _ => self.matches_other(p, v),
        }
    }

    /// `matches` for literal, record and marked patterns, on a value that is not
    /// indeterminate.
    #[inline(never)]
    fn matches_other(&mut self, p: &Pat, v: &Value) -> Matched {
        match p {
            Pat::Wild | Pat::Bind(_) | Pat::Ctor(..) | Pat::Tuple(_) => self.matches(p, v),
            Pat::Marked => Matched::Stuck,
            Pat::Int(text) | Pat::Float(text) => match literal_equals(text, v) {
                Some(true) => Matched::Yes,
                _ => Matched::No,
            },
            Pat::Str(s) => yes_if(matches!(v, Value::Str(x) if x.as_str() == &**s)),
            Pat::Bool(b) => yes_if(matches!(v, Value::Bool(x) if x == b)),
            Pat::Fields(fs) => {
                let record = match v {
                    Value::Node(n)
                        if matches!(n.kind, NodeKind::Data(_)) && n.fields.len() == 1 =>
                    {
                        &n.fields[0]
                    }
                    other => other,
                };
                match record {
                    Value::Node(n) => match &n.kind {
                        NodeKind::Record(shape) => {
                            let names = record_names(&self.prog.code, *shape);
                            if fs
                                .iter()
                                .all(|(_, sub)| matches!(sub, Pat::Bind(_) | Pat::Wild))
                            {
                                // No part can fail or stick: each is bound as its field is
                                // found, looked for first where the pattern has it.
                                for (k, (name, sub)) in fs.iter().enumerate() {
                                    let Some(i) = field_index_near(names, name, k) else {
                                        return Matched::No;
                                    };
                                    if let Pat::Bind(s) = sub {
                                        let part = n.fields[i].clone();
                                        self.locals[self.bp + *s as usize].set(part);
                                    }
                                }
                                return Matched::Yes;
                            }
                            // Every field first (a missing one fails the match before any
                            // part is looked at), then the parts in the pattern's order.
                            if fs
                                .iter()
                                .any(|(name, _)| field_index(names, name).is_none())
                            {
                                return Matched::No;
                            }
                            self.all(fs.iter().filter_map(|(name, sub)| {
                                field_index(names, name).map(|i| (sub, &n.fields[i]))
                            }))
                        }
                        _ => Matched::No,
                    },
                    Value::Stuck(_) => Matched::Stuck,
                    _ => Matched::No,
                }
            }
        }
    }

    /// Matches each pair in order. Variables and wildcards, the usual parts of a
    /// constructor pattern, are bound here without a call of `matches` each.
    fn all<'x>(&mut self, pairs: impl Iterator<Item = (&'x Pat, &'x Value)>) -> Matched {
        for (p, v) in pairs {
            match p {
                Pat::Wild => {}
                Pat::Bind(s) => self.locals[self.bp + *s as usize].set(v.clone()),
                _ => match self.matches(p, v) {
                    Matched::Yes => {}
                    other => return other,
                },
            }
        }
        Matched::Yes
    }
}

/// Extends a frame to `len` slots with `Unit` (a frame's locals before they are bound).
#[inline(always)]
fn grow(locals: &mut Vec<Value>, len: usize) {
    if len > locals.len() {
        let k = len - locals.len();
        locals.extend((0..k).map(|_| Value::Unit));
    }
}

/// Counts `CHECK_EVERY` more steps into `steps` and looks at the limits.
fn check_limits(steps: &mut u64, settings: &Settings) -> Result<(), Fault> {
    *steps += u64::from(CHECK_EVERY);
    if let Some(limit) = settings.gas {
        if *steps > limit {
            return Err(Box::new(RunError::OutOfGas { limit }));
        }
    }
    if let Some(flag) = &settings.interrupt {
        if flag.load(Ordering::Relaxed) {
            return Err(Box::new(RunError::Interrupted));
        }
    }
    Ok(())
}

fn yes_if(b: bool) -> Matched {
    if b {
        Matched::Yes
    } else {
        Matched::No
    }
}

/// Whether a numeric literal pattern equals `v` (read at `v`'s type).
fn literal_equals(text: &str, v: &Value) -> Option<bool> {
    Some(match v {
        Value::I8(x) => text.parse::<i8>().ok()? == *x,
        Value::I16(x) => text.parse::<i16>().ok()? == *x,
        Value::I32(x) => text.parse::<i32>().ok()? == *x,
        Value::I64(x) => text.parse::<i64>().ok()? == *x,
        Value::U8(x) => text.parse::<u8>().ok()? == *x,
        Value::U16(x) => text.parse::<u16>().ok()? == *x,
        Value::U32(x) => text.parse::<u32>().ok()? == *x,
        Value::U64(x) => text.parse::<u64>().ok()? == *x,
        Value::F32(x) => text.parse::<f32>().ok()? == *x,
        Value::F64(x) => text.parse::<f64>().ok()? == *x,
        _ => return None,
    })
}

/// The value of a numeric literal at the primitive type `ty`.
pub fn literal_value(text: &str, ty: &str) -> Result<Value, Fault> {
    fn parse<T: std::str::FromStr>(
        text: &str,
        ty: &str,
        wrap: fn(T) -> Value,
    ) -> Result<Value, Fault> {
        text.parse::<T>()
            .map(wrap)
            .map_err(|_| runtime(format!("the literal {text} does not fit the type {ty}")))
    }
    match ty {
        "i8" => parse(text, ty, Value::I8),
        "i16" => parse(text, ty, Value::I16),
        "i32" => parse(text, ty, Value::I32),
        "i64" => parse(text, ty, Value::I64),
        "u8" => parse(text, ty, Value::U8),
        "u16" => parse(text, ty, Value::U16),
        "u32" => parse(text, ty, Value::U32),
        "u64" => parse(text, ty, Value::U64),
        "f32" => parse(text, ty, Value::F32),
        "f64" => parse(text, ty, Value::F64),
        other => Err(runtime(format!(
            "a numeric literal cannot have type {other}"
        ))),
    }
}

/// The record `v` is, or that the constructor of one part `v` is holds (the payload of
/// `Item {id, count}`), with its shape (`NodeKind::Record`).
pub(super) fn record_of(v: &Value) -> Option<(&Node, CodeId)> {
    let Value::Node(n) = v else {
        return None;
    };
    match n.kind {
        NodeKind::Record(shape) => Some((n, shape)),
        NodeKind::Data(_) if n.fields.len() == 1 => match &n.fields[0] {
            Value::Node(r) => match r.kind {
                NodeKind::Record(shape) => Some((r, shape)),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

pub(super) fn field(code: &[Code], base: &Value, name: &Rc<str>) -> Result<Value, Fault> {
    match base {
        Value::Node(n) => match &n.kind {
            NodeKind::Record(shape) => field_index(record_names(code, *shape), name)
                .map(|i| n.fields[i].clone())
                .ok_or_else(|| runtime(format!("the record has no field `{name}`"))),
            NodeKind::Data(_) if n.fields.len() == 1 => field(code, &n.fields[0], name),
            _ => Err(runtime(format!("this value has no field `{name}`"))),
        },
        Value::Stuck(_) => Ok(Value::stuck(Stuck::Field {
            base: base.clone(),
            field: name.clone(),
        })),
        _ => Err(runtime(format!("this value has no field `{name}`"))),
    }
}

pub(super) fn tuple_field(base: &Value, index: u32) -> Result<Value, Fault> {
    match base {
        Value::Node(n) if matches!(n.kind, NodeKind::Tuple) => n
            .fields
            .get(index as usize)
            .cloned()
            .ok_or_else(|| runtime(format!("the tuple has no field {index}"))),
        Value::Stuck(_) => Ok(Value::stuck(Stuck::Field {
            base: base.clone(),
            field: Rc::from(index.to_string()),
        })),
        _ => Err(runtime(format!("this value has no field {index}"))),
    }
}

pub(super) fn update(
    code: &[Code],
    mut base: Value,
    names: &[Rc<str>],
    values: impl IntoIterator<Item = Value>,
) -> Result<Value, Fault> {
    if let Value::Node(n) = &mut base {
        if let Some(node) = Rc::get_mut(n) {
            // Nothing else holds the record: its fields are replaced where they are.
            match node.kind {
                NodeKind::Record(shape) => {
                    let fields = record_names(code, shape);
                    for (name, v) in names.iter().zip(values) {
                        match field_index(fields, name) {
                            Some(i) => node.fields[i] = v,
                            None => {
                                return Err(runtime(format!("the record has no field `{name}`")))
                            }
                        }
                    }
                    return Ok(base);
                }
                NodeKind::Data(_) if node.fields.len() == 1 => {
                    let inner = std::mem::take(&mut node.fields[0]);
                    node.fields[0] = update(code, inner, names, values)?;
                    return Ok(base);
                }
                _ => {}
            }
        }
    }
    let Value::Node(n) = &base else {
        return match base {
            Value::Stuck(_) => Ok(base),
            _ => Err(runtime("only records can be updated")),
        };
    };
    match &n.kind {
        NodeKind::Record(shape) => {
            let fields = record_names(code, *shape);
            let mut out = n.fields.clone();
            for (name, v) in names.iter().zip(values) {
                match field_index(fields, name) {
                    Some(i) => out[i] = v,
                    None => return Err(runtime(format!("the record has no field `{name}`"))),
                }
            }
            Ok(Node::value(NodeKind::Record(*shape), out))
        }
        NodeKind::Data(c) if n.fields.len() == 1 => {
            let inner = update(code, n.fields[0].clone(), names, values)?;
            Ok(Node::value(NodeKind::Data(*c), [inner]))
        }
        _ => Err(runtime("only records can be updated")),
    }
}

/// The error of a `match` (or of a loop that stands for one) that no arm of fits `v`.
fn no_arm_matches(prog: &Program, v: &Value) -> Fault {
    runtime(format!(
        "no `when` arm matches the value {}",
        Names::of(prog).print(v)
    ))
}

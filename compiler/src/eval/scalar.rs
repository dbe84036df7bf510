//! Scalar kernels: functions computed on `i32`s and booleans alone (`fib`, `gcd`, a
//! numeric loop), compiled once per program to register code over unboxed scalars and run
//! in one loop, beside the machine.
//!
//! A kernel is a top-level function without class constraints, over nothing, whose body
//! reads its parameters and `let`s, takes natives of arithmetic and comparison, `&&`,
//! `||`, `if`, and calls kernels. The machine runs one where a program calls such a
//! function with `i32` or boolean arguments (`Machine::run_kernel`). A kernel gives up on
//! what it does not handle: a value of another type, a native's error (overflow, division
//! by zero), recursion deeper than its bound. The machine then takes back the steps it
//! counted and runs the call itself, so errors and stack limits stay the machine's. A
//! kernel counts one step per call (the machine counts several), against the same gas
//! and interrupt checks.

use super::ir::{Code, CodeId, Pat, Program};
use super::natives::{self, Prim};
use super::value::Value;
use super::Fault;

/// Most parameters of a kernel.
const MAX_ARGS: usize = 8;

/// Most registers of a kernel's frame: every `Reg` (a byte) is one.
const MAX_REGS: usize = 256;

/// A value a kernel computes with: eight bytes, copied freely.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    I32(i32),
    Bool(bool),
}

impl Scalar {
    #[inline]
    pub fn of(v: &Value) -> Option<Scalar> {
        match v {
            Value::I32(x) => Some(Scalar::I32(*x)),
            Value::Bool(b) => Some(Scalar::Bool(*b)),
            _ => None,
        }
    }

    #[inline]
    pub fn value(self) -> Value {
        match self {
            Scalar::I32(x) => Value::I32(x),
            Scalar::Bool(b) => Value::Bool(b),
        }
    }
}

/// `values` as scalars, when each is one (and there are at most `MAX_ARGS`).
#[inline]
pub fn scalars(values: &[Value]) -> Option<[Scalar; MAX_ARGS]> {
    let mut out = [Scalar::Bool(false); MAX_ARGS];
    if values.len() > MAX_ARGS {
        return None;
    }
    for (slot, v) in out.iter_mut().zip(values) {
        *slot = Scalar::of(v)?;
    }
    Some(out)
}

/// A register of the running frame.
type Reg = u8;

/// One instruction. Registers are the frame's: its parameters and `let`s (the lambda's
/// slots) first, then temporaries.
#[derive(Clone, Copy, Debug)]
enum Ins {
    Const {
        dst: Reg,
        v: Scalar,
    },
    Move {
        dst: Reg,
        src: Reg,
    },
    Bin {
        p: Prim,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    /// `Bin` on a register and an `i32` constant (`n - 1`, `n < 2`).
    BinK {
        p: Prim,
        dst: Reg,
        a: Reg,
        k: i32,
    },
    Neg {
        dst: Reg,
        a: Reg,
    },
    /// Jumps when register `r` holds `when` (gives up unless it is a boolean).
    JumpIf {
        r: Reg,
        when: bool,
        to: u32,
    },
    Jump {
        to: u32,
    },
    /// Jumps unless register `r` holds `v` (a `when` arm's literal).
    JumpUnless {
        r: Reg,
        v: Scalar,
        to: u32,
    },
    /// No `when` arm matched: the machine reports it.
    GiveUp,
    /// Calls kernel `kernel` on the `n` registers from `base` on, whose frame starts
    /// there; its result goes to `dst`.
    Call {
        kernel: u32,
        dst: Reg,
        base: Reg,
    },
    /// The same in tail position: the arguments move to the running frame's first
    /// registers and the callee replaces it.
    TailCall {
        kernel: u32,
        base: Reg,
        n: u8,
    },
    Ret {
        src: Reg,
    },
}

#[derive(Clone, Copy, Debug)]
struct Kernel {
    arity: u32,
    /// Where its code starts.
    entry: u32,
    /// Registers its frame takes.
    regs: u32,
}

/// The kernels of one program.
#[derive(Default)]
pub struct Kernels {
    code: Vec<Ins>,
    kernels: Vec<Kernel>,
    /// The kernel of each lambda, if it has one.
    of_lambda: Vec<Option<u32>>,
    /// Registers a level of kernel recursion takes at most, and the most continuations the
    /// machine would keep for one (bounds a kernel's depth: `Kernels::max_depth`).
    widest: u32,
}

/// Why a kernel stopped without a value.
pub enum Stop {
    /// The machine runs the call instead.
    GiveUp,
    /// The gas ran out or the run was interrupted.
    Limit(Fault),
}

impl Kernels {
    /// Compiles every top-level function that qualifies (see the module's documentation).
    pub fn compile(prog: &Program) -> Kernels {
        // Candidates: globals without dictionaries whose value is a lambda over nothing.
        let mut lambdas = Vec::new();
        let mut of_lambda: Vec<Option<u32>> = vec![None; prog.lambdas.len()];
        for g in 0..prog.globals.len() as u32 {
            let Some(l) = global_lambda(prog, g) else {
                continue;
            };
            let lam = &prog.lambdas[l as usize];
            if lam.captures.is_empty()
                && (1..=MAX_ARGS as u32).contains(&lam.arity)
                && (lam.slots as usize) < MAX_REGS
                && of_lambda[l as usize].is_none()
            {
                of_lambda[l as usize] = Some(lambdas.len() as u32);
                lambdas.push(l);
            }
        }
        let mut out = Kernels::default();
        let mut ok = vec![true; lambdas.len()];
        let mut calls: Vec<Vec<u32>> = vec![Vec::new(); lambdas.len()];
        for (k, l) in lambdas.iter().enumerate() {
            let lam = &prog.lambdas[*l as usize];
            let entry = out.code.len() as u32;
            let mut cx = Compile {
                prog,
                of_lambda: &of_lambda,
                code: &mut out.code,
                calls: &mut calls[k],
                slots: lam.slots.max(lam.arity),
                next: lam.slots.max(lam.arity),
                high: lam.slots.max(lam.arity),
                nodes: 0,
            };
            // The result into a temporary: the parameters stay readable to the end.
            let compiled = match cx.temp() {
                Some(dst) => cx.expr(lam.body, dst, true).is_some(),
                None => false,
            };
            let (regs, nodes) = (cx.high, cx.nodes);
            if !compiled {
                ok[k] = false;
                out.code.truncate(entry as usize);
            }
            out.widest = out.widest.max(regs + nodes + 2);
            out.kernels.push(Kernel {
                arity: lam.arity,
                entry,
                regs,
            });
        }
        // A kernel that calls one that did not compile does not qualify either.
        loop {
            let mut changed = false;
            for k in 0..lambdas.len() {
                if ok[k] && calls[k].iter().any(|c| !ok[*c as usize]) {
                    ok[k] = false;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        out.of_lambda = vec![None; prog.lambdas.len()];
        for (k, l) in lambdas.iter().enumerate() {
            if ok[k] {
                out.of_lambda[*l as usize] = Some(k as u32);
            }
        }
        out
    }

    /// The kernel of lambda `lam`, if it has one.
    #[inline]
    pub fn of(&self, lam: u32) -> Option<u32> {
        self.of_lambda.get(lam as usize).copied().flatten()
    }

    /// How many lambdas have a kernel.
    pub fn count(&self) -> usize {
        self.of_lambda.iter().flatten().count()
    }

    /// How deep kernel calls may nest where the machine has `room` entries left on its
    /// stacks: a level of recursion there takes at most `widest` entries (the callee's
    /// frame, and a continuation per node of the caller's body), so recursion no deeper
    /// than this cannot reach the machine's stack limit.
    pub fn max_depth(&self, room: usize) -> usize {
        room / self.widest.max(1) as usize
    }

    /// Runs kernel `k` on `args` with `regs` as its register stack (left empty), calls
    /// nesting at most `max_depth` deep, counting a step per call off `budget`; `check`
    /// looks at the limits each time it reaches zero (and sets it again).
    pub fn run(
        &self,
        k: u32,
        args: &[Scalar],
        regs: &mut Vec<Scalar>,
        max_depth: usize,
        budget: &mut u32,
        check: &mut dyn FnMut(&mut u32) -> Result<(), Fault>,
    ) -> Result<Scalar, Stop> {
        let kernel = self.kernels[k as usize];
        if args.len() != kernel.arity as usize {
            return Err(Stop::GiveUp);
        }
        regs.clear();
        regs.extend_from_slice(args);
        regs.resize(kernel.regs as usize, Scalar::Bool(false));
        let result = self.run_loop(kernel.entry, regs, max_depth, budget, check);
        regs.clear();
        result
    }

    fn run_loop(
        &self,
        entry: u32,
        regs: &mut Vec<Scalar>,
        max_depth: usize,
        budget: &mut u32,
        check: &mut dyn FnMut(&mut u32) -> Result<(), Fault>,
    ) -> Result<Scalar, Stop> {
        /// A caller waiting for a result: where it goes on, its frame, the register.
        struct Frame {
            pc: u32,
            bp: u32,
            dst: Reg,
        }
        let mut frames: Vec<Frame> = Vec::new();
        let mut pc = entry as usize;
        let mut bp = 0usize;
        let mut tick = |budget: &mut u32| -> Result<(), Stop> {
            *budget -= 1;
            if *budget == 0 {
                check(budget).map_err(Stop::Limit)?;
            }
            Ok(())
        };
        tick(budget)?;
        // A result for the frame resumed next: its register and value.
        let mut result: Option<(Reg, Scalar)> = None;
        loop {
            // The running frame as a window of `MAX_REGS` registers (indexed by a `Reg`,
            // with no bounds to check); the stack always reaches past its end.
            let end = bp + MAX_REGS;
            if regs.len() < end {
                regs.resize(end, Scalar::Bool(false));
            }
            let f: &mut [Scalar; MAX_REGS] =
                (&mut regs[bp..end]).try_into().map_err(|_| Stop::GiveUp)?;
            if let Some((dst, v)) = result.take() {
                f[dst as usize] = v;
            }
            loop {
                let ins = self.code[pc];
                pc += 1;
                match ins {
                    Ins::Const { dst, v } => f[dst as usize] = v,
                    Ins::Move { dst, src } => f[dst as usize] = f[src as usize],
                    Ins::Bin { p, dst, a, b } => {
                        f[dst as usize] = binary(p, f[a as usize], f[b as usize])?;
                    }
                    Ins::BinK { p, dst, a, k } => {
                        f[dst as usize] = binary(p, f[a as usize], Scalar::I32(k))?;
                    }
                    Ins::Neg { dst, a } => f[dst as usize] = neg(f[a as usize])?,
                    Ins::JumpIf { r, when, to } => match f[r as usize] {
                        Scalar::Bool(b) if b == when => pc = to as usize,
                        Scalar::Bool(_) => {}
                        Scalar::I32(_) => return Err(Stop::GiveUp),
                    },
                    Ins::Jump { to } => pc = to as usize,
                    Ins::JumpUnless { r, v, to } => {
                        if f[r as usize] != v {
                            pc = to as usize;
                        }
                    }
                    Ins::GiveUp => return Err(Stop::GiveUp),
                    Ins::Call { kernel, dst, base } => {
                        if frames.len() >= max_depth {
                            return Err(Stop::GiveUp);
                        }
                        tick(budget)?;
                        frames.push(Frame {
                            pc: pc as u32,
                            bp: bp as u32,
                            dst,
                        });
                        bp += base as usize;
                        pc = self.kernels[kernel as usize].entry as usize;
                        break;
                    }
                    Ins::TailCall { kernel, base, n } => {
                        tick(budget)?;
                        let from = base as usize;
                        f.copy_within(from..from + n as usize, 0);
                        pc = self.kernels[kernel as usize].entry as usize;
                    }
                    Ins::Ret { src } => {
                        let v = f[src as usize];
                        let Some(caller) = frames.pop() else {
                            return Ok(v);
                        };
                        pc = caller.pc as usize;
                        bp = caller.bp as usize;
                        result = Some((caller.dst, v));
                        break;
                    }
                }
            }
        }
    }
}

/// The lambda global `g`'s value is, when it is a function without dictionaries.
fn global_lambda(prog: &Program, g: u32) -> Option<u32> {
    let global = prog.globals.get(g as usize)?;
    if global.dicts != 0 {
        return None;
    }
    let outer = prog.lambdas.get(global.body as usize)?;
    match prog.code.get(outer.body as usize)? {
        Code::Lambda(l) if outer.arity == 0 => Some(*l),
        _ => None,
    }
}

struct Compile<'a> {
    prog: &'a Program,
    of_lambda: &'a [Option<u32>],
    code: &'a mut Vec<Ins>,
    /// The kernels this one calls.
    calls: &'a mut Vec<u32>,
    /// The lambda's slots (registers below this are its parameters and `let`s).
    slots: u32,
    /// The next free temporary, and the most registers used so far.
    next: u32,
    high: u32,
    /// Nodes compiled (bounds the continuations the machine keeps for one call).
    nodes: u32,
}

impl Compile<'_> {
    fn emit(&mut self, ins: Ins) -> usize {
        self.code.push(ins);
        self.code.len() - 1
    }

    fn here(&self) -> u32 {
        self.code.len() as u32
    }

    /// A fresh temporary register.
    fn temp(&mut self) -> Option<Reg> {
        let r = self.next;
        self.next += 1;
        self.high = self.high.max(self.next);
        (r < MAX_REGS as u32).then_some(r as Reg)
    }

    /// The register of a parameter or `let` (slot `s`), if it is one of the lambda's.
    fn slot(&self, s: u32) -> Option<Reg> {
        (s < self.slots).then_some(s as Reg)
    }

    /// A register holding node `id`'s value: a variable's own, or a temporary it is
    /// computed into.
    fn operand(&mut self, id: CodeId) -> Option<Reg> {
        match &self.prog.code[id as usize] {
            Code::Local(s) | Code::Move(s) => self.slot(*s),
            _ => {
                let r = self.temp()?;
                self.expr(id, r, false)?;
                Some(r)
            }
        }
    }

    /// Emits code computing node `id` into `dst`; in tail position, code returning it
    /// (or calling in the frame's place). `None` when a part is outside the subset.
    fn expr(&mut self, id: CodeId, dst: Reg, tail: bool) -> Option<()> {
        self.nodes += 1;
        let mark = self.next;
        match &self.prog.code[id as usize] {
            Code::Const(v) => {
                let v = Scalar::of(v)?;
                self.emit(Ins::Const { dst, v });
            }
            Code::Local(s) | Code::Move(s) => {
                let src = self.slot(*s)?;
                self.emit(Ins::Move { dst, src });
            }
            Code::Prim1(Prim::Neg, a) => {
                let a = self.operand(*a)?;
                self.emit(Ins::Neg { dst, a });
            }
            Code::Prim2(p, a, b) if arithmetic(*p) => {
                let p = *p;
                let (a, b) = (*a, *b);
                match self.prog.code[b as usize] {
                    Code::Const(Value::I32(k)) => {
                        let a = self.operand(a)?;
                        self.emit(Ins::BinK { p, dst, a, k });
                    }
                    _ => {
                        let a = self.operand(a)?;
                        let b = self.operand(b)?;
                        self.emit(Ins::Bin { p, dst, a, b });
                    }
                }
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
                self.expr(b, dst, false)?;
                self.patch(jump);
            }
            Code::If(c, t, e) => {
                let (c, t, e) = (*c, *t, *e);
                let c = self.operand(c)?;
                let to_else = self.emit(Ins::JumpIf {
                    r: c,
                    when: false,
                    to: 0,
                });
                self.next = mark;
                self.expr(t, dst, tail)?;
                let to_end = (!tail).then(|| self.emit(Ins::Jump { to: 0 }));
                self.patch(to_else);
                self.expr(e, dst, tail)?;
                if let Some(j) = to_end {
                    self.patch(j);
                }
                self.next = mark;
                return Some(());
            }
            Code::Match { scrutinee, arms } => {
                let r = self.operand(*scrutinee)?;
                self.arms(r, arms, dst, tail)?;
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
            Code::CallGlobal { global, args, .. } if args.len() <= MAX_ARGS => {
                let l = global_lambda(self.prog, *global)?;
                let kernel = (*self.of_lambda.get(l as usize)?)?;
                if self.prog.lambdas[l as usize].arity as usize != args.len() {
                    return None;
                }
                // The arguments in consecutive temporaries: the callee's frame starts there.
                let base = self.next;
                for _ in args.iter() {
                    self.temp()?;
                }
                for (i, a) in args.iter().enumerate() {
                    self.expr(*a, (base + i as u32) as Reg, false)?;
                    self.next = base + args.len() as u32;
                }
                self.calls.push(kernel);
                let base = base as Reg;
                if tail {
                    let n = args.len() as u8;
                    self.emit(Ins::TailCall { kernel, base, n });
                    self.next = mark;
                    return Some(());
                }
                self.emit(Ins::Call { kernel, dst, base });
            }
            _ => return None,
        }
        self.next = mark;
        if tail {
            self.emit(Ins::Ret { src: dst });
        }
        Some(())
    }

    /// The arms of a `match` on register `r`, tried in order as `Machine::arm` tries
    /// them: a variable or a wildcard matches, a literal matches its value (an integer
    /// literal no boolean, and none that does not fit an `i32`). `None` for any other
    /// pattern.
    fn arms(&mut self, r: Reg, arms: &[(Pat, CodeId)], dst: Reg, tail: bool) -> Option<()> {
        let mut to_end = Vec::new();
        for (pat, body) in arms {
            let test = match pat {
                Pat::Wild => None,
                Pat::Bind(s) => {
                    let slot = self.slot(*s)?;
                    self.emit(Ins::Move { dst: slot, src: r });
                    None
                }
                Pat::Int(text) => match text.parse::<i32>() {
                    Ok(k) => Some(Scalar::I32(k)),
                    Err(_) => continue,
                },
                Pat::Bool(b) => Some(Scalar::Bool(*b)),
                _ => return None,
            };
            let next = test.map(|v| self.emit(Ins::JumpUnless { r, v, to: 0 }));
            self.expr(*body, dst, tail)?;
            if !tail {
                to_end.push(self.emit(Ins::Jump { to: 0 }));
            }
            match next {
                Some(jump) => self.patch(jump),
                // Later arms are never tried.
                None => break,
            }
        }
        self.emit(Ins::GiveUp);
        for jump in to_end {
            self.patch(jump);
        }
        Some(())
    }

    /// Points the jump at `at` here.
    fn patch(&mut self, at: usize) {
        let here = self.here();
        match &mut self.code[at] {
            Ins::JumpIf { to, .. } | Ins::Jump { to } | Ins::JumpUnless { to, .. } => *to = here,
            _ => {}
        }
    }
}

/// The natives a kernel computes (all of them on scalars, to scalars).
fn arithmetic(p: Prim) -> bool {
    matches!(
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
    )
}

/// A native on two scalars, as `natives::binary` computes it (the same table,
/// `natives::i32_binary`); its errors, and booleans ordered, give up.
#[inline(always)]
pub(super) fn binary(p: Prim, a: Scalar, b: Scalar) -> Result<Scalar, Stop> {
    match (a, b) {
        (Scalar::I32(x), Scalar::I32(y)) => {
            natives::i32_binary!(p, x, y, Scalar::I32, Scalar::Bool).ok_or(Stop::GiveUp)
        }
        (Scalar::Bool(x), Scalar::Bool(y)) => match p {
            Prim::Eq => Ok(Scalar::Bool(x == y)),
            Prim::Ne => Ok(Scalar::Bool(x != y)),
            _ => Err(Stop::GiveUp),
        },
        _ => Err(Stop::GiveUp),
    }
}

/// `-a`, as `natives::neg` computes it on an `i32`.
#[inline(always)]
pub(super) fn neg(a: Scalar) -> Result<Scalar, Stop> {
    match a {
        Scalar::I32(x) => x.checked_neg().map(Scalar::I32).ok_or(Stop::GiveUp),
        Scalar::Bool(_) => Err(Stop::GiveUp),
    }
}

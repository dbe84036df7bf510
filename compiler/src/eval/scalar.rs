//! Scalar kernels: functions computed on `i32`s and booleans alone (`fib`, `gcd`, a
//! numeric loop), compiled once per program to register code over unboxed scalars and run
//! in one loop, beside the machine.
//!
//! A kernel is a top-level function without class constraints, over nothing, whose body
//! reads its parameters and `let`s, takes natives of arithmetic and comparison, `&&`,
//! `||`, `if`, `match` on literals, and calls kernels, the members of the `let rec`
//! groups it defines among them (compiled by `scalar_compile`). The machine runs one
//! where a program calls such a function with `i32` or boolean arguments
//! (`Machine::run_kernel`). A kernel gives up on
//! what it does not handle: a value of another type, a native's error (overflow, division
//! by zero), recursion deeper than its bound. The machine then takes back the steps it
//! counted and runs the call itself, so errors and stack limits stay the machine's. A
//! kernel counts one step per call (the machine counts several), against the same gas
//! and interrupt checks.

use super::ir::Program;
use super::natives::{self, Prim};
use super::value::Value;
use super::Fault;

/// Most parameters of a kernel.
pub(super) const MAX_ARGS: usize = 8;

/// Most registers of a kernel's frame: every `Reg` (a byte) is one.
pub(super) const MAX_REGS: usize = 256;

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
pub(super) type Reg = u8;

/// One instruction. Registers are the frame's: its parameters and `let`s (the lambda's
/// slots) first, then a `let rec` member's captured values, then temporaries.
#[derive(Clone, Copy, Debug)]
pub(super) enum Ins {
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
    /// Calls kernel `kernel`, whose frame the caller laid out from register `base` on;
    /// its result goes to `dst`.
    Call {
        kernel: u32,
        dst: Reg,
        base: Reg,
    },
    /// The same in tail position: the callee's `n` first registers move to the running
    /// frame's first ones and the callee replaces it.
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
pub(super) struct Kernel {
    pub arity: u32,
    /// Where its code starts.
    pub entry: u32,
    /// Its lambda's slots, where the captured values of a `let rec` member start, and
    /// how many it keeps.
    pub slots: u32,
    pub captures: u32,
}

/// The kernels of one program.
#[derive(Default)]
pub struct Kernels {
    pub(super) code: Vec<Ins>,
    pub(super) kernels: Vec<Kernel>,
    /// The kernel of each lambda, if it has one (members of `let rec` groups have kernels
    /// too, called from kernels only).
    pub(super) of_lambda: Vec<Option<u32>>,
    /// Registers a level of kernel recursion takes at most, and the most continuations the
    /// machine would keep for one (bounds a kernel's depth: `Kernels::max_depth`).
    pub(super) widest: u32,
}

/// Why a kernel stopped without a value.
pub enum Stop {
    /// The machine runs the call instead.
    GiveUp,
    /// The gas ran out or the run was interrupted.
    Limit(Fault),
}

impl Kernels {
    /// Compiles every top-level function that qualifies (see the module's documentation),
    /// and the `let rec` loops in them.
    pub fn compile(prog: &Program) -> Kernels {
        super::scalar_compile::compile(prog)
    }

    /// The kernel of lambda `lam`, if it has one.
    #[inline]
    pub fn of(&self, lam: u32) -> Option<u32> {
        self.of_lambda.get(lam as usize).copied().flatten()
    }

    /// How many lambdas have a kernel the machine calls.
    pub fn count(&self) -> usize {
        self.of_lambda.iter().flatten().count()
    }

    /// How many kernels there are, `let rec` members included (kernel ids are below).
    pub fn len(&self) -> usize {
        self.kernels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kernels.is_empty()
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
        // The frame's other registers come with its window (`run_loop`).
        regs.clear();
        regs.extend_from_slice(args);
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

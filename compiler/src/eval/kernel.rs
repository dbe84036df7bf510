//! Kernels: functions (`fib`, a merge sort, a search tree's `insert`, a user's own
//! `map f xs`) compiled once per program to register code over values and run in one
//! loop, beside the machine.
//!
//! A kernel is a top-level function without class constraints, over nothing, or the
//! method of an instance without a context (`get` of lists), whose body reads its
//! parameters and `let`s, takes natives that call no function (arithmetic, comparison,
//! `show`), `&&`, `||`, `if`, builds constructors, tuples and records, reads and updates
//! records, `match`es on constructor, tuple, literal and record patterns (of variables),
//! and calls kernels (functions, methods of instances it names statically), the members
//! of the `let rec` groups it defines among them (compiled by `kernel_compile`), and the
//! function values its variables hold, where those are closures of lambdas with kernels
//! (`Ins::Apply`: a top-level function, a lambda over nothing or over captured values,
//! which its frame receives; any other function value gives the call up). The machine
//! runs one where a program calls such a function (`Machine::run_kernel`). A kernel gives
//! up on what it does not decide as the machine does: an indeterminate value it would
//! take apart or branch on, a native's error (overflow, division by zero), a `match`
//! where no arm matches, recursion deeper than its bound. The machine then takes back the
//! steps it counted and runs the call itself (the program is pure: nothing else is
//! undone), so errors, holes and stack limits stay the machine's. A kernel counts one step
//! per call (the machine counts several), against the same gas and interrupt checks.

use std::rc::Rc;

use super::ir::{Code, Program};
use super::kernel_clears::successors;
use super::kernel_register::{Chain, Register};
use super::natives::{ListIds, Prim};
use super::value::{NodeKind, Value};
use super::Fault;

/// Most parameters of a kernel.
pub(super) const MAX_ARGS: usize = 8;

/// Most registers of a kernel's frame: every `Reg` (a byte) is one.
pub(super) const MAX_REGS: usize = 256;

/// The most registers a kernel's register stack keeps between runs.
const MAX_KEPT_REGS: usize = 1 << 16;

/// Most parts of a node `Ins::Unpack` takes apart (a search tree's node has four).
pub(super) const MAX_UNPACK: usize = 4;

/// A register of the running frame.
pub(super) type Reg = u8;

/// `Ins::JumpUnlessPartBin`'s operand that is its register itself, not one of its parts.
pub(super) const WHOLE: u8 = u8::MAX;

/// A literal a `when` arm compares with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Lit {
    I32(i32),
    Bool(bool),
    /// An integer literal beyond `i32`: no `i32` equals it.
    BeyondI32,
}

/// One instruction. Registers are the frame's: its parameters and `let`s (the lambda's
/// slots) first, then a `let rec` member's captured values, then temporaries.
#[derive(Clone, Copy, Debug)]
pub(super) enum Ins {
    /// Constant `k` of the kernels' table.
    Const {
        dst: Reg,
        k: u32,
    },
    /// A register's value copied (a variable read before its last read).
    Copy {
        dst: Reg,
        src: Reg,
    },
    /// A register's value moved out (a variable's last read, `Code::Move`).
    Take {
        dst: Reg,
        src: Reg,
    },
    /// A native on two registers (`natives::binary`).
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
    /// A native on one register (`natives::unary`); moved out where `take` (a
    /// temporary's or a variable's last read, of `reverse`: a list nothing else holds is
    /// turned around in place, `natives::unary_owned`).
    Un {
        p: Prim,
        dst: Reg,
        a: Reg,
        take: bool,
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
    /// `Bin` of a comparison feeding an `if`: jumps unless it holds (without storing the
    /// boolean).
    JumpUnlessBin {
        p: Prim,
        a: Reg,
        b: Reg,
        to: u32,
    },
    /// `JumpUnlessBin` on operands read in place: part `ia` of the node in register `a`
    /// (which a test above found to be one), or register `a` itself where `ia` is
    /// `WHOLE`; `b` alike. An `if` comparing the parts of a `match`'s nodes (`x <= y` in
    /// a merge) leaves them where they are for the branch that takes the node apart.
    JumpUnlessPartBin {
        p: Prim,
        a: Reg,
        ia: u8,
        b: Reg,
        ib: u8,
        to: u32,
    },
    /// `JumpUnlessBin` on a register and an `i32` constant.
    JumpUnlessBinK {
        p: Prim,
        a: Reg,
        k: i32,
        to: u32,
    },
    /// Jumps unless register `r` holds `v` (a `when` arm's literal); gives up on a value
    /// of another type.
    JumpUnless {
        r: Reg,
        v: Lit,
        to: u32,
    },
    /// Jumps unless register `r` holds constructor `ctor` (as `Machine::matches` decides
    /// it: a constructor without fields matches a pattern without parts, `bare`); gives
    /// up on an indeterminate value.
    JumpUnlessCtor {
        r: Reg,
        bare: bool,
        ctor: u32,
        to: u32,
    },
    /// `JumpUnlessCtor` on part `i` of the node in register `r` (which a test above found
    /// to be one), read in place: a nested pattern's constructor (`Cons a (Cons b rest)`)
    /// tested before the node is taken apart, without copying the part out first.
    JumpUnlessPartCtor {
        r: Reg,
        i: u8,
        bare: bool,
        ctor: u32,
        to: u32,
    },
    /// Jumps unless register `r` holds a tuple of `n` parts; gives up on an indeterminate
    /// value.
    JumpUnlessTuple {
        r: Reg,
        n: u8,
        to: u32,
    },
    /// Part `i` of the node in register `src` (which a test above found to be one).
    Part {
        dst: Reg,
        src: Reg,
        i: u8,
    },
    /// A node of `kind` whose parts are the values of registers `base..base + n` (moved
    /// out).
    Node {
        kind: NodeKind,
        dst: Reg,
        base: Reg,
        n: u8,
    },
    /// `Node` in the memory of the emptied node that register `token` keeps (`Unpack`,
    /// `Spare`), or in fresh memory where it keeps none.
    NodeIn {
        kind: NodeKind,
        dst: Reg,
        base: Reg,
        n: u8,
        token: Reg,
    },
    /// `NodeIn` of two parts read from registers `a` and `b`, which need not be a run
    /// (`kernel_peephole::pairs_in_place`): `split`'s `(Cons a l, Cons b r)` builds its
    /// two cells of the registers the parts are in, not of copies moved next to each
    /// other first.
    NodeInPair {
        kind: NodeKind,
        dst: Reg,
        a: Reg,
        b: Reg,
        token: Reg,
    },
    /// `Node` returned at once (a `Node` just before the `Ret` of its register): the
    /// node is the frame's result, never stored in a register (read back whole, a value
    /// just written as a tag and a payload stalls the processor).
    NodeRet {
        kind: NodeKind,
        base: Reg,
        n: u8,
        clear: Regs,
    },
    /// `NodeIn` returned at once, as `NodeRet`.
    NodeInRet {
        kind: NodeKind,
        base: Reg,
        n: u8,
        token: Reg,
        clear: Regs,
    },
    /// `NodeIn` (`Node` where `fresh`, no `token`) of a node whose part `hole` is the
    /// result of the call that follows in tail position, which the node is returned
    /// with (`Cons x (merge xt ys)`: `kernel_chain`). The node is built with that part
    /// empty (register `base + hole` is not read) and linked into the frame's `Chain`:
    /// the frame returns its first node, and the frame's result fills the last one's
    /// hole. A level of recursion, as the call it replaces. In `lane` `Left` or `Right`,
    /// the node is built around one part of a pair instead (`split`'s `(Cons a l, Cons b
    /// r)`: `kernel_unzip`), and the frame's result fills the two holes (a level of
    /// recursion for each `Left`).
    Link {
        kind: NodeKind,
        base: Reg,
        n: u8,
        token: Reg,
        hole: u8,
        fresh: bool,
        lane: Lane,
    },
    /// `Unpack` of the pair in register `src` (kept), its part `hole` to register `part`
    /// and the other to register `kept`, just before the `Link` of a node of `kind` in
    /// its memory that keeps that other part, read from register `kept` (merge's
    /// `Cons x (merge xt ys)`, a copy's `Cons x (copy xt)`: `kernel_relink`). It does
    /// the `Link` too, and the code goes on after it: part `hole` moves to register
    /// `part`, register `kept` is emptied (the `Link` would have emptied it), and where
    /// nothing else holds the pair, the kept part stays where it is and the pair,
    /// relabelled, is linked with its hole there; otherwise the parts are copied and the
    /// node linked is new, as the `Unpack` and the `Link` would have made it. (The `Link`
    /// stays, never run, for the passes that read the two as an unpack and a link.)
    /// `part` may be `src` itself (`kernel_relink::keep_tails`).
    Relink {
        kind: NodeKind,
        src: Reg,
        part: Reg,
        kept: Reg,
        hole: u8,
        lane: Lane,
    },
    /// Takes apart the node in register `src` (which its arm's tests found to be one of
    /// `n` parts, at most `MAX_UNPACK`) where its arm reads it no more: part `i` goes to
    /// register `to[i]`, moved out where nothing else holds the node and copied
    /// otherwise; a part whose register is `src` itself is released. `src` then keeps the
    /// emptied node for a `NodeIn` (`keep`), or is emptied.
    Unpack {
        src: Reg,
        to: [Reg; MAX_UNPACK],
        n: u8,
        keep: bool,
    },
    /// Releases the parts of the node in register `r`, a variable read no more (its parts
    /// were copied out), keeping the emptied node there for a `NodeIn` where nothing
    /// else holds it.
    Spare {
        r: Reg,
    },
    /// Empties registers `from..from + n` (the temporaries of an arm whose tests
    /// failed: a part read into one would otherwise keep its node shared).
    Clear {
        from: Reg,
        n: u8,
    },
    /// Binds the record in register `src` (or the record a constructor of one part holds
    /// there, `Item {id, count}`): the field named `names[i]` of the kernels' table entry
    /// `names` to register `to[i]`, for the `n` first. Gives up where the value is no
    /// record or has no such field.
    Fields {
        src: Reg,
        to: [Reg; MAX_UNPACK],
        n: u8,
        names: u32,
    },
    /// `x.name` of a record (`name`: the only name of table entry `names`).
    Field {
        dst: Reg,
        src: Reg,
        names: u32,
    },
    /// `{ base with { .. } }`: the record in register `base` (moved out) with the fields
    /// named in table entry `names` replaced by the values of the `n` registers after
    /// it, in place where nothing else holds it (`machine::update`).
    Update {
        dst: Reg,
        base: Reg,
        n: u8,
        names: u32,
    },
    /// `x.i` of a tuple.
    TupleField {
        dst: Reg,
        src: Reg,
        index: u32,
    },
    /// No `when` arm matched: the machine reports it.
    GiveUp,
    /// Calls kernel `kernel`, whose frame the caller laid out from register `base` on;
    /// its result goes to `dst`. `entry` is where the callee's code starts (set once
    /// every kernel's code is laid out: `link`), read without a look-up in the table of
    /// kernels.
    Call {
        kernel: u32,
        entry: u32,
        dst: Reg,
        base: Reg,
    },
    /// Calls the function value register `f` holds on the `n` arguments from register
    /// `base` on, its result to `dst`: a closure whose lambda has a kernel (a top-level
    /// function, or a lambda with or without captured values, `Kernels::of_value`) of
    /// arity `n`, or such a closure applied to too few arguments, which go before the
    /// call's; its captured values are copied to where the callee's slots end. Gives up
    /// on any other function value (a constructor, a native) and on an indeterminate
    /// argument or captured value, as the machine loads a kernel's arguments. (`f` lies
    /// below `base`: `kernel_frames` keeps it there.)
    Apply {
        f: Reg,
        dst: Reg,
        base: Reg,
        n: u8,
    },
    /// The same in tail position: the callee's `n` first registers move to the running
    /// frame's first ones and the callee replaces it, except the parameters in `keep`
    /// (bit `i`: parameter `i`), which hold their arguments already; then the registers
    /// in `clear` are emptied (`kernel_clears`). `entry` as for `Call`.
    TailCall {
        kernel: u32,
        entry: u32,
        base: Reg,
        n: u8,
        keep: u8,
        clear: Regs,
    },
    /// Returns register `src`'s value, then empties the registers in `clear` (those of
    /// the frame that may still hold a reference: `kernel_clears`; the same for
    /// `NodeRet` and `NodeInRet`, once their node is built).
    Ret {
        src: Reg,
        clear: Regs,
    },
}

/// What the tests of the passes over the kernels' code build and compare.
#[cfg(test)]
pub(super) mod testing {
    use super::{Ins, Kernel, Reg, Regs};
    use crate::eval::value::NodeKind;

    /// Kernel of `arity` parameters and one `let`, then `captures` captured values,
    /// whose code starts at `entry`.
    pub fn kernel(arity: u32, entry: u32, captures: u32) -> Kernel {
        Kernel {
            arity,
            entry,
            slots: arity + 1,
            captures,
            scalar: false,
        }
    }

    /// The code as its instructions' `Debug` text.
    pub fn shown(code: &[Ins]) -> Vec<String> {
        code.iter().map(|i| format!("{i:?}")).collect()
    }

    /// A call of `kernel` whose frame starts at `base`, its result to `dst` (its entry
    /// not linked yet).
    pub fn call(kernel: u32, dst: Reg, base: Reg) -> Ins {
        Ins::Call {
            kernel,
            entry: 0,
            dst,
            base,
        }
    }

    /// A tail call of `kernel` moving `n` arguments from `base`, emptying nothing yet.
    pub fn tail_call(kernel: u32, base: Reg, n: u8) -> Ins {
        Ins::TailCall {
            kernel,
            entry: 0,
            base,
            n,
            keep: 0,
            clear: Regs::NONE,
        }
    }

    /// The return of register `src`, emptying nothing yet.
    pub fn ret(src: Reg) -> Ins {
        Ins::Ret {
            src,
            clear: Regs::NONE,
        }
    }

    /// The return of a list cell built of registers `base` and `base + 1` in the
    /// emptied cell `token` keeps, emptying nothing yet.
    pub fn cons_in_ret(base: Reg, token: Reg) -> Ins {
        Ins::NodeInRet {
            kind: NodeKind::Data(1),
            base,
            n: 2,
            token,
            clear: Regs::NONE,
        }
    }
}

/// Registers `from..from + n` of a frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Regs {
    pub from: Reg,
    pub n: u8,
}

impl Regs {
    pub const NONE: Regs = Regs { from: 0, n: 0 };
}

/// Whether a tail call's `keep` says that parameter `i` holds its argument already
/// (nothing to move into it).
#[inline(always)]
pub(super) fn keeps(keep: u8, i: usize) -> bool {
    i < 8 && keep & (1 << i) != 0
}

/// The result a linked node is built around (`Ins::Link`): the frame's own, or one part
/// of the pair the frame returns (the frame's chain then has a hole in each lane, and
/// its result is taken apart to fill both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Lane {
    Whole,
    Left,
    Right,
}

// An instruction is loaded at each dispatch: it stays 16 bytes.
const _: () = assert!(std::mem::size_of::<Ins>() == 16);

impl Ins {
    /// The `Unpack` a `Relink` does where it does not do the `Link` after it as well
    /// (`None` for any other instruction).
    pub(super) fn as_unpack(&self) -> Option<Ins> {
        let Ins::Relink {
            src,
            part,
            kept,
            hole,
            ..
        } = *self
        else {
            return None;
        };
        let to = if hole == 0 {
            [part, kept]
        } else {
            [kept, part]
        };
        Some(Ins::Unpack {
            src,
            to: [to[0], to[1], 0, 0],
            n: 2,
            keep: true,
        })
    }
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
    /// Whether it runs on scalars (`Kernels::on_scalars`).
    pub scalar: bool,
}

impl Kernel {
    /// How many of its frame's first registers a caller lays out: its parameters, then,
    /// where it has captured values, its `let`s and the captured values after them.
    pub fn frame_width(&self) -> u32 {
        if self.captures == 0 {
            self.arity
        } else {
            self.slots + self.captures
        }
    }
}

/// The kernels of one program.
#[derive(Default)]
pub struct Kernels {
    pub(super) code: Vec<Ins>,
    pub(super) consts: Vec<Value>,
    /// The field names records are read and updated by (`Ins::Fields`, `Ins::Field`,
    /// `Ins::Update`).
    pub(super) names: Vec<Rc<[Rc<str>]>>,
    pub(super) kernels: Vec<Kernel>,
    /// The kernel of each lambda, if it has one (members of `let rec` groups have kernels
    /// too, called from kernels only).
    pub(super) of_lambda: Vec<Option<u32>>,
    /// The first kernel of a lambda written in place (`of_value`): the kernels of
    /// top-level functions and instance methods come before.
    pub(super) first_passed: u32,
    /// Registers a level of kernel recursion takes at most, and the most continuations the
    /// machine would keep for one (bounds a kernel's depth: `Kernels::max_depth`).
    pub(super) widest: u32,
    /// The fold kernel (`kernel_fold`), where the program has lists.
    pub(super) fold: Option<u32>,
}

/// What the kernels read of the program they run in: its list constructors, and its code
/// (the field names of its records' shapes, `ir::record_names`).
#[derive(Clone, Copy)]
pub(super) struct Env<'p> {
    pub list: ListIds,
    pub code: &'p [Code],
}

/// An operation's `None` as the kernel giving up.
pub(super) trait OrGiveUp<T> {
    /// The value, or `Stop::GiveUp`. (Not `ok_or(Stop::GiveUp)`: that builds the error
    /// first and, where there is a value, drops it through a call that is not inlined.)
    fn or_give_up(self) -> Result<T, Stop>;
}

impl<T> OrGiveUp<T> for Option<T> {
    #[inline(always)]
    fn or_give_up(self) -> Result<T, Stop> {
        match self {
            Some(v) => Ok(v),
            None => Err(Stop::GiveUp),
        }
    }
}

/// Why a kernel stopped without a value.
pub enum Stop {
    /// The machine runs the call instead.
    GiveUp,
    /// The gas ran out or the run was interrupted.
    Limit(Fault),
}

impl Kernels {
    /// Compiles every top-level function and instance method that qualifies (see the
    /// module's documentation), and the `let rec` loops in them.
    pub fn compile(prog: &Program) -> Kernels {
        let kernels = super::kernel_compile::compile(prog);
        // The run loop reads the code without bounds (`run_loop`): code that is not
        // closed (a compiler bug) runs no kernel; the machine runs every call itself.
        let closed = kernels.closed();
        #[cfg(test)]
        assert!(closed, "kernel code jumps or runs outside itself");
        if closed {
            kernels
        } else {
            Kernels::default()
        }
    }

    /// Whether the code a run may reach stays inside the code: from the entry of each
    /// kernel the machine calls, every jump, call and next instruction. (A kernel that
    /// did not compile may have left code behind that no run reaches.)
    pub(super) fn closed(&self) -> bool {
        let mut seen = vec![false; self.code.len()];
        let mut todo = Vec::new();
        for k in self.of_lambda.iter().flatten().chain(&self.fold) {
            match self.kernels.get(*k as usize) {
                Some(k) => todo.push(k.entry as usize),
                None => return false,
            }
        }
        while let Some(i) = todo.pop() {
            let Some(&ins) = self.code.get(i) else {
                return false;
            };
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            if let Ins::Call { entry, .. } | Ins::TailCall { entry, .. } = ins {
                todo.push(entry as usize);
            }
            todo.extend(successors(ins, i));
        }
        true
    }

    /// The kernel of lambda `lam`, if it has one.
    #[inline]
    pub fn of(&self, lam: u32) -> Option<u32> {
        self.of_value(lam).filter(|k| *k < self.first_passed)
    }

    /// The kernel of lambda `lam` where a program passes it as a value to `map`, `filter`
    /// or `foldl` (`Machine::kernel_fn`): `of`'s, or one of a lambda written in place
    /// (`\\x -> x % 2 == 0`).
    pub fn of_value(&self, lam: u32) -> Option<u32> {
        self.of_lambda.get(lam as usize).copied().flatten()
    }

    /// How many top-level functions and instance methods have a kernel the machine calls.
    pub fn count(&self) -> usize {
        self.of_lambda
            .iter()
            .flatten()
            .filter(|k| **k < self.first_passed)
            .count()
    }

    /// How many `let`s kernel `k`'s frame keeps between its parameters and its captured
    /// values.
    pub fn lets(&self, k: u32) -> usize {
        let kernel = &self.kernels[k as usize];
        (kernel.slots - kernel.arity) as usize
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

    /// Whether kernel `k` runs on scalars when its arguments are (`Register` for
    /// `Scalar`): its code and the code of every kernel it calls computes on nothing else.
    #[inline]
    pub fn on_scalars(&self, k: u32) -> bool {
        self.kernels[k as usize].scalar
    }

    /// Puts `args` in the first registers of `regs` (a kernel's register stack, every
    /// register empty), each converted (`Register::of`): `false`, and `regs` as it was,
    /// where one does not convert.
    pub(super) fn load<'a, R: Register>(
        regs: &mut Vec<R>,
        args: impl IntoIterator<Item = &'a Value>,
    ) -> bool {
        if regs.len() < MAX_REGS {
            regs.resize(MAX_REGS, R::default());
        }
        for (i, a) in args.into_iter().enumerate() {
            match R::of(a) {
                Some(v) => regs[i] = v,
                None => {
                    R::clear(&mut regs[..i]);
                    return false;
                }
            }
        }
        true
    }

    /// Runs kernel `k` (one `of` or `of_value` gives: its code is `closed`) on the
    /// arguments `load`ed into `regs`, calls nesting at most
    /// `max_depth` deep, counting a step per call off `budget`; `check` looks at the
    /// limits each time it reaches zero (and sets it again). No register holds a
    /// reference afterwards (a frame's returns and tail calls empty those of its
    /// registers that may hold one, `kernel_clears`; a run that stops early empties them
    /// all), so the next run neither resizes nor clears the stack.
    pub(super) fn run<R: Register>(
        &self,
        env: Env,
        k: u32,
        regs: &mut Vec<R>,
        max_depth: usize,
        budget: &mut u32,
        check: &mut dyn FnMut(&mut u32) -> Result<(), Fault>,
    ) -> Result<Value, Stop> {
        let kernel = self.kernels[k as usize];
        let result = self.run_loop(env, kernel, regs, max_depth, budget, check);
        if result.is_err() {
            R::clear(regs);
        }
        #[cfg(test)]
        assert!(
            !regs.iter().any(R::holds_reference),
            "a run of kernel {k} (stopped early: {}) left a reference in registers {:?}",
            result.is_err(),
            (0..regs.len())
                .filter(|i| regs[*i].holds_reference())
                .collect::<Vec<_>>()
        );
        // A stack grown by deep recursion is not kept.
        if regs.len() > MAX_KEPT_REGS {
            regs.truncate(MAX_REGS);
            regs.shrink_to_fit();
        }
        result.map(R::value)
    }

    fn run_loop<R: Register>(
        &self,
        env: Env,
        kernel: Kernel,
        regs: &mut Vec<R>,
        max_depth: usize,
        budget: &mut u32,
        check: &mut dyn FnMut(&mut u32) -> Result<(), Fault>,
    ) -> Result<R, Stop> {
        /// A caller waiting for a result: where it goes on, its frame (and, in bit
        /// `CHAINED`, whether it had linked nodes: its `Chain`, kept on `chains`
        /// meanwhile), and the register.
        #[derive(Clone, Copy)]
        struct Frame {
            ip: *const Ins,
            bp: u32,
            dst: Reg,
        }
        const CHAINED: u32 = 1 << 31;
        let mut frames: Vec<Frame> = Vec::new();
        // The running frame's linked nodes (`Ins::Link`), its callers' that have some,
        // and how many nodes all of them hold (each a level of recursion).
        let mut chain: Chain<R> = Chain::default();
        let mut chains: Vec<Chain<R>> = Vec::new();
        let mut linked = 0usize;
        // The code is read through a pointer (`ip`): `closed` checked when the kernels
        // were compiled that every entry and jump lands inside it and that no instruction
        // runs past its end, so no bound is checked at each dispatch.
        let code = self.code.as_ptr();
        // SAFETY: `to` is an entry or a jump's target, inside the code (`closed`).
        let at = |to: u32| unsafe { code.add(to as usize) };
        let mut ip = at(kernel.entry);
        let mut tick = |budget: &mut u32| -> Result<(), Stop> {
            *budget -= 1;
            if *budget == 0 {
                check(budget).map_err(Stop::Limit)?;
            }
            Ok(())
        };
        tick(budget)?;
        // How deep the recursion is: the frames waiting for a result, and the nodes
        // linked (each a level the machine would recurse by).
        macro_rules! depth {
            () => {
                frames.len() + if R::LINKS { linked } else { 0 }
            };
        }
        // The running frame as a window of `MAX_REGS` registers (indexed by a `Reg`, with
        // no bounds to check), once the stack reaches past its end: it is grown when a
        // call enters a frame (`reach`), and a return goes back to a frame below.
        macro_rules! window {
            ($bp:expr) => {
                // SAFETY: registers `bp..bp + MAX_REGS` exist (the running frame's, or a
                // caller's below it), and nothing else borrows the stack while it runs.
                unsafe { &mut *regs.as_mut_ptr().add($bp).cast::<[R; MAX_REGS]>() }
            };
        }
        macro_rules! reach {
            ($bp:expr) => {{
                let bp = $bp;
                let end = bp + MAX_REGS;
                if regs.len() < end {
                    // (A frame's start is kept below bit `CHAINED`.)
                    if end >= CHAINED as usize {
                        return Err(Stop::GiveUp);
                    }
                    grow(regs, end);
                }
                window!(bp)
            }};
        }
        // Returns value `v` from the running frame, whose registers `clear` (those that
        // may still hold a reference) are emptied (where the frame linked nodes, `v` fills
        // the last one's hole and the first is returned); the caller goes on with it in
        // its register (or the run ends with it).
        macro_rules! ret {
            ($f:ident, $v:expr, $clear:expr) => {{
                let mut v = $v;
                R::clear_regs($f, $clear);
                if R::LINKS && !chain.is_empty() {
                    linked -= chain.len();
                    v = R::close(&mut chain, v).or_give_up()?;
                }
                let Some(caller) = frames.pop() else {
                    return Ok(v);
                };
                back_to!($f, caller);
                $f[caller.dst as usize].set(v);
            }};
        }
        // Goes back to `caller` (popped off `frames`): its chain, where it goes on, and its
        // frame's window.
        macro_rules! back_to {
            ($f:ident, $caller:expr) => {{
                let caller: Frame = $caller;
                let mut caller_bp = caller.bp;
                if R::LINKS && caller_bp & CHAINED != 0 {
                    caller_bp &= !CHAINED;
                    if let Some(c) = chains.pop() {
                        chain = c;
                    }
                }
                ip = caller.ip;
                // The caller's frame is below this one: its registers exist.
                $f = window!(caller_bp as usize);
            }};
        }
        // Returns the node of `n` parts, where they are two, in registers `base` and
        // `base + 1` (in the memory of the emptied node `token`; `None`: new) to a caller
        // that takes it
        // apart at once (its next instruction an `Ins::Unpack` of the call's register,
        // split's `(l, r)`): the parts go straight to the registers that unpack names, and
        // the call's register keeps the memory the node would have taken (or frees it),
        // as the unpack leaves them; the node is never built, and the unpack is skipped.
        // `false`, with nothing done, for other nodes, where the caller does anything else,
        // or where this frame linked nodes (the node fills the last one's hole).
        macro_rules! hand_over {
            ($f:ident, $n:expr, $base:expr, $token:expr, $clear:expr) => {{
                match frames.last().copied() {
                    // (Scalar registers build no nodes: no code for them.)
                    _ if $n != 2 || !R::LINKS => false,
                    // SAFETY: a caller goes on after its call, inside the code (`closed`).
                    Some(caller) if !(R::LINKS && !chain.is_empty()) => match unsafe { *caller.ip }
                    {
                        Ins::Unpack {
                            src,
                            to,
                            n: 2,
                            keep,
                        } if src == caller.dst => {
                            let base = $base as usize;
                            let parts = [$f[base].take(), $f[base + 1].take()];
                            let token: Option<Reg> = $token;
                            let token = token.map_or_else(R::default, |t| $f[t as usize].take());
                            R::clear_regs($f, $clear);
                            frames.pop();
                            back_to!($f, caller);
                            // SAFETY: the unpack is followed by an instruction (`closed`).
                            ip = unsafe { ip.add(1) };
                            R::hand_over($f, src, [to[0], to[1]], parts, token, keep);
                            true
                        }
                        _ => false,
                    },
                    _ => false,
                }
            }};
        }
        // Enters the callee whose code starts at `entry` and whose frame starts at
        // register `base` of the running one; the caller goes on where it is with the
        // result in its register `dst`.
        macro_rules! enter {
            ($f:ident, $entry:expr, $dst:expr, $base:expr) => {{
                tick(budget)?;
                // (Where the running frame starts: its window's place in the stack.)
                // SAFETY: the window is inside the stack (`window`).
                let bp = unsafe { $f.as_ptr().offset_from(regs.as_ptr()) } as usize;
                let mut caller_bp = bp as u32;
                if R::LINKS && !chain.is_empty() {
                    chains.push(std::mem::take(&mut chain));
                    caller_bp |= CHAINED;
                }
                frames.push(Frame {
                    ip,
                    bp: caller_bp,
                    dst: $dst,
                });
                ip = at($entry);
                $f = reach!(bp + $base as usize);
            }};
        }
        let mut f: &mut [R; MAX_REGS] = reach!(0);
        loop {
            // Matched in place: each arm loads the fields it reads (a copy of the whole
            // instruction loaded all of them before the jump, about 10% of the run).
            // SAFETY: `ip` is inside the code: an entry, a jump's target, or the
            // instruction after one that goes on to the next (`closed`).
            let ins = unsafe { &*ip };
            ip = unsafe { ip.add(1) };
            match *ins {
                Ins::Const { dst, k } => {
                    let v = R::of(&self.consts[k as usize]).or_give_up()?;
                    f[dst as usize].set(v);
                }
                Ins::Copy { dst, src } => {
                    let v = f[src as usize].dup();
                    f[dst as usize].set(v);
                }
                Ins::Take { dst, src } => {
                    let v = f[src as usize].take();
                    f[dst as usize].set(v);
                }
                Ins::Bin { p, dst, a, b } => {
                    let v = R::binary(p, &f[a as usize], &f[b as usize])?;
                    f[dst as usize].set(v);
                }
                Ins::BinK { p, dst, a, k } => {
                    let v = R::binary_k(p, &f[a as usize], k)?;
                    f[dst as usize].set(v);
                }
                Ins::Un { p, dst, a, take } => {
                    let v = if take {
                        R::unary_owned(p, f[a as usize].take(), env.list)?
                    } else {
                        R::unary(p, &f[a as usize], env.list)?
                    };
                    f[dst as usize].set(v);
                }
                Ins::JumpIf { r, when, to } => {
                    if f[r as usize].truth().or_give_up()? == when {
                        ip = at(to);
                    }
                }
                Ins::Jump { to } => ip = at(to),
                Ins::JumpUnlessBin { p, a, b, to } => {
                    if !R::holds(p, &f[a as usize], &f[b as usize])? {
                        ip = at(to);
                    }
                }
                Ins::JumpUnlessPartBin {
                    p,
                    a,
                    ia,
                    b,
                    ib,
                    to,
                } => {
                    let x = f[a as usize].operand(ia).or_give_up()?;
                    let y = f[b as usize].operand(ib).or_give_up()?;
                    if !R::holds(p, x, y)? {
                        ip = at(to);
                    }
                }
                Ins::JumpUnlessBinK { p, a, k, to } => {
                    let v = R::binary_k(p, &f[a as usize], k)?;
                    if !v.truth().or_give_up()? {
                        ip = at(to);
                    }
                }
                Ins::JumpUnless { r, v, to } => {
                    if !f[r as usize].is(v).or_give_up()? {
                        ip = at(to);
                    }
                }
                Ins::JumpUnlessCtor { r, bare, ctor, to } => {
                    if !f[r as usize].is_ctor(ctor, bare).or_give_up()? {
                        ip = at(to);
                    }
                }
                Ins::JumpUnlessPartCtor {
                    r,
                    i,
                    bare,
                    ctor,
                    to,
                } => {
                    let part = f[r as usize].operand(i).or_give_up()?;
                    if !part.is_ctor(ctor, bare).or_give_up()? {
                        ip = at(to);
                    }
                }
                Ins::JumpUnlessTuple { r, n, to } => {
                    if !f[r as usize].is_tuple(n).or_give_up()? {
                        ip = at(to);
                    }
                }
                Ins::Part { dst, src, i } => {
                    let v = f[src as usize].part(i).or_give_up()?;
                    f[dst as usize].set(v);
                }
                Ins::Node { kind, dst, base, n } => {
                    let v = node(f, kind, base, n)?;
                    f[dst as usize].set(v);
                }
                Ins::NodeIn {
                    kind,
                    dst,
                    base,
                    n,
                    token,
                } => {
                    let v = node_in(f, kind, base, n, token)?;
                    f[dst as usize].set(v);
                }
                Ins::NodeInPair {
                    kind,
                    dst,
                    a,
                    b,
                    token,
                } => {
                    let token = f[token as usize].take();
                    let (a, b) = (f[a as usize].take(), f[b as usize].take());
                    let v = R::node_in_pair(kind, a, b, token).or_give_up()?;
                    f[dst as usize].set(v);
                }
                Ins::NodeRet {
                    kind,
                    base,
                    n,
                    clear,
                } => {
                    if !hand_over!(f, n, base, None, clear) {
                        ret!(f, node(f, kind, base, n)?, clear)
                    }
                }
                Ins::NodeInRet {
                    kind,
                    base,
                    n,
                    token,
                    clear,
                } => {
                    if !hand_over!(f, n, base, Some(token), clear) {
                        ret!(f, node_in(f, kind, base, n, token)?, clear)
                    }
                }
                Ins::Link {
                    kind,
                    base,
                    n,
                    token,
                    hole,
                    fresh,
                    lane,
                } => {
                    // (A pair's two nodes are one level: its `Left`'s.)
                    if !R::LINKS || (lane != Lane::Right && depth!() >= max_depth) {
                        return Err(Stop::GiveUp);
                    }
                    let token = if fresh {
                        R::default()
                    } else {
                        f[token as usize].take()
                    };
                    let parts = &mut f[base as usize..base as usize + n as usize];
                    R::link(&mut chain, kind, parts, hole, token, lane).or_give_up()?;
                    linked += usize::from(lane != Lane::Right);
                }
                Ins::Relink {
                    kind,
                    src,
                    part,
                    kept,
                    hole,
                    lane,
                } => {
                    if !R::LINKS || (lane != Lane::Right && depth!() >= max_depth) {
                        return Err(Stop::GiveUp);
                    }
                    R::relink(f, &mut chain, kind, src, [part, kept], hole, lane).or_give_up()?;
                    linked += usize::from(lane != Lane::Right);
                    // SAFETY: the `Link` it did follows (`kernel_relink`).
                    ip = unsafe { ip.add(1) };
                }
                Ins::Unpack { src, to, n, keep } => {
                    R::unpack(f, src, to, n, keep).or_give_up()?;
                }
                Ins::Spare { r } => {
                    let v = f[r as usize].take();
                    f[r as usize].set(R::spare(v));
                }
                // (One register most often, a dead variable's: without a loop.)
                Ins::Clear { from, n: 1 } => R::clear(std::slice::from_mut(&mut f[from as usize])),
                Ins::Clear { from, n } => {
                    R::clear(&mut f[from as usize..from as usize + n as usize]);
                }
                Ins::Fields { src, to, n, names } => {
                    let names = &self.names[names as usize][..n as usize];
                    R::fields(f, env.code, src, names, to).or_give_up()?;
                }
                Ins::Field { dst, src, names } => {
                    let name = &self.names[names as usize][0];
                    let v = f[src as usize].field(env.code, name).or_give_up()?;
                    f[dst as usize].set(v);
                }
                Ins::Update {
                    dst,
                    base,
                    n,
                    names,
                } => {
                    let names = &self.names[names as usize];
                    let record = f[base as usize].take();
                    let values = &mut f[base as usize + 1..base as usize + 1 + n as usize];
                    let v = R::update(record, env.code, names, values).or_give_up()?;
                    f[dst as usize].set(v);
                }
                Ins::TupleField { dst, src, index } => {
                    let v = f[src as usize].tuple_field(index).or_give_up()?;
                    f[dst as usize].set(v);
                }
                Ins::GiveUp => return Err(Stop::GiveUp),
                Ins::Call {
                    entry, dst, base, ..
                } => {
                    if depth!() >= max_depth {
                        return Err(Stop::GiveUp);
                    }
                    enter!(f, entry, dst, base);
                }
                Ins::Apply {
                    f: fr,
                    dst,
                    base,
                    n,
                } => {
                    if !R::FUNCTIONS || depth!() >= max_depth {
                        return Err(Stop::GiveUp);
                    }
                    let entry = self.enter_value(f, fr, base, n).or_give_up()?;
                    enter!(f, entry, dst, base);
                }
                Ins::TailCall {
                    entry,
                    base,
                    n,
                    keep,
                    clear,
                    ..
                } => {
                    tick(budget)?;
                    // The arguments to move (`keeps`: past the eighth, all of them),
                    // as bits for the first 63: a loop over those alone.
                    let mut moves = !u64::from(keep) & (1u64 << n.min(63)).wrapping_sub(1);
                    while moves != 0 {
                        let i = moves.trailing_zeros() as u8;
                        moves &= moves - 1;
                        let v = f[base.wrapping_add(i) as usize].take();
                        f[i as usize].set(v);
                    }
                    for i in 63..n {
                        let v = f[base.wrapping_add(i) as usize].take();
                        f[i as usize].set(v);
                    }
                    R::clear_regs(f, clear);
                    ip = at(entry);
                }
                Ins::Ret { src, clear } => ret!(f, f[src as usize].take(), clear),
            }
        }
    }
}

impl Kernels {
    /// Where `Ins::Apply` of the function value in register `fr` of frame `f`, on the `n`
    /// arguments from register `base` on, goes: the entry of its lambda's kernel, once
    /// the closure's captured values are copied to where the callee's slots end (and,
    /// for a partial application, `enter_partial`'s). `None` where the value is no such
    /// function, or an argument or captured value is indeterminate (the kernel gives up).
    #[inline(always)]
    fn enter_value<R: Register>(
        &self,
        f: &mut [R; MAX_REGS],
        fr: Reg,
        base: Reg,
        n: u8,
    ) -> Option<u32> {
        let Some((lam, captured)) = f[fr as usize].closure() else {
            return self.enter_partial(f, fr, base, n);
        };
        let callee = self.kernels.get(self.of_value(lam)? as usize)?;
        let (base, slots) = (base as usize, callee.slots as usize);
        let fits = callee.arity == u32::from(n)
            && callee.captures as usize == captured
            && (fr as usize) < base
            && base + slots + captured <= MAX_REGS;
        if !fits || f[base..base + n as usize].iter().any(|a| !a.decided()) {
            return None;
        }
        for i in 0..captured {
            let v = f[fr as usize].captured(i)?;
            f[base + slots + i].set(v);
        }
        Some(callee.entry)
    }

    /// `enter_value` of a closure applied to too few arguments: those it holds go before
    /// the call's, which move up. Out of line: the run loop's code stays as it was for
    /// the calls it makes most.
    #[cold]
    #[inline(never)]
    fn enter_partial<R: Register>(
        &self,
        f: &mut [R; MAX_REGS],
        fr: Reg,
        base: Reg,
        n: u8,
    ) -> Option<u32> {
        let (base, n) = (base as usize, n as usize);
        if fr as usize >= base {
            return None;
        }
        let (below, frame) = f.split_at_mut(base);
        let (lam, saved, captured) = below[fr as usize].callee()?;
        let callee = self.kernels.get(self.of_value(lam)? as usize)?;
        let slots = callee.slots as usize;
        let fits = callee.arity as usize == saved.len() + n
            && callee.captures as usize == captured.len()
            && slots + captured.len() <= frame.len();
        if !fits || frame[..n].iter().any(|a| !a.decided()) {
            return None;
        }
        for i in (0..n).rev() {
            let v = frame[i].take();
            frame[saved.len() + i].set(v);
        }
        for (r, v) in frame.iter_mut().zip(saved) {
            r.set(R::of(v)?);
        }
        for (r, v) in frame[slots..].iter_mut().zip(captured) {
            r.set(R::of(v)?);
        }
        Some(callee.entry)
    }
}

/// The node `Ins::Node` builds of registers `base..base + n` of frame `f` (moved out).
#[inline(always)]
fn node<R: Register>(f: &mut [R; MAX_REGS], kind: NodeKind, base: Reg, n: u8) -> Result<R, Stop> {
    let parts = &mut f[base as usize..base as usize + n as usize];
    R::node(kind, parts).or_give_up()
}

/// The node `Ins::NodeIn` builds: `node`'s, in the emptied node register `token` keeps.
#[inline(always)]
fn node_in<R: Register>(
    f: &mut [R; MAX_REGS],
    kind: NodeKind,
    base: Reg,
    n: u8,
    token: Reg,
) -> Result<R, Stop> {
    let token = f[token as usize].take();
    let parts = &mut f[base as usize..base as usize + n as usize];
    R::node_in(kind, parts, token).or_give_up()
}

/// Registers a deep recursion's stack reserves at once (4 MiB of values), once it holds
/// `SHALLOW_REGS`: growing by doubling copied the stack at each step, into memory the
/// system had to clear. (Reserved from the start, it cost every program that calls a
/// kernel 2 MiB of memory: the system backs the first touch with a huge page.)
const DEEP_REGS: usize = 1 << 18;
const SHALLOW_REGS: usize = 1 << 14;

/// Registers the stack lengthens by at least, within its capacity: a recursion one call
/// deeper needs a few more registers, and lengthening it by those alone cost a call of
/// `resize` per level (8% of the instructions of a 100,000-deep `my_map f xs`).
const GROW_REGS: usize = 1 << 12;

/// Lengthens the register stack to at least `end` registers (empty ones).
#[cold]
fn grow<R: Register>(regs: &mut Vec<R>, end: usize) {
    if end > regs.capacity() && (SHALLOW_REGS..DEEP_REGS).contains(&regs.capacity()) {
        regs.reserve_exact(DEEP_REGS.max(end) - regs.len());
    }
    let len = (regs.len() + GROW_REGS).min(regs.capacity()).max(end);
    regs.resize(len, R::default());
}

#[cfg(test)]
mod tests {
    use super::testing::kernel;
    use super::*;

    /// One kernel, at `entry`, which the machine calls.
    fn kernels(code: Vec<Ins>, entry: u32) -> Kernels {
        Kernels {
            code,
            kernels: vec![kernel(1, entry, 0)],
            of_lambda: vec![Some(0)],
            ..Kernels::default()
        }
    }

    #[test]
    fn code_is_closed_where_nothing_leaves_it() {
        let jump = |to| Ins::JumpUnlessCtor {
            r: 0,
            bare: true,
            ctor: 0,
            to,
        };
        let ret = Ins::Ret {
            src: 0,
            clear: Regs::NONE,
        };
        assert!(kernels(vec![jump(1), ret], 0).closed());
        assert!(Kernels::default().closed());
        // Code no run reaches (a kernel that did not compile) may go on past the end.
        assert!(kernels(vec![ret, jump(1)], 0).closed());
        // A jump past the end, an entry past it, a last instruction that goes on.
        assert!(!kernels(vec![jump(2), ret], 0).closed());
        assert!(!kernels(vec![jump(1), ret], 2).closed());
        assert!(!kernels(vec![ret, jump(0)], 1).closed());
        // A call to an entry past the end.
        let call = Ins::Call {
            kernel: 0,
            entry: 3,
            dst: 1,
            base: 2,
        };
        assert!(!kernels(vec![call, ret], 0).closed());
    }
}

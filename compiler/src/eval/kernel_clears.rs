//! What a kernel's frame empties as it ends (`place`): the registers that may still hold
//! a reference (a node, a string) at each return and tail call, found by a forward pass
//! over its code.
//!
//! A register holds a value from the instruction that writes it until one moves it out
//! (`Take`, a node built of it, an argument of a call). A reference a frame left behind
//! would outlive the frame, keeping what it points to alive and shared (a list cell
//! another call could have re-used in place), so each return empties the registers that
//! may still hold one (the `clear` of `Ins::Ret`, `Ins::NodeRet`, `Ins::NodeInRet`), and
//! each tail call those its callee does not take over. A scalar
//! left behind costs nothing: the next value stored there replaces it. Returning thus
//! empties only what needs it (before, each return emptied every register its code used:
//! 11% of a merge sort's instructions). A callee's frame holds no reference once it
//! returned: a call moves out the values it was passed.
//!
//! What an arithmetic or comparison native did not give up on tells the types of its
//! operands and result (`after`): `n - 1` is a number, and so is `n` then; `c == q`
//! compares values of one type, scalars where either is one. A parameter the code
//! computes on anywhere is a scalar from the start (`scalar_params`), unless a call may
//! pass it a reference: a hole taken out of a list of numbers and passed on, which the
//! callee returns without computing on (`passed_references`).

use super::kernel::{keeps, Ins, Kernel, Reg, Regs, MAX_REGS};
use super::kernel_peephole::{relayout, target};
use super::natives::Prim;
use super::value::Value;

/// A set of a frame's registers.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(super) struct Set([u64; 4]);

impl Set {
    pub(super) fn add(&mut self, r: usize) {
        if r < MAX_REGS {
            self.0[r / 64] |= 1 << (r % 64);
        }
    }

    pub(super) fn remove(&mut self, r: usize) {
        if r < MAX_REGS {
            self.0[r / 64] &= !(1 << (r % 64));
        }
    }

    pub(super) fn add_range(&mut self, from: usize, n: usize) {
        (from..from + n).for_each(|r| self.add(r));
    }

    pub(super) fn remove_range(&mut self, from: usize, n: usize) {
        (from..from + n).for_each(|r| self.remove(r));
    }

    pub(super) fn contains(&self, r: usize) -> bool {
        r < MAX_REGS && self.0[r / 64] & (1 << (r % 64)) != 0
    }

    /// Adds `other`'s registers: whether any was new.
    pub(super) fn union(&mut self, other: &Set) -> bool {
        let before = *self;
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
        *self != before
    }

    /// Whether it shares a register with `other`.
    pub(super) fn meets(&self, other: &Set) -> bool {
        self.0.iter().zip(other.0).any(|(a, b)| a & b != 0)
    }

    /// The registers, in order (word by word, lowest bit first).
    pub(super) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, bits)| {
            let mut bits = *bits;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let r = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    w * 64 + r
                })
            })
        })
    }

    /// The registers from the first to the last of the set (emptying the others between
    /// does no harm: they hold nothing).
    fn span(&self) -> Regs {
        match (self.iter().next(), self.iter().last()) {
            (Some(lo), Some(hi)) => Regs {
                from: lo as Reg,
                n: (hi - lo + 1) as u8,
            },
            _ => Regs::NONE,
        }
    }

    /// The runs of consecutive registers of the set.
    fn runs(&self) -> Vec<Regs> {
        let mut runs: Vec<Regs> = Vec::new();
        for r in self.iter() {
            match runs.last_mut() {
                Some(run) if run.from as usize + run.n as usize == r => run.n += 1,
                _ => runs.push(Regs {
                    from: r as Reg,
                    n: 1,
                }),
            }
        }
        runs
    }
}

/// The registers kernel `k`'s frame starts with values in: its parameters, and its
/// captured values.
pub(super) fn at_entry(k: &Kernel) -> Set {
    let mut s = Set::default();
    s.add_range(0, k.arity as usize);
    s.add_range(k.slots as usize, k.captures as usize);
    s
}

/// What native `p` applied to two operands tells where it did not give up (kernels give
/// up on an indeterminate result: `Register::binary`): whether its result is a scalar
/// whatever the operands (`Some(true)`: numbers, booleans), a scalar where an operand
/// is one (`Some(false)`: `+` adds numbers or joins strings, a comparison compares two
/// values of one type), or may be a reference (`None`).
fn binary_scalar(p: Prim) -> Option<bool> {
    match p {
        Prim::Sub | Prim::Mul | Prim::Div | Prim::Mod | Prim::And | Prim::Or => Some(true),
        Prim::Add => Some(false),
        Prim::Eq | Prim::Ne | Prim::Cmp | Prim::Lt | Prim::Le | Prim::Gt | Prim::Ge => Some(false),
        _ => None,
    }
}

/// Whether `p` of two registers (or, `constant`, of one and an `i32`) gives up unless its
/// operands are scalars.
fn scalar_operands(p: Prim, constant: bool) -> bool {
    match binary_scalar(p) {
        Some(always) => always || constant,
        None => false,
    }
}

/// The registers `ins` gives up unless they hold scalars.
fn scalar_reads(ins: &Ins) -> [Option<Reg>; 2] {
    match *ins {
        Ins::Bin { p, a, b, .. } | Ins::JumpUnlessBin { p, a, b, .. }
            if scalar_operands(p, false) =>
        {
            [Some(a), Some(b)]
        }
        Ins::BinK { p, a, .. } | Ins::JumpUnlessBinK { p, a, .. } if scalar_operands(p, true) => {
            [Some(a), None]
        }
        Ins::Un {
            p: Prim::Neg, a, ..
        } => [Some(a), None],
        Ins::JumpIf { r, .. } | Ins::JumpUnless { r, .. } => [Some(r), None],
        _ => [None, None],
    }
}

/// The registers that may hold a reference before each instruction of the kernels in
/// `code` (`None`: no kernel reaches it), where the parameters in `scalar` (of each
/// kernel) hold none as it starts.
fn may_hold(
    code: &[Ins],
    kernels: &[Kernel],
    consts: &[Value],
    entries: &[Set],
    scalar: &[Set],
) -> Vec<Option<Set>> {
    let mut at: Vec<Option<Set>> = vec![None; code.len()];
    let mut todo = Vec::new();
    for (k, kernel) in kernels.iter().enumerate() {
        let entry = kernel.entry as usize;
        if entry < code.len() {
            let mut start = entries[k];
            for r in scalar[k].iter() {
                start.remove(r);
            }
            at[entry].get_or_insert_with(Set::default).union(&start);
            todo.push(entry);
        }
    }
    while let Some(i) = todo.pop() {
        let Some(before) = at[i] else { continue };
        let out = after(&code[i], entries, consts, before);
        for next in successors(code[i], i) {
            let Some(slot) = at.get_mut(next) else {
                continue;
            };
            let fresh = slot.is_none();
            if slot.get_or_insert_with(Set::default).union(&out) || fresh {
                todo.push(next);
            }
        }
    }
    at
}

/// Takes out of `scalar` (of each kernel, the parameters its code shows to be scalars)
/// those that a call or a tail call may pass a reference in (`at`: `may_hold`'s): a
/// part of a node may be an indeterminate value (a hole in a list of numbers), which a
/// kernel passes on where it does not compute on it. Whether any went.
fn passed_references(code: &[Ins], at: &[Option<Set>], scalar: &mut [Set]) -> bool {
    let mut changed = false;
    for (ins, held) in code.iter().zip(at) {
        let (Some(held), Some((kernel, base, keep))) = (held, call_args(ins)) else {
            continue;
        };
        let params = &mut scalar[kernel as usize];
        for r in params.iter().collect::<Vec<_>>() {
            let arg = if keeps(keep, r) { r } else { base as usize + r };
            if held.contains(arg) {
                params.remove(r);
                changed = true;
            }
        }
    }
    changed
}

/// The kernel a call or tail call calls, where its arguments start, and (for a tail
/// call) the parameters that keep theirs.
fn call_args(ins: &Ins) -> Option<(u32, Reg, u8)> {
    match *ins {
        Ins::Call { kernel, base, .. } => Some((kernel, base, 0)),
        Ins::TailCall {
            kernel, base, keep, ..
        } => Some((kernel, base, keep)),
        _ => None,
    }
}

/// The parameters of kernel `k` its code shows to be scalars (`n - 1`, `n == 0`, `if b`)
/// wherever it reads them: a parameter's type is one throughout its kernel, whose
/// parameters' registers hold nothing else (a call of itself in tail position passes
/// values of the same types; `passed_references` takes out those a call may pass an
/// indeterminate value in). `seen` marks the instructions walked (`stamp`: this walk's).
fn scalar_params(code: &[Ins], k: &Kernel, seen: &mut [u32], stamp: u32) -> Set {
    let mut found = Set::default();
    let mut todo = vec![k.entry as usize];
    while let Some(i) = todo.pop() {
        match seen.get_mut(i) {
            Some(s) if *s != stamp => *s = stamp,
            _ => continue,
        }
        for r in scalar_reads(&code[i]).into_iter().flatten() {
            if (r as u32) < k.arity {
                found.add(r as usize);
            }
        }
        todo.extend(successors(code[i], i));
    }
    found
}

/// `p` of registers `a` and `b` (or of `a` and an `i32` constant, `b` `None`) storing its
/// result in `dst` (or branching on it): the registers of `s` it shows to hold scalars
/// leave it, and `dst` joins it where the result may be a reference.
fn binary(s: &mut Set, p: Prim, dst: Option<Reg>, a: Reg, b: Option<Reg>) {
    if binary_scalar(p).is_none() {
        if let Some(dst) = dst {
            s.add(dst as usize);
        }
        return;
    }
    let operands_scalar = scalar_operands(p, b.is_none())
        || b.is_some_and(|b| !s.contains(a as usize) || !s.contains(b as usize));
    let result_scalar = operands_scalar || p != Prim::Add;
    if operands_scalar {
        s.remove(a as usize);
        if let Some(b) = b {
            s.remove(b as usize);
        }
    }
    if let Some(dst) = dst {
        if result_scalar {
            s.remove(dst as usize);
        } else {
            s.add(dst as usize);
        }
    }
}

/// The registers that may hold a reference after `ins`, where those of `s` may before it
/// (`entries`: each kernel's `at_entry`).
fn after(ins: &Ins, entries: &[Set], consts: &[Value], mut s: Set) -> Set {
    match *ins {
        Ins::Const { dst, k } => {
            if consts[k as usize].holds_reference() {
                s.add(dst as usize);
            } else {
                s.remove(dst as usize);
            }
        }
        Ins::Copy { dst, src } => {
            if s.contains(src as usize) {
                s.add(dst as usize);
            } else {
                s.remove(dst as usize);
            }
        }
        Ins::Take { dst, src } => {
            let held = s.contains(src as usize);
            s.remove(src as usize);
            if held {
                s.add(dst as usize);
            } else {
                s.remove(dst as usize);
            }
        }
        Ins::Bin { p, dst, a, b } => binary(&mut s, p, Some(dst), a, Some(b)),
        Ins::BinK { p, dst, a, .. } => binary(&mut s, p, Some(dst), a, None),
        Ins::JumpUnlessBin { p, a, b, .. } => binary(&mut s, p, None, a, Some(b)),
        Ins::JumpUnlessBinK { p, a, .. } => binary(&mut s, p, None, a, None),
        Ins::Un { p, dst, a, take } => {
            if take {
                s.remove(a as usize);
            }
            if p == Prim::Neg {
                s.remove(a as usize);
                s.remove(dst as usize);
            } else {
                s.add(dst as usize);
            }
        }
        // A boolean, a literal's value.
        Ins::JumpIf { r, .. } | Ins::JumpUnless { r, .. } => s.remove(r as usize),
        Ins::Part { dst, .. } | Ins::Field { dst, .. } | Ins::TupleField { dst, .. } => {
            s.add(dst as usize)
        }
        Ins::Node { dst, base, n, .. } => {
            s.remove_range(base as usize, n as usize);
            s.add(dst as usize);
        }
        Ins::NodeIn {
            dst,
            base,
            n,
            token,
            ..
        } => {
            s.remove_range(base as usize, n as usize);
            s.remove(token as usize);
            s.add(dst as usize);
        }
        Ins::NodeInPair {
            dst, a, b, token, ..
        } => {
            s.remove(a as usize);
            s.remove(b as usize);
            s.remove(token as usize);
            s.add(dst as usize);
        }
        Ins::Link {
            base,
            n,
            token,
            hole,
            fresh,
            ..
        } => {
            for r in (0..n).filter(|r| *r != hole) {
                s.remove(base as usize + r as usize);
            }
            if !fresh {
                s.remove(token as usize);
            }
        }
        Ins::Unpack { src, to, n, keep } => {
            s.remove(src as usize);
            for r in to.into_iter().take(n as usize) {
                if r != src {
                    s.add(r as usize);
                }
            }
            if keep {
                s.add(src as usize);
            }
        }
        Ins::Clear { from, n } => s.remove_range(from as usize, n as usize),
        Ins::Fields { to, n, .. } => {
            for r in to.into_iter().take(n as usize) {
                s.add(r as usize);
            }
        }
        Ins::Update { dst, base, n, .. } => {
            s.remove_range(base as usize, n as usize + 1);
            s.add(dst as usize);
        }
        Ins::Call {
            kernel, dst, base, ..
        } => {
            // The callee took its arguments and emptied its frame as it returned.
            for r in entries[kernel as usize].iter() {
                s.remove(base as usize + r);
            }
            s.add(dst as usize);
        }
        Ins::Apply { dst, base, n, .. } => {
            // The callee took its arguments, and emptied its frame (its captured values
            // too) as it returned.
            s.remove_range(base as usize, n as usize);
            s.add(dst as usize);
        }
        // (Where it does the `Link` after it as well, that `Link` tells the rest.)
        Ins::Relink { .. } => {
            let unpack = ins.as_unpack().expect("a relink is an unpack");
            s = after(&unpack, entries, consts, s);
        }
        // (`Spare` keeps the emptied node in its register; a comparison of parts read in
        // place tells nothing of the registers that hold their nodes.)
        Ins::Jump { .. }
        | Ins::JumpUnlessCtor { .. }
        | Ins::JumpUnlessPartCtor { .. }
        | Ins::JumpUnlessPartBin { .. }
        | Ins::JumpUnlessTuple { .. }
        | Ins::Spare { .. }
        | Ins::GiveUp
        | Ins::TailCall { .. }
        | Ins::Ret { .. }
        | Ins::NodeRet { .. }
        | Ins::NodeInRet { .. } => {}
    }
    s
}

/// Where the code goes on after instruction `i`.
pub(super) fn successors(ins: Ins, i: usize) -> impl Iterator<Item = usize> {
    let on = !matches!(
        ins,
        Ins::Jump { .. }
            | Ins::GiveUp
            | Ins::TailCall { .. }
            | Ins::Ret { .. }
            | Ins::NodeRet { .. }
            | Ins::NodeInRet { .. }
    );
    let mut ins = ins;
    let jump = target(&mut ins).map(|t| *t as usize);
    on.then_some(i + 1).into_iter().chain(jump)
}

/// Sets what each return and tail call of the kernels in `code` (with constants `consts`)
/// empties: the registers that may hold a reference (for a tail call, one its callee
/// does not take over).
pub(super) fn place(code: &mut Vec<Ins>, kernels: &mut [Kernel], consts: &[Value]) {
    let entries: Vec<Set> = kernels.iter().map(at_entry).collect();
    let mut seen = vec![u32::MAX; code.len()];
    let mut scalar: Vec<Set> = kernels
        .iter()
        .enumerate()
        .map(|(stamp, k)| scalar_params(code, k, &mut seen, stamp as u32))
        .collect();
    let at = loop {
        let at = may_hold(code, kernels, consts, &entries, &scalar);
        if !passed_references(code, &at, &mut scalar) {
            break at;
        }
    };
    let mut before_tail: Vec<Vec<Regs>> = vec![Vec::new(); code.len()];
    for (i, ins) in code.iter_mut().enumerate() {
        let Some(mut left) = at[i] else { continue };
        match ins {
            Ins::Ret { src, clear } => {
                left.remove(*src as usize);
                *clear = left.span();
            }
            Ins::NodeRet { base, n, clear, .. } => {
                left.remove_range(*base as usize, *n as usize);
                *clear = left.span();
            }
            Ins::NodeInRet {
                base,
                n,
                token,
                clear,
                ..
            } => {
                left.remove_range(*base as usize, *n as usize);
                left.remove(*token as usize);
                *clear = left.span();
            }
            Ins::TailCall {
                kernel,
                base,
                n,
                keep,
                clear,
                ..
            } => {
                // Its arguments move to the first registers (or are there already), and
                // the callee's captured values stay: the tail call empties the others
                // once they moved, where no register of the callee's is among them, and
                // `Clear`s do before it otherwise.
                let mut callee = entries[*kernel as usize];
                callee.add_range(0, *n as usize);
                // (The register of an argument whose parameter keeps its value is not moved out.)
                for i in (0..*n as usize).filter(|i| !keeps(*keep, *i)) {
                    left.remove(*base as usize + i);
                }
                for r in callee.iter() {
                    left.remove(r);
                }
                let span = left.span();
                let from = span.from as usize;
                if (from..from + span.n as usize).any(|r| callee.contains(r)) {
                    before_tail[i] = left.runs();
                } else {
                    *clear = span;
                }
            }
            _ => {}
        }
    }
    if before_tail.iter().any(|c| !c.is_empty()) {
        relayout(code, kernels, |i, ins, out| {
            out.extend(before_tail[i].iter().map(|r| Ins::Clear {
                from: r.from,
                n: r.n,
            }));
            out.push(ins);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::kernel::testing::{call, cons_in_ret, kernel, ret, shown, tail_call};

    #[test]
    fn returns_empty_the_registers_that_may_hold_references() {
        let mut code = vec![
            // (x, y): `match x when Empty -> y when Cons h t -> Cons h (this t y)`.
            Ins::JumpUnlessCtor {
                r: 0,
                bare: true,
                ctor: 0,
                to: 2,
            },
            // `x` may hold a reference still.
            ret(1),
            Ins::Unpack {
                src: 0,
                to: [2, 4, 0, 0],
                n: 2,
                keep: true,
            },
            Ins::Take { dst: 5, src: 4 },
            Ins::Take { dst: 6, src: 1 },
            call(0, 3, 5),
            // Everything moved out: nothing to empty.
            cons_in_ret(2, 0),
            // (n, s): `if n - 1 == 0 then s else ..`: `n` and the difference are numbers,
            // `s` is returned, the constant (a string) is left in register 4.
            Ins::BinK {
                p: Prim::Sub,
                dst: 3,
                a: 0,
                k: 1,
            },
            Ins::Const { dst: 4, k: 0 },
            Ins::Const { dst: 5, k: 1 },
            Ins::JumpUnlessBinK {
                p: Prim::Eq,
                a: 3,
                k: 0,
                to: 12,
            },
            ret(1),
            Ins::GiveUp,
        ];
        let mut kernels = [kernel(2, 0, 0), kernel(2, 7, 0)];
        place(&mut code, &mut kernels, &[Value::str("s"), Value::I32(1)]);
        let code = shown(&code);
        assert_eq!(code[1], "Ret { src: 1, clear: Regs { from: 0, n: 1 } }");
        assert_eq!(
            code[6],
            "NodeInRet { kind: Data(1), base: 2, n: 2, token: 0, clear: Regs { from: 0, n: 0 } }"
        );
        assert_eq!(code[11], "Ret { src: 1, clear: Regs { from: 4, n: 1 } }");
    }

    #[test]
    fn tail_calls_empty_what_their_callee_does_not_take_over() {
        let mut code = vec![
            // (a, b) with captured value 3: temporaries left in registers 2 and 4, around
            // the callee's captured value: `Clear`s before the tail call.
            Ins::Part {
                dst: 2,
                src: 1,
                i: 0,
            },
            Ins::Part {
                dst: 4,
                src: 1,
                i: 1,
            },
            Ins::JumpUnlessBinK {
                p: Prim::Eq,
                a: 0,
                k: 0,
                to: 4,
            },
            ret(1),
            tail_call(0, 5, 0),
            // (a, b) without: a temporary in register 4, emptied by the tail call once
            // the argument moved from 5 to 0.
            Ins::Part {
                dst: 4,
                src: 1,
                i: 0,
            },
            Ins::Take { dst: 5, src: 4 },
            Ins::Part {
                dst: 4,
                src: 1,
                i: 1,
            },
            tail_call(1, 5, 1),
        ];
        let mut kernels = [kernel(2, 0, 1), kernel(2, 5, 0)];
        place(&mut code, &mut kernels, &[]);
        let code = shown(&code);
        // The return empties the captured value too, and `b`.
        assert_eq!(code[3], "Ret { src: 1, clear: Regs { from: 2, n: 3 } }");
        assert_eq!(
            code[4..7],
            [
                "Clear { from: 2, n: 1 }",
                "Clear { from: 4, n: 1 }",
                "TailCall { kernel: 0, entry: 0, base: 5, n: 0, keep: 0, clear: Regs { from: 0, n: 0 } }",
            ]
        );
        // The jump to the tail call lands on the first `Clear`, and the second kernel's
        // entry moved.
        assert_eq!(code[2], "JumpUnlessBinK { p: Eq, a: 0, k: 0, to: 4 }");
        assert_eq!(kernels[1].entry, 7);
        assert_eq!(
            code[10],
            "TailCall { kernel: 1, entry: 0, base: 5, n: 1, keep: 0, clear: Regs { from: 4, n: 1 } }"
        );
    }

    #[test]
    fn a_parameter_computed_on_anywhere_is_a_scalar_everywhere() {
        let mut code = vec![
            // (q, xs): `match xs when Empty -> xs when _ -> this (q - 1) xs`: `q` is a
            // number at the first return too, where the code has not computed on it yet.
            Ins::JumpUnlessCtor {
                r: 1,
                bare: true,
                ctor: 0,
                to: 2,
            },
            ret(1),
            Ins::BinK {
                p: Prim::Sub,
                dst: 3,
                a: 0,
                k: 1,
            },
            tail_call(0, 3, 1),
            // (s, xs): `s + s` may join strings: `s` is emptied.
            Ins::Bin {
                p: Prim::Add,
                dst: 2,
                a: 0,
                b: 0,
            },
            ret(2),
        ];
        let mut kernels = [kernel(2, 0, 0), kernel(2, 4, 0)];
        place(&mut code, &mut kernels, &[]);
        let code = shown(&code);
        assert_eq!(code[1], "Ret { src: 1, clear: Regs { from: 0, n: 0 } }");
        assert_eq!(code[5], "Ret { src: 2, clear: Regs { from: 0, n: 2 } }");
    }
}

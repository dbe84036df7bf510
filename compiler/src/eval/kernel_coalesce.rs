//! Moves the kernels' code need not make (`coalesce`): a `Take` of a register into
//! another whose values never live at the same time becomes nothing, the first register
//! renamed to the second wherever its kernel's code names it. The compiler puts each
//! variable in its own register and moves it where a node, a call or a return wants it
//! (`Node k2 v2 (insert k v l) r` moves four of a search tree's parts into the node's
//! and the call's registers); renamed, the `Unpack` that binds the parts puts them
//! there at once.
//!
//! Two registers interfere where one is written while the other holds a value read
//! later (`live`), or where one instruction writes both; a `Take` of one into the other
//! is no interference. A register the code names in a run of registers (a node's parts,
//! a call's frame, a `Clear` of several) keeps its number, and so do the parameters and
//! captured values a frame starts with.

use super::kernel::{Ins, Kernel, Reg, MAX_REGS};
use super::kernel_clears::{at_entry, successors, Set};
use super::kernel_peephole::relayout;

/// How an instruction names a register.
enum Operand<'a> {
    /// Reads it.
    Read(&'a mut Reg),
    /// Writes it (a `Take`'s source, emptied, too).
    Write(&'a mut Reg),
    /// Reads it, then writes it.
    Both(&'a mut Reg),
    /// Reads or writes (or both) registers `from..to`: by their place in the frame
    /// (`named`: a node's parts, a call's arguments), or all that a callee's frame may
    /// overwrite.
    Run {
        from: usize,
        to: usize,
        read: bool,
        write: bool,
        named: bool,
    },
}

/// Calls `f` on each register `ins` names (`kernels`: the kernels its calls call).
/// (Every kind is listed: a new instruction must say what it reads and writes.)
fn operands(ins: &mut Ins, kernels: &[Kernel], mut f: impl FnMut(Operand<'_>)) {
    use Operand::{Both, Read, Run, Write};
    let run = |from: Reg, n: usize, read: bool, write: bool| Run {
        from: from as usize,
        to: (from as usize + n).min(MAX_REGS),
        read,
        write,
        named: true,
    };
    match ins {
        Ins::Const { dst, .. } => f(Write(dst)),
        Ins::Copy { dst, src } => {
            f(Read(src));
            f(Write(dst));
        }
        Ins::Take { dst, src } => {
            f(Both(src));
            f(Write(dst));
        }
        Ins::Bin { dst, a, b, .. } => {
            f(Read(a));
            f(Read(b));
            f(Write(dst));
        }
        Ins::BinK { dst, a, .. } | Ins::Un { dst, a, .. } => {
            f(Read(a));
            f(Write(dst));
        }
        Ins::JumpIf { r, .. }
        | Ins::JumpUnless { r, .. }
        | Ins::JumpUnlessCtor { r, .. }
        | Ins::JumpUnlessTuple { r, .. } => f(Read(r)),
        Ins::JumpUnlessBin { a, b, .. } => {
            f(Read(a));
            f(Read(b));
        }
        Ins::JumpUnlessBinK { a, .. } => f(Read(a)),
        Ins::Jump { .. } | Ins::GiveUp => {}
        Ins::Part { dst, src, .. }
        | Ins::Field { dst, src, .. }
        | Ins::TupleField { dst, src, .. } => {
            f(Read(src));
            f(Write(dst));
        }
        Ins::Node { dst, base, n, .. } => {
            f(run(*base, *n as usize, true, true));
            f(Write(dst));
        }
        Ins::NodeIn {
            dst,
            base,
            n,
            token,
            ..
        } => {
            f(run(*base, *n as usize, true, true));
            f(Both(token));
            f(Write(dst));
        }
        Ins::NodeRet { base, n, .. } => f(run(*base, *n as usize, true, true)),
        Ins::NodeInRet { base, n, token, .. } => {
            f(run(*base, *n as usize, true, true));
            f(Both(token));
        }
        Ins::Unpack { src, to, n, .. } => {
            let was = *src;
            f(Both(src));
            // (A part whose register is the node's own is released: it writes nothing
            // of its own, and follows the node's register where that is renamed.)
            for r in to.iter_mut().take(*n as usize) {
                if *r == was {
                    *r = *src;
                } else {
                    f(Write(r));
                }
            }
        }
        Ins::Spare { r } => f(Both(r)),
        Ins::Clear { from, n: 1 } => f(Write(from)),
        Ins::Clear { from, n } => f(run(*from, *n as usize, false, true)),
        Ins::Fields { src, to, n, .. } => {
            f(Read(src));
            for r in to.iter_mut().take(*n as usize) {
                f(Write(r));
            }
        }
        Ins::Update { dst, base, n, .. } => {
            f(run(*base, *n as usize + 1, true, true));
            f(Write(dst));
        }
        Ins::Call {
            kernel, dst, base, ..
        } => {
            // The callee reads its frame's first registers and may leave anything in
            // the others.
            f(run(
                *base,
                kernels[*kernel as usize].frame_width() as usize,
                true,
                false,
            ));
            f(Run {
                from: *base as usize,
                to: MAX_REGS,
                read: false,
                write: true,
                named: false,
            });
            f(Write(dst));
        }
        Ins::TailCall {
            kernel, base, n, ..
        } => {
            // The arguments move down to the first registers, where the callee reads
            // them with its captured values (and the parameters that keep theirs).
            f(run(*base, *n as usize, true, true));
            f(run(
                0,
                kernels[*kernel as usize].frame_width() as usize,
                true,
                false,
            ));
        }
        Ins::Ret { src, .. } => f(Read(src)),
    }
}

/// Registers `a` and `b` cannot be one.
fn interfere(clash: &mut [Set], a: usize, b: usize) {
    if a != b {
        clash[a].add(b);
        clash[b].add(a);
    }
}

/// What an instruction reads and writes.
#[derive(Default)]
struct Uses {
    read: Set,
    write: Set,
    /// The registers it writes by name (not those a callee may overwrite).
    named_write: Set,
    /// The registers it names in runs: they keep their numbers.
    in_runs: Set,
}

fn uses(ins: Ins, kernels: &[Kernel]) -> Uses {
    let mut u = Uses::default();
    let mut ins = ins;
    operands(&mut ins, kernels, |o| match o {
        Operand::Read(r) => u.read.add(*r as usize),
        Operand::Write(r) => {
            u.write.add(*r as usize);
            u.named_write.add(*r as usize);
        }
        Operand::Both(r) => {
            u.read.add(*r as usize);
            u.write.add(*r as usize);
            u.named_write.add(*r as usize);
        }
        Operand::Run {
            from,
            to,
            read,
            write,
            named,
        } => {
            for r in from..to {
                if read {
                    u.read.add(r);
                }
                if write {
                    u.write.add(r);
                }
                if named {
                    u.in_runs.add(r);
                    if write {
                        u.named_write.add(r);
                    }
                }
            }
        }
    });
    u
}

/// Takes out the `Take`s of each kernel of `code` whose two registers can be one.
pub(super) fn coalesce(code: &mut Vec<Ins>, kernels: &mut [Kernel]) {
    let mut dead = vec![false; code.len()];
    // The kernel whose walk reached each instruction (`u32::MAX`: none yet), and where
    // kernels start.
    let mut done = vec![u32::MAX; code.len()];
    let mut starts = vec![false; code.len()];
    for k in kernels.iter() {
        if let Some(s) = starts.get_mut(k.entry as usize) {
            *s = true;
        }
    }
    for k in 0..kernels.len() {
        let entry = kernels[k].entry as usize;
        if entry < code.len() && done[entry] == u32::MAX {
            coalesce_kernel(code, kernels, k, &starts, &mut done, &mut dead);
        }
    }
    if dead.contains(&true) {
        relayout(code, kernels, |i, ins, out| {
            if !dead[i] {
                out.push(ins);
            }
        });
    }
}

/// `coalesce` on the code of kernel `k` (and the others starting where it does): marks
/// the `Take`s that go in `dead`, and the instructions walked in `done` (`starts`:
/// where kernels start).
fn coalesce_kernel(
    code: &mut [Ins],
    kernels: &[Kernel],
    k: usize,
    starts: &[bool],
    done: &mut [u32],
    dead: &mut [bool],
) {
    // The kernel's instructions, in the order of the code. (Code that another kernel
    // reaches too, or starts at, is left as it is: its registers mean the same to both.)
    let entry = kernels[k].entry as usize;
    let mut region = Vec::new();
    let mut shared = false;
    let mut todo = vec![entry];
    while let Some(i) = todo.pop() {
        match done.get(i) {
            Some(&d) if d == k as u32 => continue,
            Some(&d) => shared |= d != u32::MAX || (i != entry && starts[i]),
            None => continue,
        }
        done[i] = k as u32;
        region.push(i);
        todo.extend(successors(code[i], i));
    }
    if shared || !region.iter().any(|i| matches!(code[*i], Ins::Take { .. })) {
        return;
    }
    region.sort_unstable();
    let info: Vec<Uses> = region.iter().map(|i| uses(code[*i], kernels)).collect();
    let at = |i: usize| region.binary_search(&i).ok();
    // The registers read after each instruction before they are written again.
    let mut live_out = vec![Set::default(); region.len()];
    let mut live_in = vec![Set::default(); region.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for (x, i) in region.iter().enumerate().rev() {
            let mut out = Set::default();
            for next in successors(code[*i], *i) {
                if let Some(y) = at(next) {
                    out.union(&live_in[y]);
                }
            }
            let mut inn = out;
            for r in info[x].write.iter() {
                inn.remove(r);
            }
            inn.union(&info[x].read);
            live_out[x] = out;
            if inn != live_in[x] {
                live_in[x] = inn;
                changed = true;
            }
        }
    }
    // The registers the frame starts with values in (of each kernel starting here),
    // written at the entry; they and those named in runs keep their numbers.
    let mut start = Set::default();
    for k in kernels.iter().filter(|k| k.entry as usize == entry) {
        start.union(&at_entry(k));
    }
    let mut fixed = start;
    let mut clash = vec![Set::default(); MAX_REGS];
    let entry_live = at(entry).map(|x| live_in[x]).unwrap_or_default();
    for a in start.iter() {
        for b in start.iter().chain(entry_live.iter()) {
            interfere(&mut clash, a, b);
        }
    }
    for (x, i) in region.iter().enumerate() {
        let u = &info[x];
        fixed.union(&u.in_runs);
        let moved = match code[*i] {
            Ins::Take { dst, src } => Some((dst as usize, src as usize)),
            _ => None,
        };
        let is_move =
            |a: usize, b: usize| moved.is_some_and(|(t, s)| (a, b) == (t, s) || (a, b) == (s, t));
        // A register written clashes with those that hold a value read later, and
        // those written by name together clash with one another.
        let out: Vec<usize> = live_out[x].iter().collect();
        for d in u.write.iter() {
            for &l in &out {
                if !is_move(d, l) {
                    interfere(&mut clash, d, l);
                }
            }
        }
        let named: Vec<usize> = u.named_write.iter().collect();
        for &a in &named {
            for &b in &named {
                if !is_move(a, b) {
                    interfere(&mut clash, a, b);
                }
            }
        }
    }
    // Each `Take` whose source may take its destination's number, in turn; what the
    // source clashed with, the destination clashes with from then on.
    let mut name: Vec<Reg> = (0..MAX_REGS).map(|r| r as Reg).collect();
    let find = |name: &[Reg], mut r: Reg| {
        while name[r as usize] != r {
            r = name[r as usize];
        }
        r
    };
    for i in &region {
        let Ins::Take { dst, src } = code[*i] else {
            continue;
        };
        let (t, s) = (find(&name, dst), find(&name, src));
        if t == s || fixed.contains(s as usize) || clash[s as usize].contains(t as usize) {
            continue;
        }
        name[s as usize] = t;
        let others = clash[s as usize];
        for o in others.iter() {
            interfere(&mut clash, t as usize, o);
        }
    }
    for i in &region {
        operands(&mut code[*i], kernels, |o| match o {
            Operand::Read(r) | Operand::Write(r) | Operand::Both(r) => *r = find(&name, *r),
            Operand::Run { .. } => {}
        });
        if let Ins::Take { dst, src } = code[*i] {
            dead[*i] = dst == src;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::kernel::testing::{kernel, shown};
    use crate::eval::kernel::Regs;
    use crate::eval::natives::Prim;
    use crate::eval::value::NodeKind;

    #[test]
    fn parts_go_straight_where_a_call_and_a_node_take_them() {
        // (xs, ys): `match xs when Cons x xt -> Cons x (this xt ys)`, on both branches
        // of a test.
        let mut code = vec![
            Ins::Unpack {
                src: 0,
                to: [2, 3, 0, 0],
                n: 2,
                keep: true,
            },
            Ins::JumpUnlessBinK {
                p: Prim::Lt,
                a: 2,
                k: 0,
                to: 7,
            },
            Ins::Take { dst: 7, src: 2 },
            Ins::Take { dst: 9, src: 3 },
            Ins::Take { dst: 10, src: 1 },
            Ins::Call {
                kernel: 0,
                entry: 0,
                dst: 8,
                base: 9,
            },
            Ins::NodeInRet {
                kind: NodeKind::Data(1),
                base: 7,
                n: 2,
                token: 0,
                clear: Regs::NONE,
            },
            // The same moves on the other branch.
            Ins::Take { dst: 7, src: 2 },
            Ins::Take { dst: 9, src: 3 },
            Ins::Take { dst: 10, src: 1 },
            Ins::Call {
                kernel: 0,
                entry: 0,
                dst: 8,
                base: 9,
            },
            Ins::NodeRet {
                kind: NodeKind::Data(1),
                base: 7,
                n: 2,
                clear: Regs::NONE,
            },
        ];
        let mut kernels = [kernel(2, 0, 0)];
        coalesce(&mut code, &mut kernels);
        let code = shown(&code);
        // The parts go to the node's and the call's registers; `ys`, a parameter, moves.
        assert_eq!(
            code[0],
            "Unpack { src: 0, to: [7, 9, 0, 0], n: 2, keep: true }"
        );
        assert_eq!(code[1], "JumpUnlessBinK { p: Lt, a: 7, k: 0, to: 5 }");
        assert_eq!(code[2], "Take { dst: 10, src: 1 }");
        assert_eq!(code[5], "Take { dst: 10, src: 1 }");
        assert_eq!(code.len(), 8);
    }

    #[test]
    fn registers_whose_values_live_together_stay_apart() {
        let mut code = vec![
            Ins::Part {
                dst: 2,
                src: 0,
                i: 0,
            },
            // Written while register 2 holds a value read later.
            Ins::Const { dst: 4, k: 0 },
            Ins::Bin {
                p: Prim::Add,
                dst: 3,
                a: 4,
                b: 2,
            },
            Ins::Take { dst: 4, src: 2 },
            // Register 2's value lives across a call whose frame starts below 6.
            Ins::Part {
                dst: 2,
                src: 0,
                i: 1,
            },
            Ins::Take { dst: 5, src: 3 },
            Ins::Call {
                kernel: 0,
                entry: 0,
                dst: 3,
                base: 5,
            },
            Ins::Take { dst: 6, src: 2 },
            Ins::NodeRet {
                kind: NodeKind::Tuple,
                base: 3,
                n: 4,
                clear: Regs::NONE,
            },
        ];
        let before = shown(&code);
        let mut kernels = [kernel(1, 0, 0)];
        coalesce(&mut code, &mut kernels);
        let after = shown(&code);
        // No move goes: 4 is written while 2 holds the value the sum reads; 2's second
        // value lives across the call, whose callee may overwrite 6; and 3, named in
        // the node's run of parts, keeps its number.
        assert_eq!(after, before);
    }

    #[test]
    fn a_part_released_into_the_node_follows_the_node_renamed() {
        let mut code = vec![
            Ins::Part {
                dst: 3,
                src: 0,
                i: 1,
            },
            // Part 0 is released (its register is the node's), part 1 goes to 4.
            Ins::Unpack {
                src: 3,
                to: [3, 4, 0, 0],
                n: 2,
                keep: true,
            },
            Ins::Take { dst: 9, src: 3 },
            Ins::NodeInRet {
                kind: NodeKind::Data(1),
                base: 4,
                n: 1,
                token: 9,
                clear: Regs::NONE,
            },
        ];
        let mut kernels = [kernel(1, 0, 0)];
        coalesce(&mut code, &mut kernels);
        assert_eq!(
            shown(&code),
            [
                "Part { dst: 9, src: 0, i: 1 }",
                "Unpack { src: 9, to: [9, 4, 0, 0], n: 2, keep: true }",
                "NodeInRet { kind: Data(1), base: 4, n: 1, token: 9, clear: Regs { from: 0, n: 0 } }",
            ]
        );
    }
}

//! Moves the kernels' code need not make (`coalesce`): a `Take` of a register into
//! another whose values never live at the same time becomes nothing, the first register
//! renamed to the second wherever its kernel's code names it. The compiler puts each
//! variable in its own register and moves it where a node, a call or a return wants it
//! (`Node k2 v2 (insert k v l) r` moves four of a search tree's parts into the node's
//! and the call's registers); renamed, the `Unpack` that binds the parts puts them
//! there at once.
//!
//! Registers clash as `kernel_live` says; a `Take` of one into the other is no clash. A
//! register the code names in a run of registers (a node's parts, a call's frame, a
//! `Clear` of several) keeps its number (`kernel_frames` moves runs), and so do the
//! parameters and captured values a frame starts with.

use super::kernel::{Ins, Kernel, Reg, MAX_REGS};
use super::kernel_live::{interfere, operands, regions, Live, Operand, Renaming};
use super::kernel_peephole::relayout;

/// Takes out the `Take`s of each kernel of `code` whose two registers can be one.
pub(super) fn coalesce(code: &mut Vec<Ins>, kernels: &mut [Kernel]) {
    let mut dead = vec![false; code.len()];
    for region in regions(code, kernels) {
        if region.iter().any(|i| matches!(code[*i], Ins::Take { .. })) {
            let live = Live::of(code, kernels, region);
            coalesce_kernel(code, kernels, live, &mut dead);
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

/// `coalesce` on one kernel's region (`live`): marks the `Take`s that go in `dead`.
fn coalesce_kernel(code: &mut [Ins], kernels: &[Kernel], live: Live, dead: &mut [bool]) {
    let mut clash = live.clashes(code, Renaming::Some);
    // The registers the frame starts with and those named in runs keep their numbers.
    let mut fixed = live.start;
    for u in &live.info {
        fixed.union(&u.in_runs);
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
    for i in &live.region {
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
    for i in &live.region {
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
    use crate::eval::kernel::testing::{call, cons_in_ret, kernel, shown};
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
            call(0, 8, 9),
            cons_in_ret(7, 0),
            // The same moves on the other branch.
            Ins::Take { dst: 7, src: 2 },
            Ins::Take { dst: 9, src: 3 },
            Ins::Take { dst: 10, src: 1 },
            call(0, 8, 9),
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
            call(0, 3, 5),
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

//! Calls into the node a frame returns (`link_calls`): `Cons x (merge xt ys)`, a search
//! tree's `Node k v (insert k x l) r`, a user's own `map`.
//!
//! Such a call is no tail call: the frame waits for its result to build the node it
//! returns. So each element of a merged list took a level of the machine's recursion: a
//! frame pushed and popped, its registers written going down and read back coming up
//! (beyond the processor's caches once the list is long). Here the node is built first,
//! with the call's part empty, and linked into the frame's chain (`Ins::Link`); the call
//! becomes a tail call, and the result of the frame that runs on fills the hole
//! (destination-passing style, "tail recursion modulo cons"). The frame returns the
//! chain's first node. Each link still counts as a level of recursion against the
//! kernel's bound on depth (`Kernels::max_depth`), and the tail call counts its step: a
//! run gives up, counts steps and returns values as before. An argument that is the
//! frame's own parameter passed on (`ys` in `merge xt ys`) stays in its register, as a
//! tail call of the compiler's own keeps it (`keep_in_place`).

use super::kernel::{Ins, Kernel, Lane, Reg, Regs};
use super::kernel_live::uses;
use super::kernel_peephole::{compact, landed, target};
use super::kernel_unzip::link_pair;

/// Rewrites each call whose result is a part of the node returned right after it (but
/// for moves between them that the call does not disturb) into `Ins::Link` and a tail
/// call, and each whose pair result is taken apart into the pair of nodes returned into
/// a `Link` in each lane and a tail call (`kernel_unzip::link_pair`). Run once the
/// frames are laid out (`kernel_frames`), before the clears are placed (`kernel_clears`,
/// which sets the tail call's).
pub(super) fn link_calls(code: &mut Vec<Ins>, kernels: &mut [Kernel]) {
    let landed = landed(code, kernels);
    let mut tails = Vec::new();
    let mut dead = vec![false; code.len()];
    for i in 0..code.len() {
        let Ins::Call {
            kernel, dst, base, ..
        } = code[i]
        else {
            continue;
        };
        let Ok(width) = u8::try_from(kernels[kernel as usize].frame_width()) else {
            continue;
        };
        if let Some(tail) = link_pair(code, kernels, &landed, i, width, &mut dead) {
            tails.push(tail);
            continue;
        }
        let args = base as usize..base as usize + width as usize;
        // The moves between the call and the return, which now go before the node.
        let mut j = i + 1;
        while j < code.len() && !landed[j] && movable(code[j], &args, base, dst) {
            j += 1;
        }
        if j == code.len() || landed[j] {
            continue;
        }
        let (kind, from, n, token, fresh) = match code[j] {
            Ins::NodeRet { kind, base, n, .. } => (kind, base, n, 0, true),
            Ins::NodeInRet {
                kind,
                base,
                n,
                token,
                ..
            } => (kind, base, n, token, false),
            _ => continue,
        };
        let parts = from as usize..from as usize + n as usize;
        if !parts.contains(&(dst as usize)) {
            continue;
        }
        // The node is built before the tail call moves the arguments: it reads none.
        let reads_arg = parts
            .filter(|r| *r != dst as usize)
            .chain((!fresh).then_some(token as usize))
            .any(|r| args.contains(&r));
        if reads_arg {
            continue;
        }
        code.copy_within(i + 1..j, i);
        code[j - 1] = Ins::Link {
            kind,
            base: from,
            n,
            token,
            hole: dst - from,
            fresh,
            lane: Lane::Whole,
        };
        code[j] = Ins::TailCall {
            kernel,
            entry: 0,
            base,
            n: width,
            keep: 0,
            clear: Regs::NONE,
        };
        tails.push(j);
    }
    // The arguments laid out for the call that are the frame's own parameters, passed on
    // unchanged (`ys` in `merge xt ys`), stay where they are.
    for t in tails {
        keep_in_place(code, kernels, &landed, t, &mut dead);
    }
    compact(code, kernels, &dead);
}

/// Sets the `keep` bit of each parameter `k` of the tail call at `t` whose argument a
/// `Take` from register `k` moved into place before it, where nothing between them
/// (straight code no jump enters or leaves) names either register: the move goes
/// (`dead`), and the parameter keeps its value.
fn keep_in_place(
    code: &mut [Ins],
    kernels: &[Kernel],
    landed: &[bool],
    t: usize,
    dead: &mut [bool],
) {
    let Ins::TailCall {
        kernel, base, n, ..
    } = code[t]
    else {
        return;
    };
    let params = n
        .min(8)
        .min(u8::try_from(kernels[kernel as usize].arity).unwrap_or(8));
    for k in 0..params {
        let (own, arg) = (k as usize, base as usize + k as usize);
        let mut i = t;
        while i > 0 && !landed[i] {
            i -= 1;
            if dead[i] {
                continue;
            }
            let mut ins = code[i];
            if let Ins::Take { dst, src } = ins {
                if dst as usize == arg && src as usize == own {
                    dead[i] = true;
                    if let Ins::TailCall { keep, .. } = &mut code[t] {
                        *keep |= 1 << k;
                    }
                    break;
                }
            }
            let named = uses(ins, kernels);
            if target(&mut ins).is_some() || named.names(own) || named.names(arg) {
                break;
            }
        }
    }
}

/// Whether `ins`, after a call whose frame starts at `base` (its arguments in `args`) and
/// whose result goes to `dst`, may run before it instead: a move of a value the frame
/// held before the call, into a register the call neither reads nor writes.
fn movable(ins: Ins, args: &std::ops::Range<usize>, base: Reg, dst: Reg) -> bool {
    let (to, from) = match ins {
        Ins::Take { dst, src } | Ins::Copy { dst, src } => (dst, Some(src)),
        Ins::Const { dst, .. } => (dst, None),
        _ => return false,
    };
    to != dst && !args.contains(&(to as usize)) && from.is_none_or(|r| r < base && r != dst)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::kernel::testing::{call, cons_in_ret, kernel, ret, shown};

    #[test]
    fn a_call_into_the_cell_returned_becomes_a_link_and_a_tail_call() {
        // `Cons x (go xt)`: x in register 2, the call's frame from 4, its result to 3, the
        // cell built in the memory register 0 keeps.
        let mut code = vec![call(0, 3, 4), cons_in_ret(2, 0)];
        link_calls(&mut code, &mut [kernel(1, 0, 0)]);
        assert_eq!(
            shown(&code),
            [
                "Link { kind: Data(1), base: 2, n: 2, token: 0, hole: 1, fresh: false, lane: Whole }",
                "TailCall { kernel: 0, entry: 0, base: 4, n: 1, keep: 0, clear: Regs { from: 0, n: 0 } }",
            ]
        );
    }

    #[test]
    fn a_parameter_passed_on_unchanged_keeps_its_value_in_place() {
        // `merge xt ys`: `ys` (register 1) moved to the call's second argument.
        let take = Ins::Take { dst: 5, src: 1 };
        let mut code = vec![take, call(0, 3, 4), cons_in_ret(2, 0)];
        let mut kernels = [kernel(2, 0, 0)];
        link_calls(&mut code, &mut kernels);
        assert_eq!(
            shown(&code),
            [
                "Link { kind: Data(1), base: 2, n: 2, token: 0, hole: 1, fresh: false, lane: Whole }",
                "TailCall { kernel: 0, entry: 0, base: 4, n: 2, keep: 2, clear: Regs { from: 0, n: 0 } }",
            ]
        );
        // Not where something between writes the parameter, or jumps.
        let writes = Ins::Const { dst: 1, k: 0 };
        let jumps = Ins::JumpUnlessCtor {
            r: 0,
            bare: true,
            ctor: 0,
            to: 4,
        };
        for between in [writes, jumps] {
            let mut code = vec![take, between, call(0, 3, 4), cons_in_ret(2, 0), ret(0)];
            link_calls(&mut code, &mut [kernel(2, 0, 0)]);
            assert_eq!(shown(&code)[0], format!("{take:?}"));
            assert!(shown(&code)[3].contains("keep: 0"), "{:?}", shown(&code));
        }
    }

    #[test]
    fn moves_after_the_call_go_before_the_link_unless_they_touch_its_frame() {
        // `Node k v (insert k x l) r`: r moved into the last part after the call.
        let node = |token| Ins::NodeInRet {
            kind: crate::eval::value::NodeKind::Data(2),
            base: 2,
            n: 4,
            token,
            clear: Regs::NONE,
        };
        let mut code = vec![call(0, 4, 6), Ins::Take { dst: 5, src: 1 }, node(0)];
        link_calls(&mut code, &mut [kernel(2, 0, 0)]);
        assert_eq!(
            shown(&code)[..2],
            [
                "Take { dst: 5, src: 1 }",
                "Link { kind: Data(2), base: 2, n: 4, token: 0, hole: 2, fresh: false, lane: Whole }",
            ]
        );
        // A move out of the call's result, or into its arguments, stays after it; so does
        // a node whose token is one of them; and a jump landing between keeps it too.
        let keeps = [
            vec![call(0, 4, 6), Ins::Copy { dst: 5, src: 4 }, node(0)],
            vec![call(0, 4, 6), Ins::Take { dst: 7, src: 1 }, node(0)],
            vec![call(0, 4, 6), node(6)],
            vec![
                Ins::Jump { to: 2 },
                call(0, 4, 6),
                Ins::Take { dst: 5, src: 1 },
                node(0),
            ],
        ];
        for mut code in keeps {
            let before = shown(&code);
            link_calls(&mut code, &mut [kernel(2, 0, 0)]);
            assert_eq!(shown(&code), before);
        }
    }
}

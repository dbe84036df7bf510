//! Calls whose pair result a frame takes apart to return a pair of nodes built around
//! its parts (`link_pair`, which `kernel_chain::link_calls` tries on each call): merge
//! sort's `split`, `match (split rest) when (l, r) -> (Cons a l, Cons b r)`, an `unzip`.
//!
//! As `kernel_chain` does for a node built around a call's result, each node is built
//! first, with the part of the result it takes empty, and linked into a lane of the
//! frame's chain (`Ins::Link` in `Lane::Left` for the pair's first part, `Right` for its
//! second); the call becomes a tail call. The frame's chain begins as a pair whose two
//! parts are the first holes of the lanes, and the result of the frame that runs on is
//! taken apart to fill the last hole of each: the frame returns the pair. So the pair a
//! call returned is never built, returned and taken apart at each level, nor its nodes
//! built anew of parts moved out of the cells the frame matched: each node is linked in
//! the memory of the cell its part came from, and the link is placed right after the
//! `Unpack` of that cell, so that `kernel_relink` makes the two one `Relink` (the part
//! stays where it was). Each pair of links counts as a level of recursion, as the call
//! did, and the tail call counts its step.

use super::kernel::{Ins, Kernel, Lane, Reg, Regs, MAX_REGS};
use super::kernel_clears::successors;
use super::kernel_live::uses;
use super::value::NodeKind;

/// What a register holds after the call, in terms of what the frame held before it.
#[derive(Clone, Copy, Debug)]
enum Held {
    /// The value register `r` held at the call (a register below the callee's frame).
    Before(Reg),
    /// The call's result.
    Result,
    /// Part `i` of the call's result (a pair).
    Part(u8),
    /// The memory of the call's result, emptied by its `Unpack`.
    Emptied,
    /// A node of `kind` of two parts: `value` and, at `hole`, the result's part
    /// `part`, in the memory of the node register `token` held (`None`: fresh, or the
    /// result's).
    Built {
        kind: NodeKind,
        value: Reg,
        hole: u8,
        part: u8,
        token: Option<Reg>,
    },
    /// Nothing, or nothing known.
    Nothing,
}

/// The registers written since the call, with what they hold.
struct Frame {
    call_base: Reg,
    written: Vec<(Reg, Held)>,
}

impl Frame {
    fn get(&self, r: Reg) -> Held {
        match self.written.iter().rev().find(|(w, _)| *w == r) {
            Some((_, held)) => *held,
            None if r < self.call_base => Held::Before(r),
            None => Held::Nothing,
        }
    }

    fn set(&mut self, r: Reg, held: Held) {
        self.written.push((r, held));
    }

    /// The node built of the run of two registers from `base` in `token`'s memory.
    fn built(&mut self, kind: NodeKind, base: Reg, token: Option<Reg>) -> Option<Held> {
        let parts = [self.get(base), self.get(base.checked_add(1)?)];
        let (value, hole, part) = match parts {
            [Held::Before(v), Held::Part(p)] => (v, 1, p),
            [Held::Part(p), Held::Before(v)] => (v, 0, p),
            _ => return None,
        };
        let token = match token.map(|t| self.get(t)) {
            None | Some(Held::Emptied) => None,
            Some(Held::Before(t)) => Some(t),
            Some(_) => return None,
        };
        self.set(base, Held::Nothing);
        self.set(base + 1, Held::Nothing);
        Some(Held::Built {
            kind,
            value,
            hole,
            part,
            token,
        })
    }
}

/// Rewrites the call at `i` (its frame `width` registers wide), where the straight code
/// after it takes its pair result apart (`Unpack`), builds a node of two parts around
/// each part (the other a value the frame held before the call) and returns the pair of
/// those nodes, part `i` around part `i`: a `Link` in each lane and a tail call, the
/// code after it `dead`. The tail call's index, or `None` with nothing changed.
pub(super) fn link_pair(
    code: &mut [Ins],
    kernels: &[Kernel],
    landed: &[bool],
    i: usize,
    width: u8,
    dead: &mut [bool],
) -> Option<usize> {
    let Ins::Call {
        kernel, dst, base, ..
    } = code[i]
    else {
        return None;
    };
    let (end, links) = pair_returned(code, landed, i, dst, base)?;
    code[i] = links[0];
    code[i + 1] = links[1];
    code[i + 2] = Ins::TailCall {
        kernel,
        entry: 0,
        base,
        n: width,
        keep: 0,
        clear: Regs::NONE,
    };
    dead[i + 3..=end].iter_mut().for_each(|d| *d = true);
    // Each link goes up to just after the instruction that gave it its part or its
    // memory (the `Unpack` of the cell matched, for `kernel_relink`).
    for at in [i, i + 1] {
        hoist(code, kernels, landed, at);
    }
    Some(i + 2)
}

/// Where the code after the call at `i` (its result to `dst`, its frame from `base`)
/// returns a pair of nodes built around the parts of its result: the index of that
/// return, and the two links that build them (`Left`, `Right`).
fn pair_returned(
    code: &[Ins],
    landed: &[bool],
    i: usize,
    dst: Reg,
    base: Reg,
) -> Option<(usize, [Ins; 2])> {
    let mut frame = Frame {
        call_base: base,
        written: vec![(dst, Held::Result)],
    };
    let mut unpacked = false;
    for (j, ins) in code.iter().enumerate().skip(i + 1) {
        if landed[j] {
            return None;
        }
        match *ins {
            Ins::Unpack {
                src,
                to,
                n: 2,
                keep,
            } if !unpacked
                && matches!(frame.get(src), Held::Result)
                && to[0] != to[1]
                && !to[..2].contains(&src) =>
            {
                unpacked = true;
                frame.set(src, if keep { Held::Emptied } else { Held::Nothing });
                frame.set(to[0], Held::Part(0));
                frame.set(to[1], Held::Part(1));
            }
            Ins::Take { dst, src } => {
                let held = frame.get(src);
                if matches!(held, Held::Nothing) {
                    return None;
                }
                frame.set(src, Held::Nothing);
                frame.set(dst, held);
            }
            Ins::NodeIn {
                kind,
                dst,
                base,
                n: 2,
                token,
            } => {
                let built = frame.built(kind, base, Some(token))?;
                frame.set(token, Held::Nothing);
                frame.set(dst, built);
            }
            Ins::Node {
                kind,
                dst,
                base,
                n: 2,
            } => {
                let built = frame.built(kind, base, None)?;
                frame.set(dst, built);
            }
            Ins::NodeInRet {
                kind: NodeKind::Tuple,
                base,
                n: 2,
                token,
                ..
            } => {
                let token = match frame.get(token) {
                    Held::Before(t) => Some(t),
                    _ => None,
                };
                return links(&frame, base, token).map(|l| (j, l));
            }
            Ins::NodeRet {
                kind: NodeKind::Tuple,
                base,
                n: 2,
                ..
            } => return links(&frame, base, None).map(|l| (j, l)),
            _ => return None,
        }
    }
    None
}

/// The links of the pair of nodes in registers `base` and `base + 1`, the pair returned
/// in `token`'s memory: a node whose memory was the call's result's takes the pair's.
fn links(frame: &Frame, base: Reg, token: Option<Reg>) -> Option<[Ins; 2]> {
    let mut spare = token;
    let mut links = [Ins::GiveUp; 2];
    let mut named: Vec<Reg> = Vec::new();
    for (i, lane) in [Lane::Left, Lane::Right].into_iter().enumerate() {
        let Held::Built {
            kind,
            value,
            hole,
            part,
            token,
        } = frame.get(base.checked_add(i as u8)?)
        else {
            return None;
        };
        if usize::from(part) != i {
            return None;
        }
        let token = token.or_else(|| spare.take());
        named.push(value);
        named.extend(token);
        // The node's run of registers has its value in place (the other is its hole,
        // which a link does not read).
        let run = value.checked_sub(1 - hole)?;
        if usize::from(run) + 2 > MAX_REGS {
            return None;
        }
        links[i] = Ins::Link {
            kind,
            base: run,
            n: 2,
            token: token.unwrap_or(0),
            hole,
            fresh: token.is_none(),
            lane,
        };
    }
    let distinct = (1..named.len()).all(|k| !named[..k].contains(&named[k]));
    distinct.then_some(links)
}

/// Moves the link at `at` up past the straight code before it that names neither its
/// value's register nor its memory's.
fn hoist(code: &mut [Ins], kernels: &[Kernel], landed: &[bool], mut at: usize) {
    let Ins::Link {
        base,
        token,
        hole,
        fresh,
        ..
    } = code[at]
    else {
        return;
    };
    let value = (base + 1 - hole) as usize;
    while at > 0 && !landed[at] && !landed[at - 1] {
        let before = code[at - 1];
        let named = uses(before, kernels);
        // Straight code (it goes on to the next instruction alone), and no call or link:
        // links into a chain keep their order.
        let straight = successors(before, at - 1).eq([at]);
        let passes = straight
            && !matches!(
                before,
                Ins::Call { .. } | Ins::Apply { .. } | Ins::Link { .. } | Ins::Relink { .. }
            )
            && !named.names(value)
            && (fresh || !named.names(token as usize));
        if !passes {
            return;
        }
        code.swap(at - 1, at);
        at -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::kernel::testing::{call, kernel, shown};
    use crate::eval::kernel_chain::link_calls;

    /// split's arm after its call: the pair taken apart, a cell built around each part
    /// (the first in the pair's memory, register 4), and the pair of them returned in
    /// the memory register 0 keeps.
    fn split_arm() -> Vec<Ins> {
        let cons = NodeKind::Data(1);
        vec![
            Ins::Unpack {
                src: 0,
                to: [1, 3, 0, 0],
                n: 2,
                keep: true,
            },
            Ins::Unpack {
                src: 3,
                to: [2, 6, 7, 7],
                n: 2,
                keep: true,
            },
            call(0, 4, 6),
            Ins::Unpack {
                src: 4,
                to: [9, 5, 8, 8],
                n: 2,
                keep: true,
            },
            Ins::Take { dst: 8, src: 1 },
            Ins::NodeIn {
                kind: cons,
                dst: 6,
                base: 8,
                n: 2,
                token: 4,
            },
            Ins::Take { dst: 8, src: 2 },
            Ins::Take { dst: 9, src: 5 },
            Ins::NodeIn {
                kind: cons,
                dst: 7,
                base: 8,
                n: 2,
                token: 3,
            },
            Ins::NodeInRet {
                kind: NodeKind::Tuple,
                base: 6,
                n: 2,
                token: 0,
                clear: Regs::NONE,
            },
        ]
    }

    #[test]
    fn a_pair_of_nodes_around_a_calls_parts_becomes_two_links_and_a_tail_call() {
        let mut code = split_arm();
        link_calls(&mut code, &mut [kernel(1, 0, 0)]);
        assert_eq!(
            shown(&code),
            [
                "Unpack { src: 0, to: [1, 3, 0, 0], n: 2, keep: true }",
                // In the memory of the cell its part came from, next to its unpack.
                "Link { kind: Data(1), base: 1, n: 2, token: 0, hole: 1, fresh: false, lane: Left }",
                "Unpack { src: 3, to: [2, 6, 7, 7], n: 2, keep: true }",
                "Link { kind: Data(1), base: 2, n: 2, token: 3, hole: 1, fresh: false, lane: Right }",
                "TailCall { kernel: 0, entry: 0, base: 6, n: 1, keep: 0, clear: Regs { from: 0, n: 0 } }",
            ]
        );
    }

    #[test]
    fn other_code_after_the_call_stays_a_call() {
        let unchanged = |code: Vec<Ins>| {
            let mut after = code.clone();
            link_calls(&mut after, &mut [kernel(1, 0, 0)]);
            assert_eq!(shown(&after), shown(&code));
        };
        // The parts swapped between the lanes (the cell around `l` returned second).
        let mut swapped = split_arm();
        for (at, to) in [(5, 7), (8, 6)] {
            if let Ins::NodeIn { dst, .. } = &mut swapped[at] {
                *dst = to;
            }
        }
        unchanged(swapped);
        // A copy of a part (read twice), or a jump landing after the call.
        let mut copied = split_arm();
        copied[4] = Ins::Copy { dst: 8, src: 1 };
        unchanged(copied);
        let mut landed = split_arm();
        landed.insert(0, Ins::Jump { to: 5 });
        unchanged(landed);
        // A constructor, not a pair, returned.
        let mut node = split_arm();
        node[9] = Ins::NodeInRet {
            kind: NodeKind::Data(2),
            base: 6,
            n: 2,
            token: 0,
            clear: Regs::NONE,
        };
        unchanged(node);
    }
}

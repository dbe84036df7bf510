//! The `Unpack` of a pair just before the `Link` of a node in its memory that keeps one
//! of its parts where it was becomes an `Ins::Relink`: merge's `Cons x (merge xt ys)`
//! and a copy's `Cons x (copy xt)` take the cell they matched apart (`x` and `xt` to
//! registers) and build the cell they return in its memory (`x` back in, the hole where
//! `xt` was). Where nothing else holds the cell, the relink does the link too, moving
//! `xt` out and leaving `x` where it is: one instruction dispatched instead of two, and
//! neither `x` nor the cell moved through a register. The `Link` stays after it, for
//! the cell held elsewhere too. (A filter tests `x` in between, with the cell taken
//! apart already: its `Unpack` and `Link` are not next to each other.) Run last, once
//! the registers are placed and the clears set.

use super::kernel::{keeps, Ins, Kernel, Reg};
use super::kernel_live::{regions, uses};
use super::kernel_peephole::landed;

/// Makes each `Unpack` (of two parts, kept) followed by the `Link` of a node in its
/// memory whose kept part is read from the register the unpack moved it to, where no
/// jump lands on the `Link`, a `Relink`.
pub(super) fn fuse(code: &mut [Ins], kernels: &[Kernel]) {
    let landed = landed(code, kernels);
    for i in 1..code.len() {
        if landed[i] {
            continue;
        }
        let Ins::Unpack {
            src,
            to,
            n: 2,
            keep: true,
        } = code[i - 1]
        else {
            continue;
        };
        let Ins::Link {
            kind,
            base,
            n: 2,
            token,
            hole: hole @ 0..=1,
            fresh: false,
            lane,
        } = code[i]
        else {
            continue;
        };
        let stays = 1 - hole as usize;
        let to = [to[0], to[1]];
        if token == src
            && !to.contains(&src)
            && to[0] != to[1]
            && to[stays] as usize == base as usize + stays
        {
            code[i - 1] = Ins::Relink {
                kind,
                src,
                part: to[hole as usize],
                kept: to[stays],
                hole,
                lane,
            };
        }
    }
}

/// Each `Relink` whose `Link` is followed by a tail call that moves the part the relink
/// took out (merge's `xt`, put in the argument's register `base + k`) to parameter `k`'s
/// register, which the relink emptied (its `src`) or the relink just before it did
/// (split's `rest`), puts the part there at once: the tail call keeps parameter `k` in
/// place and moves nothing for it (one register move fewer a step). Only where nothing else in the kernel's code
/// names the argument's register, which then goes unused, and no jump lands on the `Link`
/// or the tail call. Run after `fuse`.
pub(super) fn keep_tails(code: &mut [Ins], kernels: &[Kernel]) {
    let landed = landed(code, kernels);
    for region in regions(code, kernels) {
        // (The relink, its tail call, the parameter, and the argument's register.)
        let mut found = Vec::new();
        for &i in &region {
            let Ins::Relink {
                src, part, kept, ..
            } = code[i]
            else {
                continue;
            };
            let (
                Some(Ins::Link { .. }),
                Some(&Ins::TailCall {
                    kernel,
                    base,
                    n,
                    keep,
                    ..
                }),
            ) = (code.get(i + 1), code.get(i + 2))
            else {
                continue;
            };
            let width = kernels[kernel as usize].frame_width() as usize;
            let Some(k) = part.checked_sub(base) else {
                continue;
            };
            // Register `k` is empty: this relink's pair was there, or the one before's
            // (split's second cell goes on where its first was).
            let before = i >= 2 && !landed[i - 1] && !landed[i];
            let emptied = src == k
                || (before
                    && kept != k
                    && matches!(code[i - 2], Ins::Relink { src, .. } if src == k)
                    && matches!(code[i - 1], Ins::Link { .. }));
            let fits = emptied && k < base && k < n.min(8) && !keeps(keep, k as usize);
            if fits && part as usize >= width && !landed[i + 1] && !landed[i + 2] {
                found.push((i, i + 2, k, part));
            }
        }
        for &(i, t, k, part) in &found {
            let ours = |j: usize| {
                found
                    .iter()
                    .any(|&(r, c, _, p)| p == part && (j == r || j == r + 1 || j == c))
            };
            if region
                .iter()
                .any(|&j| !ours(j) && names(code[j], kernels, part))
            {
                continue;
            }
            if let Ins::Relink { part, .. } = &mut code[i] {
                *part = k;
            }
            if let Ins::TailCall { keep, .. } = &mut code[t] {
                *keep |= 1 << k;
            }
        }
    }
}

/// Whether `ins` reads or writes register `r` (a tail call: an argument it moves, or a
/// register of the callee's frame it reads in place).
fn names(ins: Ins, kernels: &[Kernel], r: Reg) -> bool {
    let r = r as usize;
    if let Ins::TailCall {
        kernel,
        base,
        n,
        keep,
        ..
    } = ins
    {
        let moved = (base as usize..base as usize + n as usize)
            .contains(&r)
            .then(|| !keeps(keep, r - base as usize));
        return moved.unwrap_or(false) || r < kernels[kernel as usize].frame_width() as usize;
    }
    uses(ins, kernels).names(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::kernel::testing::{kernel, shown, tail_call};
    use crate::eval::kernel::Lane;
    use crate::eval::value::NodeKind;

    /// merge's `Cons x (merge xt ys)`: the cell in register 0 relinked, `xt` to register
    /// 4 (the tail call's first argument), `ys` kept in register 1.
    fn step() -> Vec<Ins> {
        let mut tail = tail_call(0, 4, 2);
        if let Ins::TailCall { keep, .. } = &mut tail {
            *keep = 2;
        }
        vec![
            Ins::Relink {
                kind: NodeKind::Data(1),
                src: 0,
                part: 4,
                kept: 2,
                hole: 1,
                lane: Lane::Whole,
            },
            Ins::Link {
                kind: NodeKind::Data(1),
                base: 2,
                n: 2,
                token: 0,
                hole: 1,
                fresh: false,
                lane: Lane::Whole,
            },
            tail,
        ]
    }

    #[test]
    fn a_relinked_part_goes_to_the_parameter_the_tail_call_keeps() {
        let mut code = step();
        keep_tails(&mut code, &[kernel(2, 0, 0)]);
        let text = shown(&code);
        assert!(text[0].contains("src: 0, part: 0"), "{text:?}");
        assert!(text[2].contains("keep: 3"), "{text:?}");
        // Not where other code of the kernel reads the argument's register.
        let mut code = step();
        code.insert(0, Ins::Copy { dst: 3, src: 4 });
        let before = shown(&code);
        keep_tails(&mut code, &[kernel(2, 0, 0)]);
        assert_eq!(shown(&code), before);
    }

    #[test]
    fn a_part_goes_to_the_register_the_relink_before_emptied() {
        // split's two cells, from registers 0 and 3, `rest` to the tail call's argument.
        let relink = |src, part, kept, lane| Ins::Relink {
            kind: NodeKind::Data(1),
            src,
            part,
            kept,
            hole: 1,
            lane,
        };
        let link = |base, token, lane| Ins::Link {
            kind: NodeKind::Data(1),
            base,
            n: 2,
            token,
            hole: 1,
            fresh: false,
            lane,
        };
        let mut code = vec![
            relink(0, 3, 1, Lane::Left),
            link(1, 0, Lane::Left),
            relink(3, 6, 2, Lane::Right),
            link(2, 3, Lane::Right),
            tail_call(0, 6, 1),
        ];
        keep_tails(&mut code, &[kernel(1, 0, 0)]);
        let text = shown(&code);
        assert!(text[2].contains("src: 3, part: 0"), "{text:?}");
        assert!(text[4].contains("keep: 1"), "{text:?}");
    }
}

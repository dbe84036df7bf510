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

use super::kernel::{Ins, Kernel};
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

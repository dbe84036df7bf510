//! Small frames (`shrink`): a kernel's registers numbered again so that each call's
//! frame starts as low as the values living across it allow.
//!
//! A call lays out its callee's frame above every register whose value lives across it,
//! and a deep recursion (`Cons x (merge xt ys)`, a search tree's `insert`) keeps one
//! frame per level: the registers below each call's frame are the stack's memory per
//! level, which the recursion writes going down and reads back coming up, beyond the
//! processor's caches once it is deep. The compiler gives each variable of every arm its
//! own register and lays temporaries out above them all, so a merge sort's `merge`
//! called itself 9 registers up (144 bytes of stack per element) where only the head
//! and the emptied cell live across the call.
//!
//! The pass places the registers a kernel names, a run of registers (a node's parts, a
//! call's frame) as a whole, each at the lowest number where it clashes (`kernel_live`)
//! with nothing placed there: first the registers a frame starts with and a tail call's
//! frame, which keep their numbers (and hold nothing else); then those whose values
//! live across a call or take its result; then the others; each kind in the order of
//! the old numbers, so that a call's frame comes after what must be below it, and goes
//! just above. `merge` now
//! calls itself 4 registers up. Code two kernels share is left as it is, and so is a
//! kernel where a placement fails.

use super::kernel::{Ins, Kernel, Reg, MAX_REGS};
use super::kernel_clears::Set;
use super::kernel_live::{operands, regions, Live, Operand, Renaming};

/// Numbers again the registers of each kernel of `code` that calls another.
pub(super) fn shrink(code: &mut [Ins], kernels: &[Kernel]) {
    for region in regions(code, kernels) {
        if region
            .iter()
            .any(|i| matches!(code[*i], Ins::Call { .. } | Ins::Apply { .. }))
        {
            let live = Live::of(code, kernels, region);
            if let Some(new) = placement(code, kernels, &live) {
                rename(code, kernels, &live.region, &new);
            }
        }
    }
}

/// Registers `lo..hi` moved as one, keeping their order (a run, or runs that overlap),
/// or kept where they are (`pinned`).
#[derive(Clone, Copy)]
struct Unit {
    lo: usize,
    hi: usize,
    pinned: bool,
}

/// The units of the registers the region names: its runs, merged where they overlap,
/// and every other register alone.
fn units(code: &[Ins], kernels: &[Kernel], live: &Live) -> Vec<Unit> {
    let mut runs = Vec::new();
    let mut named = Set::default();
    for (x, i) in live.region.iter().enumerate() {
        let u = &live.info[x];
        named.union(&u.read);
        named.union(&u.named_write);
        let mut ins = code[*i];
        operands(&mut ins, kernels, |o| {
            if let Operand::Run {
                from,
                to,
                named: true,
                start,
                ..
            } = o
            {
                if from < to {
                    runs.push(Unit {
                        lo: from,
                        hi: to,
                        pinned: start.is_none(),
                    });
                }
            }
        });
    }
    named.union(&live.start);
    runs.sort_by_key(|u| u.lo);
    let mut out: Vec<Unit> = Vec::new();
    for run in runs {
        match out.last_mut() {
            Some(last) if run.lo < last.hi => {
                last.hi = last.hi.max(run.hi);
                last.pinned |= run.pinned;
            }
            _ => out.push(run),
        }
    }
    let mut in_runs = Set::default();
    for u in &out {
        in_runs.add_range(u.lo, u.hi - u.lo);
    }
    for r in named.iter().filter(|r| !in_runs.contains(*r)) {
        out.push(Unit {
            lo: r,
            hi: r + 1,
            pinned: false,
        });
    }
    for u in out.iter_mut() {
        u.pinned |= (u.lo..u.hi).any(|r| live.start.contains(r));
    }
    out
}

/// A call of the region: where its frame starts, and the registers that must be below
/// it (those whose values live across it, and the one its result goes to).
struct CallSite {
    base: usize,
    below: Set,
}

/// The new number of each register the region names (`None` where a placement fails).
fn placement(code: &[Ins], kernels: &[Kernel], live: &Live) -> Option<Vec<Option<Reg>>> {
    let clash = live.clashes(code, Renaming::All);
    let calls: Vec<CallSite> = live
        .region
        .iter()
        .enumerate()
        .filter_map(|(x, i)| {
            // (`Apply` reads its function value where the callee's frame is laid out:
            // below it.)
            let (dst, base, f) = match code[*i] {
                Ins::Call { dst, base, .. } => (dst, base, None),
                Ins::Apply { f, dst, base, .. } => (dst, base, Some(f)),
                _ => return None,
            };
            let mut below = live.live_out[x];
            below.add(dst as usize);
            if let Some(f) = f {
                below.add(f as usize);
            }
            Some(CallSite {
                base: base as usize,
                below,
            })
        })
        .collect();
    // The pinned units first, then those holding a value that lives across a call (at
    // the bottom of the frame), then the others; each kind in the order of its numbers,
    // so that a call's frame comes after what must be below it.
    let mut below = Set::default();
    for c in &calls {
        below.union(&c.below);
    }
    let mut units = units(code, kernels, live);
    units.sort_by_key(|u| {
        let across = (u.lo..u.hi).any(|r| below.contains(r));
        (!u.pinned, !across, u.lo)
    });
    let mut new: Vec<Option<Reg>> = vec![None; MAX_REGS];
    // The registers placed at each number.
    let mut at = vec![Set::default(); MAX_REGS];
    for u in units {
        let width = u.hi - u.lo;
        // Above what lives across each call whose frame it holds.
        let mut lowest = 0;
        if !u.pinned {
            for c in calls.iter().filter(|c| (u.lo..u.hi).contains(&c.base)) {
                for r in c.below.iter().filter(|r| !(u.lo..u.hi).contains(r)) {
                    let placed = new[r]? as usize;
                    lowest = lowest.max((placed + 1).saturating_sub(c.base - u.lo));
                }
            }
        }
        // (The registers the frame starts with hold nothing else: `kernel_clears` reads
        // a parameter's type off any instruction that reads its register.)
        let fits = |s: usize| {
            (u.lo..u.hi).all(|r| {
                let n = s + r - u.lo;
                (u.pinned || !live.start.contains(n)) && !at[n].meets(&clash[r])
            })
        };
        let s = if u.pinned {
            Some(u.lo).filter(|s| fits(*s))
        } else {
            (lowest..=MAX_REGS - width).find(|s| fits(*s))
        }?;
        for r in u.lo..u.hi {
            new[r] = Some((s + r - u.lo) as Reg);
            at[s + r - u.lo].add(r);
        }
    }
    // Each call's frame above what must be below it (checked again for the calls whose
    // frames are pinned), and none higher than it was (so that no frame grows past what
    // `Kernels::max_depth` counted for it).
    let ok = calls.iter().all(|c| {
        let base = new[c.base].filter(|b| *b as usize <= c.base);
        c.below
            .iter()
            .all(|r| matches!((new[r], base), (Some(r), Some(b)) if r < b))
    });
    ok.then_some(new)
}

/// Renames each register the region's code names to its number in `new`.
fn rename(code: &mut [Ins], kernels: &[Kernel], region: &[usize], new: &[Option<Reg>]) {
    let to = |r: &mut Reg| {
        if let Some(n) = new[*r as usize] {
            *r = n;
        }
    };
    for i in region {
        operands(&mut code[*i], kernels, |o| match o {
            Operand::Read(r) | Operand::Write(r) | Operand::Both(r) => to(r),
            Operand::Run {
                start: Some(r),
                named: true,
                ..
            } => to(r),
            Operand::Run { .. } => {}
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::kernel::testing::{call, cons_in_ret, kernel, ret, shown, tail_call};
    use crate::eval::natives::Prim;

    #[test]
    fn a_recursive_call_lays_its_frame_just_above_what_lives_across_it() {
        // `merge`'s last arm, as `kernel_coalesce` leaves it: `Cons x (merge xt ys)` on
        // one branch, `Cons y (merge xs yt)` on the other.
        let mut code = vec![
            Ins::Part {
                dst: 7,
                src: 0,
                i: 0,
            },
            Ins::Part {
                dst: 4,
                src: 1,
                i: 0,
            },
            Ins::JumpUnlessBin {
                p: Prim::Le,
                a: 7,
                b: 4,
                to: 8,
            },
            Ins::Unpack {
                src: 0,
                to: [0, 9, 0, 0],
                n: 2,
                keep: true,
            },
            Ins::Clear { from: 4, n: 1 },
            Ins::Take { dst: 10, src: 1 },
            call(0, 8, 9),
            cons_in_ret(7, 0),
            Ins::Unpack {
                src: 1,
                to: [1, 10, 1, 1],
                n: 2,
                keep: true,
            },
            Ins::Clear { from: 7, n: 1 },
            Ins::Take { dst: 7, src: 4 },
            Ins::Take { dst: 9, src: 0 },
            call(0, 8, 9),
            cons_in_ret(7, 1),
        ];
        shrink(&mut code, &[kernel(2, 0, 0)]);
        let code = shown(&code);
        // The heads go to 2 and 3, the node's part and the call's result to 2 and 3, the
        // frame to 4: across the call live only the emptied cell (0) and the head.
        assert_eq!(code[0], "Part { dst: 2, src: 0, i: 0 }");
        assert_eq!(code[1], "Part { dst: 3, src: 1, i: 0 }");
        assert_eq!(
            code[3],
            "Unpack { src: 0, to: [0, 4, 0, 0], n: 2, keep: true }"
        );
        assert_eq!(code[5], "Take { dst: 5, src: 1 }");
        assert_eq!(code[6], "Call { kernel: 0, entry: 0, dst: 3, base: 4 }");
        assert_eq!(
            code[7],
            "NodeInRet { kind: Data(1), base: 2, n: 2, token: 0, clear: Regs { from: 0, n: 0 } }"
        );
        assert_eq!(code[10], "Take { dst: 2, src: 3 }");
        assert_eq!(code[11], "Take { dst: 4, src: 0 }");
        assert_eq!(code[12], "Call { kernel: 0, entry: 0, dst: 3, base: 4 }");
    }

    #[test]
    fn values_living_across_a_call_stay_below_its_frame() {
        // (n): `let m = n + 1 in m + this (n - 1)`, laid out high.
        let mut code = vec![
            Ins::BinK {
                p: Prim::Add,
                dst: 6,
                a: 0,
                k: 1,
            },
            Ins::BinK {
                p: Prim::Sub,
                dst: 9,
                a: 0,
                k: 1,
            },
            call(0, 8, 9),
            Ins::Bin {
                p: Prim::Add,
                dst: 5,
                a: 6,
                b: 8,
            },
            ret(5),
        ];
        shrink(&mut code, &[kernel(1, 0, 0)]);
        // `m` and the result live across the call: below its frame. The parameter keeps
        // its register, which nothing else takes (not even once `n` is read no more).
        assert_eq!(
            shown(&code),
            [
                "BinK { p: Add, dst: 1, a: 0, k: 1 }",
                "BinK { p: Sub, dst: 3, a: 0, k: 1 }",
                "Call { kernel: 0, entry: 0, dst: 2, base: 3 }",
                "Bin { p: Add, dst: 1, a: 1, b: 2 }",
                "Ret { src: 1, clear: Regs { from: 0, n: 0 } }",
            ]
        );
    }

    #[test]
    fn a_tail_calls_frame_and_the_parameters_keep_their_registers() {
        // (a, b): `this (a + b) (f a)`: the tail call's arguments, laid out at 4, move to
        // 0 and 1 (which stay); `f`'s frame goes down to 2, above `a + b`.
        let mut code = vec![
            Ins::Bin {
                p: Prim::Add,
                dst: 4,
                a: 0,
                b: 1,
            },
            Ins::Take { dst: 7, src: 0 },
            call(1, 5, 7),
            tail_call(0, 4, 2),
        ];
        shrink(&mut code, &[kernel(2, 0, 0), kernel(1, 9, 0)]);
        assert_eq!(
            shown(&code),
            [
                "Bin { p: Add, dst: 2, a: 0, b: 1 }",
                "Take { dst: 4, src: 0 }",
                "Call { kernel: 1, entry: 0, dst: 3, base: 4 }",
                "TailCall { kernel: 0, entry: 0, base: 2, n: 2, keep: 0, clear: Regs { from: 0, n: 0 } }",
            ]
        );
    }
}

//! Peephole passes over the kernels' code once every kernel is compiled: work a return
//! does anyway is left to it (`return_in_place`, `needless_clears`), a test the
//! `Unpack` after it makes anyway goes (`needless_tuple_tests`), and the instructions
//! left with nothing to do are taken out (`compact`).

use super::kernel::{Ins, Kernel, Reg, Regs};

/// Runs the passes over `code`, whose kernels start at their `entry`.
pub(super) fn tidy(code: &mut Vec<Ins>, kernels: &mut [Kernel]) {
    return_in_place(code);
    let mut dead = needless_clears(code, kernels);
    needless_tuple_tests(code, &mut dead);
    compact(code, kernels, &dead);
}

/// Marks `dead` each `JumpUnlessTuple` that gives up where the tuple is not there and is
/// followed by the `Unpack` of its register into as many parts (`match (split rest) when
/// (l, r) -> ...`): the value has the tuple's type, so it is a tuple of those parts or
/// indeterminate, and the `Unpack` gives up on an indeterminate value as the test did.
fn needless_tuple_tests(code: &[Ins], dead: &mut [bool]) {
    for i in 0..code.len().saturating_sub(1) {
        let Ins::JumpUnlessTuple { r, n, to } = code[i] else {
            continue;
        };
        let gives_up = matches!(code.get(to as usize), Some(Ins::GiveUp));
        let unpacked = matches!(code[i + 1], Ins::Unpack { src, n: m, .. } if src == r && m == n);
        if n > 0 && gives_up && unpacked {
            dead[i] = true;
        }
    }
}

/// Code just before a `Ret` that the return does anyway becomes that return: a move or
/// copy into the register it returns becomes the return of its source (`n` in
/// `if n < 2 then n`: one dispatch fewer for half of fib's calls), a `Clear` of other
/// registers the return itself (it empties the frame), and a node built into it the
/// return of the node (`NodeRet`, `NodeInRet`). Walked backwards, so that a run of
/// such instructions becomes returns. The instructions stay where they are (a jump may
/// land on the `Ret`).
fn return_in_place(code: &mut [Ins]) {
    for i in (1..code.len()).rev() {
        let Ins::Ret { src: r, .. } = code[i] else {
            continue;
        };
        code[i - 1] = match code[i - 1] {
            Ins::Take { dst, src } | Ins::Copy { dst, src } if dst == r => Ins::Ret {
                src,
                clear: Regs::NONE,
            },
            Ins::Clear { from, n } if !(from..from.saturating_add(n)).contains(&r) => Ins::Ret {
                src: r,
                clear: Regs::NONE,
            },
            Ins::Node { kind, dst, base, n } if dst == r => Ins::NodeRet {
                kind,
                base,
                n,
                clear: Regs::NONE,
            },
            Ins::NodeIn {
                kind,
                dst,
                base,
                n,
                token,
            } if dst == r => Ins::NodeInRet {
                kind,
                base,
                n,
                token,
                clear: Regs::NONE,
            },
            other => other,
        };
    }
}

/// The `Clear`s that are not needed:
/// - those an exit empties anyway: in the straight run of `Clear`s, `Const`s and moves
///   (`Take`, `Copy`) just before a return (`Ret`, `NodeRet`, `NodeInRet`) or a tail
///   call, that clear no register the exit reads (a tail call: its arguments, its
///   callee's parameters and captured values) nor one a move after them reads or
///   writes. The exit's `clear`, which `kernel_clears` sets afterwards, empties those
///   that may still hold a reference (a tail call, with `Clear`s just before it where
///   its callee's registers are among them). A search tree's look-up releasing the
///   parts of a node its branch does not go down, then moving the child it goes down
///   into place, dispatches one instruction there instead of four. A jump into the run
///   lands on the same exit.
/// - a `Clear` of the one register the next instruction moves, copies or loads a
///   constant into, which releases what the register held as it stores.
fn needless_clears(code: &[Ins], kernels: &[Kernel]) -> Vec<bool> {
    let mut dead = vec![false; code.len()];
    let span = |from: Reg, n: u8| from..from.saturating_add(n);
    for (i, ins) in code.iter().enumerate() {
        // The registers the exit reads, as up to three spans.
        let reads: [(Reg, u8); 3] = match *ins {
            Ins::Ret { src, .. } => [(src, 1), (0, 0), (0, 0)],
            Ins::NodeRet { base, n, .. } => [(base, n), (0, 0), (0, 0)],
            Ins::NodeInRet { base, n, token, .. } => [(base, n), (token, 1), (0, 0)],
            Ins::TailCall {
                kernel, base, n, ..
            } => {
                let Some(callee) = kernels.get(kernel as usize) else {
                    continue;
                };
                let captured = u8::try_from(callee.captures).unwrap_or(u8::MAX);
                let slots = Reg::try_from(callee.slots).unwrap_or(Reg::MAX);
                [(base, n), (0, n), (slots, captured)]
            }
            Ins::Clear { from, n: 1 } => {
                // A store into the register just after.
                if let Some(Ins::Take { dst, src } | Ins::Copy { dst, src }) = code.get(i + 1) {
                    dead[i] = *dst == from && *src != from;
                } else if let Some(Ins::Const { dst, .. }) = code.get(i + 1) {
                    dead[i] = *dst == from;
                }
                continue;
            }
            _ => continue,
        };
        // Registers the moves walked over so far read or write.
        let mut touched = super::kernel_clears::Set::default();
        for (from, n) in reads {
            touched.add_range(from as usize, n as usize);
        }
        for j in (0..i).rev() {
            match code[j] {
                Ins::Const { dst, .. } => touched.add(dst as usize),
                Ins::Take { dst, src } | Ins::Copy { dst, src } => {
                    touched.add(dst as usize);
                    touched.add(src as usize);
                }
                Ins::Clear { from, n } => {
                    if !span(from, n).any(|r| touched.contains(r as usize)) {
                        dead[j] = true;
                    }
                }
                _ => break,
            }
        }
    }
    dead
}

/// Takes the instructions marked `dead` out of `code` (`relayout`).
pub(super) fn compact(code: &mut Vec<Ins>, kernels: &mut [Kernel], dead: &[bool]) {
    if dead.contains(&true) {
        relayout(code, kernels, |i, ins, out| {
            if !dead[i] {
                out.push(ins);
            }
        });
    }
}

/// Rebuilds `code` with `edit` putting in `out` what stands in place of instruction `i`
/// (nothing, the instruction, instructions before it), and moves every jump and kernel
/// entry to the first instruction standing in place of its target (or, where nothing
/// does, of the next one).
pub(super) fn relayout(
    code: &mut Vec<Ins>,
    kernels: &mut [Kernel],
    mut edit: impl FnMut(usize, Ins, &mut Vec<Ins>),
) {
    let old = std::mem::take(code);
    // `to[i]`: the new index of what stands in place of instruction `i`.
    let mut to = Vec::with_capacity(old.len() + 1);
    for (i, ins) in old.into_iter().enumerate() {
        to.push(code.len() as u32);
        edit(i, ins, code);
    }
    to.push(code.len() as u32);
    for ins in code.iter_mut() {
        if let Some(target) = target(ins) {
            *target = to[*target as usize];
        }
    }
    for k in kernels {
        k.entry = to[k.entry as usize];
    }
}

/// A `NodeIn` of two parts whose registers `Take`s just before it filled (the run of
/// registers a node is built of) reads the parts where the `Take`s found them
/// (`Ins::NodeInPair`), and the `Take`s go: `split`'s `(Cons a l, Cons b r)` builds both
/// cells of one run above its call's frame, and moved three parts into it. Where a jump
/// lands on the `NodeIn`, or between the `Take`s, they stay. Run before the clears are
/// placed (`kernel_clears`): the run's registers keep what they held.
pub(super) fn pairs_in_place(code: &mut Vec<Ins>, kernels: &mut [Kernel]) {
    let landed = landed(code, kernels);
    let mut dead = vec![false; code.len()];
    for i in 0..code.len() {
        let Ins::NodeIn {
            kind,
            dst,
            base,
            n: 2,
            token,
        } = code[i]
        else {
            continue;
        };
        let run = [base, base.wrapping_add(1)];
        let mut from = run;
        let mut j = i;
        while j > 0 && !landed[j] {
            let Ins::Take { dst: t, src } = code[j - 1] else {
                break;
            };
            let k = usize::from(t.wrapping_sub(base));
            if k > 1 || from[k] != t || run.contains(&src) || src == token || from.contains(&src) {
                break;
            }
            from[k] = src;
            dead[j - 1] = true;
            j -= 1;
        }
        if from != run {
            code[i] = Ins::NodeInPair {
                kind,
                dst,
                a: from[0],
                b: from[1],
                token,
            };
        }
    }
    compact(code, kernels, &dead);
}

/// Whether each instruction of `code` (and the end) is one a jump or a kernel's entry
/// lands on.
pub(super) fn landed(code: &mut [Ins], kernels: &[Kernel]) -> Vec<bool> {
    let mut landed = vec![false; code.len() + 1];
    for k in kernels {
        landed[k.entry as usize] = true;
    }
    for ins in code.iter_mut() {
        if let Some(to) = target(ins) {
            landed[*to as usize] = true;
        }
    }
    landed
}

/// The instruction index a jump goes to. (Every kind is listed: a new one that jumps
/// must be added here.)
pub(super) fn target(ins: &mut Ins) -> Option<&mut u32> {
    match ins {
        Ins::JumpIf { to, .. }
        | Ins::Jump { to }
        | Ins::JumpUnlessBin { to, .. }
        | Ins::JumpUnlessPartBin { to, .. }
        | Ins::JumpUnlessBinK { to, .. }
        | Ins::JumpUnless { to, .. }
        | Ins::JumpUnlessCtor { to, .. }
        | Ins::JumpUnlessPartCtor { to, .. }
        | Ins::JumpUnlessTuple { to, .. } => Some(to),
        Ins::Const { .. }
        | Ins::Copy { .. }
        | Ins::Take { .. }
        | Ins::Bin { .. }
        | Ins::BinK { .. }
        | Ins::Un { .. }
        | Ins::Part { .. }
        | Ins::Node { .. }
        | Ins::NodeIn { .. }
        | Ins::NodeInPair { .. }
        | Ins::NodeRet { .. }
        | Ins::NodeInRet { .. }
        | Ins::Link { .. }
        | Ins::Relink { .. }
        | Ins::Unpack { .. }
        | Ins::Spare { .. }
        | Ins::Clear { .. }
        | Ins::Fields { .. }
        | Ins::Field { .. }
        | Ins::Update { .. }
        | Ins::TupleField { .. }
        | Ins::GiveUp
        | Ins::Call { .. }
        | Ins::Apply { .. }
        | Ins::TailCall { .. }
        | Ins::Ret { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::kernel::testing::{kernel, ret, shown, tail_call};
    use crate::eval::natives::Prim;

    #[test]
    fn clears_a_return_does_anyway_go_and_jumps_follow_their_targets() {
        let mut code = vec![
            Ins::JumpUnlessBinK {
                p: Prim::Eq,
                a: 0,
                k: 0,
                to: 4,
            },
            Ins::Clear { from: 1, n: 1 },
            Ins::Const { dst: 2, k: 0 },
            ret(2),
            // A jump lands on a clear that goes: it lands on what follows instead.
            Ins::Clear { from: 0, n: 1 },
            Ins::Const { dst: 1, k: 1 },
            ret(1),
            // A clear of the register returned stays.
            Ins::Clear { from: 2, n: 1 },
            Ins::Const { dst: 1, k: 1 },
            Ins::NodeRet {
                kind: crate::eval::value::NodeKind::Tuple,
                base: 1,
                n: 2,
                clear: Regs::NONE,
            },
        ];
        let mut kernels = [kernel(1, 0, 0), kernel(1, 4, 0), kernel(1, 7, 0)];
        tidy(&mut code, &mut kernels);
        assert_eq!(
            shown(&code),
            [
                "JumpUnlessBinK { p: Eq, a: 0, k: 0, to: 3 }",
                "Const { dst: 2, k: 0 }",
                "Ret { src: 2, clear: Regs { from: 0, n: 0 } }",
                "Const { dst: 1, k: 1 }",
                "Ret { src: 1, clear: Regs { from: 0, n: 0 } }",
                "Clear { from: 2, n: 1 }",
                "Const { dst: 1, k: 1 }",
                "NodeRet { kind: Tuple, base: 1, n: 2, clear: Regs { from: 0, n: 0 } }",
            ]
        );
        let entries: Vec<u32> = kernels.iter().map(|k| k.entry).collect();
        assert_eq!(entries, [0, 3, 5]);
    }

    #[test]
    fn clears_a_tail_call_or_a_store_does_anyway_go() {
        let mut code = vec![
            // A look-up going left: the key, the value and the right child released, the
            // left child moved into place, the call. (Kernel 0: two parameters, one
            // `let`, registers 0 to 2; its frame's temporaries from 3 on.)
            Ins::Clear { from: 3, n: 1 },
            Ins::Clear { from: 4, n: 2 },
            Ins::Take { dst: 1, src: 6 },
            tail_call(0, 7, 0),
            // A clear of a register a move after it reads, or of an argument, or of a
            // parameter the callee reads, stays; a store after it does not matter.
            Ins::Clear { from: 5, n: 1 },
            Ins::Clear { from: 8, n: 1 },
            Ins::Clear { from: 0, n: 1 },
            Ins::Copy { dst: 7, src: 5 },
            tail_call(0, 7, 2),
            // A clear of the register the next instruction stores into goes; one of
            // another register, or of the register the store reads, stays.
            Ins::Clear { from: 2, n: 1 },
            Ins::Take { dst: 2, src: 3 },
            Ins::Clear { from: 3, n: 1 },
            Ins::Take { dst: 4, src: 3 },
            Ins::Clear { from: 5, n: 1 },
            Ins::Const { dst: 5, k: 0 },
            ret(5),
        ];
        let mut kernels = [kernel(2, 0, 0)];
        tidy(&mut code, &mut kernels);
        assert_eq!(
            shown(&code),
            [
                "Take { dst: 1, src: 6 }",
                "TailCall { kernel: 0, entry: 0, base: 7, n: 0, keep: 0, clear: Regs { from: 0, n: 0 } }",
                "Clear { from: 5, n: 1 }",
                "Clear { from: 8, n: 1 }",
                "Clear { from: 0, n: 1 }",
                "Copy { dst: 7, src: 5 }",
                "TailCall { kernel: 0, entry: 0, base: 7, n: 2, keep: 0, clear: Regs { from: 0, n: 0 } }",
                "Take { dst: 2, src: 3 }",
                "Clear { from: 3, n: 1 }",
                "Take { dst: 4, src: 3 }",
                "Const { dst: 5, k: 0 }",
                "Ret { src: 5, clear: Regs { from: 0, n: 0 } }",
            ]
        );
    }
}

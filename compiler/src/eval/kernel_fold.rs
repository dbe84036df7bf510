//! The fold kernel: `foldl` over a list as one kernel run (`Machine::fold_step` calls it
//! where the function folded has a kernel that `apply_quick` does not compute), instead
//! of a kernel run per element from the machine's loop.
//!
//! It is the code the prelude's definition would compile to, `go f acc xs = match xs
//! when Cons y rest -> go f (f acc y) rest when Empty -> acc`, written out here because
//! the prelude's `foldl` is the native `prim_list_foldl`. Inside one run the accumulator
//! passes from call to call by moving (the machine's loop could only lend it, as it needs
//! it back when a kernel gives up): a step that takes its accumulator apart and builds
//! the next one (`Some (v + x)`, a record updated, a sorted list an element is inserted
//! into) re-uses its memory in place. Its steps are the machine's loop's: the call of
//! the function (one, `Ins::Apply`) and the loop's own (the tail call) per element.

use super::kernel::{Ins, Kernel, Regs};
use super::natives::ListIds;

/// The fold kernel's frame: the function, the accumulator, the rest of the list, and
/// the rest of the list after the element taken (below the call's frame, which starts at
/// register 4 with the call's two arguments).
const F: u8 = 0;
const ACC: u8 = 1;
const XS: u8 = 2;
const REST: u8 = 3;
const ARGS: u8 = 4;

/// The fold kernel's header.
pub(super) fn kernel() -> Kernel {
    Kernel {
        arity: 3,
        entry: 0,
        slots: 3,
        captures: 0,
        scalar: false,
    }
}

/// How many registers its frame uses.
pub(super) const REGS: u32 = ARGS as u32 + 2;

/// Its code, from instruction `entry` on, as kernel `me`.
pub(super) fn code(me: u32, entry: u32, list: ListIds) -> Vec<Ins> {
    vec![
        Ins::JumpUnlessCtor {
            r: XS,
            bare: false,
            ctor: list.cons,
            to: entry + 6,
        },
        Ins::Unpack {
            src: XS,
            to: [ARGS + 1, REST, 0, 0],
            n: 2,
            keep: false,
        },
        Ins::Take {
            dst: ARGS,
            src: ACC,
        },
        Ins::Apply {
            f: F,
            dst: ACC,
            base: ARGS,
            n: 2,
        },
        Ins::Take { dst: XS, src: REST },
        Ins::TailCall {
            kernel: me,
            entry,
            base: F,
            n: 3,
            keep: 0b111,
            clear: Regs::NONE,
        },
        Ins::JumpUnlessCtor {
            r: XS,
            bare: true,
            ctor: list.empty,
            to: entry + 8,
        },
        Ins::Ret {
            src: ACC,
            clear: Regs::NONE,
        },
        Ins::GiveUp,
    ]
}

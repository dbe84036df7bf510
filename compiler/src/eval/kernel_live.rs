//! What the passes that rename a kernel's registers (`kernel_coalesce`,
//! `kernel_frames`) know of its code: the registers each instruction names
//! (`operands`), the instructions of each kernel (`regions`), which registers hold a
//! value read later after each of them (`Live`), and which registers cannot be one
//! (`Live::clashes`).
//!
//! Two registers clash where one is written while the other holds a value read later,
//! or where one instruction writes both. A register the code names in a run of registers
//! (a node's parts, a call's frame, a `Clear` of several) is placed by the run.

use super::kernel::{Ins, Kernel, Reg, MAX_REGS};
use super::kernel_clears::{at_entry, successors, Set};

/// How an instruction names a register.
pub(super) enum Operand<'a> {
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
        /// The field that says where a named run starts (none for a tail call's
        /// arguments, which go to the frame's first registers).
        start: Option<&'a mut Reg>,
    },
}

/// Calls `f` on each register `ins` names (`kernels`: the kernels its calls call).
/// (Every kind is listed: a new instruction must say what it reads and writes.)
pub(super) fn operands(ins: &mut Ins, kernels: &[Kernel], mut f: impl FnMut(Operand<'_>)) {
    use Operand::{Both, Read, Run, Write};
    // A run the instruction places from its field `start`.
    fn run(start: &mut Reg, n: usize, read: bool, write: bool) -> Operand<'_> {
        Run {
            from: *start as usize,
            to: (*start as usize + n).min(MAX_REGS),
            read,
            write,
            named: true,
            start: Some(start),
        }
    }
    // A call whose callee reads the first `width` registers of its frame, from `base` on,
    // and may leave anything in every register from there on; its result goes to `dst`.
    fn call<F: FnMut(Operand<'_>)>(f: &mut F, base: &mut Reg, width: usize, dst: &mut Reg) {
        let from = *base as usize;
        f(run(base, width, true, false));
        f(Run {
            from,
            to: MAX_REGS,
            read: false,
            write: true,
            named: false,
            start: None,
        });
        f(Write(dst));
    }
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
        Ins::BinK { dst, a, .. }
        | Ins::Un {
            dst,
            a,
            take: false,
            ..
        } => {
            f(Read(a));
            f(Write(dst));
        }
        Ins::Un {
            dst, a, take: true, ..
        } => {
            f(Both(a));
            f(Write(dst));
        }
        Ins::JumpIf { r, .. }
        | Ins::JumpUnless { r, .. }
        | Ins::JumpUnlessCtor { r, .. }
        | Ins::JumpUnlessPartCtor { r, .. }
        | Ins::JumpUnlessTuple { r, .. } => f(Read(r)),
        Ins::JumpUnlessBin { a, b, .. } | Ins::JumpUnlessPartBin { a, b, .. } => {
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
            f(run(base, *n as usize, true, true));
            f(Write(dst));
        }
        Ins::NodeIn {
            dst,
            base,
            n,
            token,
            ..
        } => {
            f(run(base, *n as usize, true, true));
            f(Both(token));
            f(Write(dst));
        }
        Ins::NodeInPair {
            dst, a, b, token, ..
        } => {
            f(Both(a));
            f(Both(b));
            f(Both(token));
            f(Write(dst));
        }
        Ins::NodeRet { base, n, .. } => f(run(base, *n as usize, true, true)),
        Ins::NodeInRet { base, n, token, .. } => {
            f(run(base, *n as usize, true, true));
            f(Both(token));
        }
        Ins::Link {
            base,
            n,
            token,
            fresh,
            ..
        } => {
            // (Read as a whole, the hole's register too: a link is made once the frames
            // are laid out, after the passes that rename registers.)
            f(run(base, *n as usize, true, true));
            if !*fresh {
                f(Both(token));
            }
        }
        // (Those of the `Unpack` it is: the `Link` after it names its own. Made last, once
        // no pass renames registers.)
        Ins::Relink {
            src, part, kept, ..
        } => {
            f(Both(src));
            f(Write(part));
            f(Write(kept));
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
        Ins::Clear { from, n } => f(run(from, *n as usize, false, true)),
        Ins::Fields { src, to, n, .. } => {
            f(Read(src));
            for r in to.iter_mut().take(*n as usize) {
                f(Write(r));
            }
        }
        Ins::Update { dst, base, n, .. } => {
            f(run(base, *n as usize + 1, true, true));
            f(Write(dst));
        }
        Ins::Call {
            kernel, dst, base, ..
        } => {
            let width = kernels[*kernel as usize].frame_width() as usize;
            call(&mut f, base, width, dst);
        }
        Ins::Apply {
            f: fr,
            dst,
            base,
            n,
        } => {
            // As a call, of a callee known when it runs: its frame starts with the
            // arguments.
            f(Read(fr));
            call(&mut f, base, *n as usize, dst);
        }
        Ins::TailCall {
            kernel, base, n, ..
        } => {
            // The arguments move down to the first registers, where the callee reads
            // them with its captured values (and the parameters that keep theirs).
            f(run(base, *n as usize, true, true));
            f(Run {
                from: 0,
                to: kernels[*kernel as usize].frame_width() as usize,
                read: true,
                write: false,
                named: true,
                start: None,
            });
        }
        Ins::Ret { src, .. } => f(Read(src)),
    }
}

/// Registers `a` and `b` cannot be one.
pub(super) fn interfere(clash: &mut [Set], a: usize, b: usize) {
    if a != b {
        clash[a].add(b);
        clash[b].add(a);
    }
}

/// What an instruction reads and writes.
#[derive(Default)]
pub(super) struct Uses {
    pub read: Set,
    pub write: Set,
    /// The registers it writes by name (not those a callee may overwrite).
    pub named_write: Set,
    /// The registers it names in runs.
    pub in_runs: Set,
}

impl Uses {
    /// Whether it reads or writes register `r`.
    pub(super) fn names(&self, r: usize) -> bool {
        self.read.contains(r) || self.write.contains(r)
    }
}

pub(super) fn uses(ins: Ins, kernels: &[Kernel]) -> Uses {
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
            ..
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

/// The instructions of each kernel's code that no other kernel reaches or starts among
/// (code two kernels share is left as it is: its registers mean the same to both), in
/// the order of the code.
pub(super) fn regions(code: &[Ins], kernels: &[Kernel]) -> Vec<Vec<usize>> {
    // The kernel whose walk reached each instruction (`u32::MAX`: none yet), and where
    // kernels start.
    let mut done = vec![u32::MAX; code.len()];
    let mut starts = vec![false; code.len()];
    for k in kernels {
        if let Some(s) = starts.get_mut(k.entry as usize) {
            *s = true;
        }
    }
    let mut out = Vec::new();
    for (k, kernel) in kernels.iter().enumerate() {
        let entry = kernel.entry as usize;
        if entry >= code.len() || done[entry] != u32::MAX {
            continue;
        }
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
        if !shared {
            region.sort_unstable();
            out.push(region);
        }
    }
    out
}

/// What the registers of a clash are for (`Live::clashes`).
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Renaming {
    /// Some take the number of another (`kernel_coalesce`): the others keep theirs, so
    /// a register a callee may overwrite clashes with what lives across the call, and
    /// the two registers of a `Take` do not clash by it.
    Some,
    /// All are numbered again (`kernel_frames`), each call's frame placed above what
    /// lives across it: only the registers an instruction names clash.
    All,
}

/// One kernel's region and what its registers hold along it.
pub(super) struct Live {
    /// The instructions, in the order of the code (`regions`).
    pub region: Vec<usize>,
    /// What each reads and writes.
    pub info: Vec<Uses>,
    /// The registers holding a value read later, after each.
    pub live_out: Vec<Set>,
    /// The registers the frame starts with values in (of each kernel starting where it
    /// does): its parameters and captured values.
    pub start: Set,
    /// The registers holding a value read later at the entry.
    entry_live: Set,
}

impl Live {
    pub fn of(code: &[Ins], kernels: &[Kernel], region: Vec<usize>) -> Live {
        let info: Vec<Uses> = region.iter().map(|i| uses(code[*i], kernels)).collect();
        let at = |i: usize| region.binary_search(&i).ok();
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
        let entry = region[0];
        let mut start = Set::default();
        for k in kernels.iter().filter(|k| k.entry as usize == entry) {
            start.union(&at_entry(k));
        }
        let entry_live = live_in.first().copied().unwrap_or_default();
        Live {
            region,
            info,
            live_out,
            start,
            entry_live,
        }
    }

    /// Which registers cannot be one (`clash[a]` holds `b`): those the frame starts
    /// with, with one another and with those read later; a register written, with those
    /// holding a value read later (as `renaming` says for a `Take`'s two and the
    /// registers a callee may overwrite); and those one instruction writes by name, with
    /// one another.
    pub fn clashes(&self, code: &[Ins], renaming: Renaming) -> Vec<Set> {
        let some = renaming == Renaming::Some;
        let mut clash = vec![Set::default(); MAX_REGS];
        for a in self.start.iter() {
            for b in self.start.iter().chain(self.entry_live.iter()) {
                interfere(&mut clash, a, b);
            }
        }
        for (x, i) in self.region.iter().enumerate() {
            let u = &self.info[x];
            let moved = match code[*i] {
                Ins::Take { dst, src } if some => Some((dst as usize, src as usize)),
                _ => None,
            };
            let is_move = |a: usize, b: usize| {
                moved.is_some_and(|(t, s)| (a, b) == (t, s) || (a, b) == (s, t))
            };
            let out: Vec<usize> = self.live_out[x].iter().collect();
            let written = if some { &u.write } else { &u.named_write };
            for d in written.iter() {
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
        clash
    }
}

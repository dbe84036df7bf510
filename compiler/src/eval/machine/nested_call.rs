//! A call whose argument is a call of another function with a kernel, the rest of the
//! arguments variables or constants (`msort (numbers 20000 42)`): the inner kernel's
//! value goes straight into the outer kernel's registers, which alone hold it.
//!
//! The ordinary way, the machine keeps each argument on its stack for as long as the
//! outer kernel runs: a kernel that gives up is run again by the machine, on the same
//! arguments. The kernel then shares the value, and takes a copy of each cell it would
//! have reused in place (a list built and then sorted is copied whole, and the original
//! freed at the end). Here nothing but the registers holds the inner value, so a give-up
//! cannot be run again on it; the whole call is, the ordinary way: its arguments are
//! read without being moved (they are all still there), the inner call computes the same
//! value again (evaluation has no effects), and the steps the attempt counted and the
//! kernels' tallies of give-ups are taken back first, so that the run goes on exactly
//! as if the attempt had never been made.

use super::{Code, CodeId, Machine, Program, MAX_KERNEL_FAILURES};
use crate::eval::kernel::Kernels;
use crate::eval::value::Value;
use crate::eval::Fault;

impl<'p> Machine<'p> {
    /// The call of global `g` on `args` made as above, its value pushed: `true`.
    /// `false`, with the machine as it was, where the call is not of that shape or a
    /// kernel gave it up.
    #[inline(always)]
    pub(super) fn nested_call(
        &mut self,
        prog: &'p Program,
        g: u32,
        args: &[CodeId],
    ) -> Result<bool, Fault> {
        let call = |id: &CodeId| matches!(prog.code[*id as usize], Code::CallGlobal { .. });
        if !args.iter().any(call) {
            return Ok(false);
        }
        match self.global_lambda(g, args.len()) {
            Some(lam) => self.nested_kernel_call(prog, lam, args),
            None => Ok(false),
        }
    }

    /// `nested_call` of lambda `lam`.
    #[inline(never)]
    fn nested_kernel_call(
        &mut self,
        prog: &'p Program,
        lam: u32,
        args: &[CodeId],
    ) -> Result<bool, Fault> {
        let Some(outer) = self.kernels.of(lam) else {
            return Ok(false);
        };
        let read = |id: &CodeId| prog.code[*id as usize].is_leaf();
        // The one argument that is a call, and the kernel of the function it calls.
        let mut nested = None;
        for (i, id) in args.iter().enumerate() {
            match &prog.code[*id as usize] {
                Code::CallGlobal {
                    global,
                    args: inner,
                    ..
                } if nested.is_none() && inner.iter().all(read) => {
                    nested = Some((i, *global, &inner[..]));
                }
                _ if read(id) => {}
                _ => return Ok(false),
            }
        }
        let Some((at, global, inner_args)) = nested else {
            return Ok(false);
        };
        self.settle_global(global);
        let Some(inner) = self
            .global_lambda(global, inner_args.len())
            .and_then(|l| self.kernels.of(l))
        else {
            return Ok(false);
        };
        if self.kernels.on_scalars(outer)
            || self.kernel_failures[outer as usize] >= MAX_KERNEL_FAILURES
        {
            return Ok(false);
        }
        let before = (self.budget, self.steps, self.kernel_give_ups);
        let tallies = (
            self.kernel_failures[inner as usize],
            self.kernel_failures[outer as usize],
        );
        // The steps the ordinary way counts: one into the call argument, one for each
        // argument after it (scheduled), one back to the call.
        self.tick()?;
        let unit = Value::Unit;
        let value = kernel_on!(
            self,
            inner,
            inner_args
                .iter()
                .map(|id| self.peek(prog, *id).unwrap_or(&unit))
        )?;
        let done = match value {
            Some(value) if !value.is_stuck() => {
                for _ in at..args.len() {
                    self.tick()?;
                }
                let mut regs = std::mem::take(&mut self.kernel_regs);
                let run = if Kernels::load(
                    &mut regs,
                    args.iter().map(|id| self.peek(prog, *id).unwrap_or(&unit)),
                ) {
                    regs[at] = value;
                    self.run_kernel(outer, &mut regs)
                } else {
                    Ok(None)
                };
                self.kernel_regs = regs;
                run?
            }
            _ => None,
        };
        let Some(done) = done else {
            (self.budget, self.steps, self.kernel_give_ups) = before;
            self.kernel_failures[inner as usize] = tallies.0;
            self.kernel_failures[outer as usize] = tallies.1;
            return Ok(false);
        };
        // The variables read for the last time leave their slots, as a move does.
        for id in args.iter().chain(inner_args) {
            if let Code::Move(s) = prog.code[*id as usize] {
                drop(self.take_local(s));
            }
        }
        self.vals.push(done);
        Ok(true)
    }
}

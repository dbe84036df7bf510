//! How the loops of `map`, `filter` and `foldl` apply their function to each element
//! ([`Each`]): what they look up about the function once for the whole loop (its quick
//! form, its kernel, whether `apply_quick` may compute it), and the call they make per
//! element with it (`apply_fast`).

use super::{quick_form, Body, KernelFn, Machine, Quick, MAX_KERNEL_FAILURES};
use crate::eval::kernel::Kernels;
use crate::eval::value::{lambda_call, NodeKind, Value};
use crate::eval::Fault;

/// What a loop knows of its function `f` (`Machine::each`).
pub(super) struct Each<'f> {
    /// Its quick form with its captured values, computed on the arguments where it has one.
    pub form: quick_form::Found<'f>,
    /// Its kernel, where it has one.
    kernel: Option<KernelFn<'f>>,
    /// Whether `apply_quick` may compute a call: not where `f` is no closure, nor once it
    /// found the closure's body to need the machine (`Body::Slow`). Then each element goes
    /// straight to the kernel: asking `apply_quick` again and getting the arguments back
    /// cost a named function folded over a list about a fifth of each element's time.
    quick: bool,
}

impl Each<'_> {
    /// Whether each call goes straight to the function's kernel: it has one, and no quick
    /// form nor `apply_quick` computes it.
    pub fn straight(&self) -> bool {
        self.may_go_straight() && !self.quick
    }

    /// Whether each call may go straight to the function's kernel, once `apply_quick`
    /// found it slow: it has a kernel and no quick form.
    pub fn may_go_straight(&self) -> bool {
        self.kernel.is_some() && self.form.is_none()
    }
}

impl Machine<'_> {
    /// What a loop calling `f` on `n` arguments per element looks up once.
    pub(super) fn each<'f>(&mut self, f: &'f Value, n: usize) -> Each<'f> {
        Each {
            form: self.form_of(f, n),
            kernel: self.kernel_fn(f, n),
            quick: self.may_be_quick(f),
        }
    }

    /// `apply_quick`, and where it does not compute the call, `f`'s kernel where it has
    /// one: `map`, `filter` and `foldl` run it on each element where the list lies. (A
    /// body `apply_quick` computes costs it less than a kernel's entry.)
    #[inline(always)]
    pub(super) fn apply_fast<const N: usize>(
        &mut self,
        f: &Value,
        each: &mut Each<'_>,
        args: [Value; N],
    ) -> Quick<N> {
        let args = if each.quick {
            match self.apply_quick(f, args) {
                Quick::Not(args) => {
                    each.quick = self.may_be_quick(f);
                    args
                }
                done => return done,
            }
        } else {
            args
        };
        if let Some(kernel) = each.kernel {
            match self.kernel_apply(kernel, args.each_ref()) {
                Ok(Some(r)) => return Quick::Done(Ok(r)),
                Ok(None) => {}
                Err(fault) => return Quick::Done(Err(fault)),
            }
        }
        Quick::Not(args)
    }

    /// The rest of a fold as one run of the fold kernel (`kernel_fold`) on the function
    /// `f`, the accumulator and the rest of the list (lent: a kernel that gives up leaves
    /// the machine to go on from them): the fold's value, or `None` where it does not run
    /// or gave the run back (its steps taken back). It runs where each call goes straight
    /// to `f`'s kernel (`each`), unless that kernel runs on scalars (a fold kernel holds
    /// values, where the machine's loop calls such a kernel on scalars, which costs less
    /// than the fold's own code saves). Counts the steps the machine's loop would: the
    /// kernel's entry is not one.
    pub(super) fn fold_kernel(
        &mut self,
        each: &Each<'_>,
        f: &Value,
        acc: &Value,
        xs: &Value,
    ) -> Result<Option<Value>, Fault> {
        let (Some(k), Some(called)) = (self.kernels.fold, each.kernel) else {
            return Ok(None);
        };
        if !each.straight() || self.kernels.on_scalars(called.k) {
            return Ok(None);
        }
        // The entry's step, given back before it is counted (a count given back after it
        // could fall on a check of the limits the machine's loop would not make).
        self.budget += 1;
        let run = kernel_on!(self, k, [f, acc, xs]);
        // A run given back restored the steps it found, the one given above included.
        if let Ok(None) = run {
            self.budget -= 1;
        }
        run
    }

    /// Whether `apply_quick` may compute a call of `f`: a closure whose body is not known
    /// to need the machine.
    fn may_be_quick(&mut self, f: &Value) -> bool {
        let Value::Node(node) = f else {
            return false;
        };
        let NodeKind::Closure(lam) = node.kind else {
            return false;
        };
        !matches!(self.body(lam), None | Some(Body::Slow))
    }

    /// The kernel `f` calls once given `n` more arguments, with the arguments and the
    /// captured values it holds (`KernelFn`): `f` is a closure of `n` parameters whose
    /// lambda has a kernel (a top-level function, a lambda written in place), or one
    /// applied to all its arguments but the last `n` (`update_item msg`).
    fn kernel_fn<'f>(&self, f: &'f Value, n: usize) -> Option<KernelFn<'f>> {
        let (lam, saved, captured) = lambda_call(f)?;
        let k = self.kernels.of_value(lam)?;
        let fits = self.prog.lambdas[lam as usize].arity as usize == saved.len() + n;
        fits.then_some(KernelFn { k, saved, captured })
    }

    /// The quick form of closure `f` on `n` arguments, with its captured values: for a
    /// loop to compute it on each element without `apply_quick`'s look-ups.
    fn form_of<'f>(&mut self, f: &'f Value, n: usize) -> quick_form::Found<'f> {
        let Value::Node(node) = f else {
            return None;
        };
        let NodeKind::Closure(lam) = node.kind else {
            return None;
        };
        match self.body(lam)? {
            Body::Form { arity, form } if *arity as usize == n => {
                Some((form.clone(), &node.fields))
            }
            _ => None,
        }
    }
}

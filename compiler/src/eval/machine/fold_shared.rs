//! `foldl` over a list that another value holds too (`count xs + sum xs`), read where it
//! lies: each element's call is computed from the function's quick form on the element
//! borrowed from its cell, with no copy of the cell's tail and no count taken off the cell
//! per step (as taking a shared cell apart costs).

use std::rc::Rc;

use super::quick_form::Form;
use super::Machine;
use crate::eval::value::{NodeKind, Value};
use crate::eval::Fault;

impl Machine<'_> {
    /// Folds the front of `xs` into `acc` while `xs`'s first cell is shared and `form`
    /// computes each call (the function's `form`, its captured values `caps`), one tick
    /// per element as `fold_step` counts them. Gives back the accumulator and the rest of
    /// the list, for `fold_step` to go on with (a list nothing else holds is left to it:
    /// it frees each cell as it goes).
    pub(super) fn fold_shared(
        &mut self,
        form: &Form,
        caps: &[Value],
        mut acc: Value,
        xs: Value,
    ) -> Result<(Value, Value), Fault> {
        let shared = matches!(&xs, Value::Node(cell) if Rc::strong_count(cell) > 1);
        if !shared {
            return Ok((acc, xs));
        }
        let cons = self.list.cons;
        let mut cur = &xs;
        while let Value::Node(cell) = cur {
            if !matches!(cell.kind, NodeKind::Data(c) if c == cons) {
                break;
            }
            let [head, tail] = &cell.fields[..] else {
                break;
            };
            let args = [acc, head.clone()];
            match form.apply(&args, caps, self.list) {
                Some(r) => {
                    args.into_iter().for_each(Value::release);
                    acc = r?;
                    self.tick()?;
                    cur = tail;
                }
                None => {
                    let [a, y] = args;
                    y.release();
                    acc = a;
                    break;
                }
            }
        }
        let rest = cur.clone();
        Ok((acc, rest))
    }
}

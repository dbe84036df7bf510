//! `map` and `filter` over a list that nothing else holds, done in the list's own cells:
//! each element is replaced by its image (or its cell unlinked when the condition is
//! false) in one pass, with no second list built and no second pass over the cells.

use std::rc::Rc;

use super::{quick_form, Machine, Quick};
use crate::eval::value::{into_pair_parts, NodeKind, Value};
use crate::eval::{runtime, Fault};

/// What [`Machine::map_in_place`] left to do.
pub(super) enum Rest {
    /// The whole list was done: the result is the list itself.
    Done,
    /// The rest of the list, taken out of the last cell done (or of the list itself,
    /// when none was), which holds `Unit` in its place until [`attach`] fills it.
    Left(Value),
}

impl Machine<'_> {
    /// Maps (or, when `filter`, filters) the front of `xs` in place, for as long as its
    /// cells are held by nothing else and `apply_fast` computes the function, with the
    /// same steps (one call per element, in order, one tick each) as the general loop
    /// of `map_step`, which takes over where this stops. Out of line: inlined into
    /// `Machine::call`, its loop with a kernel's call in it cost the map/filter/fold
    /// pipeline 3 to 6% of its time.
    #[inline(never)]
    pub(super) fn map_in_place(
        &mut self,
        filter: bool,
        f: &Value,
        xs: &mut Value,
    ) -> Result<Rest, Fault> {
        let cons = self.list.cons;
        let mut each = self.each(f, 1);
        let mut cur: &mut Value = xs;
        loop {
            // The cell is looked at through a borrow that ends with this step; `cur`
            // moves on to its tail only after (the borrow checker's rule for cursors).
            let keep = {
                let Value::Node(rc) = &mut *cur else { break };
                let Some(node) = Rc::get_mut(rc) else { break };
                if !matches!(node.kind, NodeKind::Data(c) if c == cons) {
                    break;
                }
                let [head, _] = &mut node.fields[..] else {
                    break;
                };
                // The element's image (or condition): the form computed on it where `f`
                // has one, `apply_fast` otherwise.
                let r = match quick_form::apply_found(
                    &each.form,
                    std::slice::from_ref(head),
                    self.list,
                ) {
                    Some(r) => r,
                    None => {
                        let arg = if filter {
                            head.clone()
                        } else {
                            std::mem::take(head)
                        };
                        match self.apply_fast(f, &mut each, [arg]) {
                            Quick::Done(r) => r,
                            Quick::Not([y]) => {
                                if !filter {
                                    *head = y;
                                }
                                break;
                            }
                        }
                    }
                };
                let r = r?;
                if filter {
                    match r {
                        Value::Bool(keep) => keep,
                        // An indeterminate condition is the general loop's.
                        _ => break,
                    }
                } else {
                    head.set(r);
                    true
                }
            };
            self.tick()?;
            if keep {
                cur = tail_of(cur)?;
            } else {
                // The cell goes, its element with it, freed at once (as `into_pair_parts`
                // frees it: not through `Node`'s general `drop`, which would look for
                // parts to take apart).
                let Value::Node(cell) = std::mem::take(cur) else {
                    return Err(runtime("broken list cell"));
                };
                let Some((_element, rest)) = into_pair_parts(cell) else {
                    return Err(runtime("broken list cell"));
                };
                *cur = rest;
            }
        }
        if matches!(cur, Value::Tag(t) if *t == self.list.empty) {
            return Ok(Rest::Done);
        }
        Ok(Rest::Left(std::mem::take(cur)))
    }
}

/// The tail of the list cell `v`, which nothing else holds.
fn tail_of(v: &mut Value) -> Result<&mut Value, Fault> {
    let Value::Node(rc) = v else {
        return Err(runtime("broken list cell"));
    };
    match Rc::get_mut(rc).map(|node| &mut node.fields[..]) {
        Some([_, tail]) => Ok(tail),
        _ => Err(runtime("broken list cell")),
    }
}

/// Puts `suffix` where [`Machine::map_in_place`] took the rest of the list out of
/// `prefix`: at its first `Unit` tail, or in place of `prefix` itself when that is `Unit`.
pub(super) fn attach(prefix: Value, suffix: Value) -> Result<Value, Fault> {
    let mut prefix = prefix;
    let mut cur: &mut Value = &mut prefix;
    while !matches!(cur, Value::Unit) {
        cur = tail_of(cur)?;
    }
    *cur = suffix;
    Ok(prefix)
}

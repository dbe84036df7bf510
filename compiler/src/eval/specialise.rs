//! Copies of constrained top-level functions for the instances a call gives them.
//!
//! A `fn` with class constraints takes its dictionaries as parameters, so its methods are
//! looked up at run time, its literals typed at run time, and a kernel never runs it. Where
//! a reference gives it evidence made of instances alone (`msort xs` at `i32`), lowering
//! refers instead to a copy of the function lowered for those instances, without
//! dictionaries: its methods become natives or calls of the instances' methods, its
//! literals constants, and its own recursive calls (evidence: its parameters, now those
//! instances) refer to the same copy. The copy is an ordinary global, which a kernel may
//! run.
//!
//! Polymorphic recursion could ask for ever larger evidence (`f (x, x)` inside `f`), and
//! every copy lowers a body again: evidence above `MAX_EVIDENCE_SIZE` nodes, and any copy
//! beyond `MAX_COPIES` in a program, keep the dictionary-passing call.

use std::collections::HashMap;
use std::rc::Rc;

use super::ir::{Global, Program};
use crate::check::evidence::Evidence;

/// Most nodes in one piece of evidence a copy is made for.
const MAX_EVIDENCE_SIZE: usize = 16;

/// Most copies in one program.
const MAX_COPIES: usize = 512;

/// The copies made so far, and those still to lower.
#[derive(Default)]
pub struct Specialisations {
    by_key: HashMap<(u32, Vec<Evidence>), u32>,
    /// Copies to lower: (the copy's global, the generic global, the evidence).
    todo: Vec<(u32, u32, Vec<Evidence>)>,
}

impl Specialisations {
    /// The copy of global `generic` for `evidence` (one piece per dictionary parameter),
    /// declared in `program` the first time it is asked for; `None` where the evidence
    /// needs a dictionary parameter, is unresolved or too large, or the program has
    /// `MAX_COPIES` already.
    pub fn copy(
        &mut self,
        program: &mut Program,
        generic: u32,
        evidence: Vec<Evidence>,
    ) -> Option<u32> {
        let fits = |e: &Evidence| e.is_instances_only() && size(e) <= MAX_EVIDENCE_SIZE;
        if !evidence.iter().all(fits) {
            return None;
        }
        let key = (generic, evidence);
        if let Some(g) = self.by_key.get(&key) {
            return Some(*g);
        }
        if self.by_key.len() >= MAX_COPIES {
            return None;
        }
        let name: Rc<str> = program.globals.get(generic as usize)?.name.clone();
        let id = program.globals.len() as u32;
        program.globals.push(Global {
            name,
            body: 0,
            dicts: 0,
        });
        self.todo.push((id, generic, key.1.clone()));
        self.by_key.insert(key, id);
        Some(id)
    }

    /// The next copy to lower: its global, the generic global, the evidence.
    pub fn take(&mut self) -> Option<(u32, u32, Vec<Evidence>)> {
        self.todo.pop()
    }
}

/// How many nodes `ev` has.
fn size(ev: &Evidence) -> usize {
    match ev {
        Evidence::Instance { args, .. } => 1 + args.iter().map(size).sum::<usize>(),
        Evidence::Super { of, .. } => 1 + size(of),
        Evidence::Param { .. } | Evidence::Unresolved => 1,
    }
}

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
//! The methods of an instance with a context (`show` of `Show (List a) <= Show a`) take
//! their context's dictionaries the same way; a method whose dictionary is built from
//! instances alone (`show [1, 2]`) is copied for them too.
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

/// What is copied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Generic {
    /// A top-level function (its global); the evidence is for its constraints.
    Fn(u32),
    /// Method `method` of instance `instance`; the evidence is for the instance's context,
    /// then for the instance itself (the dictionary parameters of its methods).
    Method { instance: u32, method: u32 },
}

/// The copies made so far, and those still to lower.
#[derive(Default)]
pub struct Specialisations {
    by_key: HashMap<(Generic, Vec<Evidence>), u32>,
    /// Copies to lower: (the copy's global, what it copies, the evidence).
    todo: Vec<(u32, Generic, Vec<Evidence>)>,
}

impl Specialisations {
    /// The copy of `generic` for `evidence` (one piece per dictionary parameter), declared
    /// in `program` as a global named `name` the first time it is asked for; `None` where
    /// the evidence needs a dictionary parameter, is unresolved or too large, or the
    /// program has `MAX_COPIES` already.
    pub fn copy(
        &mut self,
        program: &mut Program,
        generic: Generic,
        name: Rc<str>,
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

    /// The next copy to lower: its global, what it copies, the evidence.
    pub fn take(&mut self) -> Option<(u32, Generic, Vec<Evidence>)> {
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

//! Last uses of locals. A backward pass over each lambda's body finds the reads of a frame
//! slot after which nothing reads that slot again, and marks them `Code::Move`: the machine
//! then moves the value out of the slot instead of copying it. Nothing else holds the data
//! a moved value refers to, so a match can take a uniquely held node apart in place and
//! a node is freed as soon as its last reader is done with it, not when the frame ends.
//!
//! The pass follows the machine's order of evaluation (`machine.rs`): a node's operands
//! left to right, then what it does with them. Every read of a slot counts: variables,
//! captured values taken by a closure or a rec group, dictionaries at a slot, and the
//! locals a hole reports. A read that is not a `Code::Local` is never moved, and a node
//! reached from two places is never marked.

use super::ir::{Code, CodeId, DictCode, Loc, Pat, Program, Source};

/// A set of frame slots.
#[derive(Clone)]
pub(super) struct Slots(Vec<u64>);

impl Slots {
    pub(super) fn new(slots: u32) -> Slots {
        Slots(vec![0; (slots as usize).div_ceil(64).max(1)])
    }

    pub(super) fn has(&self, s: u32) -> bool {
        let (w, b) = (s as usize / 64, s % 64);
        self.0.get(w).is_some_and(|x| x & (1 << b) != 0)
    }

    fn insert(&mut self, s: u32) {
        let (w, b) = (s as usize / 64, s % 64);
        if w >= self.0.len() {
            self.0.resize(w + 1, 0);
        }
        self.0[w] |= 1 << b;
    }

    pub(super) fn remove(&mut self, s: u32) {
        let (w, b) = (s as usize / 64, s % 64);
        if let Some(x) = self.0.get_mut(w) {
            *x &= !(1 << b);
        }
    }

    /// The slots in the set, in order.
    pub(super) fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter().enumerate().flat_map(|(w, bits)| {
            (0..64u32)
                .filter(move |b| bits & (1 << b) != 0)
                .map(move |b| w as u32 * 64 + b)
        })
    }

    pub(super) fn union(&mut self, other: &Slots) {
        if other.0.len() > self.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }
}

/// Marks every last read of a local in the program's lambdas as a `Code::Move`.
pub fn mark_last_uses(prog: &mut Program) {
    let shared = shared_nodes(prog);
    let mut last = Vec::new();
    for lam in &prog.lambdas {
        let mut live = Slots::new(lam.slots);
        Pass {
            prog,
            shared: &shared,
            last: &mut last,
        }
        .walk(lam.body, &mut live);
    }
    for id in last {
        if let Code::Local(s) = prog.code[id as usize] {
            prog.code[id as usize] = Code::Move(s);
        }
    }
}

/// The slots node `id` reads before writing them: those live where it starts when
/// nothing after it reads the frame (it is in tail position).
pub(super) fn reads(prog: &Program, id: CodeId) -> Slots {
    let mut live = Slots::new(0);
    Pass {
        prog,
        shared: &[],
        last: &mut Vec::new(),
    }
    .walk(id, &mut live);
    live
}

struct Pass<'a> {
    prog: &'a Program,
    /// Nodes with more than one parent, whose reads are never marked (`reads` marks
    /// nothing: its list is empty).
    shared: &'a [bool],
    last: &'a mut Vec<CodeId>,
}

impl Pass<'_> {
    /// Turns `live`, the slots read after node `id` runs, into those read from its start.
    fn walk(&mut self, id: CodeId, live: &mut Slots) {
        let prog = self.prog;
        match &prog.code[id as usize] {
            Code::Const(_)
            | Code::Capture(_)
            | Code::Member(_)
            | Code::Global(_)
            | Code::Marked(_) => {}
            Code::Local(s) => {
                if !live.has(*s) && !self.shared.get(id as usize).copied().unwrap_or(true) {
                    self.last.push(id);
                }
                live.insert(*s);
            }
            Code::Move(s) => live.insert(*s),
            Code::GlobalWith(_, dicts) => dicts.iter().for_each(|d| dict_reads(d, live)),
            Code::Method { dict, .. } | Code::Dict(dict) | Code::Literal { dict, .. } => {
                dict_reads(dict, live)
            }
            Code::Lambda(l) => {
                let captures = &prog.lambdas[*l as usize].captures;
                captures.iter().for_each(|s| source_read(*s, live));
            }
            Code::App(f, args) => {
                self.walk_seq(args, live);
                self.walk(*f, live);
            }
            Code::CallGlobal { func, args, .. } => {
                self.walk_seq(args, live);
                self.walk(*func, live);
            }
            Code::CallMember(_, items)
            | Code::Construct { args: items, .. }
            | Code::Tuple(items)
            | Code::List(items)
            | Code::Record { values: items, .. } => self.walk_seq(items, live),
            Code::Prim1(_, a) | Code::Field { base: a, .. } | Code::TupleField { base: a, .. } => {
                self.walk(*a, live)
            }
            Code::Prim2(_, a, b) => {
                self.walk(*b, live);
                self.walk(*a, live);
            }
            Code::And(a, b) | Code::Or(a, b) => {
                let mut then = live.clone();
                self.walk(*b, &mut then);
                live.union(&then);
                self.walk(*a, live);
            }
            Code::If(c, t, e) => {
                let after = live.clone();
                for branch in [t, e] {
                    let mut l = after.clone();
                    self.walk(*branch, &mut l);
                    live.union(&l);
                }
                self.walk(*c, live);
            }
            Code::Let { slot, value, body } => {
                self.walk(*body, live);
                live.remove(*slot);
                self.walk(*value, live);
            }
            Code::LetRec {
                group,
                first_slot,
                body,
            } => {
                self.walk(*body, live);
                let g = &prog.groups[*group as usize];
                for j in 0..g.members.len() as u32 {
                    live.remove(first_slot + j);
                }
                g.captures.iter().for_each(|s| source_read(*s, live));
            }
            Code::Match { scrutinee, arms } => {
                self.walk_arms(arms, live);
                self.walk(*scrutinee, live);
            }
            Code::MatchTuple { items, arms, .. } => {
                self.walk_arms(arms, live);
                self.walk_seq(items, live);
            }
            Code::Update { base, values, .. } => {
                self.walk_seq(values, live);
                self.walk(*base, live);
            }
            Code::Hole(site) => {
                for (_, loc) in &prog.holes[*site as usize].env {
                    if let Loc::Local(s) = loc {
                        live.insert(*s);
                    }
                }
            }
        }
    }

    /// Operands evaluated left to right.
    fn walk_seq(&mut self, items: &[CodeId], live: &mut Slots) {
        for id in items.iter().rev() {
            self.walk(*id, live);
        }
    }

    /// The arms of a match: one of them runs after its pattern binds its variables, or
    /// none (an indeterminate match), and what follows the match reads on.
    fn walk_arms(&mut self, arms: &[(Pat, CodeId)], live: &mut Slots) {
        let after = live.clone();
        for (pat, body) in arms {
            let mut l = after.clone();
            self.walk(*body, &mut l);
            pat_binds(pat, &mut |s| l.remove(s));
            live.union(&l);
        }
    }
}

fn dict_reads(d: &DictCode, live: &mut Slots) {
    match d {
        DictCode::Static(_) | DictCode::At(Loc::Capture(_)) => {}
        DictCode::At(Loc::Local(s)) => live.insert(*s),
        DictCode::Build { args, .. } => args.iter().for_each(|a| dict_reads(a, live)),
        DictCode::Super { of, .. } => dict_reads(of, live),
    }
}

fn source_read(s: Source, live: &mut Slots) {
    if let Source::At(Loc::Local(slot)) = s {
        live.insert(slot);
    }
}

pub(super) fn pat_binds(p: &Pat, f: &mut impl FnMut(u32)) {
    match p {
        Pat::Bind(s) => f(*s),
        Pat::Ctor(_, subs) | Pat::Tuple(subs) => subs.iter().for_each(|q| pat_binds(q, f)),
        Pat::Fields(fields) => fields.iter().for_each(|(_, q)| pat_binds(q, f)),
        Pat::Wild | Pat::Int(_) | Pat::Float(_) | Pat::Str(_) | Pat::Bool(_) | Pat::Marked => {}
    }
}

/// Nodes with more than one parent (a lambda's body counts as a parent).
fn shared_nodes(prog: &Program) -> Vec<bool> {
    let mut parents = vec![0u8; prog.code.len()];
    let mut count = |id: CodeId| {
        let p = &mut parents[id as usize];
        *p = p.saturating_add(1);
    };
    for lam in &prog.lambdas {
        count(lam.body);
    }
    for code in &prog.code {
        code.for_each_child(&mut count);
    }
    parents.into_iter().map(|p| p > 1).collect()
}

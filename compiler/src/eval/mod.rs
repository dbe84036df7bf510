//! Evaluation with holes. The typed program is lowered once (`lower`) and run by an
//! abstract machine (`machine`) under resource limits. Holes and ill-typed nodes evaluate
//! to indeterminate values that carry the hole (Hazel): what depends on them stays
//! indeterminate, everything else computes normally.

pub mod demand;
pub mod dicts;
pub mod ir;
pub mod kernel;
mod kernel_chain;
mod kernel_clears;
mod kernel_coalesce;
mod kernel_compile;
mod kernel_fold;
mod kernel_frames;
mod kernel_live;
mod kernel_peephole;
mod kernel_register;
mod kernel_relink;
mod kernel_unzip;
pub mod liveness;
pub mod lower;
pub mod machine;
pub mod natives;
pub mod print;
mod specialise;
pub mod value;

#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::check::{FileRef, ItemRef};
use crate::db::{
    item_key, item_types_in, parse, prelude_env, prelude_item_types, program as program_info,
    Database, SourceFile,
};
use crate::span::Span;
use lower::{Checked, ItemInput, Lowerer};
use machine::{Machine, Settings};
use print::Names;

/// The default step budget: a runaway loop stops within a few seconds (the mutually
/// recursive `even`/`odd` loop spends it in about 2.5 s of CPU in a release build), while
/// real programs fit with room to spare (the benchmarks need under 8 million steps, a fold
/// over a million-element list about 26 million).
pub const DEFAULT_GAS: u64 = 60_000_000;

/// Most entries on the machine's continuation stack or frame stack (each is 16 bytes):
/// deep enough for recursion a million calls deep, bounded well below memory limits.
pub const DEFAULT_MAX_STACK: usize = 16 * 1024 * 1024;

/// Resource limits of one run.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Steps before the run stops; `None` runs without a budget.
    pub gas: Option<u64>,
    /// Set from outside (a timer) to stop the run; polled every few thousand steps.
    pub interrupt: Option<Arc<AtomicBool>>,
    pub max_stack: usize,
    /// Whether first-order functions run as kernels (`kernel`); off, the machine runs
    /// every call (the same values, errors and limits; only the steps counted differ).
    pub kernels: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            gas: Some(DEFAULT_GAS),
            interrupt: None,
            max_stack: DEFAULT_MAX_STACK,
            kernels: true,
        }
    }
}

/// Why a run stopped without a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The program failed: division by zero, an index out of range, `unwrap` of `None`...
    Runtime(String),
    /// The step budget ran out.
    OutOfGas { limit: u64 },
    /// The interrupt flag was set (a timeout).
    Interrupted,
    /// Recursion went deeper than the stack limit.
    StackOverflow,
}

/// A run error inside the machine: boxed, so that results stay a register or two wide.
pub(crate) type Fault = Box<RunError>;

/// A program failure (`RunError::Runtime`) as the machine carries it.
pub(crate) fn runtime(message: impl Into<String>) -> Fault {
    Box::new(RunError::Runtime(message.into()))
}

impl RunError {
    /// True for the resource limits (gas, interrupt, stack), false for program failures.
    pub fn is_limit(&self) -> bool {
        !matches!(self, RunError::Runtime(_))
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Runtime(m) => write!(f, "runtime error: {m}"),
            RunError::OutOfGas { limit } => write!(
                f,
                "the program ran out of gas after {limit} steps (raise it with `--gas N`, or use `--no-gas`)"
            ),
            RunError::Interrupted => write!(f, "the program was stopped (time limit reached)"),
            RunError::StackOverflow => write!(
                f,
                "the program recursed too deeply (more than {DEFAULT_MAX_STACK} pending calls or locals)"
            ),
        }
    }
}

/// A hole that evaluation reached, with the values in scope there (printed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReachedHole {
    pub name: Option<String>,
    /// Absolute span in the file (or in the prelude when `in_prelude`, in the module when
    /// `module`).
    pub span: Span,
    pub in_prelude: bool,
    /// The module file's path when the hole is in a module the program imports.
    pub module: Option<String>,
    /// Innermost first.
    pub env: Vec<(String, String)>,
}

/// What a run produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOutcome {
    /// The result printed as the reference prints values (`()` when the file has no
    /// result expression).
    pub value: String,
    /// Holes reached, in order (the first `machine::MAX_RECORDED_HOLES`).
    pub holes: Vec<ReachedHole>,
    /// How many times a hole was reached in all.
    pub holes_reached: u64,
    /// Machine steps taken (to a granularity of a few thousand).
    pub steps: u64,
    /// Times a kernel gave its call back to the machine (which then ran it: the value is
    /// the same either way).
    pub kernel_give_ups: u64,
}

/// Runs `file`: lowers its typed items with the prelude's and evaluates its result
/// expression. Errors in the file do not stop it: ill-typed nodes are indeterminate.
pub fn run_file(db: &Database, file: SourceFile, limits: &Limits) -> Result<RunOutcome, RunError> {
    let (program, list) = lower_file(db, file);
    let info = program_info(db, db.prelude(), file);
    let Some(main) = program.main else {
        return Ok(RunOutcome {
            value: "()".to_string(),
            holes: Vec::new(),
            holes_reached: 0,
            steps: 0,
            kernel_give_ups: 0,
        });
    };
    let settings = Settings {
        gas: limits.gas,
        interrupt: limits.interrupt.clone(),
        max_stack: limits.max_stack,
        kernels: limits.kernels,
    };
    let mut machine = Machine::new(&program, list, settings);
    let value = machine.run(main).map_err(|e| *e)?;
    let names = Names::of(&program);
    let holes = machine
        .reached
        .iter()
        .map(|r| {
            let site = &program.holes[r.site as usize];
            ReachedHole {
                name: site.name.clone(),
                span: site.span,
                in_prelude: site.file == FileRef::Prelude,
                module: match site.file {
                    FileRef::Module(k) => info.modules.get(k as usize).map(|(p, _)| p.clone()),
                    _ => None,
                },
                env: r
                    .env
                    .iter()
                    .map(|(n, v)| (n.to_string(), names.print(v)))
                    .collect(),
            }
        })
        .collect();
    Ok(RunOutcome {
        value: names.print(&value),
        holes,
        holes_reached: machine.reached_total,
        steps: machine.steps_taken(),
        kernel_give_ups: machine.kernel_give_ups,
    })
}

/// The evaluator's form of `file`'s program: the items of the file and its modules
/// lowered, and those of the prelude they use, checked and lowered as they are reached
/// (`demand`).
fn lower_file(db: &Database, file: SourceFile) -> (ir::Program, natives::ListIds) {
    let prelude = db.prelude();
    let info = program_info(db, prelude, file);
    let env = &info.env.root;
    let prelude_env = prelude_env(db, prelude);
    let prelude_items = &parse(db, prelude.file(db)).items;
    let prelude_names = crate::resolve::prelude_names(db, prelude);
    let check_prelude = |index: u32| prelude_item_types(db, prelude, index);
    let mut inputs: Vec<ItemInput<'_>> = prelude_items
        .iter()
        .zip(prelude_names)
        .enumerate()
        .map(|(i, (item, names))| ItemInput {
            item,
            types: Checked::OnDemand {
                check: &check_prelude,
                index: i as u32,
            },
            names,
            env: prelude_env,
            at: ItemRef::prelude(i as u32),
        })
        .collect();
    let files = info
        .modules
        .iter()
        .enumerate()
        .map(|(k, (_, f))| (*f, FileRef::Module(k as u32)))
        .chain([(file, FileRef::Root)]);
    for (source, at_file) in files {
        let Some(file_env) = info.env.of(at_file) else {
            continue;
        };
        for (i, item) in parse(db, source).items.iter().enumerate() {
            let Some(key) = item_key(db, source, i) else {
                continue;
            };
            inputs.push(ItemInput {
                item,
                types: Checked::Done(item_types_in(db, prelude, file, key)),
                names: crate::resolve::item_names(db, key),
                env: file_env,
                at: ItemRef::new(at_file, i as u32),
            });
        }
    }
    let lowerer = Lowerer::new(env);
    let list = lowerer.list;
    (lowerer.lower_program(&inputs), list)
}

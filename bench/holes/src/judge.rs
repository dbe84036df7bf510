//! Whether a fill passes: it is written over the hole (parenthesised when it has spaces,
//! as `rex fill --write` writes it), the epilogue is appended, and the program must
//! type-check without errors and print exactly the task's expected output when the
//! project's own evaluator runs it (`rex run`'s code path, with a step budget and a time
//! limit so that a fill that loops fails instead of hanging the run). The modules the
//! program imports are in the database beside it, as `rex run` reads them beside the file.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rex_compiler::db::{file_holes, Database, SourceFile};
use rex_compiler::eval::{run_file, Limits};
use rex_compiler::{LineIndex, Position};

use crate::task::{database, Task};

/// Steps one run of a filled program may take (the tasks need far fewer).
pub const GAS: u64 = 200_000_000;

/// Wall-clock limit of one run.
pub const RUN_TIMEOUT: Duration = Duration::from_secs(10);

/// The hole of a task's program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hole {
    /// Absolute byte range.
    pub span: (usize, usize),
    /// 0-based, as `rex fill LINE CHARACTER` takes it.
    pub position: Position,
    pub expected_type: String,
    /// No type variable, rigid or not, and no unknown part.
    pub concrete: bool,
}

/// The only hole of `program` (a program without imports); an error when it has none,
/// several, or errors.
pub fn hole_of(program: &str) -> Result<Hole, String> {
    let (db, file) = database("task.rex", program, &[]);
    hole_in(&db, file, program)
}

/// The only hole of a task's program, its modules loaded.
pub fn task_hole(task: &Task) -> Result<Hole, String> {
    let (db, file) = task.database(&task.program);
    hole_in(&db, file, &task.program)
}

/// The only hole of `file` (whose text is `program`).
pub fn hole_in(db: &Database, file: SourceFile, program: &str) -> Result<Hole, String> {
    if let Some(e) = db.diagnostics(file).iter().find(|d| d.is_error()) {
        return Err(format!("the program has an error: {}", e.message));
    }
    let holes = file_holes(db, db.prelude(), file);
    let [h] = holes.as_slice() else {
        return Err(format!("the program has {} holes, not one", holes.len()));
    };
    let span = (h.span.start as usize, h.span.end as usize);
    Ok(Hole {
        span,
        position: LineIndex::new(program).position(program, span.0),
        expected_type: h.expected_type.clone(),
        concrete: h.expected.is_ground() && !h.expected.contains_unknown(),
    })
}

/// What became of one fill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The filled program (epilogue included) has no error.
    pub well_typed: bool,
    pub passed: bool,
    /// What the program printed, or why it printed nothing.
    pub output: Result<String, String>,
}

/// Runs `program` (without imports) as `rex run` would and returns what it prints (the
/// value), with whether it type-checked.
pub fn run_program(program: &str) -> (bool, Result<String, String>) {
    let (db, file) = database("task.rex", program, &[]);
    run_in(&db, file)
}

/// Runs `text`, a task's program filled (or not), with the task's modules.
pub fn run_task_program(task: &Task, text: &str) -> (bool, Result<String, String>) {
    let (db, file) = task.database(text);
    run_in(&db, file)
}

/// Runs `file` as `rex run` would: what it prints, with whether it type-checked.
pub fn run_in(db: &Database, file: SourceFile) -> (bool, Result<String, String>) {
    let well_typed = !db.diagnostics(file).iter().any(|d| d.is_error());
    let interrupt = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicBool::new(false));
    let timer = {
        let (interrupt, done) = (interrupt.clone(), done.clone());
        std::thread::spawn(move || {
            let started = std::time::Instant::now();
            while !done.load(Ordering::Relaxed) {
                if started.elapsed() >= RUN_TIMEOUT {
                    interrupt.store(true, Ordering::Relaxed);
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        })
    };
    let limits = Limits {
        gas: Some(GAS),
        interrupt: Some(interrupt),
        ..Limits::default()
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| run_file(db, file, &limits)));
    done.store(true, Ordering::Relaxed);
    let _ = timer.join();
    let output = match outcome {
        Ok(Ok(o)) => Ok(o.value),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("the evaluator panicked".to_string()),
    };
    (well_typed, output)
}

/// Judges `fill` (as the fill loop returns it, unparenthesised) for `task`.
pub fn judge(task: &Task, hole: &Hole, fill: &str) -> Verdict {
    let program = task.filled(hole.span, &rex_llm::fill::written(fill));
    let (well_typed, output) = run_task_program(task, &program);
    let passed = well_typed && output.as_deref() == Ok(task.meta.expected.as_str());
    Verdict {
        well_typed,
        passed,
        output,
    }
}

/// What the program prints with its hole left open (the epilogue appended).
pub fn output_with_hole(task: &Task, hole: &Hole) -> Result<String, String> {
    let text = &task.program[hole.span.0..hole.span.1];
    run_task_program(task, &task.filled(hole.span, text)).1
}

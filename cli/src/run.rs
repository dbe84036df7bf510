//! `rex run FILE | -c CODE | --stdin`: check a program, evaluate it and print its value.
//!
//! Errors in the program are reported on stderr as `rex check` renders them; the program
//! still runs around them (ill-typed nodes and holes are indeterminate) and its partial
//! value is printed, but the exit status is 1 unless `--allow-errors` is given. Runtime
//! failures exit 4, exhausted limits (gas, time, recursion depth) exit 3.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use rex_compiler::db::Database;
use rex_compiler::eval::{self, Limits, ReachedHole, RunError, DEFAULT_GAS};
use rex_compiler::{LineIndex, Severity};

use crate::exit::Status;
use crate::render::{self, ColorMode, FileReport};

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The Rex file to run.
    #[arg(value_name = "FILE", required_unless_present_any = ["code", "stdin"])]
    pub file: Option<PathBuf>,

    /// Run this program text instead of a file.
    #[arg(short = 'c', long = "code", value_name = "CODE", conflicts_with_all = ["file", "stdin"])]
    pub code: Option<String>,

    /// Read the program from standard input.
    #[arg(long, conflicts_with = "file")]
    pub stdin: bool,

    /// After the value, list each hole evaluation reached, with the values in scope there.
    #[arg(long)]
    pub holes: bool,

    /// Stop after this many evaluation steps (exit 3).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_GAS)]
    pub gas: u64,

    /// Run without a step budget.
    #[arg(long, conflicts_with = "gas")]
    pub no_gas: bool,

    /// Stop after this many seconds of evaluation (exit 3).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,

    /// Exit 0 even when the program has errors (it runs around them either way).
    #[arg(long)]
    pub allow_errors: bool,

    /// A directory to search for imported modules after the program's own directory
    /// (repeatable; searched in order).
    #[arg(long = "include", value_name = "DIR")]
    pub include: Vec<PathBuf>,
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(secs.is_finite() && secs > 0.0) {
        return Err("the timeout must be a positive number of seconds".to_string());
    }
    Duration::try_from_secs_f64(secs).map_err(|e| e.to_string())
}

pub fn run(args: &RunArgs, color: ColorMode) -> Status {
    let Some((path, text)) = read_program(args) else {
        return Status::Failure;
    };
    crate::pages::huge_for_sources(text.len());
    let mut db = Database::new();
    let status = run_program(&mut db, path, text, args, color);
    // The process ends right after: freeing the database's caches (the prelude's syntax
    // and types above all) would only cost time, as in `rex check`.
    std::mem::forget(db);
    status
}

/// Checks the program `text` (at `path`) and its imports in `db`, reports its diagnostics,
/// evaluates it and prints its value.
fn run_program(
    db: &mut Database,
    path: String,
    text: String,
    args: &RunArgs,
    color: ColorMode,
) -> Status {
    let roots = crate::modules::roots(&args.include);
    let modules = crate::modules::load(&[(path.clone(), text.clone())], &roots);
    db.set_modules(modules, roots);
    let file = db.add_file(path.clone(), text.clone());
    let shown: Vec<_> = db
        .diagnostics(file)
        .iter()
        .filter(|d| d.severity != Severity::Info)
        .cloned()
        .collect();
    let mut reports = Vec::new();
    if !shown.is_empty() {
        reports.push(FileReport {
            path: path.clone(),
            text: text.clone(),
            diagnostics: shown,
            holes: Vec::new(),
        });
    }
    let mut seen = vec![rex_compiler::modules::normalize(&path)];
    reports.extend(rex_ide::report::module_reports(db, file, &mut seen));
    let has_errors = reports.iter().any(FileReport::has_errors);
    if !reports.is_empty() {
        if let Err(err) = render::terminal::write_report(&reports, color) {
            eprintln!("error: cannot write the diagnostics: {err}");
        }
    }

    let interrupt = args.timeout.map(start_timer);
    let limits = Limits {
        gas: (!args.no_gas).then_some(args.gas),
        interrupt,
        ..Limits::default()
    };
    crate::pages::huge_from_now();
    let outcome = eval::run_file(db, file, &limits);
    let errors_status = if has_errors && !args.allow_errors {
        Some(Status::Errors)
    } else {
        None
    };
    match outcome {
        Ok(outcome) => {
            let mut out = io::stdout().lock();
            let mut written = writeln!(out, "{}", outcome.value);
            if args.holes && written.is_ok() {
                let source = Source {
                    db,
                    path: &path,
                    text: &text,
                };
                written = write_holes(&mut out, &source, &outcome.holes, outcome.holes_reached);
            }
            if let Err(err) = written.and_then(|_| out.flush()) {
                if err.kind() != io::ErrorKind::BrokenPipe {
                    eprintln!("error: cannot write the result: {err}");
                    return Status::Failure;
                }
            }
            errors_status.unwrap_or(Status::Success)
        }
        Err(err) => {
            let message = match (&err, args.timeout) {
                (RunError::Interrupted, Some(t)) => format!(
                    "the program was stopped after {}s (`--timeout`)",
                    t.as_secs_f64()
                ),
                _ => err.to_string(),
            };
            eprintln!("error: {message}");
            match errors_status {
                Some(status) => status,
                None if err.is_limit() => Status::Limit,
                None => Status::RuntimeError,
            }
        }
    }
}

/// A flag that a timer thread raises after `after`.
fn start_timer(after: Duration) -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let raised = flag.clone();
    // The thread is detached: the process exits when the run ends, timer or not.
    let _ = std::thread::Builder::new()
        .name("rex-timeout".into())
        .spawn(move || {
            std::thread::sleep(after);
            raised.store(true, Ordering::Relaxed);
        });
    flag
}

fn read_program(args: &RunArgs) -> Option<(String, String)> {
    if let Some(code) = &args.code {
        return Some(("<code>".to_string(), code.clone()));
    }
    if args.stdin {
        let mut text = String::new();
        return match io::stdin().read_to_string(&mut text) {
            Ok(_) => Some(("<stdin>".to_string(), text)),
            Err(err) => {
                eprintln!("error: cannot read standard input: {err}");
                None
            }
        };
    }
    let path = args.file.as_ref()?;
    let shown = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => Some((shown, text)),
        Err(err) => {
            eprintln!(
                "error: cannot read `{shown}`: {}",
                crate::check::describe_io_error(&err)
            );
            None
        }
    }
}

/// `holes reached:` and, per hole, where it is and the values in scope.
fn write_holes(
    out: &mut impl Write,
    source: &Source<'_>,
    holes: &[ReachedHole],
    total: u64,
) -> io::Result<()> {
    if total == 0 {
        return writeln!(out, "no holes reached");
    }
    writeln!(out, "holes reached: {total}")?;
    for h in holes {
        let label = match &h.name {
            Some(n) => format!("?{n}"),
            None => "?".to_string(),
        };
        match source.location(h) {
            Some(at) => writeln!(out, "  {label} at {at}")?,
            None => writeln!(out, "  {label} in the prelude")?,
        }
        for (name, value) in &h.env {
            writeln!(out, "    {name} = {value}")?;
        }
    }
    let unlisted = total.saturating_sub(holes.len() as u64);
    if unlisted > 0 {
        writeln!(out, "  ... and {unlisted} more")?;
    }
    Ok(())
}

/// The program's file and the database holding its modules, to name where a hole is.
struct Source<'a> {
    db: &'a Database,
    path: &'a str,
    text: &'a str,
}

impl Source<'_> {
    /// `path:line:column` of a hole (1-based), `None` for one in the prelude.
    fn location(&self, h: &ReachedHole) -> Option<String> {
        if h.in_prelude {
            return None;
        }
        let (path, text) = match &h.module {
            Some(module) => {
                let file = self.db.module_file(module)?;
                (module.as_str(), file.text(self.db).as_str())
            }
            None => (self.path, self.text),
        };
        let pos = LineIndex::new(text).position(text, h.span.start as usize);
        Some(format!("{path}:{}:{}", pos.line + 1, pos.character + 1))
    }
}

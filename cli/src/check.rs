//! `rex check FILE...`: parse and check files and report every diagnostic.

use std::io;
use std::path::PathBuf;

use clap::Args;
use rex_compiler::db::Database;

use crate::exit::Status;

use crate::render::{self, ColorMode, FileReport};
pub(crate) use rex_ide::files::describe_io_error;

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The Rex source files to check.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// A directory to search for imported modules after the importing file's own
    /// directory (repeatable; searched in order).
    #[arg(long = "include", value_name = "DIR")]
    pub include: Vec<PathBuf>,

    /// Print one JSON object `{"diagnostics": [...], "holes": [...]}` on stdout instead of
    /// rendered text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &CheckArgs, color: ColorMode) -> Status {
    let Some(sources) = read_sources(&args.files) else {
        return Status::Failure;
    };

    crate::pages::huge_for_sources(sources.iter().map(|(_, text)| text.len()).sum());
    let mut db = Database::new();
    let status = check_sources(&mut db, sources, args, color);
    // The process ends right after: freeing the database's caches would only cost time (a
    // seventh of the check of a 10,000-line file).
    std::mem::forget(db);
    status
}

/// Checks `sources` (and the modules they import) in `db`, and writes the report.
fn check_sources(
    db: &mut Database,
    sources: Vec<(String, String)>,
    args: &CheckArgs,
    color: ColorMode,
) -> Status {
    let roots = crate::modules::roots(&args.include);
    let modules = crate::modules::load(&sources, &roots);
    db.set_modules(modules, roots);
    // A file given on the command line is reported as itself, not again as a module.
    let mut seen: Vec<String> = sources
        .iter()
        .map(|(path, _)| rex_compiler::modules::normalize(path))
        .collect();
    let mut reports: Vec<FileReport> = Vec::new();
    let mut imported: Vec<FileReport> = Vec::new();
    for (path, text) in sources {
        let file = db.add_file(path, text);
        imported.extend(rex_ide::report::module_reports(db, file, &mut seen));
        reports.push(FileReport::of(db, file));
    }
    reports.extend(imported);

    let written = if args.json {
        render::json::write_report(&mut io::stdout().lock(), &reports)
    } else {
        render::terminal::write_report(&reports, color)
    };
    if let Err(err) = written {
        // A closed pipe (`rex check --json f.rex | head`) is the reader's choice, not a failure.
        if err.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("error: cannot write the report: {err}");
            return Status::Failure;
        }
    }

    if reports.iter().any(FileReport::has_errors) {
        Status::Errors
    } else {
        Status::Success
    }
}

/// Reads every file, reporting each one that cannot be read. `None` when any failed: nothing
/// is checked then, so a typo in one path never passes for a clean run.
fn read_sources(paths: &[PathBuf]) -> Option<Vec<(String, String)>> {
    let mut sources = Vec::with_capacity(paths.len());
    let mut ok = true;
    for path in paths {
        let shown = path.display().to_string();
        match std::fs::read_to_string(path) {
            Ok(text) => sources.push((shown, text)),
            Err(err) => {
                eprintln!("error: cannot read `{shown}`: {}", describe_io_error(&err));
                ok = false;
            }
        }
    }
    ok.then_some(sources)
}

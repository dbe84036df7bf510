//! The check report of a file: its diagnostics and holes, and the errors of the modules it
//! imports. `rex check` renders it for people (the CLI's terminal renderer) or as JSON
//! (`json`: the `--json` object, also the result of the `check` tool of `rex mcp`).

mod imported;
pub mod json;
pub mod positions;

use rex_compiler::check::HoleInfo;
use rex_compiler::db::{file_holes, Database, SourceFile};
use rex_compiler::Diagnostic;

pub use imported::module_reports;

/// One checked file: what the renderers need to show its diagnostics and holes.
pub struct FileReport {
    /// The path as the user wrote it.
    pub path: String,
    pub text: String,
    pub diagnostics: Vec<Diagnostic>,
    /// Absolute spans, source order.
    pub holes: Vec<HoleInfo>,
}

impl FileReport {
    /// The report of `file` itself: every diagnostic and every hole.
    pub fn of(db: &Database, file: SourceFile) -> FileReport {
        FileReport {
            path: file.path(db).clone(),
            text: file.text(db).clone(),
            diagnostics: db.diagnostics(file).to_vec(),
            holes: file_holes(db, db.prelude(), file).clone(),
        }
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// The report of `file` followed by those of the modules it imports that have errors or
/// warnings: what `rex check FILE` reports.
pub fn check_file(db: &Database, file: SourceFile) -> Vec<FileReport> {
    let report = FileReport::of(db, file);
    let mut seen = vec![rex_compiler::modules::normalize(&report.path)];
    let mut reports = vec![report];
    reports.extend(module_reports(db, file, &mut seen));
    reports
}

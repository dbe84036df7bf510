//! Diagnostics of the modules a program imports, for `rex check` and `rex run`: a mistake
//! inside an imported file is reported (on that file) when the program that imports it is
//! checked. Holes in modules are left to checking the module itself.

use rex_compiler::db::{module_diagnostics, Database, SourceFile};
use rex_compiler::modules::normalize;
use rex_compiler::Severity;

use super::FileReport;

/// One report per imported module with errors or warnings, skipping the modules whose
/// normalised path is in `seen` (and adding the ones reported).
pub fn module_reports(db: &Database, root: SourceFile, seen: &mut Vec<String>) -> Vec<FileReport> {
    let mut out = Vec::new();
    for (path, file, diagnostics) in module_diagnostics(db, db.prelude(), root) {
        let shown: Vec<_> = diagnostics
            .iter()
            .filter(|d| d.severity != Severity::Info)
            .cloned()
            .collect();
        let key = normalize(path);
        if shown.is_empty() || seen.contains(&key) {
            continue;
        }
        seen.push(key);
        out.push(FileReport {
            path: path.clone(),
            text: file.text(db).clone(),
            diagnostics: shown,
            holes: Vec::new(),
        });
    }
    out
}

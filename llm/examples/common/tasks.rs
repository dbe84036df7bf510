//! The holes the model benchmarks of `llm/examples` fill: the programs of the hole-filling
//! benchmark's task set (`bench/holes/tasks`), read as they are.

use std::path::{Path, PathBuf};

use rex_compiler::db::Database;
use rex_compiler::Position;
use rex_ide::holes::holes;

/// The programs of `dir` (`*.rex`, the `.tests.rex` epilogues aside) in name order, each
/// with the position of its one hole.
pub fn task_holes(dir: &Path) -> Vec<(String, Position)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|f| {
        f.extension().is_some_and(|e| e == "rex") && !f.to_string_lossy().ends_with(".tests.rex")
    });
    files.sort();
    files
        .into_iter()
        .filter_map(|f| {
            let text = std::fs::read_to_string(&f).ok()?;
            let db = Database::new();
            let file = db.add_file("task.rex", text.clone());
            let hole = holes(&db, file).into_iter().next()?;
            let pos = Position {
                line: hole.line,
                character: hole.character,
            };
            Some((text, pos))
        })
        .collect()
}

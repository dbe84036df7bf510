//! An item checked in its cut-down environment (`check::item_env`: only the values it
//! spells, origins reduced to files) gets exactly the types, diagnostics, holes and
//! evidence it gets in the whole program environment. Compared on every item of the
//! conformance programs (when `../shared` is there), the examples and a quarter of the
//! checker's fuzz corpus.

mod common;

use common::{files_in, rex_files};

use std::path::PathBuf;

use rex_compiler::check::{check_item, FileRef, ItemRef};
use rex_compiler::db::{self, Database};

/// The items of `text` whose results differ between the two environments, by index.
fn differing_items(text: &str) -> Vec<usize> {
    let db = Database::new();
    let file = db.add_file("main.rex", text);
    let prelude = db.prelude();
    let env = db::program_env(&db, prelude, file);
    db::file_items(&db, file)
        .iter()
        .enumerate()
        .filter(|(index, key)| {
            let Some(item) = db::item_syntax(&db, **key) else {
                return false;
            };
            let whole = check_item(env, item, ItemRef::new(FileRef::Root, *index as u32));
            *db::item_types(&db, prelude, **key) != whole
        })
        .map(|(index, _)| index)
        .collect()
}

#[test]
fn the_cut_down_environment_checks_every_item_as_the_whole_one_does() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = rex_files(&root.join("examples"));
    // One in four of the fuzz corpus (sorted, so always the same ones): all of it takes
    // 15 s of CPU in a debug build.
    let corpus = files_in(&root.join("fuzz/corpus/check"));
    files.extend(corpus.into_iter().step_by(4));
    if let Some(dir) = common::conformance_dir() {
        files.extend(rex_files(&dir));
    }
    let mut checked = 0;
    let mut differing = Vec::new();
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        checked += 1;
        let items = differing_items(&text);
        if !items.is_empty() {
            differing.push((path.display().to_string(), items));
        }
    }
    assert!(checked > 100, "only {checked} programs found");
    assert!(
        differing.is_empty(),
        "{} of {checked}: {differing:?}",
        differing.len()
    );
}

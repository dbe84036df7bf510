//! The checker on mutated programs: every diagnostic and hole, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rex_compiler::db::{file_holes, Database};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let db = Database::new();
    let file = db.add_file("fuzz.rex", text);
    let _ = db.diagnostics(file);
    let _ = file_holes(&db, db.prelude(), file);
});

//! The evaluator on mutated programs with a small budget: a value, a hole, an error or a
//! limit, never a panic or a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rex_compiler::db::Database;
use rex_compiler::eval::{run_file, Limits};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let db = Database::new();
    let file = db.add_file("fuzz.rex", text);
    let limits = Limits {
        gas: Some(20_000),
        interrupt: None,
        max_stack: 2_000,
    };
    let _ = run_file(&db, file, &limits);
});

//! The evaluator on mutated programs with a small budget: a value, a hole, an error or a
//! limit, never a panic or a hang; and the same value or error with kernels as
//! without them, wherever neither run out of gas (a kernel counts fewer steps).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rex_compiler::db::Database;
use rex_compiler::eval::{run_file, Limits, RunError};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let db = Database::new();
    let file = db.add_file("fuzz.rex", text);
    let limits = Limits {
        gas: Some(20_000),
        interrupt: None,
        max_stack: 2_000,
        kernels: true,
    };
    let with = run_file(&db, file, &limits).map(|o| o.value);
    let machine = Limits {
        kernels: false,
        ..limits
    };
    let without = run_file(&db, file, &machine).map(|o| o.value);
    let gas = |r: &Result<String, RunError>| matches!(r, Err(RunError::OutOfGas { .. }));
    if !gas(&with) && !gas(&without) {
        assert_eq!(with, without, "kernels changed the outcome");
    }
});

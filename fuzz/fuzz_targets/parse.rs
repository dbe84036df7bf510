//! The parser on any bytes: a syntax tree and diagnostics, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = rex_compiler::syntax::parser::parse_text(&text);
});

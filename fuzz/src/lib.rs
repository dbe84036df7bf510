//! What the fuzz targets share: reading a fuzzer's bytes as a program and a position, and
//! the invariants every target checks beyond "no panic". The same functions replay the
//! saved crash inputs in `ide/tests/fuzz_regressions.rs`.

use rex_compiler::db::{Database, SourceFile};
use rex_compiler::{LineIndex, Position};

/// A program and a position in it: the first two bytes choose the position (as a share of
/// the text), the rest is the text (invalid UTF-8 replaced).
pub fn program_and_position(data: &[u8]) -> (String, Position) {
    let (head, body) = data.split_at(data.len().min(2));
    let text = String::from_utf8_lossy(body).into_owned();
    let pick = head.iter().fold(0usize, |acc, b| acc * 256 + *b as usize);
    let mut offset = if text.is_empty() {
        0
    } else {
        pick % (text.len() + 1)
    };
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let pos = LineIndex::new(&text).position(&text, offset);
    (text, pos)
}

/// Error diagnostics of a file.
pub fn error_count(db: &Database, file: SourceFile) -> usize {
    db.diagnostics(file).iter().filter(|d| d.is_error()).count()
}

/// Error diagnostics of `text` checked on its own.
pub fn errors_of(text: &str) -> usize {
    let db = Database::new();
    let file = db.add_file("fuzz.rex", text.to_string());
    error_count(&db, file)
}

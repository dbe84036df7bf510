//! Replays the saved fuzz inputs (`fuzz/regressions/<target>/`) through the checks of
//! their target: every position command answers without an internal error, leaves the
//! document as it is, and every hole-fill candidate type-checks when written in.

use std::path::Path;

use rex_compiler::db::Database;
use rex_compiler::LineIndex;
use rex_ide::commands::{execute, CommandError, COMMANDS};
use serde_json::json;

const URI: &str = "file:///fuzz.rex";

fn errors_of(text: &str) -> usize {
    let db = Database::new();
    let file = db.add_file("fuzz.rex", text.to_string());
    db.diagnostics(file).iter().filter(|d| d.is_error()).count()
}

/// The program and offset of an `ide`-target input (as `fuzz/src/lib.rs` reads it).
fn decode(data: &[u8]) -> (String, usize) {
    let (head, body) = data.split_at(data.len().min(2));
    let text = String::from_utf8_lossy(body).into_owned();
    let pick = head.iter().fold(0usize, |acc, b| acc * 256 + *b as usize);
    let mut offset = pick % (text.len() + 1);
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    (text, offset)
}

#[test]
fn saved_ide_inputs_answer_and_their_fills_check() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions/ide");
    let mut replayed = 0;
    for entry in std::fs::read_dir(&dir)
        .expect("fuzz/regressions/ide")
        .flatten()
    {
        let data = std::fs::read(entry.path()).expect("read input");
        let (text, offset) = decode(&data);
        let pos = LineIndex::new(&text).position(&text, offset);
        let mut db = Database::new();
        let file = db.add_file("fuzz.rex", text.clone());
        for command in COMMANDS.iter().filter(|c| !c.contains("Apply")) {
            let args = json!({"uri": URI, "line": pos.line, "character": pos.character});
            let out = execute(&mut db, file, command, &args);
            assert!(
                !matches!(out, Err(CommandError::Internal(_))),
                "{}: {command}: {out:?}",
                entry.path().display()
            );
        }
        assert_eq!(file.text(&db), &text);
        let ctx = rex_ide::context::Context::new(&db, file, pos);
        let baseline = errors_of(&text);
        for f in rex_ide::fill::fills_at(&ctx) {
            let (s, e) = (f.edit.span.start as usize, f.edit.span.end as usize);
            let filled = format!("{}{}{}", &text[..s], f.edit.text, &text[e..]);
            assert!(
                errors_of(&filled) <= baseline,
                "{}",
                f.candidate.replacement
            );
        }
        replayed += 1;
    }
    assert!(replayed >= 3, "the known crashes are saved");
}

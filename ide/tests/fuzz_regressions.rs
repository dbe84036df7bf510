//! Replays the saved fuzz inputs (`fuzz/regressions/<target>/`) through the checks of
//! their target: every position command answers without an internal error, leaves the
//! document as it is, and every hole-fill candidate type-checks when written in.

use std::path::Path;

// The fuzz targets' own reading of an input, so a saved input replays exactly.
#[path = "../../fuzz/src/lib.rs"]
mod fuzz_input;

use fuzz_input::{errors_of, program_and_position};

use rex_compiler::db::Database;
use rex_ide::commands::{execute, CommandError, COMMANDS};
use serde_json::json;

const URI: &str = "file:///fuzz.rex";

#[test]
fn saved_ide_inputs_answer_and_their_fills_check() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions/ide");
    let mut replayed = 0;
    for entry in std::fs::read_dir(&dir)
        .expect("fuzz/regressions/ide")
        .flatten()
    {
        let data = std::fs::read(entry.path()).expect("read input");
        let (text, pos) = program_and_position(&data);
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
        let offset = rex_compiler::LineIndex::new(&text).offset(&text, pos);
        let ctx = rex_ide::context::Context::new(&db, file, offset);
        let baseline = errors_of(&text);
        for f in rex_ide::fill::fills_at(&ctx) {
            let (s, e) = (f.edit.span.start as usize, f.edit.span.end as usize);
            let filled = format!("{}{}{}", &text[..s], f.edit.text, &text[e..]);
            assert!(
                errors_of(&filled) <= baseline,
                "{}: the fill `{}` at {}:{} adds errors ({baseline} before):\n{filled:?}",
                entry.path().display(),
                f.candidate.replacement,
                pos.line,
                pos.character
            );
        }
        replayed += 1;
    }
    assert!(replayed >= 3, "the known crashes are saved");
}

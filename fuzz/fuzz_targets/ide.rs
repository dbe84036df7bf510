//! Every position assist at a position of a mutated program. Beyond "no panic": no command
//! ends in an internal error, commands never change the document, and every hole-fill
//! candidate of the semantic loop type-checks when written in.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rex_compiler::db::Database;
use rex_fuzz::{errors_of, program_and_position};
use rex_ide::commands::{execute, CommandError, COMMANDS};
use serde_json::json;

const URI: &str = "file:///fuzz.rex";

fuzz_target!(|data: &[u8]| {
    let (text, pos) = program_and_position(data);
    let mut db = Database::new();
    let file = db.add_file("fuzz.rex", text.clone());
    for command in COMMANDS {
        if command.contains("Apply") {
            continue; // the repair target's part
        }
        let args = json!({"uri": URI, "line": pos.line, "character": pos.character});
        let out = execute(&mut db, file, command, &args);
        assert!(
            !matches!(out, Err(CommandError::Internal(_))),
            "{command}: {out:?}"
        );
    }
    assert_eq!(
        file.text(&db),
        &text,
        "commands leave the document as it is"
    );
    let offset = rex_compiler::LineIndex::new(&text).offset(&text, pos);
    let _ = rex_ide::hover::hover(&db, file, offset);
    let _ = rex_ide::completion::completion(&db, file, offset);
    let step = rex_ide::semantic_loop::semantic_loop_step(&db, file, offset, URI);
    let ctx = rex_ide::context::Context::new(&db, file, offset);
    let fills = rex_ide::fill::fills_at(&ctx);
    if fills.is_empty() {
        return;
    }
    let baseline = errors_of(&text);
    for f in fills {
        let s = f.edit.span;
        let filled = format!(
            "{}{}{}",
            &text[..s.start as usize],
            f.edit.text,
            &text[s.end as usize..]
        );
        assert!(
            errors_of(&filled) <= baseline,
            "the fill `{}` adds errors",
            f.candidate.replacement
        );
    }
    let _ = step;
});

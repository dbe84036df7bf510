//! No position of any text, however broken, makes an assist panic: every command is run
//! over positions of damaged copies of the example programs.

mod common;

use common::*;
use rex_compiler::db::Database;
use rex_compiler::LineIndex;
use rex_ide::commands::{execute, COMMANDS};
use serde_json::json;

/// The pH program cut short at a few places, with a token dropped, and with stray text.
fn damaged() -> Vec<String> {
    let clean = PH_PROGRAM.replace(CURSOR, "");
    let mut out = vec![clean.clone()];
    for cut in [40, 120, 260, 330, clean.len() - 12] {
        out.push(clean[..cut.min(clean.len())].to_string());
    }
    out.push(clean.replacen(" in\n", "\n", 1));
    out.push(clean.replacen("->", "=>", 2));
    out.push(clean.replacen("match", "match match", 1));
    out.push(clean.replacen("(", "", 1));
    out.push(format!("{clean}\n) ] }} in in ? ?x λ \"unterminated"));
    out.push(String::new());
    out.push("?".to_string());
    out.push("\u{1F600}?\n  ?".to_string());
    out
}

#[test]
fn every_command_answers_at_every_position_of_damaged_text() {
    for text in damaged() {
        let mut db = Database::new();
        let file = db.add_file("damaged.rex", text.clone());
        let lines = LineIndex::new(&text);
        let mut offsets: Vec<usize> = text.char_indices().map(|(i, _)| i).step_by(3).collect();
        offsets.push(text.len());
        for (n, offset) in offsets.into_iter().enumerate() {
            let pos = lines.position(&text, offset);
            for command in COMMANDS {
                // The costlier commands on a sample of the positions.
                if command.contains("Apply") && n % 8 != 0 {
                    continue;
                }
                let args = json!({"uri": URI, "line": pos.line, "character": pos.character,
                                  "id": "x", "strategy": "aggressive", "dryRun": true});
                let out = execute(&mut db, file, command, &args);
                assert!(out.is_ok(), "{command} at {offset} of {text:?}: {out:?}");
            }
            assert_eq!(
                file.text(&db),
                &text,
                "commands leave the document as it is"
            );
        }
    }
}

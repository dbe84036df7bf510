//! `<CURSOR>` fixtures: a source text with one cursor marker, loaded into a fresh database.

#![allow(dead_code)]

use rex_compiler::db::{Database, SourceFile};
use rex_compiler::{LineIndex, Position};

pub const CURSOR: &str = "<CURSOR>";
pub const URI: &str = "file:///fixture.rex";

pub struct Fixture {
    pub db: Database,
    pub file: SourceFile,
    /// The cursor as an editor position (for command arguments) and as a byte offset.
    pub pos: Position,
    pub offset: usize,
    pub text: String,
}

/// Loads `source` (which must hold exactly one `<CURSOR>`) with the marker removed.
pub fn fixture(source: &str) -> Fixture {
    let offset = source
        .find(CURSOR)
        .expect("the fixture has a <CURSOR> marker");
    assert_eq!(source.matches(CURSOR).count(), 1, "one <CURSOR> marker");
    let text = source.replacen(CURSOR, "", 1);
    let pos = LineIndex::new(&text).position(&text, offset);
    let db = Database::new();
    let file = db.add_file("fixture.rex", text.clone());
    Fixture {
        db,
        file,
        pos,
        offset,
        text,
    }
}

/// The pH program of LLMS.md, with the cursor on its hole.
pub const PH_PROGRAM: &str = r#"fn parse_ph : string -> Result f32 string = \raw ->
  if raw == "7.3" then Ok 7.3 else Err "bad reading"

fn classify_ph : f32 -> string = \ph ->
  if ph < 6.8 then "acidic"
  else if ph > 7.8 then "alkaline"
  else "stable"

fn qc_label_from_sensor : string -> Result string string = \raw ->
  match (parse_ph raw)
    when Ok ph -> Ok (classify_ph ph)
    when Err e -> Err e

let sensor_reading = "7.3" in
let qc_label : Result string string = <CURSOR>? in
qc_label
"#;

/// The `mk` program of LLMS.md, with the cursor on its hole.
pub const MK_PROGRAM: &str = r#"fn mk : i32 -> string = \n -> "value"
let x = 1 in
let y : string = <CURSOR>? in
y
"#;

//! `rex.holesExpectedTypes`: every hole of a document with its expected type.

use rex_compiler::db::{file_holes, Database, SourceFile};
use serde::Serialize;

use crate::limits::MAX_HOLES;
use crate::locate::Document;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HoleReport {
    /// `?` or `?name`, as written.
    pub name: String,
    pub line: u32,
    pub character: u32,
    pub expected_type: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Holes {
    pub holes: Vec<HoleReport>,
}

/// The document's holes in source order, capped.
pub fn holes(db: &Database, file: SourceFile) -> Vec<HoleReport> {
    let doc = Document::new(db, file);
    let mut all: Vec<_> = file_holes(db, db.prelude(), file).iter().collect();
    all.sort_by_key(|h| (h.span.start, h.span.end));
    all.into_iter()
        .take(MAX_HOLES)
        .map(|h| {
            let pos = doc.position(h.span.start as usize);
            HoleReport {
                name: match &h.name {
                    Some(n) => format!("?{n}"),
                    None => "?".to_string(),
                },
                line: pos.line,
                character: pos.character,
                expected_type: h.expected_type.clone(),
            }
        })
        .collect()
}

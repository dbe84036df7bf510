//! `<CURSOR>` fixtures for the editor-feature tests: a source with one cursor marker becomes
//! a database, a file and a byte offset; spans print with the text they cover.

#![allow(dead_code)]

use rex_compiler::db::{Database, SourceFile};
use rex_compiler::{LineIndex, Span};

pub const CURSOR: &str = "<CURSOR>";

pub struct Fixture {
    pub db: Database,
    pub file: SourceFile,
    pub text: String,
    pub offset: usize,
}

impl Fixture {
    /// Builds the fixture; the source must hold exactly one `<CURSOR>`.
    pub fn new(source: &str) -> Fixture {
        let offset = source.find(CURSOR).expect("fixture has a <CURSOR> marker");
        assert_eq!(source.matches(CURSOR).count(), 1, "one <CURSOR> marker");
        let text = source.replacen(CURSOR, "", 1);
        Fixture::at(&text, offset)
    }

    /// A fixture whose program can import the module files `modules` (path, text), found
    /// beside `test.rex`.
    pub fn with_modules(source: &str, modules: &[(&str, &str)]) -> Fixture {
        let mut f = Fixture::new(source);
        let files = modules
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        f.db.set_modules(files, Vec::new());
        f
    }

    /// A fixture without a cursor (offset 0).
    pub fn plain(text: &str) -> Fixture {
        Fixture::at(text, 0)
    }

    fn at(text: &str, offset: usize) -> Fixture {
        let db = Database::new();
        let file = db.add_file("test.rex", text.to_string());
        Fixture {
            db,
            file,
            text: text.to_string(),
            offset,
        }
    }

    /// `line:col-line:col "text"` (0-based lines and byte columns).
    pub fn span(&self, span: Span) -> String {
        let idx = LineIndex::new(&self.text);
        let (a, b) = (span.start as usize, span.end as usize);
        let covered = self.text.get(a..b).unwrap_or("<out of range>");
        format!(
            "{}:{}-{}:{} {:?}",
            idx.line_of(a),
            idx.byte_column(a),
            idx.line_of(b),
            idx.byte_column(b),
            covered
        )
    }
}

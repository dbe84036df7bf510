//! The salsa database: source files are inputs, every analysis is a tracked query.

use crate::diagnostic::Diagnostic;
use crate::syntax::parser::{parse_text, ParsedFile};

/// A source file: its path (for messages and module resolution) and text.
#[salsa::input(debug)]
pub struct SourceFile {
    #[returns(ref)]
    pub path: String,
    #[returns(ref)]
    pub text: String,
}

/// The syntax tree of a file and its syntax diagnostics.
#[salsa::tracked(returns(ref))]
pub fn parse(db: &dyn salsa::Database, file: SourceFile) -> ParsedFile {
    parse_text(file.text(db))
}

/// Every diagnostic of a file, in source order.
#[salsa::tracked(returns(ref))]
pub fn file_diagnostics(db: &dyn salsa::Database, file: SourceFile) -> Vec<Diagnostic> {
    parse(db, file).diagnostics.clone()
}

/// The database every front door (CLI, LSP, playground) holds one of.
#[salsa::db]
#[derive(Default, Clone)]
pub struct Database {
    storage: salsa::Storage<Self>,
}

#[salsa::db]
impl salsa::Database for Database {}

impl Database {
    pub fn new() -> Database {
        Database::default()
    }

    pub fn add_file(&self, path: impl Into<String>, text: impl Into<String>) -> SourceFile {
        SourceFile::new(self, path.into(), text.into())
    }
}

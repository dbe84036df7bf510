//! The server's documents: one salsa database for all of them, each open document a
//! `SourceFile` input whose text is replaced on every edit (salsa then re-checks only the
//! items the edit touched). Synchronous and protocol-light, so benchmarks and tests can
//! drive it without a client.

use std::collections::HashMap;

use rex_compiler::db::{Database, SourceFile};
use rex_compiler::{Diagnostic, LineIndex, Position, Span};
use tower_lsp_server::ls_types::{self as lsp, TextDocumentContentChangeEvent};

/// An open document.
pub struct Document {
    pub file: SourceFile,
    pub version: i32,
    pub index: LineIndex,
}

#[derive(Default)]
pub struct Workspace {
    pub db: Database,
    /// Open documents by URI.
    docs: HashMap<String, Document>,
    /// Files of documents opened before, by URI: a reopened document reuses its input.
    files: HashMap<String, SourceFile>,
}

impl Workspace {
    pub fn new() -> Workspace {
        Workspace::default()
    }

    pub fn open(&mut self, uri: &str, text: String, version: i32) {
        let index = LineIndex::new(&text);
        let file = match self.files.get(uri) {
            Some(file) => {
                set_text(&mut self.db, *file, text);
                *file
            }
            None => {
                let file = self.db.add_file(uri.to_string(), text);
                self.files.insert(uri.to_string(), file);
                file
            }
        };
        self.docs.insert(
            uri.to_string(),
            Document {
                file,
                version,
                index,
            },
        );
    }

    /// Applies content changes in order (each range is in the coordinates left by the
    /// change before). Returns false for a document that is not open.
    pub fn change(
        &mut self,
        uri: &str,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    ) -> bool {
        let Some(doc) = self.docs.get_mut(uri) else {
            return false;
        };
        let mut text = doc.file.text(&self.db).clone();
        let mut index = LineIndex::new(&text);
        for change in changes {
            match change.range {
                None => text = change.text,
                Some(range) => {
                    let a = index.offset(&text, position(range.start));
                    let b = index.offset(&text, position(range.end));
                    let (a, b) = (a.min(b), a.max(b));
                    text.replace_range(a..b, &change.text);
                }
            }
            index = LineIndex::new(&text);
        }
        doc.version = version;
        doc.index = index;
        let file = doc.file;
        set_text(&mut self.db, file, text);
        true
    }

    pub fn close(&mut self, uri: &str) {
        self.docs.remove(uri);
    }

    pub fn document(&self, uri: &str) -> Option<&Document> {
        self.docs.get(uri)
    }

    pub fn text(&self, doc: &Document) -> &str {
        doc.file.text(&self.db)
    }

    /// The byte offset of an LSP position in a document.
    pub fn offset(&self, doc: &Document, pos: lsp::Position) -> usize {
        doc.index.offset(self.text(doc), position(pos))
    }

    pub fn range(&self, doc: &Document, span: Span) -> lsp::Range {
        let text = self.text(doc);
        lsp::Range {
            start: lsp_position(doc.index.position(text, span.start as usize)),
            end: lsp_position(doc.index.position(text, span.end as usize)),
        }
    }

    pub fn lsp_position(&self, doc: &Document, offset: usize) -> lsp::Position {
        lsp_position(doc.index.position(self.text(doc), offset))
    }

    pub fn diagnostics(&self, doc: &Document) -> &[Diagnostic] {
        self.db.diagnostics(doc.file)
    }
}

fn set_text(db: &mut Database, file: SourceFile, text: String) {
    use salsa::Setter;
    file.set_text(db).to(text);
}

fn position(p: lsp::Position) -> Position {
    Position {
        line: p.line,
        character: p.character,
    }
}

fn lsp_position(p: Position) -> lsp::Position {
    lsp::Position {
        line: p.line,
        character: p.character,
    }
}

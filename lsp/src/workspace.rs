//! The server's documents: one salsa database for all of them, each open document a
//! `SourceFile` input whose text is replaced on every edit (salsa then re-checks only the
//! items the edit touched). Synchronous and protocol-light, so benchmarks and tests can
//! drive it without a client.
//!
//! The modules that open documents import are loaded into the same database
//! (`Database::set_modules`): an open document's own text when it is open, the file on
//! disk otherwise. They are loaded again only when that can change something: a document
//! opens or closes, a document's imports change, a document that is a loaded module is
//! edited, or files change on disk. Every operation returns the URIs whose diagnostics
//! may have changed, so that the importers of an edited module are republished too.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use rex_compiler::db::{file_imports, module_diagnostics, Database, SourceFile};
use rex_compiler::modules::candidates;
use rex_compiler::{Diagnostic, LineIndex, Position, Span};
use tower_lsp_server::ls_types::{self as lsp, TextDocumentContentChangeEvent};

use crate::modules::{document_path, read_module_file};

/// An open document.
pub struct Document {
    pub file: SourceFile,
    pub version: i32,
    pub index: LineIndex,
    /// The path its imports are resolved from (see `modules::document_path`).
    pub path: String,
    /// The module path of each of its imports, to notice when they change.
    imports: Vec<Vec<String>>,
    /// The loaded modules its imports reach, transitively, by path.
    reach: BTreeSet<String>,
}

/// Reads a module file that is not open in the editor.
pub type ModuleReader = Box<dyn Fn(&str) -> Option<String> + Send + Sync>;

pub struct Workspace {
    pub db: Database,
    /// Open documents by URI.
    docs: HashMap<String, Document>,
    /// Files of documents opened before, by URI: a reopened document reuses its input.
    files: HashMap<String, SourceFile>,
    include_roots: Vec<String>,
    /// The module files the database holds (path, text).
    modules: BTreeMap<String, String>,
    read_module: ModuleReader,
}

impl Default for Workspace {
    fn default() -> Workspace {
        Workspace::with_reader(Box::new(read_module_file))
    }
}

/// Where module files that are not open documents are read from when modules are loaded.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    /// The file system, afresh: files may have changed outside the editor.
    Disk,
    /// The texts loaded last time where there are any: only the editor's documents changed.
    Loaded,
}

impl Workspace {
    pub fn new() -> Workspace {
        Workspace::default()
    }

    /// A workspace that reads module files with `read_module` instead of from the disk.
    pub fn with_reader(read_module: ModuleReader) -> Workspace {
        Workspace {
            db: Database::new(),
            docs: HashMap::new(),
            files: HashMap::new(),
            include_roots: Vec::new(),
            modules: BTreeMap::new(),
            read_module,
        }
    }

    /// Sets the directories searched for imported modules after the importer's own
    /// (absolute, normalised paths). Returns the documents to republish.
    pub fn set_include_roots(&mut self, roots: Vec<String>) -> Vec<String> {
        if roots == self.include_roots {
            return Vec::new();
        }
        self.include_roots = roots;
        // Every import may now resolve elsewhere.
        self.modules.clear();
        self.reload_modules(Source::Disk, None)
    }

    /// Opens (or reopens) a document. Returns the documents to republish, this one first.
    pub fn open(&mut self, uri: &str, text: String, version: i32) -> Vec<String> {
        let index = LineIndex::new(&text);
        let file = match self.files.get(uri) {
            Some(file) => {
                set_text(&mut self.db, *file, text);
                *file
            }
            None => {
                let file = self.db.add_file(document_path(uri), text);
                self.files.insert(uri.to_string(), file);
                file
            }
        };
        let path = file.path(&self.db).clone();
        let imports = file_imports(&self.db, file).clone();
        self.docs.insert(
            uri.to_string(),
            Document {
                file,
                version,
                index,
                path,
                imports,
                reach: BTreeSet::new(),
            },
        );
        self.reload_modules(Source::Disk, Some(uri))
    }

    /// Applies content changes in order (each range is in the coordinates left by the
    /// change before). Returns the documents to republish, this one first; none for a
    /// document that is not open.
    pub fn change(
        &mut self,
        uri: &str,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    ) -> Vec<String> {
        let Some(doc) = self.docs.get_mut(uri) else {
            return Vec::new();
        };
        let mut text = doc.file.text(&self.db).clone();
        // The index of `text` as it stands (the document's own before the first change:
        // `open` and `change` keep it), built again only where a change has a range.
        let mut index = Some(std::mem::replace(&mut doc.index, LineIndex::new("")));
        for change in changes {
            match change.range {
                None => text = change.text,
                Some(range) => {
                    let index = index.get_or_insert_with(|| LineIndex::new(&text));
                    let a = index.offset(&text, position(range.start));
                    let b = index.offset(&text, position(range.end));
                    let (a, b) = (a.min(b), a.max(b));
                    text.replace_range(a..b, &change.text);
                }
            }
            index = None;
        }
        doc.version = version;
        doc.index = index.unwrap_or_else(|| LineIndex::new(&text));
        let file = doc.file;
        set_text(&mut self.db, file, text);
        let new_imports = file_imports(&self.db, file).clone();
        let Some(doc) = self.docs.get_mut(uri) else {
            return Vec::new();
        };
        let imports_changed = doc.imports != new_imports;
        doc.imports = new_imports;
        if imports_changed || self.modules.contains_key(&doc.path) {
            self.reload_modules(Source::Loaded, Some(uri))
        } else {
            vec![uri.to_string()]
        }
    }

    /// Closes a document: a module it was now comes from the disk. Returns the other
    /// documents to republish.
    pub fn close(&mut self, uri: &str) -> Vec<String> {
        if self.docs.remove(uri).is_none() {
            return Vec::new();
        }
        self.reload_modules(Source::Disk, None)
    }

    /// Loads the modules again from the disk, after files changed outside the editor.
    /// Returns the documents to republish.
    pub fn files_changed(&mut self) -> Vec<String> {
        self.reload_modules(Source::Disk, None)
    }

    /// The URIs of the open documents.
    pub fn uris(&self) -> impl Iterator<Item = &str> {
        self.docs.keys().map(String::as_str)
    }

    /// Loads every module the open documents reach and gives them to the database if they
    /// changed. Returns `edited` (when given) and every other open document that reaches a
    /// module that was added, removed or changed, before or after.
    fn reload_modules(&mut self, source: Source, edited: Option<&str>) -> Vec<String> {
        let mut sources: Vec<(String, String)> = self
            .docs
            .values()
            .map(|d| (d.path.clone(), d.file.text(&self.db).clone()))
            .collect();
        sources.sort();
        let open: HashMap<&str, &str> = sources
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let previous = &self.modules;
        let read_module = &self.read_module;
        let mut read = |path: &str| -> Option<String> {
            if let Some(text) = open.get(path) {
                return Some(text.to_string());
            }
            if source == Source::Loaded {
                if let Some(text) = previous.get(path) {
                    return Some(text.clone());
                }
            }
            read_module(path)
        };
        let loaded: BTreeMap<String, String> =
            rex_compiler::modules::load(&sources, &self.include_roots, &mut read)
                .into_iter()
                .collect();
        let changed: BTreeSet<String> = loaded
            .iter()
            .filter(|(path, text)| previous.get(*path) != Some(*text))
            .map(|(path, _)| path.clone())
            .chain(
                previous
                    .keys()
                    .filter(|path| !loaded.contains_key(*path))
                    .cloned(),
            )
            .collect();
        let roots_changed = self.db.prelude().include_roots(&self.db) != &self.include_roots;
        if !changed.is_empty() || roots_changed {
            self.db.set_modules(
                loaded.iter().map(|(p, t)| (p.clone(), t.clone())).collect(),
                self.include_roots.clone(),
            );
            self.modules = loaded;
        }

        let mut republish: Vec<String> = edited.map(str::to_string).into_iter().collect();
        let uris: Vec<String> = self.docs.keys().cloned().collect();
        for uri in uris {
            let Some(doc) = self.docs.get(&uri) else {
                continue;
            };
            let reach = self.reach(&doc.path, &doc.imports);
            let affected = doc.reach.union(&reach).any(|p| changed.contains(p));
            if affected && Some(uri.as_str()) != edited {
                republish.push(uri.clone());
            }
            if let Some(doc) = self.docs.get_mut(&uri) {
                doc.reach = reach;
            }
        }
        republish
    }

    /// The loaded modules that `imports` of the file at `importer` reach, transitively,
    /// each import resolved as the checker resolves it: to its first candidate loaded.
    fn reach(&self, importer: &str, imports: &[Vec<String>]) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut pending: Vec<(String, Vec<Vec<String>>)> =
            vec![(importer.to_string(), imports.to_vec())];
        while let Some((importer, imports)) = pending.pop() {
            for import in &imports {
                let found = candidates(&importer, import, &self.include_roots)
                    .into_iter()
                    .find(|c| self.modules.contains_key(c));
                let Some(module) = found else {
                    continue;
                };
                if !seen.insert(module.clone()) {
                    continue;
                }
                if let Some(file) = self.db.module_file(&module) {
                    pending.push((module, file_imports(&self.db, file).clone()));
                }
            }
        }
        seen
    }

    /// The module files the database holds (path, text), for a copy of the program.
    pub fn module_files(&self) -> Vec<(String, String)> {
        self.modules
            .iter()
            .map(|(p, t)| (p.clone(), t.clone()))
            .collect()
    }

    pub fn include_roots(&self) -> &[String] {
        &self.include_roots
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

    /// The file paths of the open documents.
    pub fn open_paths(&self) -> BTreeSet<String> {
        self.docs.values().map(|d| d.path.clone()).collect()
    }

    /// The errors and warnings of the module files the open documents import that are not
    /// open themselves (an open one is published as a document), by path: what the first
    /// importer that reaches it found, with the file it was checked in.
    pub fn module_reports(&self) -> BTreeMap<String, (SourceFile, Vec<Diagnostic>)> {
        let open: BTreeSet<&str> = self.docs.values().map(|d| d.path.as_str()).collect();
        let mut roots: Vec<&Document> = self.docs.values().collect();
        roots.sort_by(|a, b| a.path.cmp(&b.path));
        let mut out = BTreeMap::new();
        for doc in roots {
            for (path, file, diagnostics) in
                module_diagnostics(&self.db, self.db.prelude(), doc.file)
            {
                if open.contains(path.as_str()) || out.contains_key(path) {
                    continue;
                }
                let shown: Vec<Diagnostic> = diagnostics
                    .iter()
                    .filter(|d| d.severity != rex_compiler::Severity::Info)
                    .cloned()
                    .collect();
                out.insert(path.clone(), (*file, shown));
            }
        }
        out
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

#[cfg(test)]
#[path = "workspace_modules_tests.rs"]
mod modules_tests;

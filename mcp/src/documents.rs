//! The server's one warm salsa database. Every program a tool names is a `SourceFile`
//! input keyed by its path; each call reads the file again (or takes the inline text) and
//! sets the input's text only when it changed, so salsa re-checks only what changed since
//! the last call, whoever changed it. The modules the program imports are read again on
//! every call too, and given to the database when they changed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rex_compiler::db::{Database, SourceFile};
use rex_compiler::modules::normalize;
use rex_compiler::{LineIndex, Position};
use rex_ide::files::{describe_io_error, load_modules};

use crate::args::{At, Source};

/// The path of a program given as text alone; its relative imports resolve from the
/// server's working directory.
const INLINE_PATH: &str = "<inline>";

pub struct Documents {
    db: Database,
    files: HashMap<String, SourceFile>,
    include_roots: Vec<String>,
    /// The module files the database holds (path, text).
    modules: Vec<(String, String)>,
}

/// A program a tool works on, its text now in the database.
pub struct Opened {
    pub file: SourceFile,
    /// Its path in the database: absolute and normalised for a file, `<inline>` else.
    pub path: String,
    /// The URI the contract commands put in their edits.
    pub uri: String,
    /// Where `write` stores, `None` for text given without a path.
    pub target: Option<PathBuf>,
    pub text: String,
    /// Whether `text` was read from `target` (not given inline).
    pub from_disk: bool,
}

/// A copy of a program and its modules, for a database of its own (a run, a model fill),
/// so that long work never holds the shared one.
pub struct Program {
    pub path: String,
    pub text: String,
    pub modules: Vec<(String, String)>,
    pub include_roots: Vec<String>,
}

impl Program {
    /// A fresh database holding this program, and its file.
    pub fn database(&self) -> (Database, SourceFile) {
        let mut db = Database::new();
        db.set_modules(self.modules.clone(), self.include_roots.clone());
        let file = db.add_file(self.path.clone(), self.text.clone());
        (db, file)
    }
}

impl Documents {
    pub fn new(include_roots: Vec<String>) -> Documents {
        Documents {
            db: Database::new(),
            files: HashMap::new(),
            include_roots,
            modules: Vec::new(),
        }
    }

    pub fn db(&self) -> &Database {
        &self.db
    }

    pub fn db_mut(&mut self) -> &mut Database {
        &mut self.db
    }

    /// Brings the program `source` names into the database, as it is now.
    pub fn open(&mut self, source: &Source) -> Result<Opened, String> {
        let (path, target, text) = match (&source.path, &source.text) {
            (None, None) => return Err("give `path` (a Rex file) or `text` (a program)".into()),
            (None, Some(text)) => (INLINE_PATH.to_string(), None, text.clone()),
            (Some(given), text) => {
                // As `rex ide` names a file: symbolic links resolved where the file exists.
                let absolute = std::fs::canonicalize(given)
                    .or_else(|_| std::path::absolute(given))
                    .map_err(|e| format!("cannot use the path `{given}`: {e}"))?;
                let text = match text {
                    Some(text) => text.clone(),
                    None => read_program(given, &absolute)?,
                };
                let path = normalize(&absolute.to_string_lossy());
                (path, Some(absolute), text)
            }
        };
        let file = self.set_text(&path, &text);
        self.load_modules(&path, &text);
        let uri = match target {
            Some(_) => format!("file://{path}"),
            None => "untitled:inline.rex".to_string(),
        };
        Ok(Opened {
            file,
            path,
            uri,
            target,
            text,
            from_disk: source.path.is_some() && source.text.is_none(),
        })
    }

    /// A copy of an opened program with its modules.
    pub fn program(&self, opened: &Opened) -> Program {
        Program {
            path: opened.path.clone(),
            text: opened.text.clone(),
            modules: self.modules.clone(),
            include_roots: self.include_roots.clone(),
        }
    }

    fn set_text(&mut self, path: &str, text: &str) -> SourceFile {
        use salsa::Setter;
        match self.files.get(path) {
            Some(&file) => {
                if file.text(&self.db) != text {
                    file.set_text(&mut self.db).to(text.to_string());
                }
                file
            }
            None => {
                let file = self.db.add_file(path.to_string(), text.to_string());
                self.files.insert(path.to_string(), file);
                file
            }
        }
    }

    fn load_modules(&mut self, path: &str, text: &str) {
        let loaded = load_modules(&[(path.to_string(), text.to_string())], &self.include_roots);
        if loaded != self.modules {
            self.db
                .set_modules(loaded.clone(), self.include_roots.clone());
            self.modules = loaded;
        }
    }
}

/// The text of the program file `given` (at `absolute`), or why it cannot be read.
fn read_program(given: &str, absolute: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(absolute)
        .map_err(|e| format!("cannot read `{given}`: {}", describe_io_error(&e)))?;
    if !meta.is_file() {
        return Err(format!("cannot read `{given}`: it is not a regular file"));
    }
    std::fs::read_to_string(absolute)
        .map_err(|e| format!("cannot read `{given}`: {}", describe_io_error(&e)))
}

/// `at` as a position of `text`, or why it is not one: a line past the last, or a
/// character past the end of its line.
pub fn position(text: &str, at: At) -> Result<Position, String> {
    let index = LineIndex::new(text);
    let lines = index.line_count();
    let line = at.line as usize;
    if line >= lines {
        return Err(format!(
            "line {} is past the end of the program: it has {lines} line{} (numbered from 0)",
            at.line,
            if lines == 1 { "" } else { "s" }
        ));
    }
    let end = match index.line_start(line + 1) {
        next if line + 1 < lines => next - 1,
        _ => text.len(),
    };
    let width = index.position(text, end).character;
    if at.character > width {
        return Err(format!(
            "character {} is past the end of line {}: it has {width} characters \
             (UTF-16 code units, numbered from 0)",
            at.character, at.line
        ));
    }
    Ok(Position {
        line: at.line,
        character: at.character,
    })
}

/// Stores `text` as the program's file; returns the path written.
pub fn write(opened: &Opened, text: &str) -> Result<String, String> {
    let target = opened
        .target
        .as_ref()
        .ok_or("`write` needs `path`: this program was given as text only")?;
    std::fs::write(target, text).map_err(|e| {
        format!(
            "cannot write `{}`: {}",
            target.display(),
            describe_io_error(&e)
        )
    })?;
    Ok(target.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u32, character: u32) -> At {
        At { line, character }
    }

    #[test]
    fn positions_past_the_text_are_refused() {
        let text = "ab\nλ𝔸\n";
        assert!(position(text, at(0, 2)).is_ok());
        assert!(position(text, at(1, 3)).is_ok());
        assert!(position(text, at(2, 0)).is_ok());
        let err = position(text, at(0, 3)).expect_err("past line 0");
        assert!(
            err.contains("character 3 is past the end of line 0"),
            "{err}"
        );
        assert!(position(text, at(1, 4)).is_err());
        let err = position(text, at(3, 0)).expect_err("past the last line");
        assert!(err.contains("it has 3 lines"), "{err}");
    }

    #[test]
    fn a_changed_file_is_read_again() {
        let dir = std::env::temp_dir().join(format!("rex-mcp-docs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("a.rex");
        std::fs::write(&path, "1 + 1").expect("write");
        let source = Source {
            path: Some(path.display().to_string()),
            text: None,
        };
        let mut docs = Documents::new(Vec::new());
        let first = docs.open(&source).expect("opens");
        std::fs::write(&path, "1 + true").expect("write");
        let second = docs.open(&source).expect("opens again");
        assert_eq!(first.file, second.file);
        assert_eq!(second.file.text(docs.db()), "1 + true");
        assert!(docs
            .db()
            .diagnostics(second.file)
            .iter()
            .any(|d| d.is_error()));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_missing_file_is_named() {
        let source = Source {
            path: Some("/nonexistent/dir/missing.rex".into()),
            text: None,
        };
        let err = Documents::new(Vec::new())
            .open(&source)
            .err()
            .unwrap_or_default();
        assert_eq!(
            err,
            "cannot read `/nonexistent/dir/missing.rex`: No such file or directory"
        );
    }
}

//! The salsa database: source files are inputs, every analysis is a tracked query, cut
//! per top-level item so that an edit re-checks only what it touches.

use std::collections::BTreeMap;

use crate::check::declare_program as build_program;
use crate::check::imports::{ImportLink, LoadedModule, Program, ROOT_MODULE};
use crate::check::{check_item, Env, FileRef, ItemRef, ItemTypes, ProgramEnv};
use crate::diagnostic::Diagnostic;
use crate::syntax::ast::Item;
use crate::syntax::ast::ItemKind;
use crate::syntax::parser::{parse_text, ParsedFile};
use salsa::Setter;

/// The prelude's source, embedded at build time.
pub const PRELUDE_SOURCE: &str = include_str!("../../stdlib/prelude.rex");
pub const PRELUDE_PATH: &str = "<prelude>";

/// A source file: its path (for messages and module resolution) and text.
#[salsa::input(debug)]
pub struct SourceFile {
    #[returns(ref)]
    pub path: String,
    #[returns(ref)]
    pub text: String,
}

/// What every program sees besides its own file: the prelude, and the module files the
/// front door loaded for `import`s (by normalised path; see `modules::candidates`) with
/// the include roots it searched.
#[salsa::input(debug)]
pub struct Prelude {
    #[returns(copy)]
    pub file: SourceFile,
    #[returns(ref)]
    pub modules: BTreeMap<String, SourceFile>,
    #[returns(ref)]
    pub include_roots: Vec<String>,
}

/// One top-level item of a file, by position.
#[salsa::interned(debug)]
pub struct ItemKey<'db> {
    #[returns(copy)]
    pub file: SourceFile,
    #[returns(copy)]
    pub index: u32,
}

/// The syntax tree of a file and its syntax diagnostics.
#[salsa::tracked(returns(ref))]
pub fn parse(db: &dyn salsa::Database, file: SourceFile) -> ParsedFile {
    parse_text(file.text(db))
}

/// One item's syntax, position-free: its `offset` is zeroed, so the value compares equal
/// after an edit elsewhere in the file moves the item, and the queries that read it (above
/// all `item_types`) are reused. Everything inside an item is item-relative already; to
/// make a span absolute, use the item from `parse`.
#[salsa::tracked(returns(ref))]
pub fn item_syntax<'db>(db: &'db dyn salsa::Database, key: ItemKey<'db>) -> Option<Item> {
    let mut item = parse(db, key.file(db))
        .items
        .get(key.index(db) as usize)
        .cloned()?;
    item.offset = 0;
    Some(item)
}

/// The environments of the program rooted at `file`: its own and one per module its
/// imports load (transitively, as far as the database holds their files), built from
/// signatures alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramInfo {
    pub env: ProgramEnv,
    /// The loaded modules, by index (`FileRef::Module`): normalised path and file.
    pub modules: Vec<(String, SourceFile)>,
}

impl ProgramInfo {
    /// The module index of `file` in this program.
    pub fn module_of(&self, file: SourceFile) -> Option<u32> {
        self.modules
            .iter()
            .position(|(_, f)| *f == file)
            .map(|k| k as u32)
    }
}

#[salsa::tracked(returns(ref))]
pub fn program(db: &dyn salsa::Database, prelude: Prelude, file: SourceFile) -> ProgramInfo {
    let prelude_items = &parse(db, prelude.file(db)).items;
    let items = &parse(db, file).items;
    let (program, modules) = load_program(db, prelude, file);
    ProgramInfo {
        env: build_program(prelude_items, items, &program),
        modules,
    }
}

/// The environment `file`'s own items are checked in.
pub fn program_env(db: &dyn salsa::Database, prelude: Prelude, file: SourceFile) -> &Env {
    &program(db, prelude, file).env.root
}

/// The modules `file` imports, transitively, as far as the database holds their files.
fn load_program<'db>(
    db: &'db dyn salsa::Database,
    prelude: Prelude,
    file: SourceFile,
) -> (Program<'db>, Vec<(String, SourceFile)>) {
    let available = prelude.modules(db);
    let roots = prelude.include_roots(db);
    let root_path = crate::modules::normalize(file.path(db));
    let mut loaded: Vec<(String, SourceFile)> = Vec::new();
    let links_of = |importer: &str,
                    items: &[crate::syntax::ast::Item],
                    loaded: &mut Vec<(String, SourceFile)>| {
        let mut links = Vec::new();
        for (index, item) in items.iter().enumerate() {
            let ItemKind::Import(decl) = &item.kind else {
                continue;
            };
            let tried =
                crate::modules::candidates(importer, &crate::modules::segments(decl), roots);
            let found = tried
                .iter()
                .find_map(|path| available.get(path).map(|f| (path.clone(), *f)));
            let target = match found {
                // The program's own file, imported back (modules may be mutually recursive).
                Some((path, _)) if path == root_path => Ok(ROOT_MODULE),
                Some((path, f)) => Ok(match loaded.iter().position(|(p, _)| *p == path) {
                    Some(k) => k as u32,
                    None => {
                        loaded.push((path, f));
                        (loaded.len() - 1) as u32
                    }
                }),
                None => Err(tried),
            };
            links.push(ImportLink {
                item: index as u32,
                target,
            });
        }
        links
    };
    let imports = links_of(file.path(db), &parse(db, file).items, &mut loaded);
    let mut module_links = Vec::new();
    let mut next = 0;
    while next < loaded.len() {
        let (path, module) = loaded[next].clone();
        module_links.push(links_of(&path, &parse(db, module).items, &mut loaded));
        next += 1;
    }
    let program = Program {
        modules: loaded
            .iter()
            .zip(module_links)
            .map(|((path, f), imports)| LoadedModule {
                path: path.clone(),
                items: &parse(db, *f).items,
                imports,
            })
            .collect(),
        imports,
        root_path,
    };
    (program, loaded)
}

/// Types, marks and holes of one item of `file`'s own program.
pub fn item_types<'db>(
    db: &'db dyn salsa::Database,
    prelude: Prelude,
    key: ItemKey<'db>,
) -> &'db ItemTypes {
    item_types_in(db, prelude, key.file(db), key)
}

/// Types, marks and holes of one item, checked as part of the program rooted at `root`:
/// the item is `root`'s own, or one of a module `root` loads.
#[salsa::tracked(returns(ref))]
pub fn item_types_in<'db>(
    db: &'db dyn salsa::Database,
    prelude: Prelude,
    root: SourceFile,
    key: ItemKey<'db>,
) -> ItemTypes {
    let Some(item) = item_syntax(db, key) else {
        return ItemTypes::default();
    };
    let info = program(db, prelude, root);
    let file = if key.file(db) == root {
        FileRef::Root
    } else {
        match info.module_of(key.file(db)) {
            Some(k) => FileRef::Module(k),
            None => return ItemTypes::default(),
        }
    };
    let Some(env) = info.env.of(file) else {
        return ItemTypes::default();
    };
    check_item(env, item, ItemRef::new(file, key.index(db)))
}

/// Every diagnostic of the modules `root` loads, by module (absolute spans in the module
/// file, source order): syntax, declarations (incl. its imports) and items.
#[salsa::tracked(returns(ref))]
pub fn module_diagnostics(
    db: &dyn salsa::Database,
    prelude: Prelude,
    root: SourceFile,
) -> Vec<(String, SourceFile, Vec<Diagnostic>)> {
    let info = program(db, prelude, root);
    info.modules
        .iter()
        .zip(&info.env.modules)
        .map(|((path, file), env)| {
            let diagnostics = collect_diagnostics(db, prelude, root, *file, env);
            (path.clone(), *file, diagnostics)
        })
        .collect()
}

/// Syntax, declaration and item diagnostics of `file`, checked in `env` as part of the
/// program rooted at `root`.
fn collect_diagnostics(
    db: &dyn salsa::Database,
    prelude: Prelude,
    root: SourceFile,
    file: SourceFile,
    env: &Env,
) -> Vec<Diagnostic> {
    let parsed = parse(db, file);
    let mut out = parsed.diagnostics.clone();
    for (index, d) in &env.diagnostics {
        if let Some(item) = parsed.items.get(*index as usize) {
            let mut d = d.clone();
            d.span = item.abs(d.span);
            out.push(d);
        }
    }
    for (index, item) in parsed.items.iter().enumerate() {
        let key = ItemKey::new(db, file, index as u32);
        for d in &item_types_in(db, prelude, root, key).diagnostics {
            let mut d = d.clone();
            d.span = item.abs(d.span);
            out.push(d);
        }
    }
    out.sort_by_key(|d| (d.span.start, d.span.end));
    out
}

/// Every diagnostic of a file (syntax, declarations, items), absolute spans, source order.
#[salsa::tracked(returns(ref))]
pub fn file_diagnostics(
    db: &dyn salsa::Database,
    prelude: Prelude,
    file: SourceFile,
) -> Vec<Diagnostic> {
    collect_diagnostics(db, prelude, file, file, program_env(db, prelude, file))
}

/// The database every front door (CLI, LSP, playground) holds one of.
#[salsa::db]
#[derive(Clone)]
pub struct Database {
    storage: salsa::Storage<Self>,
    prelude: Option<Prelude>,
}

#[salsa::db]
impl salsa::Database for Database {}

impl Default for Database {
    fn default() -> Self {
        Database::new()
    }
}

impl Database {
    pub fn new() -> Database {
        Database::with_storage(salsa::Storage::default())
    }

    /// A database over `storage`, with the prelude loaded.
    fn with_storage(storage: salsa::Storage<Database>) -> Database {
        let mut db = Database {
            storage,
            prelude: None,
        };
        let file = SourceFile::new(&db, PRELUDE_PATH.to_string(), PRELUDE_SOURCE.to_string());
        db.prelude = Some(Prelude::new(&db, file, BTreeMap::new(), Vec::new()));
        db
    }

    /// Gives the database the module files a front door loaded (path as produced by
    /// `modules::candidates`, text) and the include roots it searched. Replaces earlier
    /// ones; a file that is also checked on its own may be both a module and a file.
    ///
    /// A module already held under the same path keeps its `SourceFile` (its text is
    /// updated only when it changed), so re-loading after an edit re-checks only what the
    /// edit touches.
    pub fn set_modules(&mut self, files: Vec<(String, String)>, include_roots: Vec<String>) {
        let prelude = self.prelude();
        let held = prelude.modules(self).clone();
        let mut modules = BTreeMap::new();
        for (path, text) in files {
            let file = match held.get(&path) {
                Some(file) => {
                    if *file.text(self) != text {
                        file.set_text(self).to(text);
                    }
                    *file
                }
                None => SourceFile::new(self, path.clone(), text),
            };
            modules.insert(path, file);
        }
        if modules != held {
            prelude.set_modules(self).to(modules);
        }
        if *prelude.include_roots(self) != include_roots {
            prelude.set_include_roots(self).to(include_roots);
        }
    }

    /// The loaded module file at `path`, if any.
    pub fn module_file(&self, path: &str) -> Option<SourceFile> {
        self.prelude().modules(self).get(path).copied()
    }

    /// A database that appends a line to `log` for every query it executes (not for the
    /// ones it reuses), to observe incrementality.
    pub fn with_execution_log(log: std::sync::Arc<std::sync::Mutex<Vec<String>>>) -> Database {
        let callback = move |event: salsa::Event| {
            if let salsa::EventKind::WillExecute { database_key } = event.kind {
                if let Ok(mut log) = log.lock() {
                    log.push(format!("{database_key:?}"));
                }
            }
        };
        Database::with_storage(salsa::Storage::new(Some(Box::new(callback))))
    }

    pub fn prelude(&self) -> Prelude {
        self.prelude
            .expect("the database is created with its prelude")
    }

    pub fn add_file(&self, path: impl Into<String>, text: impl Into<String>) -> SourceFile {
        SourceFile::new(self, path.into(), text.into())
    }

    /// Every diagnostic of `file`.
    pub fn diagnostics(&self, file: SourceFile) -> &[Diagnostic] {
        file_diagnostics(self, self.prelude(), file)
    }
}

/// Errors in the prelude itself (it is checked as its own program; natives are holes, so
/// hole information is left out). A correct build has none.
#[salsa::tracked(returns(ref))]
pub fn prelude_errors(db: &dyn salsa::Database, prelude: Prelude) -> Vec<Diagnostic> {
    let parsed = parse(db, prelude.file(db));
    let env = prelude_env(db, prelude);
    let mut out = parsed.diagnostics.clone();
    let mut push = |index: usize, d: &Diagnostic| {
        if d.is_error() {
            let mut d = d.clone();
            d.span = parsed.items[index].abs(d.span);
            out.push(d);
        }
    };
    for (index, d) in &env.prelude_diagnostics {
        push(*index as usize, d);
    }
    for (index, types) in prelude_types(db, prelude).iter().enumerate() {
        for d in &types.diagnostics {
            push(index, d);
        }
    }
    out.sort_by_key(|d| (d.span.start, d.span.end));
    out
}

/// Every hole of a file with its expected type and context (absolute spans).
#[salsa::tracked(returns(ref))]
pub fn file_holes(
    db: &dyn salsa::Database,
    prelude: Prelude,
    file: SourceFile,
) -> Vec<crate::check::HoleInfo> {
    let parsed = parse(db, file);
    let mut out = Vec::new();
    for (index, item) in parsed.items.iter().enumerate() {
        let key = ItemKey::new(db, file, index as u32);
        for h in &item_types(db, prelude, key).holes {
            let mut h = h.clone();
            h.span = item.abs(h.span);
            out.push(h);
        }
    }
    out
}

/// The inferred and the expected type of the smallest expression at `offset`, printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypesAt {
    pub span: crate::span::Span,
    pub inferred: String,
    pub expected: Option<String>,
}

/// Types at a byte offset of `file` (None outside every expression).
pub fn types_at(db: &Database, file: SourceFile, offset: usize) -> Option<TypesAt> {
    let parsed = parse(db, file);
    let (index, item) = parsed
        .items
        .iter()
        .enumerate()
        .find(|(_, it)| it.abs(it.span).touches(offset))?;
    let rel = offset.checked_sub(item.offset as usize)?;
    let smallest = item
        .arena
        .exprs
        .iter()
        .enumerate()
        .filter(|(_, e)| e.span.touches(rel))
        .min_by_key(|(_, e)| e.span.len())?
        .0;
    let key = ItemKey::new(db, file, index as u32);
    let types = item_types(db, db.prelude(), key);
    let inferred = types.expr_types.get(smallest)?.to_string();
    let expected = types
        .expected
        .get(smallest)
        .cloned()
        .flatten()
        .map(|t| t.to_string());
    Some(TypesAt {
        span: item.abs(item.arena.exprs[smallest].span),
        inferred,
        expected,
    })
}

/// The environment the prelude's own items are checked in.
#[salsa::tracked(returns(ref))]
pub fn prelude_env(db: &dyn salsa::Database, prelude: Prelude) -> Env {
    Env::build(&parse(db, prelude.file(db)).items, &[])
}

/// The prelude's items checked as their own program, once for every file that runs.
#[salsa::tracked(returns(ref))]
pub fn prelude_types(db: &dyn salsa::Database, prelude: Prelude) -> Vec<ItemTypes> {
    let parsed = parse(db, prelude.file(db));
    let env = prelude_env(db, prelude);
    parsed
        .items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let at = ItemRef::prelude(index as u32);
            check_item(env, item, at)
        })
        .collect()
}

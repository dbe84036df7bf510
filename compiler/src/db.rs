//! The salsa database: source files are inputs, every analysis is a tracked query, cut
//! per top-level item so that an edit re-checks only what it touches.

use std::collections::BTreeMap;

use crate::check::declare_program as build_program;
use crate::check::imports::{ImportLink, LoadedModule, Program, ROOT_MODULE};
use crate::check::item_env::{scope_without_values, ItemValues};
use crate::check::{check_item, check_item_in, Env, FileRef, ItemRef, ItemTypes, ProgramEnv};
use crate::check::{declare_prelude, PreludeDecls};
use crate::diagnostic::Diagnostic;
use crate::syntax::ast::Item;
use crate::syntax::ast::ItemKind;
use crate::syntax::chunks::{self, ChunkSplit};
use crate::syntax::layout::Origin;
use crate::syntax::parser::{self, ParsedFile, ParsedPiece};
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

/// The text of one piece of a file (see `syntax::parser`) and where it starts: the key its
/// parse is kept under. Equal text at an equal origin is one piece wherever it stands, so
/// an edit re-parses only the pieces whose text it changed.
#[salsa::interned(debug)]
pub struct PieceText<'db> {
    #[returns(ref)]
    pub text: String,
    #[returns(copy)]
    pub origin: Origin,
}

/// The text of one chunk of a file (see `syntax::chunks`) and the file's base column
/// (`None` for its first chunk): the key its split is kept under, so that an edit lexes
/// and lays out again only the chunk it changed.
#[salsa::interned(debug)]
pub struct ChunkText<'db> {
    #[returns(ref)]
    pub text: String,
    #[returns(copy)]
    pub base: Option<u32>,
}

/// One chunk split on its own (chunk-relative spans).
#[salsa::tracked(returns(ref))]
pub fn split_chunk<'db>(db: &'db dyn salsa::Database, chunk: ChunkText<'db>) -> ChunkSplit {
    chunks::split_chunk(chunk.text(db), chunk.base(db))
}

/// One piece parsed (position-free items, piece-relative diagnostics).
#[salsa::tracked(returns(ref))]
pub fn parse_piece<'db>(db: &'db dyn salsa::Database, piece: PieceText<'db>) -> ParsedPiece {
    parser::parse_piece(piece.text(db), piece.origin(db))
}

/// One top-level item of a file. Its identity is its kind and name (`fn area`,
/// `instance Show`, the result expression), with salsa's count of earlier items of the same
/// kind and name to tell those apart, so it keeps its identity, and the queries kept for it,
/// when items are inserted or removed above it. Where its syntax is and where it stands are
/// tracked fields: a query that reads only the syntax is not re-run when the item moves.
#[salsa::tracked(debug)]
pub struct ItemKey<'db> {
    #[returns(copy)]
    pub file: SourceFile,
    #[returns(ref)]
    pub label: String,
    /// The piece that holds the item's syntax, and the item's place among its items.
    #[tracked]
    #[returns(copy)]
    pub piece: PieceText<'db>,
    #[tracked]
    #[returns(copy)]
    pub nth: u32,
    /// The item's index among its file's items.
    #[tracked]
    #[returns(copy)]
    pub index: u32,
    /// Byte offset of the item's first token in the file.
    #[tracked]
    #[returns(copy)]
    pub offset: u32,
}

/// A file's items and its syntax diagnostics (absolute spans, source order).
#[derive(Clone, Debug, PartialEq, Eq, salsa::SalsaValue)]
pub struct FileSyntax<'db> {
    pub items: Vec<ItemKey<'db>>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Cuts a file into pieces (re-splitting only the chunks whose text changed), parses each
/// (reusing every piece whose text is unchanged) and names its items.
#[salsa::tracked(returns(ref))]
pub fn file_syntax(db: &dyn salsa::Database, file: SourceFile) -> FileSyntax<'_> {
    let text = file.text(db);
    let split = chunks::split(text, |chunk, base| {
        split_chunk(db, ChunkText::new(db, chunk, base))
    });
    let mut items = Vec::new();
    let mut results = Vec::new();
    let mut diagnostics = split.diagnostics;
    for piece in &split.pieces {
        let at = piece.span.start;
        let key = PieceText::new(db, piece.text(text), piece.origin);
        let parsed = parse_piece(db, key);
        diagnostics.extend(
            parsed
                .diagnostics
                .iter()
                .map(|d| d.clone().shifted(at as i64)),
        );
        for (nth, item) in parsed.items.iter().enumerate() {
            let offset = at + parsed.offsets[nth];
            results.push((
                parser::counts_as_result(item, parsed.clean[nth]),
                item.span.shift(offset as i64),
            ));
            let index = items.len() as u32;
            items.push(ItemKey::new(
                db,
                file,
                parsed.labels[nth].clone(),
                key,
                nth as u32,
                index,
                offset,
            ));
        }
    }
    diagnostics.extend(parser::second_results(results));
    diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
    FileSyntax { items, diagnostics }
}

/// A file's items in source order. Unchanged (and so not invalidating what reads it) while
/// no item is inserted, removed or renamed.
#[salsa::tracked(returns(ref))]
pub fn file_items(db: &dyn salsa::Database, file: SourceFile) -> Vec<ItemKey<'_>> {
    file_syntax(db, file).items.clone()
}

/// The item at `index` among `file`'s items.
pub fn item_key(db: &dyn salsa::Database, file: SourceFile, index: usize) -> Option<ItemKey<'_>> {
    file_items(db, file).get(index).copied()
}

/// The syntax tree of a file and its syntax diagnostics, assembled from its pieces.
///
/// The prelude is read whole instead: its stored syntax tree when the text is the
/// embedded prelude (`syntax::prelude_syntax`), else `parser::parse_text` (the same pieces
/// parsed the same way, so the same tree). Its text is never edited, so keeping its
/// pieces and items apart for re-use would only cost every run its share (interning about
/// 200 pieces, naming their items and cloning every item out of its piece).
#[salsa::tracked(returns(ref))]
pub fn parse(db: &dyn salsa::Database, file: SourceFile) -> ParsedFile {
    if file.path(db) == PRELUDE_PATH {
        let text = file.text(db);
        if text == PRELUDE_SOURCE {
            if let Some(items) = crate::syntax::prelude_syntax::stored_items() {
                return ParsedFile {
                    items,
                    diagnostics: Vec::new(),
                };
            }
        }
        return parser::parse_text(text);
    }
    let syntax = file_syntax(db, file);
    let items = syntax
        .items
        .iter()
        .filter_map(|key| {
            let mut item = item_syntax(db, *key)?.clone();
            item.offset = key.offset(db);
            Some(item)
        })
        .collect();
    ParsedFile {
        items,
        diagnostics: syntax.diagnostics.clone(),
    }
}

/// One item's syntax, position-free (`offset` 0): everything inside an item is
/// item-relative, so it is equal after an edit elsewhere in the file moves the item, and
/// the queries that read it (above all `item_types`) are reused. To make a span absolute,
/// add `key.offset(db)`.
pub fn item_syntax<'db>(db: &'db dyn salsa::Database, key: ItemKey<'db>) -> Option<&'db Item> {
    parse_piece(db, key.piece(db))
        .items
        .get(key.nth(db) as usize)
}

/// The module paths of every `import` of `file`, in source order (see `modules::imports`),
/// without assembling the whole syntax tree.
#[salsa::tracked(returns(ref))]
pub fn file_imports(db: &dyn salsa::Database, file: SourceFile) -> Vec<Vec<String>> {
    file_items(db, file)
        .iter()
        .filter_map(|key| crate::modules::import_path(item_syntax(db, *key)?))
        .collect()
}

/// What of an item the program's environment is built from: its syntax without the
/// bodies of functions and instance methods (see `Item::declaration`). Equal after an
/// edit inside a body, so the environment is not rebuilt.
#[salsa::tracked(returns(ref))]
pub fn item_declaration<'db>(db: &'db dyn salsa::Database, key: ItemKey<'db>) -> Item {
    item_syntax(db, key).map_or_else(Item::unreadable, Item::declaration)
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
    let items: Vec<Item> = file_items(db, file)
        .iter()
        .map(|key| item_declaration(db, *key).clone())
        .collect();
    let (program, modules) = load_program(db, prelude, file, &items);
    ProgramInfo {
        env: build_program(prelude_decls(db, prelude), &items, &program),
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
    items: &[Item],
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
    let imports = links_of(file.path(db), items, &mut loaded);
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
/// the item is `root`'s own, or one of a module `root` loads. It reads the program only
/// through `program_scopes` and `item_values`, so a `fn` inserted, removed or retyped
/// elsewhere re-checks only the items that spell its name.
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
    let Some(file) = item_file(db, prelude, root, key) else {
        return ItemTypes::default();
    };
    let Some(scope) = program_scopes(db, prelude, root).of(file) else {
        return ItemTypes::default();
    };
    let check = |all| {
        let values = item_values(db, prelude, root, key, all).as_ref()?;
        Some(check_item_in(
            scope,
            &values.values,
            item,
            crate::resolve::item_names(db, key),
            file,
            values.instance,
        ))
    };
    let Some(types) = check(false) else {
        return ItemTypes::default();
    };
    // A name no value has: its near misses are chosen among all values.
    let near_misses = types.diagnostics.iter().any(|d| {
        matches!(
            d.data,
            crate::diagnostic::DiagnosticData::UnknownName { .. }
        )
    });
    match near_misses {
        true => check(true).unwrap_or(types),
        false => types,
    }
}

/// Which file of `root`'s program holds `key`'s item, if the program holds it.
fn item_file(
    db: &dyn salsa::Database,
    prelude: Prelude,
    root: SourceFile,
    key: ItemKey<'_>,
) -> Option<FileRef> {
    *file_in_program(db, prelude, root, key.file(db))
}

/// Where `file` stands in `root`'s program: the root, one of its modules, or not part of
/// it. A query of its own, so that the items of a module depend on this answer and not on
/// the whole `program` (which changes whenever a declaration of the root file does).
#[salsa::tracked]
fn file_in_program(
    db: &dyn salsa::Database,
    prelude: Prelude,
    root: SourceFile,
    file: SourceFile,
) -> Option<FileRef> {
    if file == root {
        return Some(FileRef::Root);
    }
    let module = program(db, prelude, root).module_of(file)?;
    Some(FileRef::Module(module))
}

/// The values one item reads (see `check::item_env`), `all` of them or those it spells.
#[salsa::tracked(returns(ref))]
pub fn item_values<'db>(
    db: &'db dyn salsa::Database,
    prelude: Prelude,
    root: SourceFile,
    key: ItemKey<'db>,
    all: bool,
) -> Option<ItemValues> {
    let item = item_syntax(db, key)?;
    let file = item_file(db, prelude, root, key)?;
    let env = program(db, prelude, root).env.of(file)?;
    let at = ItemRef::new(file, key.index(db));
    Some(ItemValues::new(env, item, at, all))
}

/// The environments of `root`'s program without their values, origins reduced to files
/// (see `check::item_env`): equal after a `fn` is inserted, removed or retyped.
#[salsa::tracked(returns(ref))]
pub fn program_scopes(db: &dyn salsa::Database, prelude: Prelude, root: SourceFile) -> ProgramEnv {
    let env = &program(db, prelude, root).env;
    ProgramEnv {
        root: scope_without_values(&env.root),
        modules: env.modules.iter().map(scope_without_values).collect(),
    }
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
    let syntax = file_syntax(db, file);
    let mut out = syntax.diagnostics.clone();
    for (index, d) in &env.diagnostics {
        if let Some(key) = syntax.items.get(*index as usize) {
            out.push(d.clone().shifted(key.offset(db) as i64));
        }
    }
    for key in &syntax.items {
        let offset = key.offset(db) as i64;
        let types = item_types_in(db, prelude, root, *key);
        out.extend(types.diagnostics.iter().map(|d| d.clone().shifted(offset)));
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
    for index in 0..parsed.items.len() {
        for d in &prelude_item_types(db, prelude, index as u32).diagnostics {
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
    let mut out = Vec::new();
    for key in file_items(db, file) {
        let offset = key.offset(db) as i64;
        for h in &item_types(db, prelude, *key).holes {
            let mut h = h.clone();
            h.span = h.span.shift(offset);
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
    let key = item_key(db, file, index)?;
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

/// The prelude declared, which every program's environment starts from.
#[salsa::tracked(returns(ref))]
pub fn prelude_decls(db: &dyn salsa::Database, prelude: Prelude) -> PreludeDecls {
    declare_prelude(&parse(db, prelude.file(db)).items)
}

/// The environment the prelude's own items are checked in: the environment of a program
/// without items.
#[salsa::tracked(returns(ref))]
pub fn prelude_env(db: &dyn salsa::Database, prelude: Prelude) -> Env {
    build_program(prelude_decls(db, prelude), &[], &Program::default()).root
}

/// Prelude item `index` checked in the prelude's own program. One query per item: a run
/// checks only the items its program uses (`eval::lower` asks for them as it reaches
/// them), instead of all two hundred.
#[salsa::tracked(returns(ref))]
pub fn prelude_item_types(db: &dyn salsa::Database, prelude: Prelude, index: u32) -> ItemTypes {
    let parsed = parse(db, prelude.file(db));
    match parsed.items.get(index as usize) {
        Some(item) => check_item(prelude_env(db, prelude), item, ItemRef::prelude(index)),
        None => ItemTypes::default(),
    }
}

//! Go to definition, find references and rename, over the name resolution of every item.
//! Locals resolve to their binder (shadowing respected); top-level names to their
//! declaration in the file, or in the module file an import brings them from
//! (`definition_in_program`). Names declared in the prelude have no location to go to and
//! cannot be renamed; references and rename stay within the file.

use rex_compiler::check::{FileRef, ItemRef};
use rex_compiler::db::{program, Database, SourceFile};
use rex_compiler::resolve::{GlobalKind, ItemNames, Target, UseKind};
use rex_compiler::syntax::lexer::lex;
use rex_compiler::syntax::token::Tok;
use rex_compiler::Span;

use crate::editor::symbol::{global_origin, symbol_at, Symbol};
use crate::locate::{self, item_at, items, ItemAt};

/// The declaration of the name at `offset` (absolute span of its binder or declared name).
pub fn definition(db: &Database, file: SourceFile, offset: usize) -> Option<Span> {
    let at = item_at(db, file, offset)?;
    let (symbol, _) = symbol_at(db, &at)?;
    declaration_of(db, file, &symbol, chosen_ctor(db, file, &at))
}

/// The declaration of the name at `offset`, in the file or in a module it imports: the
/// file holding it and the absolute span of its declared name there.
pub fn definition_in_program(
    db: &Database,
    file: SourceFile,
    offset: usize,
) -> Option<(SourceFile, Span)> {
    let at = item_at(db, file, offset)?;
    let (symbol, _) = symbol_at(db, &at)?;
    let chosen = chosen_ctor(db, file, &at);
    if let Some(span) = declaration_of(db, file, &symbol, chosen) {
        return Some((file, span));
    }
    let Symbol::Global { name, kind } = &symbol else {
        return None;
    };
    let env = locate::env(db, file);
    let origin = chosen.or_else(|| global_origin(env, name, *kind))?;
    let FileRef::Module(k) = origin.file else {
        return None;
    };
    let (_, module) = *program(db, db.prelude(), file).modules.get(k as usize)?;
    // The name as the module declares it (`z` of `y as z` is `y`; `M.x` is `x`).
    let declared = match env.imported.get(name.as_str()) {
        Some(imported) => imported.name.to_string(),
        None => name.rsplit('.').next().unwrap_or(name).to_string(),
    };
    let at = nth_item(db, module, origin.index as usize)?;
    let g = at
        .names(db)
        .globals
        .iter()
        .find(|g| g.name == declared && same_namespace(g.kind, *kind))?;
    Some((module, at.abs(g.span)))
}

/// Every occurrence of the name at `offset` in the file, in source order; the declaration
/// too when `include_declaration`.
pub fn references(
    db: &Database,
    file: SourceFile,
    offset: usize,
    include_declaration: bool,
) -> Vec<Span> {
    let Some(at) = item_at(db, file, offset) else {
        return Vec::new();
    };
    let Some((symbol, _)) = symbol_at(db, &at) else {
        return Vec::new();
    };
    let mut out = uses_of(db, file, &symbol);
    if include_declaration {
        out.extend(declaration(db, file, &symbol));
    }
    out.sort();
    out.dedup();
    out
}

/// One replacement of a rename.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub span: Span,
    pub new_text: String,
}

/// Why a rename cannot be done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RenameError {
    /// No renameable name at the position.
    NoName,
    /// The name is not declared in the file: where it is declared instead.
    NotInFile(String, Elsewhere),
    /// The new name is not an identifier of the right kind (or is a keyword).
    InvalidName(String),
    /// The new name would change what some occurrence refers to.
    Conflict(String),
}

impl std::fmt::Display for RenameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RenameError::NoName => write!(f, "there is no name to rename here"),
            RenameError::NotInFile(n, Elsewhere::Prelude) => {
                write!(f, "`{n}` is declared in the prelude and cannot be renamed")
            }
            RenameError::NotInFile(n, Elsewhere::Module) => write!(
                f,
                "`{n}` is declared in an imported module; rename it in that module's file"
            ),
            RenameError::NotInFile(n, Elsewhere::Nowhere) => write!(
                f,
                "`{n}` is not declared anywhere (an unknown name), so there is nothing to rename"
            ),
            RenameError::InvalidName(why) | RenameError::Conflict(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for RenameError {}

/// Where a name that the file does not declare comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elsewhere {
    Prelude,
    Module,
    /// An unknown name, or a binder the broken text no longer declares.
    Nowhere,
}

/// Why `symbol` has no declaration in `file`.
fn elsewhere(db: &Database, file: SourceFile, symbol: &Symbol) -> Elsewhere {
    match symbol {
        Symbol::Local { .. } => Elsewhere::Nowhere,
        Symbol::Global { name, kind } => {
            match global_origin(locate::env(db, file), name, *kind).map(|o| o.file) {
                Some(FileRef::Prelude) => Elsewhere::Prelude,
                Some(FileRef::Module(_)) => Elsewhere::Module,
                Some(FileRef::Root) | None => Elsewhere::Nowhere,
            }
        }
    }
}

/// The name a rename at `offset` would change, with its current text.
pub fn prepare_rename(
    db: &Database,
    file: SourceFile,
    offset: usize,
) -> Result<(Span, String), RenameError> {
    let at = item_at(db, file, offset).ok_or(RenameError::NoName)?;
    let (symbol, span) = symbol_at(db, &at).ok_or(RenameError::NoName)?;
    let name = symbol_name(db, file, &symbol);
    if declaration(db, file, &symbol).is_none() {
        return Err(RenameError::NotInFile(name, elsewhere(db, file, &symbol)));
    }
    Ok((span, name))
}

/// The edits that rename the name at `offset` (every occurrence of that binding, and only
/// those) to `new_name`.
pub fn rename(
    db: &Database,
    file: SourceFile,
    offset: usize,
    new_name: &str,
) -> Result<Vec<TextEdit>, RenameError> {
    let at = item_at(db, file, offset).ok_or(RenameError::NoName)?;
    let (symbol, _) = symbol_at(db, &at).ok_or(RenameError::NoName)?;
    let old_name = symbol_name(db, file, &symbol);
    let Some(decl) = declaration(db, file, &symbol) else {
        let place = elsewhere(db, file, &symbol);
        return Err(RenameError::NotInFile(old_name, place));
    };
    check_identifier(&symbol, new_name)?;
    if new_name == old_name {
        return Ok(Vec::new());
    }
    check_conflicts(db, file, &symbol, new_name)?;
    let mut spans = uses_of(db, file, &symbol);
    spans.push(decl);
    spans.sort();
    spans.dedup();
    Ok(spans
        .into_iter()
        .map(|span| TextEdit {
            span,
            new_text: new_name.to_string(),
        })
        .collect())
}

fn symbol_name(db: &Database, file: SourceFile, symbol: &Symbol) -> String {
    match symbol {
        Symbol::Local { item, def } => nth_item(db, file, *item)
            .map(|at| at.names(db).locals[*def].name.clone())
            .unwrap_or_default(),
        Symbol::Global { name, .. } => name.clone(),
    }
}

fn nth_item(db: &Database, file: SourceFile, index: usize) -> Option<ItemAt<'_>> {
    items(db, file).nth(index)
}

/// Where the constructor used at the cursor is declared, when the checker chose one there
/// (`ItemTypes::ctors`: the choice evaluation follows, which the spelling alone may not
/// tell).
fn chosen_ctor(db: &Database, file: SourceFile, at: &ItemAt<'_>) -> Option<ItemRef> {
    let names = at.names(db);
    if names.local_at(at.rel).is_some() || names.global_at(at.rel).is_some() {
        return None;
    }
    let used = names.use_at(at.rel)?;
    if used.kind != UseKind::Constructor {
        return None;
    }
    let ctors = &at.types(db).ctors;
    let id = match (used.expr, used.pat) {
        (Some(e), _) => ctors.expr(e)?,
        (None, Some(p)) => ctors.pat(p)?,
        (None, None) => return None,
    };
    Some(locate::env(db, file).ctor(id).origin)
}

/// The absolute span of a symbol's binder or declared name, when it is in the file.
fn declaration(db: &Database, file: SourceFile, symbol: &Symbol) -> Option<Span> {
    declaration_of(db, file, symbol, None)
}

/// Like `declaration`, a global's declaration taken from `origin` where one is given.
fn declaration_of(
    db: &Database,
    file: SourceFile,
    symbol: &Symbol,
    origin: Option<ItemRef>,
) -> Option<Span> {
    match symbol {
        Symbol::Local { item, def } => {
            let at = nth_item(db, file, *item)?;
            Some(at.abs(at.names(db).locals.get(*def)?.span))
        }
        Symbol::Global { name, kind } => {
            let origin = origin.or_else(|| global_origin(locate::env(db, file), name, *kind))?;
            if origin.file != FileRef::Root {
                return None; // the prelude, or a module (another file)
            }
            let at = nth_item(db, file, origin.index as usize)?;
            let g = at
                .names(db)
                .globals
                .iter()
                .find(|g| g.name == *name && same_namespace(g.kind, *kind))?;
            Some(at.abs(g.span))
        }
    }
}

/// Functions and methods share the value namespace.
fn same_namespace(a: GlobalKind, b: GlobalKind) -> bool {
    use GlobalKind::*;
    matches!(
        (a, b),
        (Function | Method, Function | Method)
            | (Type, Type)
            | (Constructor, Constructor)
            | (Class, Class)
    )
}

fn use_matches(kind: UseKind, global: GlobalKind) -> bool {
    use GlobalKind::*;
    matches!(
        (kind, global),
        (UseKind::Value | UseKind::MethodImpl, Function | Method)
            | (UseKind::Constructor, Constructor)
            | (UseKind::Type, Type)
            | (UseKind::Class, Class)
    )
}

/// Absolute spans of the symbol's uses (not its declaration).
fn uses_of(db: &Database, file: SourceFile, symbol: &Symbol) -> Vec<Span> {
    match symbol {
        Symbol::Local { item, def } => {
            let Some(at) = nth_item(db, file, *item) else {
                return Vec::new();
            };
            at.names(db)
                .uses
                .iter()
                .filter(|u| u.target == Target::Local(*def))
                .map(|u| at.abs(u.span))
                .collect()
        }
        Symbol::Global { name, kind } => items(db, file)
            .flat_map(|at| {
                at.names(db)
                    .uses
                    .iter()
                    .filter(|u| {
                        u.target == Target::Global && u.name == *name && use_matches(u.kind, *kind)
                    })
                    .map(|u| at.abs(u.span))
                    .collect::<Vec<_>>()
            })
            .collect(),
    }
}

fn check_identifier(symbol: &Symbol, new_name: &str) -> Result<(), RenameError> {
    let upper = matches!(
        symbol,
        Symbol::Global {
            kind: GlobalKind::Type | GlobalKind::Constructor | GlobalKind::Class,
            ..
        }
    );
    let (tokens, errors) = lex(new_name);
    let ok = errors.is_empty()
        && match tokens.as_slice() {
            [t] if t.span.len() == new_name.len() => match t.tok {
                Tok::Ident(_) => !upper,
                Tok::Upper(_) => upper,
                _ => false,
            },
            _ => false,
        };
    if ok {
        Ok(())
    } else {
        let want = if upper {
            "an upper-case identifier"
        } else {
            "a lower-case identifier that is not a keyword"
        };
        Err(RenameError::InvalidName(format!(
            "`{new_name}` is not a valid new name: expected {want}"
        )))
    }
}

/// Refuses a rename that would make an occurrence refer to something else: the renamed
/// binding captured by an inner binding of the new name, or an existing occurrence of the
/// new name captured by the renamed binding.
fn check_conflicts(
    db: &Database,
    file: SourceFile,
    symbol: &Symbol,
    new_name: &str,
) -> Result<(), RenameError> {
    let conflict = |what: String| Err(RenameError::Conflict(what));
    match symbol {
        Symbol::Local { item, def } => {
            let Some(at) = nth_item(db, file, *item) else {
                return Ok(());
            };
            let names = at.names(db);
            let Some(binder) = names.locals.get(*def) else {
                return Ok(());
            };
            for u in names
                .uses
                .iter()
                .filter(|u| u.target == Target::Local(*def))
            {
                if shadowed_at(names, u.span.start as usize, new_name, Some(*def)) {
                    return conflict(format!(
                        "renaming `{}` to `{new_name}` would make a use refer to an inner `{new_name}`",
                        binder.name
                    ));
                }
            }
            for u in names.uses.iter().filter(|u| u.name == new_name) {
                if !binder.scope.touches(u.span.start as usize) {
                    continue;
                }
                let captured = match u.target {
                    Target::Global => u.kind == UseKind::Value,
                    Target::Local(j) => !binder.scope.touches(names.locals[j].span.start as usize),
                };
                if captured {
                    return conflict(format!(
                        "`{new_name}` is already used inside the scope of `{}`",
                        binder.name
                    ));
                }
            }
            Ok(())
        }
        Symbol::Global { name, kind } => {
            let env = locate::env(db, file);
            let taken = match kind {
                GlobalKind::Function | GlobalKind::Method => {
                    env.values.contains_key(new_name) || env.methods.contains_key(new_name)
                }
                GlobalKind::Constructor => env.ctor_index.contains_key(new_name),
                GlobalKind::Type => env.resolve_type(new_name).is_some(),
                GlobalKind::Class => env.resolve_class(new_name).is_some(),
            };
            if taken {
                return conflict(format!("`{new_name}` is already declared"));
            }
            if matches!(kind, GlobalKind::Function | GlobalKind::Method) {
                for at in items(db, file) {
                    let names = at.names(db);
                    for u in names.uses.iter().filter(|u| {
                        u.target == Target::Global && u.name == *name && u.kind == UseKind::Value
                    }) {
                        if shadowed_at(names, u.span.start as usize, new_name, None) {
                            return conflict(format!(
                                "renaming `{name}` to `{new_name}` would make a use refer to a local `{new_name}`"
                            ));
                        }
                    }
                }
            }
            Ok(())
        }
    }
}

/// Whether a local named `name`, other than `except` and not outside it, is visible at
/// `offset`.
fn shadowed_at(names: &ItemNames, offset: usize, name: &str, except: Option<usize>) -> bool {
    names.scope_at(offset).into_iter().any(|j| {
        names.locals[j].name == name
            && match except {
                // Only bindings nested inside the renamed one capture its uses.
                Some(d) => j != d && j > d,
                None => true,
            }
    })
}

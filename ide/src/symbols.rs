//! Document symbols: the outline of a file. Functions, types with their constructors,
//! classes with their methods, instances and imports, each with its printed type.

use rex_compiler::check::ItemRef;
use rex_compiler::db::{Database, SourceFile};
use rex_compiler::syntax::ast::{Item, ItemKind, TypeId};
use rex_compiler::types::TypePrinter;
use rex_compiler::Span;

use crate::locate::{self, items};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    Function,
    Type,
    Constructor,
    Class,
    Method,
    Instance,
    Import,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentSymbol {
    pub name: String,
    /// The printed type, where the symbol has one.
    pub detail: Option<String>,
    pub kind: SymbolKind,
    /// The whole declaration (absolute).
    pub span: Span,
    /// The declared name (absolute).
    pub selection_span: Span,
    pub children: Vec<DocumentSymbol>,
}

/// The outline of `file`, in source order.
pub fn document_symbols(db: &Database, file: SourceFile) -> Vec<DocumentSymbol> {
    let env = locate::env(db, file);
    let text = file.text(db);
    let mut out = Vec::new();
    for at in items(db, file) {
        let item = at.item;
        let span = at.abs(item.span);
        let leaf =
            |name: &str, detail: Option<String>, kind, span, selection_span| DocumentSymbol {
                name: name.to_string(),
                detail,
                kind,
                span,
                selection_span,
                children: Vec::new(),
            };
        match &item.kind {
            ItemKind::Fn(decl) => {
                let detail = env
                    .values
                    .get(decl.name.text.as_str())
                    .filter(|v| v.origin == ItemRef::root(at.index as u32))
                    .map(|v| TypePrinter::new().scheme(&v.scheme));
                out.push(leaf(
                    &decl.name.text,
                    detail,
                    SymbolKind::Function,
                    span,
                    at.abs(decl.name.span),
                ));
            }
            ItemKind::Type(decl) => {
                let mut sym = leaf(
                    &decl.name.text,
                    None,
                    SymbolKind::Type,
                    span,
                    at.abs(decl.name.span),
                );
                for v in &decl.variants {
                    let detail = env.ctor_index.get(v.name.text.as_str()).and_then(|ids| {
                        ids.iter()
                            .map(|id| env.ctor(*id))
                            .find(|c| c.origin == ItemRef::root(at.index as u32))
                            .map(|c| TypePrinter::new().scheme(&c.scheme))
                    });
                    sym.children.push(leaf(
                        &v.name.text,
                        detail,
                        SymbolKind::Constructor,
                        at.abs(v.span),
                        at.abs(v.name.span),
                    ));
                }
                out.push(sym);
            }
            ItemKind::Class(decl) => {
                let mut sym = leaf(
                    &decl.name.text,
                    None,
                    SymbolKind::Class,
                    span,
                    at.abs(decl.name.span),
                );
                for m in &decl.methods {
                    let detail = env
                        .methods
                        .get(m.name.text.as_str())
                        .filter(|meth| *meth.class == *decl.name.text)
                        .map(|meth| TypePrinter::new().scheme(&meth.scheme));
                    let whole = m.name.span.cover(item.arena.ty(m.ty).span);
                    sym.children.push(leaf(
                        &m.name.text,
                        detail,
                        SymbolKind::Method,
                        at.abs(whole),
                        at.abs(m.name.span),
                    ));
                }
                out.push(sym);
            }
            ItemKind::Instance(decl) => {
                let mut name = format!("instance {}", decl.class.name.text);
                for a in &decl.args {
                    name.push(' ');
                    name.push_str(&type_text(text, item, *a));
                }
                let mut sym = leaf(
                    &name,
                    None,
                    SymbolKind::Instance,
                    span,
                    at.abs(decl.class.span()),
                );
                for m in &decl.methods {
                    let whole = m.name.span.cover(item.arena.expr(m.body).span);
                    sym.children.push(leaf(
                        &m.name.text,
                        None,
                        SymbolKind::Method,
                        at.abs(whole),
                        at.abs(m.name.span),
                    ));
                }
                out.push(sym);
            }
            ItemKind::Import(decl) => {
                let path: Vec<&str> = decl.path.iter().map(|n| n.text.as_str()).collect();
                let selection = match (decl.path.first(), decl.path.last()) {
                    (Some(a), Some(b)) => at.abs(a.span.cover(b.span)),
                    _ => span,
                };
                out.push(leaf(
                    &path.join("."),
                    None,
                    SymbolKind::Import,
                    span,
                    selection,
                ));
            }
            ItemKind::Expr(_) | ItemKind::Error => {}
        }
    }
    out
}

/// The source text of a type expression, parenthesised when it has spaces.
fn type_text(text: &str, item: &Item, ty: TypeId) -> String {
    let span = item.abs(item.arena.ty(ty).span);
    let shown = text.get(span.range()).unwrap_or("?").trim();
    if shown.contains(' ') && !shown.starts_with('(') {
        format!("({shown})")
    } else {
        shown.to_string()
    }
}

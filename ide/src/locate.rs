//! From an LSP position to the syntax and types under it: the item that holds it, the
//! smallest expression there, and that expression's parents.

use rex_compiler::check::ItemTypes;
use rex_compiler::db::{item_key, item_types, parse, Database, SourceFile};
use rex_compiler::syntax::ast::{ExprId, ExprKind, Item};
use rex_compiler::syntax::parser::ParsedFile;
use rex_compiler::{LineIndex, Position, Span};

/// A document of the database, with its line index.
pub struct Document<'db> {
    pub db: &'db Database,
    pub file: SourceFile,
    pub text: &'db str,
    pub lines: LineIndex,
}

impl<'db> Document<'db> {
    pub fn new(db: &'db Database, file: SourceFile) -> Document<'db> {
        let text = file.text(db).as_str();
        Document {
            db,
            file,
            text,
            lines: LineIndex::new(text),
        }
    }

    pub fn parsed(&self) -> &'db ParsedFile {
        parse(self.db, self.file)
    }

    pub fn offset(&self, pos: Position) -> usize {
        self.lines.offset(self.text, pos)
    }

    pub fn position(&self, offset: usize) -> Position {
        self.lines.position(self.text, offset)
    }

    /// The item at `offset`: the one whose text touches it, else the nearest one.
    pub fn item_at(&self, offset: usize) -> Option<usize> {
        let items = &self.parsed().items;
        if let Some(i) = items.iter().position(|it| it.abs(it.span).touches(offset)) {
            return Some(i);
        }
        items
            .iter()
            .enumerate()
            .min_by_key(|(_, it)| {
                let s = it.abs(it.span);
                if offset < s.start as usize {
                    s.start as usize - offset
                } else {
                    offset.saturating_sub(s.end as usize)
                }
            })
            .map(|(i, _)| i)
    }

    pub fn item(&self, index: usize) -> Option<&'db Item> {
        self.parsed().items.get(index)
    }

    pub fn item_types(&self, index: usize) -> Option<&'db ItemTypes> {
        let key = item_key(self.db, self.file, index)?;
        Some(item_types(self.db, self.db.prelude(), key))
    }

    /// The text of an item as a standalone source: its first line padded to the column it
    /// stands at, so that layout reads it as it reads the whole file.
    pub fn item_source(&self, item: &Item) -> (String, usize) {
        let span = item.abs(item.span);
        let start = span.start as usize;
        let line_start = self.lines.line_start(self.lines.line_of(start));
        let pad = self.text[line_start..start].chars().count();
        let mut s = " ".repeat(pad);
        s.push_str(&self.text[start..(span.end as usize).min(self.text.len())]);
        (s, start - pad)
    }
}

/// What lies under a position.
pub struct Located<'db> {
    pub index: usize,
    pub item: &'db Item,
    pub types: &'db ItemTypes,
    /// The position as an item-relative byte offset.
    pub rel: usize,
    /// The smallest expression there, if the position is inside one.
    pub expr: Option<ExprId>,
}

impl<'db> Located<'db> {
    pub fn at(doc: &Document<'db>, offset: usize) -> Option<Located<'db>> {
        let index = doc.item_at(offset)?;
        let item = doc.item(index)?;
        let rel = offset.saturating_sub(item.offset as usize);
        Some(Located {
            index,
            item,
            types: doc.item_types(index)?,
            rel,
            expr: smallest_expr_at(item, rel),
        })
    }

    pub fn abs(&self, span: Span) -> Span {
        self.item.abs(span)
    }

    /// The expression under the position when it is a hole or unreadable text.
    pub fn hole(&self) -> Option<ExprId> {
        let e = self.expr?;
        matches!(
            self.item.arena.expr(e).kind,
            ExprKind::Hole(_) | ExprKind::Error { .. }
        )
        .then_some(e)
    }
}

/// The smallest expression at `rel`: of those whose span touches it (contains it, or ends
/// right there: a cursor just after a token), the shortest, preferring one that contains it
/// on a tie. Children come before parents in the arena, so the first of equal spans is the
/// innermost.
pub fn smallest_expr_at(item: &Item, rel: usize) -> Option<ExprId> {
    item.arena
        .exprs
        .iter()
        .enumerate()
        .filter(|(_, e)| e.span.touches(rel))
        .min_by_key(|(i, e)| (e.span.len(), !e.span.contains(rel), *i))
        .map(|(i, _)| ExprId(i as u32))
}

/// The parent of every expression of an item (None for roots).
pub fn parents(item: &Item) -> Vec<Option<ExprId>> {
    let mut parent = vec![None; item.arena.exprs.len()];
    for (i, e) in item.arena.exprs.iter().enumerate() {
        e.kind.for_each_child(|c| {
            if let Some(slot) = parent.get_mut(c.index()) {
                *slot = Some(ExprId(i as u32));
            }
        });
    }
    parent
}

/// The expression whose span is exactly `span` (item-relative), innermost first.
pub fn expr_with_span(item: &Item, span: Span) -> Option<ExprId> {
    item.arena
        .exprs
        .iter()
        .position(|e| e.span == span)
        .map(|i| ExprId(i as u32))
}

//! The one locator: from a byte offset of a file to what lies there (the top-level item
//! that holds it, its cached types and names, the smallest expression there and that
//! expression's parents). Every feature finds its item here: the editor features (hover,
//! completion, signature help, navigation) through `item_at`, the assists through a
//! `Document`, which adds the file's line index for the front doors' positions.

use rex_compiler::check::{Env, ItemTypes};
use rex_compiler::db::{item_key, item_types, parse, program_env, Database, ItemKey, SourceFile};
use rex_compiler::resolve::{item_names, ItemNames};
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

    /// The index of the item at `offset`: the one whose text touches it, else the nearest.
    pub fn item_at(&self, offset: usize) -> Option<usize> {
        item_near(self.db, self.file, offset).map(|at| at.index)
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
    pub key: ItemKey<'db>,
    pub item: &'db Item,
    pub types: &'db ItemTypes,
    /// The position as an item-relative byte offset.
    pub rel: usize,
    /// The smallest expression there, if the position is inside one.
    pub expr: Option<ExprId>,
}

impl<'db> Located<'db> {
    pub fn at(doc: &Document<'db>, offset: usize) -> Option<Located<'db>> {
        let at = item_near(doc.db, doc.file, offset)?;
        Some(Located {
            index: at.index,
            key: at.key,
            item: at.item,
            types: at.types(doc.db),
            rel: at.rel,
            expr: at.smallest_expr(),
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

/// A top-level item of a file, with the offset translated into the item's coordinates.
pub struct ItemAt<'db> {
    pub index: usize,
    pub item: &'db Item,
    pub key: ItemKey<'db>,
    /// The offset, relative to the item's start.
    pub rel: usize,
}

impl<'db> ItemAt<'db> {
    pub fn types(&self, db: &'db Database) -> &'db ItemTypes {
        item_types(db, db.prelude(), self.key)
    }

    pub fn names(&self, db: &'db Database) -> &'db ItemNames {
        item_names(db, self.key)
    }

    /// An item-relative span made absolute.
    pub fn abs(&self, span: Span) -> Span {
        self.item.abs(span)
    }

    /// The smallest expression touching the offset; one that contains it wins a tie with
    /// one that merely ends there.
    pub fn smallest_expr(&self) -> Option<ExprId> {
        smallest_expr_at(self.item, self.rel)
    }
}

/// The item whose text holds (or ends at) `offset`; the one that holds it wins.
pub fn item_at(db: &Database, file: SourceFile, offset: usize) -> Option<ItemAt<'_>> {
    let items = &parse(db, file).items;
    let touching = |i: &&Item| i.abs(i.span).touches(offset);
    let (index, item) = items
        .iter()
        .enumerate()
        .filter(|(_, i)| touching(i))
        .min_by_key(|(_, i)| !i.abs(i.span).contains(offset))?;
    Some(ItemAt {
        index,
        item,
        key: item_key(db, file, index)?,
        rel: offset.checked_sub(item.offset as usize)?,
    })
}

/// The item whose text touches `offset` (the first such), else the nearest one: where a
/// diagnostic or a position between items belongs.
pub fn item_near(db: &Database, file: SourceFile, offset: usize) -> Option<ItemAt<'_>> {
    let items = &parse(db, file).items;
    let index = match items.iter().position(|it| it.abs(it.span).touches(offset)) {
        Some(i) => i,
        None => {
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
                })?
                .0
        }
    };
    let item = &items[index];
    Some(ItemAt {
        index,
        item,
        key: item_key(db, file, index)?,
        rel: offset.saturating_sub(item.offset as usize),
    })
}

/// Like `item_at`, but a position in the blanks after an item (`f x |`) belongs to it.
pub fn item_at_or_before(db: &Database, file: SourceFile, offset: usize) -> Option<ItemAt<'_>> {
    if let Some(at) = item_at(db, file, offset) {
        return Some(at);
    }
    let text = file.text(db);
    let anchor = text.get(..offset)?.trim_end().len();
    let mut at = item_at(db, file, anchor)?;
    at.rel = offset.checked_sub(at.item.offset as usize)?;
    Some(at)
}

/// Every item of the file with its key, in source order.
pub fn items(db: &Database, file: SourceFile) -> impl Iterator<Item = ItemAt<'_>> {
    parse(db, file)
        .items
        .iter()
        .enumerate()
        .filter_map(move |(index, item)| {
            Some(ItemAt {
                index,
                item,
                key: item_key(db, file, index)?,
                rel: 0,
            })
        })
}

/// The declarations every position of `file` sees (prelude and the file's own).
pub fn env(db: &Database, file: SourceFile) -> &Env {
    program_env(db, db.prelude(), file)
}

/// Whether a name is internal to the implementation and never shown to users.
pub fn is_internal(name: &str) -> bool {
    name.starts_with("prim_")
}

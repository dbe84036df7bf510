//! Finding what sits at a byte offset of a file: the top-level item, its cached types and
//! names, and the smallest expression there. Shared by the editor features (hover,
//! completion, signature help, navigation).

use rex_compiler::check::{Env, ItemTypes};
use rex_compiler::db::{item_key, item_types, parse, program_env, Database, ItemKey, SourceFile};
use rex_compiler::resolve::{item_names, ItemNames};
use rex_compiler::syntax::ast::{ExprId, Item};
use rex_compiler::Span;

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
        crate::locate::smallest_expr_at(self.item, self.rel)
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

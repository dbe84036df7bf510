//! Verification of a proposed edit by re-checking: the item that holds the edit is parsed
//! again from its edited text and checked against the program environment the database
//! already holds. An edit inside an item never changes the environment (that is built from
//! signatures, and candidates replace expressions), so this is the answer a whole-file
//! re-check would give for that item, at the price of one small parse and check. Only
//! errors are counted here, so the check skips what only a reader needs (the names an
//! unknown name may have meant, a search over every name in scope).

use rex_compiler::check::{check_item_quietly, ItemRef};
use rex_compiler::db::program_env;
use rex_compiler::syntax::ast::Item;
use rex_compiler::syntax::parser::parse_text;
use rex_compiler::Diagnostic;

use crate::edit::{apply, Replace};
use crate::limits::MAX_VERIFIED_TEXT_BYTES;
use crate::locate::Document;

/// Error counts of one item, checked from some text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ItemErrors {
    pub syntax: usize,
    pub types: usize,
}

impl ItemErrors {
    pub fn total(self) -> usize {
        self.syntax + self.types
    }
}

/// The errors item `index` has once `edits` (absolute spans, inside the item) are applied;
/// None when the edited text no longer reads as one item, or is too large to re-check.
pub fn item_errors_with(doc: &Document<'_>, index: usize, edits: &[Replace]) -> Option<ItemErrors> {
    item_errors_where(doc, index, edits, |_| true)
}

/// Like `item_errors_with`, counting only the errors `counts` keeps (syntax errors are
/// always counted).
pub fn item_errors_where(
    doc: &Document<'_>,
    index: usize,
    edits: &[Replace],
    counts: impl Fn(&Diagnostic) -> bool,
) -> Option<ItemErrors> {
    let item = doc.item(index)?;
    let (source, base) = doc.item_source(item);
    if source.len() > MAX_VERIFIED_TEXT_BYTES {
        return None;
    }
    let end = base + source.len();
    let mut local = Vec::with_capacity(edits.len());
    for e in edits {
        let (s, t) = (e.span.start as usize, e.span.end as usize);
        if s < base || t > end {
            return None;
        }
        local.push(Replace::new((s - base..t - base).into(), e.text.clone()));
    }
    let edited = apply(&source, &local);
    let parsed = parse_text(&edited);
    let [new_item] = parsed.items.as_slice() else {
        return None;
    };
    if !edits.is_empty() && has_syntax_errors(doc, item) && !keeps_layout(doc, index, edits) {
        return None;
    }
    let env = program_env(doc.db, doc.db.prelude(), doc.file);
    let at = ItemRef::root(index as u32);
    let types = check_item_quietly(env, new_item, at)
        .diagnostics
        .iter()
        .filter(|d| d.is_error() && counts(d))
        .count();
    let syntax = parsed.diagnostics.iter().filter(|d| d.is_error()).count();
    Some(ItemErrors { syntax, types })
}

/// Whether the item's text has syntax errors now.
fn has_syntax_errors(doc: &Document<'_>, item: &Item) -> bool {
    let span = item.abs(item.span);
    doc.parsed()
        .diagnostics
        .iter()
        .any(|d| d.is_error() && d.span.start < span.end && d.span.end >= span.start)
}

/// Whether the document, once `edits` (inside item `index`) are applied, still splits into
/// the same items: the same number, every other item's text the same. Layout joins a
/// dedented line to the item before it or cuts a broken item in two depending on whether
/// the item reads cleanly (`rex_compiler::syntax::parser`), so an edit that repairs broken
/// text can move the items after it, and the item checked alone would not show that.
fn keeps_layout(doc: &Document<'_>, index: usize, edits: &[Replace]) -> bool {
    if doc.text.len() > MAX_VERIFIED_TEXT_BYTES {
        return false;
    }
    let edited = apply(doc.text, edits);
    let after = parse_text(&edited);
    let before = &doc.parsed().items;
    if after.items.len() != before.len() {
        return false;
    }
    fn text_of<'t>(text: &'t str, item: &Item) -> Option<&'t str> {
        let span = item.abs(item.span);
        text.get(span.start as usize..span.end as usize)
    }
    before
        .iter()
        .zip(&after.items)
        .enumerate()
        .filter(|(i, _)| *i != index)
        .all(|(_, (b, a))| text_of(doc.text, b) == text_of(&edited, a))
}

/// Whether `edits` leave item `index` with fewer errors than it has now (`strict`), or no
/// more (`!strict`).
pub fn improves(doc: &Document<'_>, index: usize, edits: &[Replace], strict: bool) -> bool {
    let Some(before) = item_errors_with(doc, index, &[]) else {
        return false;
    };
    let Some(after) = item_errors_with(doc, index, edits) else {
        return false;
    };
    if strict {
        after.total() < before.total()
    } else {
        after.total() <= before.total()
    }
}

/// Syntax errors of the whole document once `edits` are applied (for fixes that may change
/// how the text splits into items).
pub fn syntax_errors_with(doc: &Document<'_>, edits: &[Replace]) -> Option<usize> {
    if doc.text.len() > MAX_VERIFIED_TEXT_BYTES {
        return None;
    }
    let edited = apply(doc.text, edits);
    Some(
        parse_text(&edited)
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .count(),
    )
}

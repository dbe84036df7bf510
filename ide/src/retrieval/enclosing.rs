//! The top-level item a position is in, and the signatures of the functions it calls:
//! the code a fill goes into, and the names it is most likely to use.

use rex_compiler::resolve::{item_names, Target, UseKind};

use crate::catalog::is_user_visible_spelling;
use crate::context::Context;
use crate::limits::MAX_CALLED_SIGNATURES;
use rex_compiler::check::spelling::Spelling;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enclosing {
    /// The item's text, with the comments just before it (they often say what it does).
    pub source: String,
    /// Where that text starts in the file (a byte offset).
    pub start: usize,
    /// `name : type` of each global the item uses, in order of first use, itself left out.
    pub calls: Vec<String>,
}

pub fn enclosing(ctx: &Context<'_>, spelling: &Spelling) -> Option<Enclosing> {
    let at = ctx.at.as_ref()?;
    let span = at.abs(at.item.span);
    let end = span.end as usize;
    let start = leading_comments(ctx, at.index, span.start as usize);
    let source = ctx
        .doc
        .text
        .get(start..end.min(ctx.doc.text.len()))?
        .to_string();
    let own = ctx.enclosing_fn();
    let mut calls: Vec<String> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    let names = item_names(ctx.doc.db, at.key);
    for u in &names.uses {
        if u.kind != UseKind::Value || u.target != Target::Global {
            continue;
        }
        let name = u.name.as_str();
        if seen.contains(&name) || Some(name) == own || !is_user_visible_spelling(name) {
            continue;
        }
        seen.push(name);
        if let Some(v) = ctx.env.values.get(name) {
            calls.push(format!("{name} : {}", spelling.scheme(&v.scheme)));
        }
        if calls.len() == MAX_CALLED_SIGNATURES {
            break;
        }
    }
    Some(Enclosing {
        source,
        start,
        calls,
    })
}

/// Where the comments right before item `index` (starting at `start`) begin: the text
/// between the previous item and this one holds only comments and blank space (the
/// lexer drops comments, so nothing else can be there), skipped up to its first
/// non-blank character.
fn leading_comments(ctx: &Context<'_>, index: usize, start: usize) -> usize {
    let previous_end = match index.checked_sub(1).and_then(|i| ctx.doc.item(i)) {
        Some(item) => item.abs(item.span).end as usize,
        None => 0,
    };
    let gap = ctx.doc.text.get(previous_end..start).unwrap_or("");
    match gap.find(|c: char| !c.is_whitespace()) {
        Some(k) if gap.trim_end().ends_with("-}") => previous_end + k,
        _ => start,
    }
}

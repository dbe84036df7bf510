//! The static context of a hole as the prompt uses it: the static retrieval of
//! `rex_ide::retrieval` (the same one `rex.holeContext` reports), and the program text cut
//! at the hole: the enclosing item from its start, and the whole file.

use rex_ide::context::Context;
use rex_ide::retrieval::retrieve;

use crate::prompt::PromptParts;

/// The prompt's parts for the hole spanning `hole` (absolute byte range).
pub fn prompt_parts(ctx: &Context<'_>, hole: (usize, usize)) -> PromptParts {
    let text = ctx.doc.text;
    let r = retrieve(ctx);
    let item_start = r.enclosing.as_ref().map_or(0, |e| e.start).min(hole.0);
    PromptParts {
        expected_type: r.expected,
        types: r.types,
        headers: r.headers,
        calls: r.enclosing.map(|e| e.calls).unwrap_or_default(),
        item_before: text
            .get(item_start..hole.0)
            .unwrap_or("")
            .trim_end()
            .to_string(),
        before: text.get(..hole.0).unwrap_or("").trim_end().to_string(),
        after: text.get(hole.1..).unwrap_or("").to_string(),
    }
}

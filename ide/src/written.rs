//! The text a command's result asks to be written back to its file: the applied quick
//! fix's edits (`rex.semanticLoopApplyQuickFixAt`), or the repaired text of a bulk repair
//! that is not a dry run (`rex.semanticLoopApplyBestQuickFixesAt`). `rex ide --write` and
//! the `write: true` tools of `rex mcp` store it; the LSP hands the edit to the client.

use rex_compiler::{LineIndex, Position};
use serde_json::Value;

use crate::commands::{SEMANTIC_LOOP_APPLY_BEST_QUICK_FIXES_AT, SEMANTIC_LOOP_APPLY_QUICK_FIX_AT};

/// The new text of the file whose text is `text`, or `None` when `command`'s `result`
/// changes nothing (a dry run, no fix with that id, another command).
pub fn written_text(command: &str, result: &Value, text: &str) -> Option<String> {
    if command == SEMANTIC_LOOP_APPLY_BEST_QUICK_FIXES_AT {
        if result.get("dryRun")? == &Value::Bool(true) {
            return None;
        }
        return result.get("updatedText")?.as_str().map(str::to_string);
    }
    if command == SEMANTIC_LOOP_APPLY_QUICK_FIX_AT {
        let changes = result
            .get("quickFix")?
            .get("edit")?
            .get("changes")?
            .as_object()?;
        let edits = changes.values().next()?.as_array()?;
        let position = |p: &Value| {
            Some(Position {
                line: u32::try_from(p.get("line")?.as_u64()?).ok()?,
                character: u32::try_from(p.get("character")?.as_u64()?).ok()?,
            })
        };
        let mut replacements = Vec::new();
        for e in edits {
            let range = e.get("range")?;
            replacements.push((
                position(range.get("start")?)?,
                position(range.get("end")?)?,
                e.get("newText")?.as_str()?.to_string(),
            ));
        }
        return Some(apply_edits(text, &replacements));
    }
    None
}

/// `text` with each `(start, end, new text)` replacement made; positions are LSP's (0-based
/// lines, UTF-16 characters) in `text` as it was, and the replacements do not overlap.
pub fn apply_edits(text: &str, edits: &[(Position, Position, String)]) -> String {
    let index = LineIndex::new(text);
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|(start, end, new_text)| {
            let a = index.offset(text, *start);
            let b = index.offset(text, *end).max(a);
            (a, b, new_text.as_str())
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (start, end, new_text) in spans {
        out.replace_range(start..end, new_text);
    }
    out
}

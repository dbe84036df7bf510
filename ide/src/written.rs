//! The text a command's result asks to be written back to its file: the applied quick
//! fix's edits (`rex.semanticLoopApplyQuickFixAt`), or the repaired text of a bulk repair
//! that is not a dry run (`rex.semanticLoopApplyBestQuickFixesAt`). `rex ide --write` and
//! the `write: true` tools of `rex mcp` store it; the LSP hands the edit to the client.

use rex_compiler::LineIndex;
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
        let index = LineIndex::new(text);
        let offset = |p: &Value| {
            let pos = rex_compiler::Position {
                line: p.get("line")?.as_u64()? as u32,
                character: p.get("character")?.as_u64()? as u32,
            };
            Some(index.offset(text, pos))
        };
        let mut spans = Vec::new();
        for e in edits {
            let start = offset(e.get("range")?.get("start")?)?;
            let end = offset(e.get("range")?.get("end")?)?;
            spans.push((
                start,
                end.max(start),
                e.get("newText")?.as_str()?.to_string(),
            ));
        }
        spans.sort_by_key(|s| std::cmp::Reverse(s.0));
        let mut out = text.to_string();
        for (start, end, new_text) in spans {
            out.replace_range(start..end, &new_text);
        }
        return Some(out);
    }
    None
}

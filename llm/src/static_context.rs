//! The static context of a hole as the prompt uses it: the parts `rex.holeContext`
//! reports (`rex_ide::hole_context`), and the program text cut at the hole.

use rex_ide::context::Context;
use rex_ide::hole_context::{relevant_headers, relevant_types};

use crate::prompt::PromptParts;

/// The prompt's parts for the hole spanning `hole` (absolute byte range).
pub fn prompt_parts(ctx: &Context<'_>, hole: (usize, usize)) -> PromptParts {
    let text = ctx.doc.text;
    PromptParts {
        expected_type: ctx.expected.as_ref().map(|t| t.to_string()),
        relevant_types: relevant_types(ctx),
        relevant_headers: relevant_headers(ctx),
        before: text.get(..hole.0).unwrap_or("").trim_end().to_string(),
        after: text.get(hole.1..).unwrap_or("").to_string(),
    }
}

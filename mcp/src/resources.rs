//! The server's resources: the short guide to writing Rex that `rex.aiTutorial` returns
//! over LSP (syntax, declarations and the pitfalls a model meets, ending with the rules a
//! fill must keep), for an agent to read before it writes a program.

use rmcp::model::{Resource, ResourceContents};

pub const GUIDE_URI: &str = "rex://guide/writing-rex";

/// Every resource, as `resources/list` shows them.
pub fn list() -> Vec<Resource> {
    vec![Resource::new(GUIDE_URI, "writing-rex")
        .with_title("Writing Rex: a short guide for models")
        .with_description(
            "Rex's syntax, declarations and the pitfalls a model meets, with the checklist \
             of what a hole's fill must be. Read it before writing or repairing a program.",
        )
        .with_mime_type("text/markdown")
        .with_size(rex_ide::chatlsp::AI_TUTORIAL.len() as u64)]
}

/// The contents of the resource at `uri`, if there is one.
pub fn read(uri: &str) -> Option<ResourceContents> {
    (uri == GUIDE_URI).then(|| {
        ResourceContents::text(rex_ide::chatlsp::AI_TUTORIAL, GUIDE_URI)
            .with_mime_type("text/markdown")
    })
}

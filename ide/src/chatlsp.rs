//! The five ChatLSP methods of the Hazel paper, each a string for any AI client:
//! `rex.aiTutorial` (how to write Rex, for a model), `rex.expectedType`,
//! `rex.retrieveRelevantTypes`, `rex.retrieveRelevantHeaders` and `rex.errorReport` (the
//! errors of the item at the cursor, phrased for a model, and whether another round is
//! needed). They are views of `hole_context` and the diagnostics, as text.

use rex_compiler::db::{Database, SourceFile};

use crate::context::Context;
use crate::diagnostics::local_diagnostics;
use crate::hole_context::{relevant_headers, relevant_types};
use crate::retrieval::{retrieve, Spelling};

/// Our own short guide to writing Rex and its pitfalls.
pub const AI_TUTORIAL: &str = include_str!("chatlsp/tutorial.md");

/// The hole (or expression) at byte `offset` and its expected type, as a sentence.
pub fn expected_type(db: &Database, file: SourceFile, offset: usize) -> String {
    let ctx = Context::new(db, file, offset);
    let pos = ctx.doc.position(offset);
    let what = match ctx.at.as_ref().and_then(|a| a.hole()) {
        Some(_) => "The hole",
        None => "The expression",
    };
    let at = format!("{}:{}", pos.line + 1, pos.character + 1);
    match &ctx.expected {
        Some(t) => format!(
            "{what} at {at} expects a value of type `{}`.",
            Spelling::new(ctx.env).ty(t)
        ),
        None => format!("Nothing is known about the type expected at {at}."),
    }
}

/// The type definitions around the hole, one per paragraph.
pub fn retrieve_relevant_types(db: &Database, file: SourceFile, offset: usize) -> String {
    let types = relevant_types(&retrieve(&Context::new(db, file, offset)));
    if types.is_empty() {
        "No user types are relevant here.".to_string()
    } else {
        types.join("\n\n")
    }
}

/// Values that produce the expected type or one of its target types, best first, one
/// `name : type` per line.
pub fn retrieve_relevant_headers(db: &Database, file: SourceFile, offset: usize) -> String {
    let headers = relevant_headers(&retrieve(&Context::new(db, file, offset)));
    if headers.is_empty() {
        "No value in scope produces the expected type or a part of it.".to_string()
    } else {
        headers.join("\n")
    }
}

/// The errors around the cursor, one per line (`line:column code message`), then whether
/// another round of editing is needed.
pub fn error_report(db: &Database, file: SourceFile, offset: usize) -> String {
    let ctx = Context::new(db, file, offset);
    let errors: Vec<String> = local_diagnostics(&ctx.doc, ctx.offset)
        .into_iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let at = ctx.doc.position(d.span.start as usize);
            format!(
                "{}:{} {} {}",
                at.line + 1,
                at.character + 1,
                d.code.as_str(),
                d.message
            )
        })
        .collect();
    match errors.len() {
        0 => "No errors: the code around the cursor type-checks.".to_string(),
        n => format!(
            "{}\n{n} error{}; fix {} before continuing.",
            errors.join("\n"),
            if n == 1 { "" } else { "s" },
            if n == 1 { "it" } else { "them" }
        ),
    }
}

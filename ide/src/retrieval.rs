//! The one static retrieval of a hole (the Hazel paper's ChatLSP context): what a language
//! model needs to write a fill, computed from types, never from the text's words. Every
//! consumer reads it from here: `rex.holeContext`, the ChatLSP commands, `rex ide`, MCP
//! and the fill prompt (`rex_llm::static_context`).
//!
//! * **target types** (`targets`): the expected type, the results of its arrows, the parts
//!   of its tuples and records and the payloads of its constructors;
//! * **relevant types** (`types`): the definitions of the user types reachable from the
//!   target types and from the types of the values in scope, transitively, from the file
//!   and from every module it imports, with the distance at which each was reached;
//! * **relevant headers** (`headers`): the file's and the imported modules' values whose
//!   type, after 0 to 2 arguments, fits a target type, scored and best first;
//! * **the enclosing item** and the signatures of the functions it calls (`enclosing`).
//!
//! Names are printed as the hole's site writes them (`spelling`): `A.Model` where the
//! module was imported as `A`.

mod enclosing;
mod headers;
mod targets;
mod types;

use rex_compiler::types::Ty;

use crate::context::Context;

pub use enclosing::Enclosing;
pub use headers::Header;
pub use rex_compiler::check::spelling::Spelling;
pub use types::TypeDef;

/// Everything the static retrieval found for one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Retrieval {
    /// The expected type as the site writes it.
    pub expected: Option<String>,
    /// Target types as the site writes them, the expected type first.
    pub targets: Vec<String>,
    /// Type definitions, nearest first.
    pub types: Vec<TypeDef>,
    /// Values producing a target type, best first.
    pub headers: Vec<Header>,
    /// The top-level item the position is in.
    pub enclosing: Option<Enclosing>,
}

/// The static retrieval at the context's position.
pub fn retrieve(ctx: &Context<'_>) -> Retrieval {
    let spelling = Spelling::new(ctx.env);
    let targets: Vec<Ty> = ctx
        .expected
        .as_ref()
        .map(|t| targets::target_types(ctx.env, t))
        .unwrap_or_default();
    Retrieval {
        expected: ctx.expected.as_ref().map(|t| spelling.ty(t)),
        targets: targets.iter().map(|t| spelling.ty(t)).collect(),
        types: types::relevant_types(ctx, &targets, &spelling),
        headers: headers::relevant_headers(ctx, &targets, &spelling),
        enclosing: enclosing::enclosing(ctx, &spelling),
    }
}

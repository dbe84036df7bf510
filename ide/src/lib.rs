//! Semantic assistance over the Rex compiler, for machine clients first (LLM agents) and
//! people second. Every feature is a plain function over the salsa database; results are
//! serde structs whose JSON is the public contract of `reference/LLMS.md`. Nothing here
//! knows about JSON-RPC, terminals or browsers.

pub mod completion;
pub mod editor;
pub mod hover;
pub mod inlay_hints;
pub mod navigation;
pub mod signature_help;
pub mod symbols;

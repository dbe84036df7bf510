//! Semantic assistance over the Rex compiler, for machine clients first (LLM agents) and
//! people second. Every feature is a plain function over the salsa database; results are
//! serde structs whose JSON is the public contract of `reference/LLMS.md`. Nothing here
//! knows about JSON-RPC, terminals or browsers.

pub mod accepting;
pub mod adapters;
pub mod apply_fix;
pub mod bulk_repair;
pub mod catalog;
pub mod chatlsp;
pub mod commands;
pub mod compatible;
pub mod completion;
pub mod context;
pub mod diagnostics;
pub mod edit;
pub mod editor;
pub mod expected_type;
pub mod files;
pub mod fill;
pub mod fill_candidates;
pub mod fit;
pub mod hole_context;
pub mod holes;
pub mod hover;
pub mod inlay_hints;
pub mod limits;
pub mod locate;
pub mod navigation;
pub mod producing;
pub mod quick_fix;
pub mod report;
pub mod retrieval;
pub mod run;
pub mod scope;
pub mod search;
pub mod semantic_loop;
pub mod signature_help;
pub mod symbols;
pub mod verify;
pub mod written;

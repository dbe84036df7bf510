//! `rex mcp`: the semantic loop as Model Context Protocol tools, for LLM agents, over the
//! official Rust SDK (`rmcp`) on stdio. A thin adapter like the LSP's: every tool calls the
//! `rex-ide` (or `rex-llm`) function the LSP command or the CLI calls and returns the same
//! JSON, over one warm salsa database that follows the files on disk.
//!
//! Modules: `args` (the tools' argument types and their schemas), `tools` (names and
//! descriptions), `dispatch` (a call to its function), `documents` (the warm database),
//! `state` (what calls share, and the blocking threads they work on), `analysis`, `run` and
//! `fill` (the tools), `resources` (the guide to writing Rex), `server` (rmcp's handler).

mod analysis;
pub mod args;
mod dispatch;
mod documents;
mod fill;
mod resources;
mod run;
mod server;
mod state;
pub mod tools;

pub use server::{serve_stdio, Options, RexServer};

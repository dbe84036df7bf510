//! Model-backed hole filling: the model proposes, the checker disposes. One module per
//! concern: the static context and the prompt, the per-hole grammar, the type oracle over
//! prefixes, the engines (embedded llama.cpp; OpenAI-compatible servers), the decoding of
//! one sample under those constraints, and the fill loop that joins them. Like `ide`,
//! nothing here knows about JSON-RPC or terminals.
//!
//! Features: `embedded` (default) is the in-process llama.cpp engine with llguidance's
//! token masks; `remote` (default) is the HTTP transport to servers. Without both, what is
//! left (context, prompt, grammars, oracle, fill loop, request bodies) builds for wasm32,
//! where the browser playground drives the fill loop over `fetch`.

#[cfg(feature = "embedded")]
pub mod decode;
#[cfg(feature = "embedded")]
pub mod engine;
pub mod fill;
pub mod grammar;
pub mod inject;
pub mod model;
pub mod oracle;
pub mod prompt;
pub mod remote;
#[cfg(all(feature = "embedded", feature = "remote"))]
pub mod service;
pub mod static_context;

//! Model-backed hole filling: the model proposes, the checker disposes. One module per
//! concern: the static context and the prompt, the per-hole grammar, the type oracle over
//! prefixes, the engines (embedded llama.cpp; remote servers later), the decoding of one
//! sample under those constraints, and the fill loop that joins them. Like `ide`, nothing
//! here knows about JSON-RPC or terminals.

pub mod decode;
pub mod engine;
pub mod fill;
pub mod grammar;
pub mod inject;
pub mod model;
pub mod oracle;
pub mod prompt;
pub mod static_context;

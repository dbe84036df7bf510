//! The playground's WebAssembly entry points: JSON strings in and out, over rex-compiler
//! and rex-ide.
//!
//! [`Session`] holds the one salsa database of a page, so that each keystroke re-checks only
//! what it touched; [`wasm::Playground`] wraps it for JavaScript. The session is ordinary
//! Rust and is tested natively; the wasm layer only converts strings.

pub mod model_fill;
pub mod positions;
pub mod report;
pub mod run;
pub mod session;
pub mod wasm;

pub use session::Session;

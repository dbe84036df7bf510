//! The Rex language: text -> tokens -> syntax trees -> names -> types -> values.
//! A pure library (no I/O) that builds for wasm32 and owns the salsa database.

pub mod check;
pub mod db;
pub mod diagnostic;
pub mod eval;
pub mod line_index;
pub mod modules;
pub mod resolve;
pub mod span;
pub mod syntax;
pub mod types;

pub use diagnostic::{Category, Code, Diagnostic, DiagnosticData, Severity};
pub use line_index::{LineIndex, Position};
pub use span::Span;

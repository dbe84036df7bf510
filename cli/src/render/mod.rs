//! Rendering of diagnostics: JSON for tools, codespan-reporting text for people.

pub mod json;
mod positions;
pub mod terminal;

use rex_compiler::check::HoleInfo;
use rex_compiler::Diagnostic;

/// One checked file: what the renderers need to show its diagnostics and holes.
pub struct FileReport {
    /// The path as the user wrote it.
    pub path: String,
    pub text: String,
    pub diagnostics: Vec<Diagnostic>,
    /// Absolute spans, source order.
    pub holes: Vec<HoleInfo>,
}

impl FileReport {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// The `--color` choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorMode {
    /// Colour when writing to a terminal (and `NO_COLOR` is unset).
    Auto,
    Always,
    Never,
}

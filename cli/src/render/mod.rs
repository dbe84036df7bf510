//! Rendering of diagnostics: codespan-reporting text for people, and the JSON report of
//! `rex_ide::report` for tools.

pub mod terminal;

pub use rex_ide::report::json;
pub use rex_ide::report::FileReport;

/// The `--color` choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorMode {
    /// Colour when writing to a terminal (and `NO_COLOR` is unset).
    Auto,
    Always,
    Never,
}

//! Loading the modules a program imports from the file system (`rex_ide::files`), and the
//! `--include` directories as the compiler compares paths.

use rex_compiler::modules::normalize;

pub use rex_ide::files::load_modules as load;

/// The include roots as the compiler compares paths.
pub fn roots(dirs: &[std::path::PathBuf]) -> Vec<String> {
    dirs.iter()
        .map(|d| normalize(&d.display().to_string()))
        .collect()
}

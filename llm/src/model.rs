//! Where the model file is found: `--model PATH`, then `REX_MODEL`, then the cache that
//! `scripts/install-model.sh` fills (`$REX_MODEL_DIR`, else
//! `${XDG_CACHE_HOME:-~/.cache}/rex/models`). Nothing is ever downloaded at run time.

use std::path::{Path, PathBuf};

/// The default model's file name in the cache.
pub const DEFAULT_MODEL_FILE: &str = "gemma-3-270m-q4_k_m.gguf";

/// The command that installs the default model.
pub const INSTALL_COMMAND: &str = "bash scripts/install-model.sh";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelError {
    /// A path given by `--model` or `REX_MODEL` that is not a file.
    NotAFile { path: PathBuf, from: &'static str },
    /// No path given and the default model is not installed.
    NotInstalled { looked_in: PathBuf },
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelError::NotAFile { path, from } => {
                write!(f, "the model `{}` ({from}) is not a file", path.display())
            }
            ModelError::NotInstalled { looked_in } => write!(
                f,
                "no model found: the default model is not installed at `{}`; install it with `{INSTALL_COMMAND}`, or give one with --model PATH or REX_MODEL",
                looked_in.display()
            ),
        }
    }
}

impl std::error::Error for ModelError {}

/// The model file to load.
pub fn find_model(explicit: Option<&Path>) -> Result<PathBuf, ModelError> {
    if let Some(p) = explicit {
        return existing(p.to_path_buf(), "--model");
    }
    if let Some(p) = std::env::var_os("REX_MODEL").filter(|p| !p.is_empty()) {
        return existing(PathBuf::from(p), "REX_MODEL");
    }
    let cached = default_model_path();
    if cached.is_file() {
        Ok(cached)
    } else {
        Err(ModelError::NotInstalled { looked_in: cached })
    }
}

/// Where `scripts/install-model.sh` puts the default model.
pub fn default_model_path() -> PathBuf {
    model_dir().join(DEFAULT_MODEL_FILE)
}

fn model_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("REX_MODEL_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".cache"));
    cache.join("rex").join("models")
}

fn existing(path: PathBuf, from: &'static str) -> Result<PathBuf, ModelError> {
    if path.is_file() {
        Ok(path)
    } else {
        Err(ModelError::NotAFile { path, from })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_explicit_model_is_named() {
        let e = find_model(Some(Path::new("/nonexistent/m.gguf"))).unwrap_err();
        assert!(e.to_string().contains("/nonexistent/m.gguf"), "{e}");
        assert!(e.to_string().contains("--model"), "{e}");
    }

    #[test]
    fn the_not_installed_message_names_the_install_command() {
        let e = ModelError::NotInstalled {
            looked_in: PathBuf::from("/x"),
        };
        assert!(e.to_string().contains(INSTALL_COMMAND));
    }
}

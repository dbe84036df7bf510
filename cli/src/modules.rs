//! Loading the modules a program imports: the compiler names the candidate paths of each
//! `import` (`rex_compiler::modules::candidates`); this reads the first that exists, and
//! the imports of what it read, transitively, for `Database::set_modules`.

use std::collections::BTreeMap;
use std::path::Path;

use rex_compiler::modules::{candidates, normalize, segments};
use rex_compiler::syntax::ast::ItemKind;
use rex_compiler::syntax::parser::parse_text;

/// At most this many module files are loaded for one run (a guard against runaway graphs).
const MAX_MODULES: usize = 10_000;

/// Every module file reachable from `sources` (path, text), as (normalised path, text).
/// Files that cannot be read are left out: the checker reports those imports missing.
pub fn load(sources: &[(String, String)], include_roots: &[String]) -> Vec<(String, String)> {
    let mut loaded: BTreeMap<String, String> = BTreeMap::new();
    let mut queue: Vec<(String, String)> = sources.to_vec();
    while let Some((path, text)) = queue.pop() {
        for item in parse_text(&text).items {
            let ItemKind::Import(decl) = &item.kind else {
                continue;
            };
            let found = candidates(&path, &segments(decl), include_roots)
                .into_iter()
                .find(|c| Path::new(c).is_file());
            let Some(module) = found else {
                continue;
            };
            if loaded.contains_key(&module) || loaded.len() >= MAX_MODULES {
                continue;
            }
            if let Ok(text) = std::fs::read_to_string(&module) {
                loaded.insert(module.clone(), text.clone());
                queue.push((module, text));
            }
        }
    }
    loaded.into_iter().collect()
}

/// The include roots as the compiler compares paths.
pub fn roots(dirs: &[std::path::PathBuf]) -> Vec<String> {
    dirs.iter()
        .map(|d| normalize(&d.display().to_string()))
        .collect()
}

//! Where `import a.b` looks for its file. The compiler does no I/O: a front door asks
//! `candidates` for the paths of each import, reads the first that exists, and hands the
//! files to the database (`Database::set_modules`); the checker then resolves each import
//! to the first candidate the database holds, or reports the module missing (E0401).
//!
//! `a.b` is `a/b.rex` beside the importing file; each leading `super` walks one directory
//! up first; then the same path is tried under each include root, in order.
//!
//! `load` does the reading for a front door, through the reader it is given (the file
//! system for the CLI, open documents first for the language server).

use std::collections::{BTreeMap, HashSet};

use crate::syntax::ast::{ImportDecl, Item, ItemKind};
use crate::syntax::parser;

/// At most this many module files are loaded for one program (a guard against runaway
/// import graphs).
pub const MAX_MODULES: usize = 10_000;

/// The segments of an import's module path (`super.core.calc`).
pub fn segments(decl: &ImportDecl) -> Vec<String> {
    decl.path.iter().map(|n| n.text.clone()).collect()
}

/// The module path of an `import` item.
pub fn import_path(item: &Item) -> Option<Vec<String>> {
    match &item.kind {
        ItemKind::Import(decl) => Some(segments(decl)),
        _ => None,
    }
}

/// The module paths of every `import` of a file's text, in source order. Only the pieces
/// that can hold an import are parsed: `import` and `pub` always begin a piece (see
/// `syntax::layout`), so an import item is never inside another.
pub fn imports_in(text: &str) -> Vec<Vec<String>> {
    parser::split(text)
        .pieces
        .iter()
        .filter(|piece| {
            let piece_text = piece.text(text);
            piece_text.starts_with("import") || piece_text.starts_with("pub")
        })
        .flat_map(|piece| parser::parse_piece(piece.text(text), piece.origin).items)
        .filter_map(|item| import_path(&item))
        .collect()
}

/// Every module file reachable through the imports of `sources` (path, text), as
/// (normalised path, text), sorted by path, each once. An import resolves to the first of
/// its `candidates` that `read` returns text for, the way the checker resolves it among the
/// files it is given; an import that none resolves is left out (the checker reports it
/// missing). `read` is asked about each path at most once.
pub fn load(
    sources: &[(String, String)],
    include_roots: &[String],
    read: &mut dyn FnMut(&str) -> Option<String>,
) -> Vec<(String, String)> {
    let mut loaded: BTreeMap<String, String> = BTreeMap::new();
    let mut unreadable: HashSet<String> = HashSet::new();
    let mut pending: Vec<(String, String)> = sources.to_vec();
    while let Some((path, text)) = pending.pop() {
        for import in imports_in(&text) {
            for candidate in candidates(&path, &import, include_roots) {
                if loaded.contains_key(&candidate) {
                    break;
                }
                if unreadable.contains(&candidate) || loaded.len() >= MAX_MODULES {
                    continue;
                }
                match read(&candidate) {
                    Some(text) => {
                        loaded.insert(candidate.clone(), text.clone());
                        pending.push((candidate, text));
                        break;
                    }
                    None => {
                        unreadable.insert(candidate);
                    }
                }
            }
        }
    }
    loaded.into_iter().collect()
}

/// The file paths `import <segments>` in the file at `importer` may refer to, first choice
/// first, normalised with `normalize`.
pub fn candidates(importer: &str, segments: &[String], include_roots: &[String]) -> Vec<String> {
    let ups = segments.iter().take_while(|s| *s == "super").count();
    let rest = &segments[ups..];
    if rest.is_empty() {
        return vec![];
    }
    let relative = format!("{}.rex", rest.join("/"));
    let mut dir = parent(importer);
    for _ in 0..ups {
        dir = parent(&dir);
    }
    let mut out = vec![normalize(&join(&dir, &relative))];
    if ups == 0 {
        for root in include_roots {
            let path = normalize(&join(root, &relative));
            if !out.contains(&path) {
                out.push(path);
            }
        }
    }
    out
}

/// The directory part of `path` (`""` for a bare file name).
fn parent(path: &str) -> String {
    let normal = normalize(path);
    match normal.rfind('/') {
        Some(0) => "/".to_string(),
        Some(i) => normal[..i].to_string(),
        None if normal == "." || normal.is_empty() => "..".to_string(),
        None if normal == ".." || normal.ends_with("/..") => format!("{normal}/.."),
        None => String::new(),
    }
}

fn join(dir: &str, file: &str) -> String {
    match dir {
        "" => file.to_string(),
        d if d.ends_with('/') => format!("{d}{file}"),
        d => format!("{d}/{file}"),
    }
}

/// Removes `.` segments and folds `x/..`, lexically, so that one file has one spelling
/// however it was reached (`a/../b.rex` is `b.rex`). Leading `..` segments stay.
pub fn normalize(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => match parts.last() {
                Some(&last) if last != ".." => {
                    parts.pop();
                }
                _ if absolute => {}
                _ => parts.push(".."),
            },
            s => parts.push(s),
        }
    }
    let body = parts.join("/");
    if absolute {
        format!("/{body}")
    } else {
        body
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segs(path: &str) -> Vec<String> {
        path.split('.').map(String::from).collect()
    }

    #[test]
    fn relative_to_the_importing_file() {
        assert_eq!(
            candidates("dir/main.rex", &segs("a.b"), &[]),
            ["dir/a/b.rex"]
        );
        assert_eq!(candidates("main.rex", &segs("a"), &[]), ["a.rex"]);
        assert_eq!(candidates("/p/q/main.rex", &segs("a"), &[]), ["/p/q/a.rex"]);
    }

    #[test]
    fn super_walks_up() {
        assert_eq!(
            candidates("x/y/main.rex", &segs("super.core.calc"), &[]),
            ["x/core/calc.rex"]
        );
        assert_eq!(candidates("main.rex", &segs("super.a"), &[]), ["../a.rex"]);
        assert_eq!(
            candidates("x/main.rex", &segs("super.super.a"), &[]),
            ["../a.rex"]
        );
        assert!(candidates("main.rex", &segs("super"), &[]).is_empty());
    }

    #[test]
    fn include_roots_come_after_the_relative_path() {
        let roots = vec!["lib".to_string(), "/opt/rex/".to_string()];
        assert_eq!(
            candidates("src/main.rex", &segs("util.text"), &roots),
            [
                "src/util/text.rex",
                "lib/util/text.rex",
                "/opt/rex/util/text.rex"
            ]
        );
    }

    /// `load` over an in-memory file system that records what it was asked.
    fn load_from(
        files: &[(&str, &str)],
        sources: &[(&str, &str)],
        roots: &[&str],
    ) -> (Vec<(String, String)>, Vec<String>) {
        let files: BTreeMap<String, String> = files
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        let sources: Vec<(String, String)> = sources
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        let roots: Vec<String> = roots.iter().map(|r| r.to_string()).collect();
        let mut asked = Vec::new();
        let loaded = load(&sources, &roots, &mut |path| {
            asked.push(path.to_string());
            files.get(path).cloned()
        });
        (loaded, asked)
    }

    fn paths(loaded: &[(String, String)]) -> Vec<&str> {
        loaded.iter().map(|(p, _)| p.as_str()).collect()
    }

    #[test]
    fn load_follows_imports_transitively() {
        let files = [
            ("p/a.rex", "import b.c as C\npub fn a x: i32 -> i32 = x\n"),
            ("p/b/c.rex", "import super.d (*)\n"),
            ("p/d.rex", "pub fn d x: i32 -> i32 = x\n"),
            ("p/unused.rex", "pub fn u x: i32 -> i32 = x\n"),
        ];
        let (loaded, _) = load_from(&files, &[("p/main.rex", "import a as A\nA.a 1\n")], &[]);
        assert_eq!(paths(&loaded), ["p/a.rex", "p/b/c.rex", "p/d.rex"]);
        assert_eq!(loaded[2].1, files[2].1);
    }

    #[test]
    fn load_terminates_on_cycles_and_reads_each_file_once() {
        let files = [
            ("a.rex", "import b (*)\n"),
            ("b.rex", "import a (*)\nimport b (*)\n"),
        ];
        let (loaded, asked) =
            load_from(&files, &[("main.rex", "import a (*)\nimport b (*)\n")], &[]);
        assert_eq!(paths(&loaded), ["a.rex", "b.rex"]);
        assert_eq!(asked, ["a.rex", "b.rex"]);
    }

    #[test]
    fn load_leaves_missing_modules_out_and_asks_once() {
        let files = [("there.rex", "import gone (*)\n")];
        let (loaded, asked) = load_from(
            &files,
            &[(
                "main.rex",
                "import gone (*)\nimport there (*)\nimport gone as G\n",
            )],
            &[],
        );
        assert_eq!(paths(&loaded), ["there.rex"]);
        assert_eq!(asked, ["gone.rex", "there.rex"]);
    }

    #[test]
    fn load_searches_include_roots_after_the_importer_directory() {
        let files = [
            ("/lib/util.rex", "pub fn from_lib x: i32 -> i32 = x\n"),
            ("/other/util.rex", "pub fn from_other x: i32 -> i32 = x\n"),
            ("/src/local.rex", ""),
            ("/lib/local.rex", ""),
        ];
        let roots = ["/lib", "/other"];
        let (loaded, asked) = load_from(
            &files,
            &[("/src/main.rex", "import util (*)\nimport local (*)\n")],
            &roots,
        );
        assert_eq!(paths(&loaded), ["/lib/util.rex", "/src/local.rex"]);
        assert_eq!(asked, ["/src/util.rex", "/lib/util.rex", "/src/local.rex"]);
    }

    #[test]
    fn load_resolves_super_from_the_importing_module() {
        let files = [
            ("x/core/calc.rex", "import super.shared (*)\n"),
            ("x/shared.rex", ""),
            ("shared.rex", "the wrong one"),
        ];
        let (loaded, _) = load_from(
            &files,
            &[("x/app/main.rex", "import super.core.calc as C\n")],
            &[],
        );
        assert_eq!(paths(&loaded), ["x/core/calc.rex", "x/shared.rex"]);
    }

    #[test]
    fn load_normalises_the_paths_it_asks_for() {
        let files = [("lib/m.rex", "")];
        let (loaded, asked) = load_from(
            &files,
            &[("./src/../main.rex", "import m (*)\n")],
            &["./lib/"],
        );
        assert_eq!(paths(&loaded), ["lib/m.rex"]);
        assert_eq!(asked, ["m.rex", "lib/m.rex"]);
    }

    #[test]
    fn load_stops_at_the_module_limit() {
        // A chain longer than the limit: m0 imports m1 imports m2 ...
        let mut asked = 0usize;
        let loaded = load(
            &[("main.rex".to_string(), "import m0 (*)\n".to_string())],
            &[],
            &mut |path| {
                asked += 1;
                let n: usize = path
                    .trim_start_matches('m')
                    .trim_end_matches(".rex")
                    .parse()
                    .ok()?;
                Some(format!("import m{} (*)\n", n + 1))
            },
        );
        assert_eq!(loaded.len(), MAX_MODULES);
        assert_eq!(asked, MAX_MODULES);
    }

    #[test]
    fn normalizes_lexically() {
        assert_eq!(normalize("./a/../b/./c.rex"), "b/c.rex");
        assert_eq!(normalize("../../a.rex"), "../../a.rex");
        assert_eq!(normalize("/../a.rex"), "/a.rex");
    }
}

//! Where `import a.b` looks for its file. The compiler does no I/O: a front door asks
//! `candidates` for the paths of each import, reads the first that exists, and hands the
//! files to the database (`Database::set_modules`); the checker then resolves each import
//! to the first candidate the database holds, or reports the module missing (E0401).
//!
//! `a.b` is `a/b.rex` beside the importing file; each leading `super` walks one directory
//! up first; then the same path is tried under each include root, in order.

use crate::syntax::ast::ImportDecl;

/// The segments of an import's module path (`super.core.calc`).
pub fn segments(decl: &ImportDecl) -> Vec<String> {
    decl.path.iter().map(|n| n.text.clone()).collect()
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

    #[test]
    fn normalizes_lexically() {
        assert_eq!(normalize("./a/../b/./c.rex"), "b/c.rex");
        assert_eq!(normalize("../../a.rex"), "../../a.rex");
        assert_eq!(normalize("/../a.rex"), "/a.rex");
    }
}

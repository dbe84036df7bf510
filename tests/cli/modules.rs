//! Modules through the real binary: what an import makes visible (and nothing more), each
//! module checked in its own scope and reported on its own file, and `rex run` evaluating
//! what modules define.

mod support;

use serde_json::Value;
use support::{stderr, stdout, TempDir};

/// `dep.rex`: public and private declarations of every kind.
const DEP: &str = "\
pub type Boxed = Boxed i32
pub type Shape = Circle f64 | Square f64
type Hidden = Hidden i32

pub class Describe a
  describe : a -> string

instance Describe Boxed
  describe = \\b -> match b when Boxed n -> \"boxed \" + show n

pub fn double x: i32 -> i32 = x * 2
pub fn unbox b: Boxed -> i32 = match b when Boxed n -> n
fn secret x: i32 -> i32 = x + 1
pub fn area s: Shape -> f64 = match s
  when Circle r -> 3.0 * r * r
  when Square w -> w * w
";

fn with_dep() -> TempDir {
    let dir = TempDir::new("modules");
    dir.file("dep.rex", DEP);
    dir
}

/// (file, code, message) of each error or warning of `rex check --json FILE`.
fn problems(dir: &TempDir, file: &str) -> (Option<i32>, Vec<(String, String, String)>) {
    let out = dir.rex(&["check", "--json", file]);
    let report: Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON report");
    let list = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["severity"] != "info")
        .map(|d| {
            let field = |k: &str| d[k].as_str().unwrap_or_default().to_string();
            (field("file"), field("code"), field("message"))
        })
        .collect();
    (out.status.code(), list)
}

fn codes(list: &[(String, String, String)]) -> Vec<&str> {
    list.iter().map(|(_, c, _)| c.as_str()).collect()
}

#[test]
fn a_module_declarations_are_visible_only_through_an_import() {
    let dir = with_dep();
    // Types, constructors, classes, methods and functions of `dep` are nowhere in scope
    // without an import naming them.
    dir.file(
        "bare.rex",
        "import dep (double)\n\
         fn f x: Boxed -> i32 = 1\n\
         fn g x: i32 -> string where Describe i32 = \"\"\n\
         (double 1, Circle 1.0, unbox, describe)\n",
    );
    let (status, list) = problems(&dir, "bare.rex");
    assert_eq!(status, Some(1));
    assert_eq!(
        codes(&list),
        ["E0202", "E0203", "E0201", "E0201", "E0201"],
        "{list:?}"
    );
    // Private declarations cannot be imported, by name or through an alias.
    dir.file(
        "private.rex",
        "import dep (Hidden, secret)\nimport dep as D\nfn g x: D.Hidden -> i32 = D.secret 1\n",
    );
    let (_, list) = problems(&dir, "private.rex");
    assert_eq!(
        codes(&list),
        ["E0402", "E0402", "E0402", "E0402"],
        "{list:?}"
    );
}

#[test]
fn an_import_brings_every_facet_of_a_name() {
    let dir = with_dep();
    dir.file(
        "main.rex",
        "import dep as D\n\
         import dep (double, Boxed, Describe, describe as say)\n\n\
         fn quad x: i32 -> i32 = double (double x)\n\
         fn show_it x: a -> string where Describe a = say x\n\n\
         let b: Boxed = Boxed 20 in\n\
         (quad 1, D.unbox b, show_it (D.Boxed 3), D.area (D.Circle 1.0),\n \
         match (D.Square 2.0) when D.Square w -> w when D.Circle _ -> 0.0)\n",
    );
    let (status, list) = problems(&dir, "main.rex");
    assert_eq!((status, list.len()), (Some(0), 0), "{list:?}");
    let out = dir.rex(&["run", "main.rex"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).trim(),
        "(4i32, 20i32, \"boxed 3\", 3f64, 2f64)"
    );
}

#[test]
fn modules_may_declare_the_same_names_and_resolve_their_own_imports() {
    let dir = TempDir::new("modules");
    dir.file(
        "util/core.rex",
        "pub type Item = Item { name: string, qty: i32 }\n\
         pub fn mk n: string -> Item = Item { name = n, qty = 1 }\n",
    );
    // `text` declares its own `Item` and reaches `core`'s through its own alias.
    dir.file(
        "util/text.rex",
        "import super.util.core as C\n\
         pub type Item = Item string\n\
         pub fn label i: C.Item -> string = i.name\n\
         pub fn wrap s: string -> Item = Item s\n",
    );
    dir.file(
        "util/calc.rex",
        "import core (Item)\n\
         pub fn total xs: List Item -> i32 = foldl (\\acc i -> acc + i.qty) 0 xs\n",
    );
    dir.file(
        "main.rex",
        "import util.text as T\nimport util.core as C\nimport util.calc (total)\n\
         (T.label (C.mk \"apple\"), T.wrap \"x\", total [C.mk \"a\", C.mk \"b\"])\n",
    );
    let out = dir.rex(&["run", "main.rex"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "(\"apple\", Item \"x\", 2i32)");

    // The two `Item`s are different types, and messages say whose is whose.
    dir.file(
        "mixed.rex",
        "import util.text as T\nT.label (T.wrap \"x\")\n",
    );
    let (status, list) = problems(&dir, "mixed.rex");
    assert_eq!(status, Some(1));
    assert_eq!(codes(&list), ["E0301"]);
    assert!(
        list[0].2.contains("`core.Item`") && list[0].2.contains("`text.Item`"),
        "{list:?}"
    );
}

#[test]
fn mistakes_inside_a_module_are_reported_on_the_module_file() {
    let dir = TempDir::new("modules");
    dir.file(
        "lib/broken.rex",
        "pub fn inc x: i32 -> i32 = x + \"one\"\n\
         pub fn name x: i32 -> string = nmae\n\
         1 + 2\n",
    );
    dir.file("main.rex", "import lib.broken (inc)\ninc 1\n");
    let (status, list) = problems(&dir, "main.rex");
    assert_eq!(status, Some(1));
    let files: Vec<&str> = list.iter().map(|(f, _, _)| f.as_str()).collect();
    assert_eq!(files, ["lib/broken.rex"; 3], "{list:?}");
    assert_eq!(codes(&list), ["E0301", "E0201", "E0405"], "{list:?}");
    // The importing program still runs around the module's mistakes.
    let out = dir.rex(&["run", "main.rex"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("lib/broken.rex"), "{}", stderr(&out));
    // Checked on its own, a file with a result expression is a program, not a module.
    let (_, list) = problems(&dir, "lib/broken.rex");
    assert_eq!(codes(&list), ["E0301", "E0201"], "{list:?}");
}

#[test]
fn imports_conflicting_with_declarations_or_each_other_are_errors() {
    let dir = with_dep();
    dir.file("other.rex", "pub fn double x: i32 -> i32 = x + x\n");
    dir.file(
        "main.rex",
        "import dep (unbox)\nimport dep (double)\nimport other (double)\n\
         fn unbox x: i32 -> i32 = x\n\
         double 2\n",
    );
    let (status, list) = problems(&dir, "main.rex");
    assert_eq!(status, Some(1));
    assert_eq!(codes(&list), ["E0403", "E0403"], "{list:?}");
}

#[test]
fn instances_of_imported_classes_and_holes_inside_modules_run() {
    let dir = with_dep();
    dir.file("lib/todo.rex", "pub fn later x: i32 -> i32 = x + ?rest\n");
    dir.file(
        "main.rex",
        "import dep as D\nimport lib.todo (later)\n\n\
         instance D.Describe i32\n  describe = \\n -> \"int \" + show n\n\n\
         (D.describe 7, later 1)\n",
    );
    let out = dir.rex(&["run", "--holes", "main.rex"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("(\"int 7\", "), "{text}");
    assert!(text.contains("?rest at lib/todo.rex:1:34"), "{text}");
    assert!(text.contains("x = 1i32"), "{text}");
}

#[test]
fn modules_may_import_each_other_and_the_checked_file_back() {
    let dir = TempDir::new("modules");
    dir.file(
        "a.rex",
        "import b as B\npub fn fa x: i32 -> i32 = if x <= 0 then 0 else B.fb (x - 1)\n",
    );
    dir.file(
        "b.rex",
        "import a as A\npub fn fb x: i32 -> i32 = if x <= 0 then 1 else A.fa (x - 1)\n",
    );
    dir.file("main.rex", "import a (fa)\n(fa 5, fa 4)\n");
    let out = dir.rex(&["run", "main.rex"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "(1i32, 0i32)");
    // Checked on its own, `a` is the program and `b` imports it back: no error.
    let (status, list) = problems(&dir, "a.rex");
    assert_eq!((status, list.len()), (Some(0), 0), "{list:?}");
    // A file importing itself is told so.
    dir.file("self.rex", "import self (x)\n1\n");
    let (status, list) = problems(&dir, "self.rex");
    assert_eq!(status, Some(1));
    assert_eq!(codes(&list), ["E0403"], "{list:?}");
    assert!(list[0].2.contains("cannot import itself"), "{list:?}");
}

#[test]
fn a_long_chain_of_modules_checks_and_runs() {
    // 300 modules, each importing the next: every one is checked in its own scope and
    // their declarations are shared, not copied per module.
    let dir = TempDir::new("modules");
    let n = 300;
    for i in 0..n {
        let (import, body) = if i + 1 < n {
            (
                format!("import m{} as N\n", i + 1),
                format!("N.f{} x + 1", i + 1),
            )
        } else {
            (String::new(), "x".to_string())
        };
        dir.file(
            &format!("m{i}.rex"),
            &format!("{import}pub type T{i} = T{i} i32\npub fn f{i} x: i32 -> i32 = {body}\n"),
        );
    }
    dir.file("main.rex", "import m0 as M\nM.f0 1\n");
    let out = dir.rex(&["run", "main.rex"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "300i32");
}

#[test]
fn a_name_a_module_does_not_export_is_one_error_and_repairable() {
    let dir = with_dep();
    // A failed import is reported once; its uses are not reported again.
    dir.file(
        "items.rex",
        "import dep (nope, Nada, double)\n\
         fn f x: Nada -> i32 = nope x\n\
         (nope 1, double 3)\n",
    );
    let (status, list) = problems(&dir, "items.rex");
    assert_eq!(status, Some(1));
    assert_eq!(codes(&list), ["E0402", "E0402"], "{list:?}");
    // Through an alias: one error on the member, with the module's near misses, which the
    // bulk repair uses.
    dir.file(
        "alias.rex",
        "import dep as D\n(D.doubel 2, D.unbx (D.Boxed 1))\n",
    );
    let (_, list) = problems(&dir, "alias.rex");
    assert_eq!(codes(&list), ["E0402", "E0402"], "{list:?}");
    assert!(list[0].2.contains("`doubel` is not exported"), "{list:?}");
    let out = dir.rex(&[
        "ide",
        "semantic-loop-apply-best-quick-fixes-at",
        "alias.rex",
        "1",
        "4",
        "--args",
        "{\"dryRun\": true}",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let reply: Value = serde_json::from_str(&stdout(&out)).expect("JSON reply");
    assert_eq!(
        reply["updatedText"],
        "import dep as D\n(D.double 2, D.unbox (D.Boxed 1))\n"
    );
    assert_eq!(reply["stoppedReason"], "clean");
}

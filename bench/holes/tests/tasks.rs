//! The committed task set is consistent, without the model: every task has exactly one
//! hole, of a concrete type, in a program without errors (its modules loaded); its
//! reference fill passes, and passes every test; with the hole left open the program
//! prints something else (the output depends on the fill); the MVU apps have 12 to 15
//! tests, kept out of the shown program, and their types and helpers in a module the
//! program imports, which `rex fill` finds beside the file; the large programs have 600 to
//! 700 lines and are what the generator writes. Where `../shared/conformance` is present,
//! the cut generator's output is also the committed one.

use std::path::Path;

use rex_bench::judge::{hole_of, judge, output_with_hole, task_hole};
use rex_bench::task::{load_all, load_suite, tasks_dir, Kind};

#[test]
fn every_task_is_well_formed_and_its_reference_passes() {
    let tasks = load_all(&tasks_dir()).expect("the tasks load");
    let mut problems = Vec::new();
    for t in &tasks {
        let hole = match task_hole(t) {
            Ok(h) => h,
            Err(e) => {
                problems.push(format!("{}: {e}", t.id));
                continue;
            }
        };
        if !hole.concrete {
            problems.push(format!(
                "{}: the hole's type `{}` is not concrete",
                t.id, hole.expected_type
            ));
        }
        if hole.expected_type != t.meta.expected_type {
            problems.push(format!(
                "{}: the hole expects `{}`, the task says `{}`",
                t.id, hole.expected_type, t.meta.expected_type
            ));
        }
        let v = judge(t, &hole, &t.meta.reference);
        if !v.passed {
            problems.push(format!(
                "{}: the reference fill does not pass: {:?}",
                t.id, v.output
            ));
        }
        let passed = t.tests_passed(v.output.as_deref().ok());
        if passed != t.tests() {
            problems.push(format!(
                "{}: the reference passes {passed} of {} tests",
                t.id,
                t.tests()
            ));
        }
        if output_with_hole(t, &hole).as_deref() == Ok(t.meta.expected.as_str()) {
            problems.push(format!("{}: the output does not depend on the hole", t.id));
        }
        if t.meta.kind != Kind::Update && t.meta.reference.trim().parse::<f64>().is_ok() {
            problems.push(format!("{}: the reference is a bare literal", t.id));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    for suite in ["llms", "mvu", "cut", "large"] {
        assert!(tasks.iter().any(|t| t.suite == suite), "no `{suite}` task");
    }
}

#[test]
fn the_mvu_apps_keep_their_tests_out_of_sight() {
    let apps = load_suite(&tasks_dir(), "mvu").expect("the apps load");
    assert_eq!(apps.len(), 5);
    for app in &apps {
        let tests = app.epilogue.as_deref().expect("an app has tests");
        let n = app.meta.expected.matches("true").count();
        assert!((12..=15).contains(&n), "{}: {n} tests", app.id);
        assert_eq!(
            app.meta.expected,
            format!("[{}]", vec!["true"; n].join(", "))
        );
        assert!(
            !app.program.contains("model_eq"),
            "{}: the tests show",
            app.id
        );
        assert!(
            tests.contains("model_eq"),
            "{}: the tests compare models",
            app.id
        );
        assert!(app.program.contains("fn update : Model -> Action -> Model"));
        assert_eq!(app.tests(), n, "{}", app.id);
        assert_eq!(app.tests_passed(Some(&app.meta.expected)), n);
        let mut one_fails = vec!["true"; n];
        one_fails[0] = "false";
        let one_fails = format!("[{}]", one_fails.join(", "));
        assert_eq!(app.tests_passed(Some(&one_fails)), n - 1);
        assert_eq!(app.tests_passed(None), 0);
    }
}

#[test]
fn the_mvu_apps_import_their_types_and_helpers_from_a_module() {
    let dir = tasks_dir();
    let apps = load_suite(&dir, "mvu").expect("the apps load");
    for app in &apps {
        let name = app.id.rsplit('/').next().unwrap();
        let module = format!("mvu/lib/{name}.rex");
        assert_eq!(app.path, format!("mvu/{name}.rex"));
        assert!(
            app.program.contains(&format!("import lib.{name} (*)")),
            "{}: no import",
            app.id
        );
        // The module holds the types and the helpers, exported; the program only `update`.
        let [(path, text)] = app.modules.as_slice() else {
            panic!("{}: modules {:?}", app.id, app.modules);
        };
        assert_eq!(path, &module);
        assert!(text.contains("pub type Model = Model {"), "{module}");
        assert!(text.contains("pub type Action ="), "{module}");
        assert!(
            text.matches("pub fn ").count() >= 5,
            "{module}: its helpers"
        );
        assert!(
            !text.contains("\nfn ") && !text.contains("\ntype "),
            "{module}: private"
        );
        assert!(!app.program.contains("type Model"), "{}", app.id);
        assert_eq!(
            app.program.matches("\nfn ").count(),
            1,
            "{}: only update",
            app.id
        );
        // Without its module the program does not check: the import is what brings the
        // names in, for the program and for the tests appended to it.
        let alone = hole_of(&app.program);
        assert!(alone.is_err(), "{}: checks without its module", app.id);
        let hole = task_hole(app).expect("the app checks with its module");
        assert!(
            hole.expected_type.ends_with("Model"),
            "{}: {}",
            app.id,
            hole.expected_type
        );
        // `rex fill tasks/mvu/NAME.rex` reads the module from disk beside the file.
        let file = dir.join(&app.path).display().to_string();
        let loaded = rex_ide::files::load_modules(&[(file, app.program.clone())], &[]);
        assert_eq!(loaded.len(), 1, "{}: {loaded:?}", app.id);
        assert!(loaded[0].0.ends_with(&module), "{}: {loaded:?}", app.id);
        assert_eq!(&loaded[0].1, text);
    }
}

#[test]
fn the_large_programs_are_long_before_their_hole_and_what_the_generator_writes() {
    let committed = load_suite(&tasks_dir(), "large").expect("the large tasks load");
    assert_eq!(committed.len(), rex_bench::large::SOURCES.len());
    let llms = load_suite(&tasks_dir(), "llms").expect("the llms tasks load");
    for t in &committed {
        let lines = t.program.lines().count();
        let (lo, hi) = rex_bench::large::LINES;
        assert!((lo..=hi).contains(&lines), "{}: {lines} lines", t.id);
        let hole = task_hole(t).expect("the program checks");
        assert!(
            hole.position.line as usize + 20 > lines,
            "{}: the hole is on line {} of {lines}",
            t.id,
            hole.position.line + 1
        );
        // The program ends with its `llms` task, whose hole, reference and output it keeps.
        let name = t.id.rsplit('/').next().unwrap();
        let source = llms
            .iter()
            .find(|s| s.id == format!("llms/{name}"))
            .expect("its source task");
        assert!(t.program.ends_with(&source.program), "{}", t.id);
        assert_eq!(
            (&t.meta.reference, &t.meta.expected, &t.meta.expected_type),
            (
                &source.meta.reference,
                &source.meta.expected,
                &source.meta.expected_type
            )
        );
    }
    let fresh = rex_bench::large::generate(&tasks_dir(), rex_bench::large::SEED)
        .expect("the generator runs");
    let fresh: Vec<(String, String, String)> = fresh
        .iter()
        .map(|t| {
            let meta = serde_json::to_string(&t.meta).unwrap();
            (t.name.clone(), t.program.clone(), meta)
        })
        .collect();
    let committed: Vec<(String, String, String)> = committed
        .iter()
        .map(|t| {
            let name = t.id.rsplit('/').next().unwrap_or("").to_string();
            let meta = serde_json::to_string(&t.meta).unwrap();
            (name, t.program.clone(), meta)
        })
        .collect();
    assert_eq!(
        fresh, committed,
        "run `cargo run -p rex-bench -- generate --suite large`"
    );
}

#[test]
fn the_generator_writes_the_committed_cut_tasks() {
    let conformance = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance");
    if !conformance.is_dir() {
        println!("skipped: {} is absent", conformance.display());
        return;
    }
    let out = std::env::temp_dir().join(format!("rex-bench-cut-{}", std::process::id()));
    let (cuts, _) = rex_bench::cut::generate(&conformance, rex_bench::cut::PER_PROGRAM)
        .expect("the generator runs");
    rex_bench::cut::write(&out, &cuts).expect("the tasks are written");
    let fresh = load_suite(&out, "").expect("the fresh tasks load");
    let committed = load_suite(&tasks_dir(), "cut").expect("the committed tasks load");
    let _ = std::fs::remove_dir_all(&out);
    let names = |ts: &[rex_bench::task::Task]| -> Vec<(String, String)> {
        ts.iter()
            .map(|t| {
                (
                    t.id.rsplit('/').next().unwrap_or("").to_string(),
                    t.program.clone(),
                )
            })
            .collect()
    };
    assert_eq!(
        names(&fresh),
        names(&committed),
        "run `cargo run -p rex-bench -- generate`"
    );
}

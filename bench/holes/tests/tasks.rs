//! The committed task set is consistent, without the model: every task has exactly one
//! hole, of a concrete type, in a program without errors; its reference fill passes; with
//! the hole left open the program prints something else (the output depends on the fill);
//! the MVU apps have 12 to 15 tests, kept out of the shown program. Where
//! `../shared/conformance` is present, the generator's output is also the committed one.

use std::path::Path;

use rex_bench::judge::{hole_of, judge, output_with_hole};
use rex_bench::task::{load_all, load_suite, tasks_dir, Kind};

#[test]
fn every_task_is_well_formed_and_its_reference_passes() {
    let tasks = load_all(&tasks_dir()).expect("the tasks load");
    let mut problems = Vec::new();
    for t in &tasks {
        let hole = match hole_of(&t.program) {
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
        if output_with_hole(t, &hole).as_deref() == Ok(t.meta.expected.as_str()) {
            problems.push(format!("{}: the output does not depend on the hole", t.id));
        }
        if t.meta.kind != Kind::Update && t.meta.reference.trim().parse::<f64>().is_ok() {
            problems.push(format!("{}: the reference is a bare literal", t.id));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    for suite in ["llms", "mvu", "cut"] {
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
    }
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

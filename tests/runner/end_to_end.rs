//! The conformance runner driven end to end against a stand-in `rex` (a shell script), so
//! both modes, timeouts and the baseline logic are exercised without the real toolchain.
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A stand-in for `rex`: `run --help` works only when `FAKE_RUN=1`; a program containing
/// `BAD` is rejected, one containing `SLEEP` hangs, and `run` prints the program's text.
const FAKE_REX: &str = r#"#!/bin/sh
if [ "$1" = run ] && [ "$2" = --help ]; then
  [ "${FAKE_RUN:-0}" = 1 ] && exit 0
  echo "error: unrecognized subcommand 'run'" >&2; exit 2
fi
file="$3"; [ "$1" = run ] && file="$2"
if grep -q SLEEP "$file"; then sleep 30; fi
if grep -q BAD "$file"; then
  [ "$1" = check ] && echo '{"diagnostics":[{"file":"f","code":"E0101","severity":"error","category":"syntax","message":"bad thing","range":{},"notes":[]}]}'
  echo "error[E0101]: bad thing" >&2
  exit 1
fi
[ "$1" = check ] && echo '{"diagnostics":[]}' && exit 0
cat "$file"
"#;

struct Fixture {
    dir: PathBuf,
}

impl Fixture {
    fn new() -> Fixture {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "rex-conformance-e2e-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(dir.join("programs")).expect("temp dir");
        let rex = dir.join("rex");
        std::fs::write(&rex, FAKE_REX).expect("write fake rex");
        std::fs::set_permissions(&rex, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        Fixture { dir }
    }

    fn program(&self, name: &str, text: &str, expected: Option<&str>) {
        let programs = self.dir.join("programs");
        std::fs::write(programs.join(format!("{name}.rex")), text).expect("write program");
        if let Some(expected) = expected {
            std::fs::write(programs.join(format!("{name}.expected")), expected)
                .expect("write expected");
        }
    }

    fn baseline(&self, text: &str) -> PathBuf {
        let path = self.dir.join("baseline.txt");
        std::fs::write(&path, text).expect("write baseline");
        path
    }

    fn run(&self, extra: &[&str], fake_run: bool) -> Output {
        Command::new(env!("CARGO_BIN_EXE_rex-conformance"))
            .arg("--rex")
            .arg(self.dir.join("rex"))
            .arg("--dir")
            .arg(self.dir.join("programs"))
            .args(extra)
            .env("FAKE_RUN", if fake_run { "1" } else { "0" })
            .output()
            .expect("run the runner")
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn arg(path: &Path) -> &str {
    path.to_str().expect("utf-8 temp path")
}

/// good and rejected pass, wrongly_rejected fails, orphan (no .expected) is skipped.
fn check_fixture() -> Fixture {
    let f = Fixture::new();
    f.program("good", "1\n", Some("ok\n1\n"));
    f.program("rejected", "BAD\n", Some("error\n"));
    f.program("wrongly_rejected", "BAD\n", Some("hole\n"));
    f.program("orphan", "BAD\n", None);
    f
}

#[test]
fn check_mode_counts_and_names_failures() {
    let f = check_fixture();
    let out = f.run(&[], false);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "FAIL wrongly_rejected: expected no error, `rex check` reported E0101 bad thing",
            "2 passed, 1 failed",
        ],
        "{text}"
    );
}

#[test]
fn baseline_guards_against_regressions() {
    let f = check_fixture();
    let baseline = f.baseline("3\n");
    let out = f.run(&["--baseline", arg(&baseline)], false);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(stdout(&out).contains("regressed"), "{out:?}");

    let baseline = f.baseline("2\n");
    let out = f.run(&["--baseline", arg(&baseline)], false);
    assert_eq!(out.status.code(), Some(0), "{out:?}");

    let baseline = f.baseline("1\n");
    let out = f.run(&["--baseline", arg(&baseline)], false);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(stdout(&out).contains("raise it"), "{out:?}");

    let out = f.run(&["--baseline", arg(&baseline), "--update-baseline"], false);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        std::fs::read_to_string(&baseline).ok().as_deref(),
        Some("2\n")
    );
}

#[test]
fn run_mode_is_used_when_rex_run_exists() {
    let f = Fixture::new();
    f.program("prints", "[1i32]\n", Some("ok\n[1i32]\n"));
    f.program("misprints", "[2i32]\n", Some("ok\n[1i32]\n"));
    f.program("hole", "Ok ?\n", Some("hole\n"));
    f.program("rejected", "BAD\n", Some("error\n"));
    f.program("accepted", "3i32\n", Some("error\n"));
    let out = f.run(&[], true);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("run mode"));
    let text = stdout(&out);
    assert!(
        text.contains("FAIL accepted: expected an error, `rex run` exited 0 printing `3i32`"),
        "{text}"
    );
    assert!(
        text.contains("FAIL misprints: expected output `[1i32]`, got `[2i32]`"),
        "{text}"
    );
    assert!(text.ends_with("3 passed, 2 failed\n"), "{text}");
}

#[test]
fn slow_programs_time_out_and_fail() {
    let f = Fixture::new();
    f.program("slow", "SLEEP\n", Some("ok\n\n"));
    let started = std::time::Instant::now();
    let out = f.run(&["--timeout", "0.5"], false);
    assert!(started.elapsed().as_secs() < 20, "the child was killed");
    let text = stdout(&out);
    assert!(text.contains("FAIL slow: timed out"), "{text}");
    assert!(text.contains("0 passed, 1 failed"), "{text}");
}

#[test]
fn usage_and_io_problems_exit_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_rex-conformance"))
        .output()
        .expect("run the runner");
    assert_eq!(out.status.code(), Some(2));
    let f = Fixture::new();
    let out = Command::new(env!("CARGO_BIN_EXE_rex-conformance"))
        .args(["--rex", "/nonexistent/rex", "--dir"])
        .arg(f.dir.join("programs"))
        .output()
        .expect("run the runner");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    f.program("good", "1\n", Some("ok\n1\n"));
    let out = Command::new(env!("CARGO_BIN_EXE_rex-conformance"))
        .args(["--rex", "/nonexistent/rex", "--dir"])
        .arg(f.dir.join("programs"))
        .output()
        .expect("run the runner");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot start"));
}

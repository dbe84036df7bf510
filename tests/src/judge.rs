//! Deciding whether `rex` does what a program's `.expected` says.
//!
//! Two modes: `run` (the real contract: exit status and printed output of `rex run`) and
//! `check` (used until `rex run` exists: only whether `rex check` finds an error).

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::Duration;

use crate::cases::{trim_one_newline, Case, Expectation};
use crate::process::{self, Finished, Outcome};

/// `rex --help` and friends answer at once; this only guards against a hung binary.
const PROBE_TIMEOUT: Duration = Duration::from_secs(30);

/// Longest excerpt of program output quoted in a failure line.
const EXCERPT_CHARS: usize = 80;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `rex check --json FILE`: `ok`/`hole` pass on exit 0, `error` on exit 1.
    Check,
    /// `rex run FILE`: `ok` passes on exit 0 with the expected stdout, `hole` on exit 0,
    /// `error` on a non-zero exit.
    Run,
}

pub type Verdict = Result<(), String>;

impl Mode {
    /// `Run` when the binary has a working `rex run`, `Check` otherwise.
    pub fn detect(rex: &Path) -> Result<Mode, String> {
        match process::run(rex, &["run", "--help"], None, PROBE_TIMEOUT) {
            Outcome::NotStarted(reason) => Err(reason),
            Outcome::Finished(f) if f.status.success() => Ok(Mode::Run),
            _ => Ok(Mode::Check),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mode::Check => "check",
            Mode::Run => "run",
        }
    }

    fn args(self) -> &'static [&'static str] {
        match self {
            Mode::Check => &["check", "--json"],
            Mode::Run => &["run"],
        }
    }
}

/// Judges every case, `jobs` at a time; verdicts come back in the order of `cases`.
pub fn judge_all(
    rex: &Path,
    mode: Mode,
    cases: &[Case],
    timeout: Duration,
    jobs: usize,
) -> Vec<Verdict> {
    let verdicts: Mutex<Vec<Option<Verdict>>> = Mutex::new(vec![None; cases.len()]);
    let next = AtomicUsize::new(0);
    thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, cases.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(case) = cases.get(i) else { break };
                let verdict = judge(rex, mode, case, timeout);
                if let Ok(mut all) = verdicts.lock() {
                    all[i] = Some(verdict);
                }
            });
        }
    });
    verdicts
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .map(|v| v.unwrap_or_else(|| Err("not judged (internal error)".to_string())))
        .collect()
}

pub fn judge(rex: &Path, mode: Mode, case: &Case, timeout: Duration) -> Verdict {
    if let Expectation::Unknown(first) = &case.expectation {
        return Err(format!(
            "unknown expectation `{first}` in the .expected file"
        ));
    }
    match process::run(rex, mode.args(), Some(&case.program), timeout) {
        Outcome::NotStarted(reason) => Err(reason),
        Outcome::TimedOut => Err(format!("timed out after {}s", timeout.as_secs_f64())),
        Outcome::Finished(f) => match mode {
            Mode::Check => judge_check(&case.expectation, &f),
            Mode::Run => judge_run(&case.expectation, &f),
        },
    }
}

fn judge_check(expectation: &Expectation, f: &Finished) -> Verdict {
    let code = f.status.code();
    match (expectation, code) {
        (Expectation::Ok { .. } | Expectation::Hole, Some(0)) => Ok(()),
        (Expectation::Error, Some(1)) => Ok(()),
        (Expectation::Ok { .. } | Expectation::Hole, Some(1)) => Err(format!(
            "expected no error, `rex check` reported {}",
            first_error(&f.stdout).unwrap_or_else(|| "an error".to_string())
        )),
        (Expectation::Error, Some(0)) => {
            Err("expected an error, `rex check` found none".to_string())
        }
        _ => Err(abnormal_exit("rex check", f)),
    }
}

fn judge_run(expectation: &Expectation, f: &Finished) -> Verdict {
    let success = f.status.success();
    match expectation {
        Expectation::Ok { output } if success => {
            let actual = trim_one_newline(&f.stdout);
            if actual == output {
                Ok(())
            } else {
                Err(format!(
                    "expected output {}, got {}",
                    excerpt(output),
                    excerpt(actual)
                ))
            }
        }
        Expectation::Ok { .. } | Expectation::Hole if f.status.code().is_some() && !success => {
            Err(format!(
                "expected exit 0, got {}: {}",
                describe_status(f),
                excerpt(first_line(&f.stderr))
            ))
        }
        Expectation::Hole if success => Ok(()),
        Expectation::Error if success => Err(format!(
            "expected an error, `rex run` exited 0 printing {}",
            excerpt(trim_one_newline(&f.stdout))
        )),
        // Rejected with an ordinary non-zero exit; a signal (crash) never counts as a rejection.
        Expectation::Error if f.status.code().is_some() => Ok(()),
        _ => Err(abnormal_exit("rex run", f)),
    }
}

fn abnormal_exit(command: &str, f: &Finished) -> String {
    format!(
        "`{command}` ended with {}: {}",
        describe_status(f),
        excerpt(first_line(&f.stderr))
    )
}

fn describe_status(f: &Finished) -> String {
    match f.status.code() {
        Some(code) => format!("exit {code}"),
        None => format!("{} (killed by a signal)", f.status),
    }
}

fn first_line(text: &str) -> &str {
    text.lines().find(|l| !l.trim().is_empty()).unwrap_or("")
}

/// A short quoted excerpt for a failure line.
fn excerpt(text: &str) -> String {
    let flat = text.replace('\n', "\\n");
    let mut short: String = flat.chars().take(EXCERPT_CHARS).collect();
    if short.len() < flat.len() {
        short.push('…');
    }
    format!("`{short}`")
}

/// `E0101 unexpected ...` for the first error diagnostic of a `rex check --json` report.
/// A small textual scan (this runner has no JSON dependency) that relies on the documented
/// key order `file, code, severity, category, message, ...`; `None` if it finds nothing.
fn first_error(json: &str) -> Option<String> {
    json.split("{\"file\":").skip(1).find_map(|d| {
        if !d.contains("\"severity\":\"error\"") {
            return None;
        }
        let code = string_field(d, "code")?;
        let message = string_field(d, "message").unwrap_or_default();
        let message: String = message.chars().take(EXCERPT_CHARS).collect();
        Some(format!("{code} {message}"))
    })
}

fn string_field(object: &str, key: &str) -> Option<String> {
    let start = object.find(&format!("\"{key}\":\""))? + key.len() + 4;
    let mut out = String::new();
    let mut chars = object[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push(' '),
                'u' => {
                    let hex: String = chars.by_ref().take(4).collect();
                    out.push(
                        u32::from_str_radix(&hex, 16)
                            .ok()
                            .and_then(char::from_u32)
                            .unwrap_or('?'),
                    );
                }
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;
    use std::process::ExitStatus;

    fn finished(code: i32, stdout: &str) -> Finished {
        Finished {
            status: ExitStatus::from_raw(code << 8),
            stdout: stdout.to_string(),
            stderr: "error[E0201]: boom\nmore\n".to_string(),
        }
    }

    fn killed() -> Finished {
        Finished {
            status: ExitStatus::from_raw(11),
            stdout: String::new(),
            stderr: String::new(),
        }
    }

    fn ok(output: &str) -> Expectation {
        Expectation::Ok {
            output: output.to_string(),
        }
    }

    #[test]
    fn check_mode_decides_by_exit_status() {
        assert!(judge_check(&ok("x"), &finished(0, "")).is_ok());
        assert!(judge_check(&Expectation::Hole, &finished(0, "")).is_ok());
        assert!(judge_check(&Expectation::Error, &finished(1, "")).is_ok());
        assert!(judge_check(&Expectation::Error, &finished(0, "")).is_err());
        assert!(judge_check(&ok("x"), &finished(1, "")).is_err());
        assert!(judge_check(&Expectation::Error, &finished(2, "")).is_err());
        assert!(judge_check(&Expectation::Error, &killed()).is_err());
    }

    #[test]
    fn run_mode_compares_output_exactly() {
        assert!(judge_run(&ok("[2i32, 3i32]"), &finished(0, "[2i32, 3i32]\n")).is_ok());
        assert!(judge_run(&ok("[2i32, 3i32]"), &finished(0, "[2i32, 3i32]")).is_ok());
        assert!(judge_run(&ok("a"), &finished(0, "a\n\n")).is_err());
        assert!(judge_run(&ok("a"), &finished(0, " a\n")).is_err());
        assert!(judge_run(&ok("a"), &finished(1, "a\n")).is_err());
        assert!(judge_run(&Expectation::Hole, &finished(0, "Ok ?\n")).is_ok());
        assert!(judge_run(&Expectation::Hole, &finished(1, "")).is_err());
        assert!(judge_run(&Expectation::Error, &finished(1, "")).is_ok());
        assert!(judge_run(&Expectation::Error, &finished(2, "")).is_ok());
        assert!(judge_run(&Expectation::Error, &finished(0, "3i32\n")).is_err());
        assert!(judge_run(&Expectation::Error, &killed()).is_err());
    }

    #[test]
    fn failure_reasons_are_short_and_specific() {
        let reason = judge_run(&ok("1i32"), &finished(0, "2i32\n")).unwrap_err();
        assert_eq!(reason, "expected output `1i32`, got `2i32`");
        let reason = judge_run(&ok("1i32"), &finished(1, "")).unwrap_err();
        assert_eq!(reason, "expected exit 0, got exit 1: `error[E0201]: boom`");
        let long = "x".repeat(500);
        assert!(excerpt(&long).chars().count() < 100);
    }

    #[test]
    fn first_error_reads_the_json_report() {
        let json = r#"{"diagnostics":[{"file":"a.rex","code":"I0001","severity":"info","category":"hole","message":"hole","range":{},"notes":[]},{"file":"a.rex","code":"E0101","severity":"error","category":"syntax","message":"unexpected `let`; \"x\"\u00e9","range":{},"notes":[]}]}"#;
        assert_eq!(
            first_error(json).as_deref(),
            Some("E0101 unexpected `let`; \"x\"é")
        );
        assert_eq!(first_error("{\"diagnostics\":[]}"), None);
        assert_eq!(first_error("garbage"), None);
    }
}

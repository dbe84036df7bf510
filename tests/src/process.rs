//! Running a child process with a time limit, capturing its output without deadlocking on
//! full pipes.

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Output beyond this many bytes per stream is read and dropped, so a runaway program cannot
/// exhaust the runner's memory.
const MAX_CAPTURE_BYTES: usize = 16 * 1024 * 1024;

#[derive(Debug)]
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

#[derive(Debug)]
pub enum Outcome {
    Finished(Finished),
    TimedOut,
    /// The process could not be started at all.
    NotStarted(String),
}

pub fn run(program: &Path, args: &[&str], file: Option<&Path>, timeout: Duration) -> Outcome {
    let mut command = Command::new(program);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("NO_COLOR", "1");
    if let Some(file) = file {
        command.arg(file);
    }
    // Its own process group, so a timeout can stop whatever it started too.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => return Outcome::NotStarted(format!("cannot start `{}`: {e}", program.display())),
    };
    let stdout = child.stdout.take().map(capture);
    let stderr = child.stderr.take().map(capture);
    let Some(status) = wait_with_timeout(&mut child, timeout) else {
        // The readers are left behind: a surviving grandchild may hold the pipes open.
        return Outcome::TimedOut;
    };
    let collect = |reader: Option<thread::JoinHandle<String>>| {
        reader
            .and_then(|handle| handle.join().ok())
            .unwrap_or_default()
    };
    Outcome::Finished(Finished {
        status,
        stdout: collect(stdout),
        stderr: collect(stderr),
    })
}

/// The exit status, or `None` after killing a child that outlived `timeout`.
fn wait_with_timeout(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + timeout;
    let mut pause = Duration::from_millis(1);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => {
                thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            // Timed out, or waiting failed: stop it either way and count it as not finished.
            _ => {
                kill_group(child);
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}

/// Best effort, std only: `kill` the child's process group (its id, see `process_group(0)`).
fn kill_group(child: &Child) {
    #[cfg(unix)]
    {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    #[cfg(not(unix))]
    let _ = child;
}

fn capture(mut stream: impl Read + Send + 'static) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 8192];
        loop {
            match stream.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = MAX_CAPTURE_BYTES.saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                }
            }
        }
        String::from_utf8_lossy(&kept).into_owned()
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn captures_output_and_status() {
        let out = run(
            Path::new("sh"),
            &["-c", "echo out; echo err >&2; exit 3"],
            None,
            Duration::from_secs(10),
        );
        let Outcome::Finished(f) = out else {
            panic!("finished: {out:?}");
        };
        assert_eq!(f.status.code(), Some(3));
        assert_eq!(f.stdout, "out\n");
        assert_eq!(f.stderr, "err\n");
    }

    #[test]
    fn kills_on_timeout() {
        let started = Instant::now();
        let out = run(
            Path::new("sleep"),
            &["30"],
            None,
            Duration::from_millis(200),
        );
        assert!(matches!(out, Outcome::TimedOut), "{out:?}");
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn timeout_also_stops_grandchildren() {
        let started = Instant::now();
        let out = run(
            Path::new("sh"),
            &["-c", "sleep 30; echo done"],
            None,
            Duration::from_millis(200),
        );
        assert!(matches!(out, Outcome::TimedOut), "{out:?}");
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn large_output_does_not_deadlock() {
        let out = run(
            Path::new("sh"),
            &["-c", "yes x | head -c 1000000"],
            None,
            Duration::from_secs(20),
        );
        let Outcome::Finished(f) = out else {
            panic!("finished: {out:?}");
        };
        assert_eq!(f.stdout.len(), 1_000_000);
    }

    #[test]
    fn missing_program_is_reported() {
        let out = run(
            Path::new("/nonexistent/rex"),
            &[],
            None,
            Duration::from_secs(1),
        );
        assert!(matches!(out, Outcome::NotStarted(_)), "{out:?}");
    }
}

//! Command-line options (std only: this runner has no dependencies).

use std::path::PathBuf;
use std::time::Duration;

use crate::judge::Mode;

pub const USAGE: &str = "\
usage: rex-conformance --rex PATH --dir DIR [options]

  --rex PATH          the `rex` binary to test
  --dir DIR           directory of NAME.rex programs with NAME.expected results
  --baseline FILE     committed pass count: fewer passes fail the run
  --update-baseline   write the current pass count to the baseline file
  --mode MODE         auto (default: `run` when `rex run --help` works), check or run
  --timeout SECS      per-program time limit (default 20)
  --jobs N            programs run at once (default: available cores)
  -h, --help          this text
";

#[derive(Debug)]
pub struct Options {
    pub rex: PathBuf,
    pub dir: PathBuf,
    pub baseline: Option<PathBuf>,
    pub update_baseline: bool,
    /// `None`: detect from the binary.
    pub mode: Option<Mode>,
    pub timeout: Duration,
    pub jobs: usize,
}

#[derive(Debug)]
pub enum Parsed {
    Run(Options),
    Help,
}

pub fn parse(mut args: impl Iterator<Item = String>) -> Result<Parsed, String> {
    let mut rex = None;
    let mut dir = None;
    let mut baseline = None;
    let mut update_baseline = false;
    let mut mode = None;
    let mut timeout = Duration::from_secs(20);
    let mut jobs = std::thread::available_parallelism().map_or(1, |n| n.get());

    while let Some(arg) = args.next() {
        // Accept both `--flag value` and `--flag=value`.
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => {
                (flag.to_string(), Some(value.to_string()))
            }
            _ => (arg, None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("`{name}` needs a value"))
        };
        match flag.as_str() {
            "--rex" => rex = Some(PathBuf::from(value("--rex")?)),
            "--dir" => dir = Some(PathBuf::from(value("--dir")?)),
            "--baseline" => baseline = Some(PathBuf::from(value("--baseline")?)),
            "--update-baseline" => update_baseline = true,
            "--mode" => {
                mode = match value("--mode")?.as_str() {
                    "auto" => None,
                    "check" => Some(Mode::Check),
                    "run" => Some(Mode::Run),
                    other => return Err(format!("unknown mode `{other}` (auto, check or run)")),
                }
            }
            "--timeout" => {
                let secs: f64 = value("--timeout")?
                    .parse()
                    .map_err(|_| "`--timeout` takes a number of seconds".to_string())?;
                if !(secs > 0.0 && secs.is_finite()) {
                    return Err("`--timeout` must be positive".to_string());
                }
                timeout = Duration::from_secs_f64(secs);
            }
            "--jobs" => {
                jobs = value("--jobs")?
                    .parse()
                    .ok()
                    .filter(|&n: &usize| n > 0)
                    .ok_or_else(|| "`--jobs` takes a positive number".to_string())?;
            }
            "-h" | "--help" => return Ok(Parsed::Help),
            other => return Err(format!("unexpected argument `{other}`")),
        }
    }

    let rex = rex.ok_or("`--rex PATH` is required")?;
    let dir = dir.ok_or("`--dir DIR` is required")?;
    if update_baseline && baseline.is_none() {
        return Err("`--update-baseline` needs `--baseline FILE`".to_string());
    }
    Ok(Parsed::Run(Options {
        rex,
        dir,
        baseline,
        update_baseline,
        mode,
        timeout,
        jobs,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_strs(args: &[&str]) -> Result<Parsed, String> {
        parse(args.iter().map(|s| s.to_string()))
    }

    #[test]
    fn parses_every_option() {
        let Ok(Parsed::Run(o)) = parse_strs(&[
            "--rex",
            "bin/rex",
            "--dir=conf",
            "--baseline",
            "b.txt",
            "--update-baseline",
            "--mode",
            "check",
            "--timeout",
            "1.5",
            "--jobs=3",
        ]) else {
            panic!("options parse");
        };
        assert_eq!(o.rex, PathBuf::from("bin/rex"));
        assert_eq!(o.dir, PathBuf::from("conf"));
        assert_eq!(o.baseline, Some(PathBuf::from("b.txt")));
        assert!(o.update_baseline);
        assert_eq!(o.mode, Some(Mode::Check));
        assert_eq!(o.timeout, Duration::from_millis(1500));
        assert_eq!(o.jobs, 3);
    }

    #[test]
    fn rejects_bad_usage() {
        assert!(parse_strs(&[]).is_err());
        assert!(parse_strs(&["--rex", "r"]).is_err());
        assert!(parse_strs(&["--rex", "r", "--dir", "d", "--bogus"]).is_err());
        assert!(parse_strs(&["--rex", "r", "--dir", "d", "--update-baseline"]).is_err());
        assert!(parse_strs(&["--rex", "r", "--dir", "d", "--timeout", "0"]).is_err());
        assert!(parse_strs(&["--rex"]).is_err());
        assert!(matches!(parse_strs(&["--help"]), Ok(Parsed::Help)));
    }
}

//! `rex-conformance`: runs every `NAME.rex` of a directory that has a `NAME.expected` through
//! the real `rex` binary, prints one line per failure and `N passed, M failed`, and compares
//! the pass count with a committed baseline.

mod args;
mod baseline;
mod cases;
mod judge;
mod process;

use std::process::ExitCode;

use crate::args::Options;
use crate::judge::Mode;

fn main() -> ExitCode {
    let options = match args::parse(std::env::args().skip(1)) {
        Ok(args::Parsed::Run(options)) => options,
        Ok(args::Parsed::Help) => {
            print!("{}", args::USAGE);
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("error: {message}\n\n{}", args::USAGE);
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(options: &Options) -> Result<ExitCode, String> {
    let cases = cases::discover(&options.dir)?;
    if cases.is_empty() {
        return Err(format!(
            "no conformance programs (NAME.rex with NAME.expected) in `{}`",
            options.dir.display()
        ));
    }
    let mode = match options.mode {
        Some(mode) => mode,
        None => Mode::detect(&options.rex)?,
    };
    eprintln!(
        "conformance: {} programs from `{}`, {} mode",
        cases.len(),
        options.dir.display(),
        mode.name()
    );

    let results = judge::judge_all(&options.rex, mode, &cases, options.timeout, options.jobs);
    let mut passed = 0;
    let mut failed = 0;
    for (case, verdict) in cases.iter().zip(&results) {
        match verdict {
            Ok(()) => passed += 1,
            Err(reason) => {
                failed += 1;
                println!("FAIL {}: {reason}", case.name);
            }
        }
    }
    println!("{passed} passed, {failed} failed");

    match &options.baseline {
        Some(path) => baseline::compare(path, passed, options.update_baseline),
        None => Ok(ExitCode::SUCCESS),
    }
}

//! `rex-book`: checks every Rex snippet of the book through the real `rex` binary (the
//! markers are in `book/README.md`), prints one paragraph per failure and then
//! `book snippets: N passed, M failed`; exits 1 when any failed.
//!
//!     rex-book --rex target/release/rex [--book book/src]

mod snippets;

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: rex-book --rex PATH [--book DIR (default book/src)]\n";

fn main() -> ExitCode {
    let mut rex = None;
    let mut book = PathBuf::from("book/src");
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--rex", Some(path)) => rex = Some(PathBuf::from(path)),
            ("--book", Some(path)) => book = PathBuf::from(path),
            _ => {
                eprint!("error: unexpected argument `{arg}`\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let Some(rex) = rex else {
        eprint!("error: --rex is required\n{USAGE}");
        return ExitCode::from(2);
    };
    // Snippets run in scratch directories, so a relative path is made absolute first.
    let rex = match std::fs::canonicalize(&rex) {
        Ok(rex) => rex,
        Err(err) => {
            eprintln!("error: cannot use `{}` as rex: {err}", rex.display());
            return ExitCode::from(2);
        }
    };
    let verdicts = match snippets::check_book(&rex, &book) {
        Ok(verdicts) => verdicts,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let mut failed = 0;
    for verdict in &verdicts {
        if let Err(why) = &verdict.result {
            failed += 1;
            println!("FAIL {}: {why}", verdict.place);
        }
    }
    println!(
        "book snippets: {} passed, {failed} failed",
        verdicts.len() - failed
    );
    if failed == 0 && !verdicts.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

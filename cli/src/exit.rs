//! Exit statuses shared by every subcommand.

use std::process::ExitCode;

/// How a command ended; each maps to one documented exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Nothing to complain about (warnings and infos are allowed): exit 0.
    Success,
    /// The input has at least one error-severity diagnostic: exit 1.
    Errors,
    /// Bad usage or an I/O problem (unreadable file, closed output): exit 2.
    Failure,
    /// `rex run` stopped at a resource limit (gas, time, recursion depth): exit 3.
    Limit,
    /// `rex run` failed at run time (division by zero, index out of range...): exit 4.
    RuntimeError,
}

impl Status {
    pub fn code(self) -> u8 {
        match self {
            Status::Success => 0,
            Status::Errors => 1,
            Status::Failure => 2,
            Status::Limit => 3,
            Status::RuntimeError => 4,
        }
    }
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        ExitCode::from(status.code())
    }
}

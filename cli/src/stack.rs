//! Analysis runs on a dedicated thread with a large stack, so that deeply nested input is
//! stopped by the compiler's own depth limits and never by a stack overflow.

use crate::exit::Status;

/// Stack size of the analysis thread. Virtual memory only: pages are committed on use.
pub const ANALYSIS_STACK_BYTES: usize = 256 * 1024 * 1024;

pub fn run_with_large_stack(work: impl FnOnce() -> Status + Send + 'static) -> Status {
    let spawned = std::thread::Builder::new()
        .name("rex-analysis".into())
        .stack_size(ANALYSIS_STACK_BYTES)
        .spawn(work);
    match spawned {
        Ok(handle) => match handle.join() {
            Ok(status) => status,
            // The panic message has already been printed by the default hook.
            Err(_) => {
                eprintln!("error: internal error in rex (this is a bug; please report it)");
                Status::Failure
            }
        },
        Err(err) => {
            eprintln!("error: cannot start the analysis thread: {err}");
            Status::Failure
        }
    }
}

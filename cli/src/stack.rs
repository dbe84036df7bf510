//! Analysis runs on a large stack, so that deeply nested input is stopped by the
//! compiler's own depth limits and never by a stack overflow. The stack is the main
//! thread's own, grown (`stacker`): a second thread cost a start-up its own allocator
//! heap (a cleared 2 MiB page) and its creation.

use std::panic::{self, AssertUnwindSafe};

use crate::exit::Status;

/// Size of the stack analysis runs on. Virtual memory only: pages are committed on use.
pub const ANALYSIS_STACK_BYTES: usize = 256 * 1024 * 1024;

pub fn run_with_large_stack(work: impl FnOnce() -> Status) -> Status {
    let run = panic::catch_unwind(AssertUnwindSafe(|| {
        stacker::grow(ANALYSIS_STACK_BYTES, work)
    }));
    match run {
        Ok(status) => end_process(status),
        // The panic message has already been printed by the default hook.
        Err(_) => {
            eprintln!("error: internal error in rex (this is a bug; please report it)");
            Status::Failure
        }
    }
}

/// Ends the process with `status` once the command is done (its values dropped, its
/// output written): the output is flushed and the process exits at once, without the
/// exit handlers. Those only gave memory back to the system that the exit gives back
/// anyway: mimalloc's collection of every heap (`mi_process_done`, a pass over all its
/// memory with `madvise`), the grown stack's unmapping, and llama.cpp's static tables;
/// they were about 5% of the run of a small program (perf, `rex run` of `0`).
fn end_process(status: Status) -> Status {
    use std::io::Write;
    // Errors were reported where the output was written; nothing is left to tell.
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    #[cfg(unix)]
    // SAFETY: `_exit` ends the process; nothing in it runs afterwards.
    unsafe {
        libc::_exit(i32::from(status.code()))
    }
    #[cfg(not(unix))]
    status
}

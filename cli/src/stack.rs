//! Analysis runs on a dedicated thread with a large stack, so that deeply nested input is
//! stopped by the compiler's own depth limits and never by a stack overflow.

use crate::exit::Status;

/// Stack size of the analysis thread. Virtual memory only: pages are committed on use.
pub const ANALYSIS_STACK_BYTES: usize = 256 * 1024 * 1024;

pub fn run_with_large_stack(work: impl FnOnce() -> Status + Send + 'static) -> Status {
    let spawned = std::thread::Builder::new()
        .name("rex-analysis".into())
        .stack_size(ANALYSIS_STACK_BYTES)
        .spawn(|| end_process(work()));
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

/// Ends the process with `status` once the command is done (its values dropped, its
/// output written): the output is flushed and the process exits at once, without the
/// exit handlers. Those only gave memory back to the system that the exit gives back
/// anyway: mimalloc's collection of every heap (`mi_process_done`, a pass over all its
/// memory with `madvise`), this thread's teardown, and llama.cpp's static tables; they
/// were about 5% of the run of a small program (perf, `rex run` of `0`).
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

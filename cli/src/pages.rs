//! Transparent huge pages: off while the tool starts, on again for the program it runs.
//!
//! mimalloc asks the kernel for huge pages over its whole arena (`madvise` with
//! `MADV_HUGEPAGE`), so the first touch of each 2 MiB stretch of it has the kernel clear
//! all 2 MiB. Starting up (loading the prelude, checking, compiling the kernels) touches
//! about 1.5 MiB spread over three stretches: 6 MiB cleared, about half a millisecond of a
//! 4 ms `rex run` of a small program. A program that builds large values gains from huge
//! pages (fewer faults): merge sort of 20,000 numbers was 3% slower without them, and so
//! does checking a large file (10,000 lines: 11% slower). So the process starts with them
//! off (`PR_SET_THP_DISABLE`, a flag of the process that the kernel reads at each fault)
//! and turns them back on where its own work begins: before `rex run` evaluates, before
//! `rex check` or `rex run` checks sources of `LARGE_SOURCE` bytes or more, and at once
//! for the commands that keep running (the servers, the model) or start other processes,
//! which inherit the flag.

/// Sources of this many bytes or more are checked with huge pages (1,000 lines, 27 KiB,
/// checked as fast either way; 10,000 lines, 270 KiB, 11% faster with them).
const LARGE_SOURCE: usize = 128 * 1024;

/// Turns transparent huge pages off for this process (first thing in `main`).
pub fn small_while_starting() {
    set_disabled(true);
}

/// Turns transparent huge pages back on, as the system's settings have them.
pub fn huge_from_now() {
    set_disabled(false);
}

/// Turns them back on if the sources to check, `bytes` long in all, are large.
pub fn huge_for_sources(bytes: usize) {
    if bytes >= LARGE_SOURCE {
        huge_from_now();
    }
}

#[cfg(target_os = "linux")]
fn set_disabled(disabled: bool) {
    // SAFETY: `prctl` with `PR_SET_THP_DISABLE` only sets a flag of this process; it reads
    // no memory of ours. A kernel without it answers an error, which changes nothing.
    unsafe {
        libc::prctl(
            libc::PR_SET_THP_DISABLE,
            libc::c_ulong::from(disabled),
            0,
            0,
            0,
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn set_disabled(_disabled: bool) {}

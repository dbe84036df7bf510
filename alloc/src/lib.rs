//! The process's allocator: mimalloc (version 2), entered where its fast path is.
//!
//! Rust asks for every block with its alignment. The `mimalloc` crate's adapter passes
//! every request to `mi_malloc_aligned`, whose checks and three levels of calls cost about
//! 50 instructions a block where `mi_malloc` takes about 20 (callgrind, `rex run` of the
//! map/filter/fold pipeline: 216,000 list cells). Every block `mi_malloc` hands out is
//! aligned to a machine word at least (its size classes are whole words), so a request
//! asking no more goes there; the rest keep the aligned entry.
//!
//! The `rex` binary sets it as its global allocator, and so do the compiler's benchmarks
//! (`compiler/benches`), so that they time checking with the allocation the tool does
//! (the system's `malloc` made a 10,000-line check about 40% slower).

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys as mi;

/// The alignment every block `mi_malloc` returns has.
const WORD: usize = std::mem::size_of::<usize>();

pub struct Mimalloc;

// SAFETY: each method hands the layout's size (and, past a word, its alignment) to the
// mimalloc call that honours it, and frees only what those calls returned.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: plain C allocation calls; a null result is passed on as failure.
        unsafe {
            if layout.align() <= WORD {
                mi::mi_malloc(layout.size()).cast()
            } else {
                mi::mi_malloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        unsafe {
            if layout.align() <= WORD {
                mi::mi_zalloc(layout.size()).cast()
            } else {
                mi::mi_zalloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from one of the calls above (the trait's contract).
        unsafe { mi::mi_free(ptr.cast::<c_void>()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from one of the calls above with `layout`'s alignment.
        unsafe {
            if layout.align() <= WORD {
                mi::mi_realloc(ptr.cast(), new_size).cast()
            } else {
                mi::mi_realloc_aligned(ptr.cast(), new_size, layout.align()).cast()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_have_the_alignment_asked_and_keep_their_bytes() {
        let a = Mimalloc;
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [1, 7, 8, 9, 16, 24, 40, 48, 100, 1000, 70_000] {
                let layout = Layout::from_size_align(size, align).expect("layout");
                // SAFETY: non-zero sizes; every block is written within its size and
                // freed once with the layout it was made with.
                unsafe {
                    let p = a.alloc(layout);
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "{size} bytes at {align}");
                    p.write_bytes(0xab, size);
                    let z = a.alloc_zeroed(layout);
                    assert_eq!(z as usize % align, 0);
                    assert!(std::slice::from_raw_parts(z, size).iter().all(|b| *b == 0));
                    let q = a.realloc(p, layout, size * 3);
                    assert_eq!(q as usize % align, 0, "{size} bytes grown at {align}");
                    assert!(std::slice::from_raw_parts(q, size)
                        .iter()
                        .all(|b| *b == 0xab));
                    a.dealloc(q, Layout::from_size_align(size * 3, align).expect("layout"));
                    a.dealloc(z, layout);
                }
            }
        }
    }
}

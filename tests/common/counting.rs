//! A counting allocator for tests that measure work or memory by counting bytes, never by
//! timing: the counts are the same on every machine and under any load. A test installs it
//! with `#[global_allocator] static GLOBAL: Counting = Counting;`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, totalling the bytes each thread allocates and following the bytes
/// in use in the whole process and their peak.
pub struct Counting;

thread_local! {
    static ALLOCATED: Cell<u64> = const { Cell::new(0) };
}

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(size: usize) {
    // `try_with`: an allocation during thread teardown is simply not counted.
    let _ = ALLOCATED.try_with(|c| c.set(c.get() + size as u64));
    let now = IN_USE.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

fn shrank(size: usize) {
    IN_USE.fetch_sub(size, Ordering::Relaxed);
}

// SAFETY: every call is forwarded unchanged to `System`; only counters move.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrank(layout.size());
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A reallocation counts as work in full (it may copy), and in use by its growth.
        let _ = ALLOCATED.try_with(|c| c.set(c.get() + new_size as u64));
        if new_size >= layout.size() {
            let now = IN_USE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size - layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        } else {
            shrank(layout.size() - new_size);
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Bytes this thread has allocated so far.
pub fn allocated_on_this_thread() -> u64 {
    ALLOCATED.with(Cell::get)
}

/// The most bytes in use at once in the process while `work` runs, beyond what was in use
/// before (run one measurement at a time: other threads' allocations count too).
pub fn peak_in_use_during(work: impl FnOnce()) -> usize {
    let before = IN_USE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    work();
    PEAK.load(Ordering::Relaxed).saturating_sub(before)
}

//! The allocator: jemalloc, its options, and the switch `scan` turns for its many small jobs.

/// jemalloc: a session is millions of small values parsed on several threads and freed on
/// another; the system allocator keeps such memory in per-thread arenas the other threads
/// cannot reuse (PERFORMANCE.md, "Allocator").
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read before `main`: freed pages go back to the system at once instead of
/// after ten seconds, so a command's peak is what it holds, not what it held.
#[unsafe(export_name = "_rjem_malloc_conf")]
static MALLOC_CONF: Option<&'static std::ffi::c_char> =
    Some(unsafe { &*c"dirty_decay_ms:0,muzzy_decay_ms:0".as_ptr() });

/// For commands that run many small jobs one after another (`scan`): freed pages stay with
/// jemalloc for ten seconds (its own default) instead of going back at once, so each session
/// reuses the last one's pages instead of faulting fresh ones in. On 1,000 sessions this cut
/// page faults from 375,000 to 94,000 and kernel time from 15 % to 4 % of the run; the peak
/// is still what one window of sessions needs.
pub(crate) fn keep_freed_pages_a_while() {
    const DECAY_MS: isize = 10_000;
    // SAFETY: `arenas.narenas` is an `unsigned`, the decay settings are `ssize_t`s.
    let arenas: u32 = unsafe { tikv_jemalloc_ctl::raw::read(b"arenas.narenas\0") }.unwrap_or(0);
    let _ = unsafe { tikv_jemalloc_ctl::raw::write(b"arenas.dirty_decay_ms\0", DECAY_MS) };
    for i in 0..arenas {
        let name = format!("arena.{i}.dirty_decay_ms\0");
        // An arena no thread has used yet has no setting to change; it takes the default
        // written above when it is first used.
        let _ = unsafe { tikv_jemalloc_ctl::raw::write(name.as_bytes(), DECAY_MS) };
    }
}

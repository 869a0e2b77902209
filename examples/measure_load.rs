//! Peak heap and time of loading a session, against a plain line-by-line
//! `serde_json::Value` parse of the same file.
//!
//! `cargo run --release --example measure_load -- FILE.jsonl [--runs N]`
//!
//! Peak heap is counted by a wrapping global allocator in one run of each workload. Times
//! are taken with counting switched off, the two workloads interleaved, best of N runs
//! (default 3); on Linux the thread's on-CPU time (`/proc/thread-self/schedstat`) is
//! reported too, which is less disturbed by other processes than wall-clock time.

use std::alloc::{GlobalAlloc, Layout, System};
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};
use std::time::{Duration, Instant};

use replaylens::load::{LoadOptions, load_path};
use serde_json::Value;

/// The system allocator, counting live and peak heap bytes while `COUNTING` is set.
struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static CURRENT: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

impl Counting {
    fn add(size: usize) {
        if COUNTING.load(Ordering::Relaxed) {
            let now = CURRENT.fetch_add(size as isize, Ordering::Relaxed) + size as isize;
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
    }

    fn sub(size: usize) {
        if COUNTING.load(Ordering::Relaxed) {
            CURRENT.fetch_sub(size as isize, Ordering::Relaxed);
        }
    }
}

// SAFETY: every call is forwarded unchanged to `System`; only counters are updated.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            Self::add(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            Self::add(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) };
        Self::sub(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            Self::sub(layout.size());
            Self::add(new_size);
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Parse every line of `path` into a `Value` and keep them all (same as the benchmark).
fn reference_parse(path: &Path) -> usize {
    let mut reader = BufReader::with_capacity(1 << 20, File::open(path).expect("open input"));
    let mut buf = Vec::new();
    let mut values = Vec::new();
    loop {
        buf.clear();
        if reader.read_until(b'\n', &mut buf).expect("read input") == 0 {
            break;
        }
        values.push(serde_json::from_slice::<Value>(&buf).expect("valid JSON line"));
    }
    values.len()
}

/// `load_path` followed by `transcript()`.
fn load(path: &Path) -> usize {
    let session = load_path(path, &LoadOptions::default()).expect("load");
    session.transcript().messages.len()
}

/// Peak heap bytes above the starting level while `f` runs once.
fn peak_heap(path: &Path, f: fn(&Path) -> usize) -> isize {
    CURRENT.store(0, Ordering::Relaxed);
    PEAK.store(0, Ordering::Relaxed);
    COUNTING.store(true, Ordering::SeqCst);
    std::hint::black_box(f(path));
    COUNTING.store(false, Ordering::SeqCst);
    PEAK.load(Ordering::Relaxed)
}

/// This thread's on-CPU time, when the kernel reports it.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Best wall-clock and on-CPU time of several runs.
#[derive(Clone, Copy)]
struct Timing {
    wall: Duration,
    cpu: Option<Duration>,
}

impl Timing {
    const NONE: Self = Self {
        wall: Duration::MAX,
        cpu: None,
    };

    fn run(&mut self, path: &Path, f: fn(&Path) -> usize) -> usize {
        let cpu_start = cpu_time();
        let start = Instant::now();
        let out = std::hint::black_box(f(path));
        self.wall = self.wall.min(start.elapsed());
        if let (Some(a), Some(b)) = (cpu_start, cpu_time()) {
            let d = b.saturating_sub(a);
            self.cpu = Some(self.cpu.map_or(d, |c| c.min(d)));
        }
        out
    }
}

fn mib(n: u64) -> f64 {
    n as f64 / (1024.0 * 1024.0)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut path = None;
    let mut runs = 3usize;
    while let Some(arg) = args.next() {
        if arg == "--runs" {
            match args.next().and_then(|n| n.parse().ok()).filter(|n| *n > 0) {
                Some(n) => runs = n,
                None => {
                    eprintln!("--runs needs a positive integer");
                    return ExitCode::from(2);
                }
            }
        } else {
            path = Some(PathBuf::from(arg));
        }
    }
    let Some(path) = path else {
        eprintln!("usage: measure_load FILE.jsonl [--runs N]");
        return ExitCode::from(2);
    };
    let size = match std::fs::metadata(&path) {
        Ok(m) => m.len(),
        Err(e) => {
            eprintln!("cannot stat {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let ref_peak = peak_heap(&path, reference_parse);
    let load_peak = peak_heap(&path, load);
    let (mut ref_time, mut load_time) = (Timing::NONE, Timing::NONE);
    let (mut lines, mut messages) = (0, 0);
    for _ in 0..runs {
        lines = ref_time.run(&path, reference_parse);
        messages = load_time.run(&path, load);
    }
    let secs = |d: Duration| d.as_secs_f64();
    let rate = |d: Duration| size as f64 / 1e6 / secs(d);
    println!("file: {}", path.display());
    println!("file size: {size} bytes ({:.1} MiB)", mib(size));
    println!("lines parsed (reference): {lines}");
    println!("transcript messages (load): {messages}");
    println!(
        "reference_parse peak heap: {ref_peak} bytes ({:.1} MiB, {:.2}x file size)",
        mib(ref_peak as u64),
        ref_peak as f64 / size as f64
    );
    println!(
        "load+transcript peak heap: {load_peak} bytes ({:.1} MiB, {:.2}x file size)",
        mib(load_peak as u64),
        load_peak as f64 / size as f64
    );
    println!(
        "load/reference peak heap ratio: {:.2}",
        load_peak as f64 / ref_peak as f64
    );
    println!(
        "reference_parse wall time (best of {runs}): {:.3} s ({:.0} MB/s)",
        secs(ref_time.wall),
        rate(ref_time.wall)
    );
    println!(
        "load+transcript wall time (best of {runs}): {:.3} s ({:.0} MB/s)",
        secs(load_time.wall),
        rate(load_time.wall)
    );
    println!(
        "load/reference wall time ratio: {:.2}",
        secs(load_time.wall) / secs(ref_time.wall)
    );
    if let (Some(r), Some(l)) = (ref_time.cpu, load_time.cpu) {
        println!(
            "reference_parse CPU time (best of {runs}): {:.3} s ({:.0} MB/s)",
            secs(r),
            rate(r)
        );
        println!(
            "load+transcript CPU time (best of {runs}): {:.3} s ({:.0} MB/s)",
            secs(l),
            rate(l)
        );
        println!("load/reference CPU time ratio: {:.2}", secs(l) / secs(r));
    }
    ExitCode::SUCCESS
}

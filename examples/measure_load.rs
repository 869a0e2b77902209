//! Peak heap and time of loading a session, against a plain line-by-line
//! `serde_json::Value` parse of the same file.
//!
//! `cargo run --release --example measure_load -- FILE.jsonl [--runs N]`
//!
//! Peak heap is counted by a wrapping global allocator in one run of each workload. Times
//! are taken with counting switched off, the two workloads interleaved, best of N runs
//! (default 3); on Linux the process's on-CPU time (every thread's `schedstat`, summed) is
//! reported too, which is less disturbed by other processes than wall-clock time.

use std::alloc::{GlobalAlloc, Layout, System};
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};
use std::time::{Duration, Instant};

use replaylens::hygiene::ReplayOptions;
use replaylens::load::{LoadOptions, load_path};
use replaylens::policy::Target;
use replaylens::replay::replay;

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
        values.push(serde_json::from_slice::<serde_json::Value>(&buf).expect("valid JSON line"));
    }
    values.len()
}

/// `load_path` followed by `transcript()`.
fn load(path: &Path) -> usize {
    let session = load_path(path, &LoadOptions::default()).expect("load");
    session.transcript().messages.len()
}

/// `load`, then the whole replay pipeline for the session's own target, with image limits
/// so high that no image is re-encoded (re-encoding is measured by `benches/images.rs`).
fn replay_no_reencode(path: &Path) -> usize {
    replaylens::openclaw::image::cache::Store::global().clear();
    let session = load_path(path, &LoadOptions::default()).expect("load");
    let options = ReplayOptions {
        image_max_px: u32::MAX,
        ..ReplayOptions::default()
    };
    replay(&session, &Target::default(), &options).projection.messages.len()
}

/// `load`, then the whole replay pipeline with default options (images re-encoded).
fn replay_full(path: &Path) -> usize {
    // Each run decodes its images, as one `replay` process does: no outcome kept from the last.
    replaylens::openclaw::image::cache::Store::global().clear();
    let session = load_path(path, &LoadOptions::default()).expect("load");
    replay(&session, &Target::default(), &ReplayOptions::default())
        .projection
        .messages
        .len()
}

/// One measured workload: reads the file, returns a count so the work is not optimized out.
type Workload = fn(&Path) -> usize;

/// Peak heap bytes above the starting level while `f` runs once.
fn peak_heap(path: &Path, f: Workload) -> isize {
    CURRENT.store(0, Ordering::Relaxed);
    PEAK.store(0, Ordering::Relaxed);
    COUNTING.store(true, Ordering::SeqCst);
    std::hint::black_box(f(path));
    COUNTING.store(false, Ordering::SeqCst);
    PEAK.load(Ordering::Relaxed)
}

/// The process's on-CPU time, every thread summed (the load parses lines across cores), when
/// the kernel reports it. Threads that ended are not counted: the worker pool lives as long
/// as the process.
fn cpu_time() -> Option<Duration> {
    let mut ns: u64 = 0;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let stat = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        ns += stat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
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

    fn run(&mut self, path: &Path, f: Workload) -> usize {
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
    let workloads: [(&str, Workload); 4] = [
        ("reference_parse", reference_parse),
        ("load+transcript", load),
        ("replay (no image re-encoding)", replay_no_reencode),
        ("replay (full pipeline)", replay_full),
    ];
    let peaks: Vec<isize> = workloads.iter().map(|(_, f)| peak_heap(&path, *f)).collect();
    let mut timings = [Timing::NONE; 4];
    let mut outputs = [0usize; 4];
    for _ in 0..runs {
        for (i, (_, f)) in workloads.iter().enumerate() {
            outputs[i] = timings[i].run(&path, *f);
        }
    }
    let secs = |d: Duration| d.as_secs_f64();
    let rate = |d: Duration| size as f64 / 1e6 / secs(d);
    println!("file: {}", path.display());
    println!("file size: {size} bytes ({:.1} MiB)", mib(size));
    println!("lines parsed (reference): {}", outputs[0]);
    println!("transcript messages (load): {}", outputs[1]);
    println!("replay messages: {}", outputs[2]);
    for (i, (name, _)) in workloads.iter().enumerate() {
        println!(
            "{name} peak heap: {} bytes ({:.1} MiB, {:.2}x file size)",
            peaks[i],
            mib(peaks[i] as u64),
            peaks[i] as f64 / size as f64
        );
    }
    for (i, (name, _)) in workloads.iter().enumerate() {
        let t = timings[i];
        println!(
            "{name} wall time (best of {runs}): {:.3} s ({:.0} MB/s), {:.2}x reference",
            secs(t.wall),
            rate(t.wall),
            secs(t.wall) / secs(timings[0].wall)
        );
        if let (Some(c), Some(r)) = (t.cpu, timings[0].cpu) {
            println!(
                "{name} CPU time (best of {runs}): {:.3} s ({:.0} MB/s), {:.2}x reference",
                secs(c),
                rate(c),
                secs(c) / secs(r)
            );
        }
    }
    ExitCode::SUCCESS
}

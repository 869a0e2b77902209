//! Peak heap and wall-clock time of loading a session, against a plain
//! line-by-line `serde_json::Value` parse of the same file.
//!
//! `cargo run --release --example measure_load -- FILE.jsonl`

use std::alloc::{GlobalAlloc, Layout, System};
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use replaylens::load::{LoadOptions, load_path};
use serde_json::Value;

/// The system allocator, counting live and peak heap bytes.
struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

impl Counting {
    fn add(size: usize) {
        let now = CURRENT.fetch_add(size, Ordering::Relaxed) + size;
        PEAK.fetch_max(now, Ordering::Relaxed);
    }

    fn sub(size: usize) {
        CURRENT.fetch_sub(size, Ordering::Relaxed);
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

/// Peak heap above the starting level while `f` runs, and the best wall time of 3 runs.
fn measure(path: &Path, f: fn(&Path) -> usize) -> (usize, Duration, usize) {
    let mut best = Duration::MAX;
    let mut peak = 0;
    let mut out = 0;
    for _ in 0..3 {
        let base = CURRENT.load(Ordering::Relaxed);
        PEAK.store(base, Ordering::Relaxed);
        let start = Instant::now();
        out = std::hint::black_box(f(path));
        best = best.min(start.elapsed());
        peak = peak.max(PEAK.load(Ordering::Relaxed) - base);
    }
    (peak, best, out)
}

fn mib(n: u64) -> f64 {
    n as f64 / (1024.0 * 1024.0)
}

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: measure_load FILE.jsonl");
        return ExitCode::from(2);
    };
    let size = match std::fs::metadata(&path) {
        Ok(m) => m.len(),
        Err(e) => {
            eprintln!("cannot stat {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let (ref_peak, ref_time, lines) = measure(&path, reference_parse);
    let (load_peak, load_time, messages) = measure(&path, load);
    let secs = |d: Duration| d.as_secs_f64();
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
        "reference_parse time (best of 3): {:.3} s ({:.0} MB/s)",
        secs(ref_time),
        size as f64 / 1e6 / secs(ref_time)
    );
    println!(
        "load+transcript time (best of 3): {:.3} s ({:.0} MB/s)",
        secs(load_time),
        size as f64 / 1e6 / secs(load_time)
    );
    println!("load/reference time ratio: {:.2}", secs(load_time) / secs(ref_time));
    ExitCode::SUCCESS
}

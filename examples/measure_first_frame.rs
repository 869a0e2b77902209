//! Time to the inspector's first rows (the preview of a large file), its stored side and the
//! full projection on screen, against a bare per-line `serde_json::Value` parse of the same
//! file, interleaved.
//!
//! `cargo run --release --example measure_first_frame -- FILE.jsonl [--runs N]`
//!
//! Each run loads the file through the inspector's own loader (on its thread, as the
//! inspector does), draws the frame it would draw when the first rows arrive (the preview of
//! a large file), when the stored side arrives and once the projection is in, into a 160×45
//! `TestBackend`. Times are wall-clock,
//! best of N (default 3).

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[allow(dead_code, unused_imports)]
#[path = "../src/tui/mod.rs"]
mod tui;

#[path = "../benches/support/first_frame.rs"]
mod first_frame;

fn bare_parse(path: &Path) -> Duration {
    let start = Instant::now();
    let file = std::io::BufReader::with_capacity(1 << 20, std::fs::File::open(path).expect("open"));
    let mut n = 0usize;
    for line in file.split(b'\n') {
        let line = line.expect("read");
        if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&line) {
            n += usize::from(!v.is_null());
        }
    }
    std::hint::black_box(n);
    start.elapsed()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = PathBuf::from(args.next().expect("usage: measure_first_frame FILE [--runs N]"));
    let runs: usize = match (args.next().as_deref(), args.next()) {
        (Some("--runs"), Some(n)) => n.parse().expect("--runs N"),
        _ => 3,
    };
    let (mut parse, mut first, mut stored, mut full) = (Duration::MAX, Duration::MAX, Duration::MAX, Duration::MAX);
    for _ in 0..runs {
        parse = parse.min(bare_parse(&path));
        let frames = first_frame::first_frames(&path);
        first = first.min(frames.first_rows);
        stored = stored.min(frames.stored);
        full = full.min(frames.full);
    }
    let ratio = |d: Duration| d.as_secs_f64() / parse.as_secs_f64();
    println!("bare parse:                 {:.3} s", parse.as_secs_f64());
    for (what, d) in [
        ("first rows on screen:", first),
        ("stored side (branch):", stored),
        ("full projection on screen:", full),
    ] {
        println!("{what:<27} {:.3} s  {:.2}x", d.as_secs_f64(), ratio(d));
    }
}

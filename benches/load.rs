//! Load benchmarks on two generated OpenClaw JSONL sessions (made on first run):
//! `bench-data/large-session.jsonl` (100 MB, few images, long tool outputs) and
//! `bench-data/screenshots.jsonl` (101 MB, 45,000 messages, screenshots among 12 distinct
//! 1600×900 / 2880×1800 PNGs that all need re-encoding, long runs of user turns).
//!
//! * `reference_parse`: read the file line by line and parse each line into a
//!   `serde_json::Value`, keeping every value (the floor any loader is measured against).
//! * `load`: `replaylens::load::load_path` followed by `Session::transcript()`.
//! * `replay`: `load`, then the whole rule pipeline for the session's own target, with
//!   image limits so high that no image is re-encoded (`…-no-image-reencoding`) and with the
//!   default limits (`…-full`).

#[path = "support/session_gen.rs"]
mod session_gen;

use std::fs::File;
use std::hint::black_box;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use replaylens::hygiene::ReplayOptions;
use replaylens::load::{LoadOptions, load_path};
use replaylens::policy::Target;
use replaylens::replay::replay;

/// A benchmark input, generated with `config` when absent.
fn input(name: &str, config: &session_gen::Config) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("bench-data/{name}.jsonl"));
    if !path.exists() {
        let stats = session_gen::generate(&path, config).expect("generate bench input");
        eprintln!(
            "generated {} ({} bytes, {} messages)",
            path.display(),
            stats.bytes,
            stats.messages
        );
    }
    path
}

/// The two inputs: the default large session and the screenshot session.
fn inputs() -> Vec<(&'static str, PathBuf)> {
    let screenshots = session_gen::Config {
        messages: 45_000,
        screenshots: 12,
        ..session_gen::Config::default()
    };
    vec![
        ("large-session", input("large-session", &session_gen::Config::default())),
        ("screenshots", input("screenshots", &screenshots)),
    ]
}

/// Parse every line of `path` into a `Value` and keep them all.
fn reference_parse(path: &Path) -> Vec<serde_json::Value> {
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
    values
}

fn bench_load(c: &mut Criterion) {
    for (name, path) in inputs() {
        bench_input(c, name, &path);
    }
}

/// A group of 10 flat samples with a throughput of `len` bytes.
fn new_group<'c>(c: &'c mut Criterion, name: &str, seconds: u64, len: u64) -> BenchmarkGroup<'c, WallTime> {
    let mut g = c.benchmark_group(name.to_owned());
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(seconds))
        .throughput(Throughput::Bytes(len));
    g
}

fn bench_input(c: &mut Criterion, name: &str, path: &Path) {
    let len = std::fs::metadata(path).expect("stat input").len();

    let mut g = new_group(c, "reference_parse", 15, len);
    g.bench_function(name, |b| b.iter(|| reference_parse(black_box(path))));
    g.finish();

    let mut g = new_group(c, "load", 15, len);
    g.bench_function(name, |b| {
        b.iter(|| {
            let session = load_path(black_box(path), &LoadOptions::default()).expect("load");
            let messages = session.transcript().messages.len();
            (session, messages)
        })
    });
    g.finish();

    let mut g = new_group(c, "replay", 25, len);
    for (variant, image_max_px) in [
        ("no-image-reencoding", u32::MAX),
        ("full", ReplayOptions::default().image_max_px),
    ] {
        let options = ReplayOptions {
            image_max_px,
            ..ReplayOptions::default()
        };
        g.bench_function(format!("{name}-{variant}"), |b| {
            b.iter(|| {
                let session = load_path(black_box(path), &LoadOptions::default()).expect("load");
                let messages = replay(&session, &Target::default(), &options).projection.messages.len();
                (session, messages)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_load);
criterion_main!(benches);

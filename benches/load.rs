//! Load benchmark on a large OpenClaw JSONL session (generated on first run into
//! `bench-data/large-session.jsonl`).
//!
//! * `reference_parse`: read the file line by line and parse each line into a
//!   `serde_json::Value`, keeping every value (the floor any loader is measured against).
//! * `load`: `replaylens::load::load_path` followed by `Session::transcript()`.
//! * `replay`: `load`, then the whole rule pipeline for the session's own target, with
//!   image limits so high that no image is re-encoded (see `benches/images.rs` for that).

#[path = "support/session_gen.rs"]
mod session_gen;

use std::fs::File;
use std::hint::black_box;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use replaylens::hygiene::ReplayOptions;
use replaylens::load::{LoadOptions, load_path};
use replaylens::policy::Target;
use replaylens::replay::replay;
use serde_json::Value;

/// The benchmark input, generated with the default settings when absent.
fn input() -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench-data/large-session.jsonl");
    if !path.exists() {
        let stats = session_gen::generate(&path, &session_gen::Config::default()).expect("generate bench input");
        eprintln!(
            "generated {} ({} bytes, {} messages)",
            path.display(),
            stats.bytes,
            stats.messages
        );
    }
    path
}

/// Parse every line of `path` into a `Value` and keep them all.
fn reference_parse(path: &Path) -> Vec<Value> {
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
    values
}

fn bench_load(c: &mut Criterion) {
    let path = input();
    let len = std::fs::metadata(&path).expect("stat input").len();

    let mut group = c.benchmark_group("reference_parse");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(15))
        .throughput(Throughput::Bytes(len));
    group.bench_function("large-session", |b| b.iter(|| reference_parse(black_box(&path))));
    group.finish();

    let mut group = c.benchmark_group("load");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(15))
        .throughput(Throughput::Bytes(len));
    group.bench_function("large-session", |b| {
        b.iter(|| {
            let session = load_path(black_box(&path), &LoadOptions::default()).expect("load");
            let messages = session.transcript().messages.len();
            (session, messages)
        })
    });
    group.finish();

    let mut group = c.benchmark_group("replay");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(20))
        .throughput(Throughput::Bytes(len));
    group.bench_function("large-session-no-image-reencoding", |b| {
        let options = ReplayOptions {
            image_max_px: u32::MAX,
            ..ReplayOptions::default()
        };
        b.iter(|| {
            let session = load_path(black_box(&path), &LoadOptions::default()).expect("load");
            let messages = replay(&session, &Target::default(), &options).projection.messages.len();
            (session, messages)
        })
    });
    group.finish();
}

criterion_group!(benches, bench_load);
criterion_main!(benches);

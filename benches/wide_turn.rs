//! One assistant turn holding 30,000 tool calls, measured against the bare per-line parse of
//! the same file: load, replay, the payload with its lint, and the Markdown and HTML reports.
//! Two cases: the results stored after the next user turn (so the pairing planner moves every
//! one back), for Anthropic; the results in call order with a user note after every tenth
//! (the notes move behind the results), for OpenAI Responses (ids rewritten, so the reports
//! diff every block). A planner, lint check or diff that scans the turn once per call makes
//! these quadratic; a linear one keeps each within a small multiple of the parse.

use std::fs::File;
use std::hint::black_box;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use replaylens::export::{ExportFormat, ExportOptions, export};
use replaylens::hygiene::ReplayOptions;
use replaylens::lint::lint;
use replaylens::load::{LoadOptions, load_path};
use replaylens::policy::{Family, preset};
use replaylens::replay::replay;
use replaylens::wire::{WireStage, payload_of};

/// Tool calls in the turn.
const CALLS: usize = 30_000;

/// Where the results of the turn are stored.
#[derive(Clone, Copy, PartialEq)]
enum Layout {
    /// After the next user turn.
    Displaced,
    /// Right after their calls, a user note after every tenth.
    InOrderWithNotes,
}

/// The session file, written on first use under `bench-data/`.
fn input(layout: Layout) -> PathBuf {
    let name = match layout {
        Layout::Displaced => "bench-data/wide-turn.jsonl",
        Layout::InOrderWithNotes => "bench-data/wide-turn-in-order.jsonl",
    };
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    if path.exists() {
        return path;
    }
    std::fs::create_dir_all(path.parent().expect("bench-data")).expect("bench-data");
    let mut out = std::io::BufWriter::new(File::create(&path).expect("create input"));
    let target = preset(Family::Anthropic);
    let line = |v: serde_json::Value| format!("{v}\n");
    let mut text = line(serde_json::json!({"type": "session", "version": 3, "id": "wide-turn",
        "timestamp": "2026-12-01T00:00:00.000Z", "cwd": "/work"}));
    let mut parent = serde_json::Value::Null;
    let mut n = 0;
    let mut entry = |message: serde_json::Value, text: &mut String| {
        n += 1;
        let id = format!("e{n}");
        text.push_str(&line(
            serde_json::json!({"type": "message", "id": id, "parentId": parent,
            "timestamp": "2026-12-01T00:00:00.000Z", "message": message}),
        ));
        parent = serde_json::Value::String(id);
    };
    entry(
        serde_json::json!({"role": "user", "content": "Check every file.", "timestamp": 1}),
        &mut text,
    );
    let calls: Vec<serde_json::Value> = (0..CALLS)
        .map(|k| {
            serde_json::json!({"type": "toolCall", "id": format!("toolu_{k:08}"), "name": "read",
            "arguments": {"path": format!("src/f{k}.rs")}})
        })
        .collect();
    entry(
        serde_json::json!({"role": "assistant", "content": calls, "stopReason": "toolUse",
        "provider": target.provider, "api": target.api, "model": target.model, "timestamp": 2}),
        &mut text,
    );
    if layout == Layout::Displaced {
        entry(
            serde_json::json!({"role": "user", "content": "Still there?", "timestamp": 3}),
            &mut text,
        );
    }
    for k in 0..CALLS {
        entry(
            serde_json::json!({"role": "toolResult", "toolCallId": format!("toolu_{k:08}"),
            "toolName": "read", "content": [{"type": "text", "text": format!("fn f{k}() {{}}")}],
            "isError": false, "timestamp": 4}),
            &mut text,
        );
        if layout == Layout::InOrderWithNotes && k % 10 == 0 {
            entry(
                serde_json::json!({"role": "user", "content": format!("note {k}"), "timestamp": 5}),
                &mut text,
            );
        }
    }
    out.write_all(text.as_bytes()).expect("write input");
    path
}

/// Parse every line into a `Value` and keep them all: the floor.
fn reference_parse(path: &Path) -> Vec<serde_json::Value> {
    let reader = BufReader::with_capacity(1 << 20, File::open(path).expect("open input"));
    reader
        .split(b'\n')
        .map(|l| l.expect("read line"))
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(&l).expect("valid line"))
        .collect()
}

fn bench(c: &mut Criterion) {
    for (group, layout, family) in [
        ("wide_turn", Layout::Displaced, Family::Anthropic),
        (
            "wide_turn_in_order_openai_responses",
            Layout::InOrderWithNotes,
            Family::OpenAIResponses,
        ),
    ] {
        bench_case(c, group, layout, family);
    }
}

fn bench_case(c: &mut Criterion, group: &str, layout: Layout, family: Family) {
    let path = input(layout);
    let target = preset(family);
    let options = ReplayOptions::default();
    let mut g = c.benchmark_group(group);
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .measurement_time(Duration::from_secs(20));
    g.bench_function("reference_parse", |b| b.iter(|| reference_parse(black_box(&path))));
    g.bench_function("load", |b| {
        b.iter(|| load_path(black_box(&path), &LoadOptions::default()).expect("load"))
    });
    let session = load_path(&path, &LoadOptions::default()).expect("load");
    g.bench_function("replay", |b| {
        b.iter(|| replay(black_box(&session), &target, &options).projection.messages.len())
    });
    let r = replay(&session, &target, &options);
    g.bench_function("payload_and_lint", |b| {
        b.iter(|| {
            let w = payload_of(black_box(&r), WireStage::Replay).expect("a payload");
            lint(&w).len()
        })
    });
    for (name, format) in [
        ("export_markdown", ExportFormat::Markdown),
        ("export_html", ExportFormat::Html),
    ] {
        let export_options = ExportOptions {
            format,
            ..ExportOptions::default()
        };
        g.bench_function(name, |b| {
            b.iter(|| export(black_box(&session), &r, &export_options).len())
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! `reduce` on a 10 MB OpenClaw session (about 4,100 entries of long prose) with one Mistral
//! ordering defect planted in the middle, measured against the bare per-line parse of the same
//! file: the target is "under a minute" for 10 MB (issue 32); ddmin needs a few dozen checks,
//! each a load, replay and lint of what is left.

use std::hint::black_box;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use replaylens::hygiene::ReplayOptions;
use replaylens::policy::Target;
use replaylens::reduce::{Keep, ReduceOptions, reduce};

/// The session file, written on first use under `bench-data/`.
fn input() -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench-data/reduce-10mb.jsonl");
    if path.exists() {
        return path;
    }
    std::fs::create_dir_all(path.parent().expect("bench-data")).expect("bench-data");
    let mut lines = vec![
        serde_json::json!({"type": "session", "version": 3, "id": "reduce-10mb",
            "timestamp": "2026-12-01T00:00:00.000Z", "cwd": "/work"})
        .to_string(),
    ];
    let mut parent = serde_json::Value::Null;
    let mut push = |lines: &mut Vec<String>, id: String, message: serde_json::Value| {
        lines.push(
            serde_json::json!({"type": "message", "id": id, "parentId": parent,
                "timestamp": "2026-12-01T00:00:00.000Z", "message": message})
            .to_string(),
        );
        parent = serde_json::Value::String(id);
    };
    let assistant = |content: serde_json::Value, stop: &str| {
        serde_json::json!({"role": "assistant", "content": content, "provider": "mistral",
            "api": "mistral-conversations", "model": "devstral-medium-2507", "stopReason": stop,
            "usage": {"input": 1, "output": 1}, "timestamp": 2})
    };
    let filler = "lorem ipsum dolor sit amet ".repeat(80);
    let mut bytes = 0;
    let mut i = 0;
    while bytes < 10_000_000 {
        push(
            &mut lines,
            format!("u{i}"),
            serde_json::json!({"role": "user", "content": format!("question {i}: {filler}"), "timestamp": 1}),
        );
        if i == 1000 {
            push(
                &mut lines,
                "planted-call".into(),
                assistant(
                    serde_json::json!([{"type": "toolCall", "id": "abcdefghi", "name": "read", "arguments": {"path": "a.txt"}}]),
                    "toolUse",
                ),
            );
            push(
                &mut lines,
                "planted-result".into(),
                serde_json::json!({"role": "toolResult", "toolCallId": "abcdefghi", "toolName": "read",
                    "content": [{"type": "text", "text": "data"}], "isError": false, "timestamp": 3}),
            );
            push(
                &mut lines,
                "planted-user".into(),
                serde_json::json!({"role": "user", "content": "go on", "timestamp": 4}),
            );
        }
        push(
            &mut lines,
            format!("a{i}"),
            assistant(
                serde_json::json!([{"type": "text", "text": format!("answer {i}: {filler}")}]),
                "stop",
            ),
        );
        bytes = lines.iter().map(|l| l.len() + 1).sum();
        i += 1;
    }
    std::fs::write(&path, lines.join("\n") + "\n").expect("write input");
    path
}

fn bench(c: &mut Criterion) {
    let path = input();
    let text = std::fs::read_to_string(&path).expect("read");
    let options = ReduceOptions {
        target: Target {
            provider: Some("mistral".into()),
            api: Some("mistral-conversations".into()),
            model: Some("devstral-medium-2507".into()),
        },
        replay: ReplayOptions::default(),
        keep: Keep::Finding("mistral-user-after-tool".into()),
        max_time: None,
        redact: true,
        cancel: Arc::new(AtomicBool::new(false)),
    };
    let mut group = c.benchmark_group("reduce_10mb");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("reference_parse", |b| {
        b.iter(|| {
            let file = std::fs::File::open(&path).expect("open");
            let values: Vec<serde_json::Value> = BufReader::new(file)
                .lines()
                .map(|l| serde_json::from_str(&l.expect("line")).expect("json"))
                .collect();
            black_box(values)
        })
    });
    group.bench_function("reduce", |b| {
        b.iter(|| {
            let reduced = reduce(&text, "openclaw-jsonl", &options, &mut |_| {}).expect("reduces");
            assert!(reduced.messages <= 5);
            black_box(reduced)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! `scan --format ndjson` memory stays flat in the number of sessions: the peak resident size
//! over 100,000 small sessions is within 1.5× of that over 10,000 (rows stream out as sessions
//! finish; only a small window of them is held). Peak RSS comes from the kernel (`wait4`'s
//! `ru_maxrss` of the child), not from timing.

mod common;

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};

/// A small OpenClaw session: a header, a model, a user turn, a tool call, its result and
/// an answer (about 900 bytes), with its own ids.
fn session(i: usize) -> String {
    let id = format!("{i:08x}-5e55-4000-8000-{i:012x}");
    [
        format!(r#"{{"type":"session","version":3,"id":"{id}","timestamp":"2026-11-01T10:00:00.000Z","cwd":"/srv/agent"}}"#),
        r#"{"type":"model_change","id":"m1","parentId":null,"timestamp":"2026-11-01T10:00:00.010Z","provider":"anthropic","modelId":"claude-sonnet-4-5"}"#.to_owned(),
        format!(r#"{{"type":"message","id":"u1","parentId":"m1","timestamp":"2026-11-01T10:00:01.000Z","message":{{"role":"user","content":[{{"type":"text","text":"check disk {i}"}}],"timestamp":1793527201000}}}}"#),
        r#"{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-11-01T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"call_1","name":"exec","arguments":{"command":"df -h"}}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","stopReason":"toolUse","timestamp":1793527202000}}"#.to_owned(),
        r#"{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-11-01T10:00:03.000Z","message":{"role":"toolResult","toolCallId":"call_1","toolName":"exec","content":[{"type":"text","text":"/dev/vda 252G 28G 64G 31% /"}],"isError":false,"timestamp":1793527203000}}"#.to_owned(),
        r#"{"type":"message","id":"a2","parentId":"r1","timestamp":"2026-11-01T10:00:04.000Z","message":{"role":"assistant","content":[{"type":"text","text":"31% used."}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","stopReason":"stop","timestamp":1793527204000}}"#.to_owned(),
    ]
    .join("\n")
        + "\n"
}

/// `n` sessions under `dir`, 1,000 per folder.
fn fleet(dir: &Path, n: usize) {
    for i in 0..n {
        let folder = dir.join(format!("agents/a{:03}/sessions", i / 1000));
        if i % 1000 == 0 {
            std::fs::create_dir_all(&folder).unwrap();
        }
        std::fs::write(folder.join(format!("s{i:06}.jsonl")), session(i)).unwrap();
    }
}

/// Scan `dir` as NDJSON into the void; the rows counted and the child's peak RSS in KiB.
#[expect(clippy::zombie_processes, reason = "the child is reaped with wait4, for its rusage")]
fn scan_peak_kib(dir: &Path) -> (usize, i64) {
    let mut child = Command::new(common::bin())
        .args([
            "scan",
            dir.to_str().unwrap(),
            "--target",
            "anthropic",
            "--format",
            "ndjson",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let counter = std::thread::spawn(move || {
        use std::io::BufRead;
        std::io::BufReader::new(stdout).lines().count()
    });
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid; wait4 fills it for the child it reaps.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    // SAFETY: `pid` is our own child, not yet waited for; the pointers are to live locals.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4");
    let status = std::process::ExitStatus::from_raw(status);
    assert!(status.success(), "scan failed: {status}");
    (counter.join().unwrap(), usage.ru_maxrss)
}

#[test]
fn ndjson_scan_memory_is_flat_from_ten_thousand_to_a_hundred_thousand_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let (small, large) = (dir.path().join("10k"), dir.path().join("100k"));
    fleet(&small, 10_000);
    fleet(&large, 100_000);
    let (rows_small, peak_small) = scan_peak_kib(&small);
    let (rows_large, peak_large) = scan_peak_kib(&large);
    assert_eq!((rows_small, rows_large), (10_000, 100_000), "one row per session");
    let ratio = peak_large as f64 / peak_small as f64;
    eprintln!("peak RSS: 10,000 sessions {peak_small} KiB, 100,000 sessions {peak_large} KiB ({ratio:.2}×)");
    assert!(
        ratio <= 1.5,
        "peak RSS grew {ratio:.2}× for 10× the sessions ({peak_small} → {peak_large} KiB)"
    );
}

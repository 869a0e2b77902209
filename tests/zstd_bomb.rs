//! A zstd bomb of ordinary lines (a few hundred KB that expand to gigabytes of valid session
//! lines): every command refuses it with one sentence and exit status 2, holding well under
//! 1 GiB at its peak, and `scan` still lists the other sessions of its folder.
//!
//! The bomb here expands to 96 MiB (enough: the guard judges the expansion after 32 MiB,
//! whatever follows); a 4 GB one behaves the same (README, "Reliability").

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const HEADER: &str = r#"{"type":"session","version":3,"id":"bomb","timestamp":"2026-03-09T08:41:07.000Z","cwd":"/"}"#;

/// A `.jsonl.zst` of ordinary messages, one block repeated, expanding more than 1,000 times.
fn bomb(dir: &Path) -> PathBuf {
    let path = dir.join("bomb.jsonl.zst");
    let mut block = String::new();
    for i in 0..200 {
        let role = if i % 2 == 0 { "user" } else { "assistant" };
        block.push_str(&format!(
            r#"{{"type":"message","id":"m{i}","parentId":null,"timestamp":"2026-03-09T08:41:08.000Z","message":{{"role":"{role}","content":[{{"type":"text","text":"an ordinary line of text, number {i}"}}],"timestamp":1}}}}"#
        ));
        block.push('\n');
    }
    let mut enc = zstd::Encoder::new(std::fs::File::create(&path).unwrap(), 3).unwrap();
    enc.long_distance_matching(true).unwrap();
    enc.window_log(27).unwrap();
    writeln!(enc, "{HEADER}").unwrap();
    let mut written = 0;
    while written < 96 << 20 {
        enc.write_all(block.as_bytes()).unwrap();
        written += block.len();
    }
    enc.finish().unwrap();
    path
}

fn run(args: &[&str]) -> Output {
    Command::new(common::bin())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run replaylens")
}

/// The largest resident set of any child process waited for so far, in bytes.
fn peak_of_children() -> u64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes the struct it is given; RUSAGE_CHILDREN is a valid target.
    let usage = unsafe {
        assert_eq!(libc::getrusage(libc::RUSAGE_CHILDREN, usage.as_mut_ptr()), 0);
        usage.assume_init()
    };
    u64::try_from(usage.ru_maxrss).unwrap() * 1024
}

#[test]
fn every_command_refuses_a_zstd_bomb_in_one_sentence_with_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let bomb = bomb(dir.path());
    let size = std::fs::metadata(&bomb).unwrap().len();
    assert!(
        size < 96 << 10,
        "the bomb is {size} bytes: it must expand over 1,000 times"
    );
    let b = bomb.to_str().unwrap();
    for args in [
        vec!["show", b],
        vec!["replay", b],
        vec!["lint", b],
        vec!["payload", b],
        vec!["sessions", b],
        vec!["export", b, "--format", "html"],
    ] {
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("refused as a decompression bomb"), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: one sentence: {err}");
    }
    // A folder holding the bomb and a real session: the session is scanned, the bomb is a row.
    let sample = common::bundled_samples().join("anthropic-tool-repair.jsonl");
    std::fs::copy(&sample, dir.path().join("real.jsonl")).unwrap();
    let out = run(&["scan", dir.path().to_str().unwrap(), "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("scan JSON");
    let text = report.to_string();
    assert!(
        text.contains("real.jsonl") && text.contains("refused as a decompression bomb"),
        "{text}"
    );
    let peak = peak_of_children();
    assert!(peak < 1 << 30, "a command held {} MiB", peak >> 20);
}

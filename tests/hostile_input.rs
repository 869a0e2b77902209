//! Files that would exhaust memory or block: each ends in one sentence and exit status 2 (or
//! an error row in a listing), never in an allocation failure, a panic or a hang.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn run(args: &[&str]) -> Output {
    let mut child = Command::new(common::bin())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run replaylens");
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("{args:?} did not finish within 30 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn assert_refused(out: &Output, needle: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(needle), "{err}");
    assert!(!err.contains("panicked") && !err.contains("memory allocation"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "one sentence: {err}");
}

const HEADER: &str = r#"{"type":"session","version":3,"id":"s1","timestamp":"2026-03-09T08:41:07.000Z","cwd":"/"}"#;

/// A `.jsonl.zst` of about 30 KB that expands to 3 MiB.
fn zstd_bomb(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("bomb.jsonl.zst");
    let mut enc = zstd::Encoder::new(std::fs::File::create(&path).unwrap(), 19).unwrap();
    writeln!(enc, "{HEADER}").unwrap();
    let line = format!(
        r#"{{"type":"message","id":"m1","parentId":null,"timestamp":"2026-03-09T08:41:08.000Z","message":{{"role":"user","content":"{}"}}}}"#,
        "A".repeat(3 << 20)
    );
    writeln!(enc, "{line}").unwrap();
    enc.finish().unwrap();
    path
}

#[test]
fn a_compressed_session_past_the_limit_is_one_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let bomb = zstd_bomb(dir.path());
    let b = bomb.to_str().unwrap();
    assert_refused(
        &run(&["show", b, "--max-decompressed-mb", "1"]),
        "holds more than 1 MiB of session data once decompressed",
    );
    assert!(run(&["show", b]).status.success(), "within the default limit");
}

#[test]
fn a_line_past_the_limit_is_one_sentence_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.jsonl");
    let line = format!(
        r#"{{"type":"message","id":"m1","parentId":null,"timestamp":"2026-03-09T08:41:08.000Z","message":{{"role":"user","content":"{}"}}}}"#,
        "A".repeat(2 << 20)
    );
    std::fs::write(&path, format!("{HEADER}\n{line}\n")).unwrap();
    let p = path.to_str().unwrap();
    assert_refused(
        &run(&["replay", p, "--max-line-mb", "1"]),
        "line 2 is longer than 1 MiB",
    );
    assert!(run(&["replay", p]).status.success());
}

#[test]
fn devices_and_fifos_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let zero = dir.path().join("zero.jsonl");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    assert_refused(&run(&["show", zero.to_str().unwrap()]), "is a character device");
    let fifo = dir.path().join("pipe.jsonl");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    assert_refused(&run(&["show", fifo.to_str().unwrap()]), "is a FIFO");
    assert_refused(&run(&["export", fifo.to_str().unwrap(), "--format", "md"]), "is a FIFO");
}

#[test]
fn a_folder_of_hostile_files_lists_them_as_errors() {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.jsonl")).unwrap();
    std::fs::write(dir.path().join("ok.jsonl"), format!("{HEADER}\n")).unwrap();
    let out = run(&["sessions", dir.path().to_str().unwrap(), "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(
        rows.iter()
            .any(|r| r["error"].as_str().is_some_and(|e| e.contains("character device"))),
        "{rows:?}"
    );
}

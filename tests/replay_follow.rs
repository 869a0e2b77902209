//! `replay --follow`: once the replay is printed, lines an agent appends to the session are
//! replayed as they complete, and the messages the replay gained and the verdict are printed.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

#[test]
fn appended_lines_are_replayed_and_the_verdict_follows() {
    let dir = tempfile::tempdir().unwrap();
    let session = dir.path().join("s.jsonl");
    let mut text =
        String::from(r#"{"type":"session","version":3,"id":"f","timestamp":"2026-03-14T09:30:00.000Z","cwd":"/"}"#);
    text.push('\n');
    text.push_str(r#"{"type":"message","id":"u0","parentId":null,"timestamp":"2026-03-14T09:30:01.000Z","message":{"role":"user","content":"question","timestamp":1}}"#);
    text.push('\n');
    text.push_str(r#"{"type":"message","id":"a0","parentId":"u0","timestamp":"2026-03-14T09:30:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"answer"}],"provider":"mistral","api":"mistral-conversations","model":"devstral-medium-2507","stopReason":"stop","usage":{"input":1,"output":1},"timestamp":2}}"#);
    text.push('\n');
    std::fs::write(&session, text).unwrap();
    let mut child = Command::new(common::bin())
        .args(["replay", "--follow"])
        .arg(&session)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (tx, rx) = channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap_or_default()).is_err() {
                break;
            }
        }
    });
    let wait_for = |what: &str| -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = rx
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no {what:?} in {seen:#?}"));
            let hit = line.contains(what);
            seen.push(line);
            if hit {
                return seen;
            }
        }
    };
    wait_for("following");
    let mut file = std::fs::OpenOptions::new().append(true).open(&session).unwrap();
    for line in [
        r#"{"type":"message","id":"c1","parentId":"a0","timestamp":"2026-03-14T09:31:00.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"abcdefghi","name":"read","arguments":{}}],"provider":"mistral","api":"mistral-conversations","model":"devstral-medium-2507","stopReason":"toolUse","usage":{"input":1,"output":1},"timestamp":3}}"#,
        r#"{"type":"message","id":"r1","parentId":"c1","timestamp":"2026-03-14T09:31:01.000Z","message":{"role":"toolResult","toolCallId":"abcdefghi","toolName":"read","content":[{"type":"text","text":"data"}],"isError":false,"timestamp":4}}"#,
        r#"{"type":"message","id":"u9","parentId":"r1","timestamp":"2026-03-14T09:31:02.000Z","message":{"role":"user","content":"and now?","timestamp":5}}"#,
    ] {
        writeln!(file, "{line}").unwrap();
    }
    file.flush().unwrap();
    let update = wait_for("session changed");
    let head = update.last().unwrap();
    assert!(head.contains("stored 5 → replay 5"), "{head}");
    assert!(head.contains("✗ payload would be rejected (1 finding)"), "{head}");
    let rest = wait_for("and now?");
    assert!(
        rest.iter().any(|l| l.contains("#2")),
        "the replay's new messages are printed: {rest:#?}"
    );
    child.kill().unwrap();
    let _ = child.wait();
}

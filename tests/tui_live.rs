//! Live follow in a real terminal: an agent appends to the open JSONL session, or commits rows
//! to the open WAL-mode database, while the inspector runs; the rows, the verdict and the
//! cursor follow without a key press; a deleted file, or a FIFO in its place, is said in the
//! header instead of `● live`.

mod common;

use std::path::Path;
use std::time::Duration;

use common::tmux::{Tmux, command};

/// An OpenClaw JSONL session of `turns` plain Mistral question/answer pairs.
fn plain_mistral_session(path: &Path, turns: usize) {
    let mut lines = vec![
        r#"{"type":"session","version":3,"id":"live-1","timestamp":"2026-03-14T09:30:00.000Z","cwd":"/"}"#.to_owned(),
    ];
    let mut parent = "null".to_owned();
    for i in 0..turns {
        lines.push(format!(
            r#"{{"type":"message","id":"u{i}","parentId":{parent},"timestamp":"2026-03-14T09:30:01.000Z","message":{{"role":"user","content":"question {i}","timestamp":1}}}}"#
        ));
        lines.push(format!(
            r#"{{"type":"message","id":"a{i}","parentId":"u{i}","timestamp":"2026-03-14T09:30:02.000Z","message":{{"role":"assistant","content":[{{"type":"text","text":"answer {i}"}}],"provider":"mistral","api":"mistral-conversations","model":"devstral-medium-2507","stopReason":"stop","usage":{{"input":1,"output":1}},"timestamp":2}}}}"#
        ));
        parent = format!("\"a{i}\"");
    }
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// Three entries after `plain_mistral_session(_, 3)`: a tool call, its result and a user turn
/// right after it (Mistral refuses `user` after `tool`).
const MISTRAL_REJECTED_TAIL: [&str; 3] = [
    r#"{"type":"message","id":"c1","parentId":"a2","timestamp":"2026-03-14T09:31:00.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"abcdefghi","name":"read","arguments":{}}],"provider":"mistral","api":"mistral-conversations","model":"devstral-medium-2507","stopReason":"toolUse","usage":{"input":1,"output":1},"timestamp":3}}"#,
    r#"{"type":"message","id":"r1","parentId":"c1","timestamp":"2026-03-14T09:31:01.000Z","message":{"role":"toolResult","toolCallId":"abcdefghi","toolName":"read","content":[{"type":"text","text":"data"}],"isError":false,"timestamp":4}}"#,
    r#"{"type":"message","id":"u9","parentId":"r1","timestamp":"2026-03-14T09:31:02.000Z","message":{"role":"user","content":"and now?","timestamp":5}}"#,
];

fn append(path: &Path, text: &str) {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    file.write_all(text.as_bytes()).unwrap();
    file.flush().unwrap();
}

#[test]
fn appended_turns_appear_live_the_verdict_follows_and_the_cursor_stays() {
    let config = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let session = dir.path().join("live.jsonl");
    plain_mistral_session(&session, 3);
    let tmux = Tmux::start_sized("live", &command(&[&session], config.path()), 80, 24);
    let screen = tmux.wait_for("payload accepted");
    assert!(screen.lines().nth(1).unwrap().contains("● live"), "{screen}");
    tmux.send(&["j", "j"]);
    tmux.wait_for(" 3/6 ");
    // A tool call, its result and a user turn right after it: Mistral refuses `user` after
    // `tool`. The user line is written in two parts; while it is half-written nothing is read.
    let (head, tail) = MISTRAL_REJECTED_TAIL[2].split_at(60);
    append(
        &session,
        &format!("{}\n{}\n{head}", MISTRAL_REJECTED_TAIL[0], MISTRAL_REJECTED_TAIL[1]),
    );
    // The file now ends in a half-written line: it is left until the writer ends the line.
    std::thread::sleep(Duration::from_millis(1500));
    let screen = tmux.wait_for(" 3/6 ");
    assert!(
        screen.contains("payload accepted"),
        "nothing read before the line ends: {screen}"
    );
    append(&session, &format!("{tail}\n"));
    let screen = tmux.wait_for("payload would be rejected");
    assert!(
        screen.contains(" 3/9 "),
        "the new rows are there and the cursor stayed: {screen}"
    );
    tmux.send(&["q"]);
}

#[test]
fn rows_committed_to_a_wal_database_appear_live() {
    use rusqlite::Connection;
    let config = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let jsonl = dir.path().join("seed.jsonl");
    plain_mistral_session(&jsonl, 3);
    let db = dir.path().join("openclaw-agent.sqlite");
    let conn = Connection::open(&db).unwrap();
    conn.pragma_update(None, "journal_mode", "WAL").unwrap();
    conn.execute_batch(
        "CREATE TABLE transcript_events (session_id TEXT NOT NULL, seq INTEGER, event_json TEXT, event_zstd BLOB, event_utf8_bytes INTEGER, created_at INTEGER);",
    )
    .unwrap();
    let insert = |seq: usize, line: &str| {
        conn.execute(
            "INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES ('live-1', ?1, ?2, 0)",
            rusqlite::params![seq as i64, line],
        )
        .unwrap();
    };
    let seed = std::fs::read_to_string(&jsonl).unwrap();
    let mut seq = 0;
    for line in seed.lines() {
        insert(seq, line);
        seq += 1;
    }
    let tmux = Tmux::start_sized("live-wal", &command(&[&db], config.path()), 80, 24);
    let screen = tmux.wait_for("payload accepted");
    assert!(screen.lines().nth(1).unwrap().contains("● live"), "{screen}");
    tmux.send(&["j", "j"]);
    tmux.wait_for(" 3/6 ");
    for line in MISTRAL_REJECTED_TAIL {
        insert(seq, line);
        seq += 1;
    }
    assert!(
        std::fs::metadata(dir.path().join("openclaw-agent.sqlite-wal")).is_ok(),
        "the rows sit in the WAL"
    );
    let screen = tmux.wait_for("payload would be rejected");
    assert!(
        screen.contains(" 3/9 "),
        "the new rows are there and the cursor stayed: {screen}"
    );
    tmux.send(&["q"]);
}

#[test]
fn a_deleted_file_then_a_fifo_in_its_place_are_said_in_the_header_and_q_still_quits() {
    let config = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let session = dir.path().join("live.jsonl");
    plain_mistral_session(&session, 3);
    let tmux = Tmux::start_sized("live-gone", &command(&[&session], config.path()), 100, 24);
    let screen = tmux.wait_for("payload accepted");
    assert!(screen.lines().nth(1).unwrap().contains("● live"), "{screen}");
    std::fs::remove_file(&session).unwrap();
    let screen = tmux.wait_for("● live: file deleted");
    assert!(
        screen.contains("answer 2"),
        "the view stays, marked as no longer live: {screen}"
    );
    let status = std::process::Command::new("mkfifo").arg(&session).status().unwrap();
    assert!(status.success());
    // Opening the FIFO would block the inspector: it is never opened, and q quits.
    tmux.wait_for("● live: replaced by a FIFO, not read");
    tmux.send(&["q"]);
    tmux.wait_exit();
}

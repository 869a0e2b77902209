//! `replay --follow`: once the replay is printed, lines an agent appends to the session are
//! replayed as they complete, and the messages the replay gained and the verdict are printed.
//! Anything else that happens to the file (truncated, deleted, replaced by another file, a
//! FIFO, a folder or a link to `/dev/zero`, a line over the limit) is one line on standard
//! error naming the file, what happened and what follows, and the follow goes on (issue 45).

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

const HEADER: &str = r#"{"type":"session","version":3,"id":"f","timestamp":"2026-03-14T09:30:00.000Z","cwd":"/"}"#;

/// A user turn `id` after `parent` (`null` for the first).
fn user(id: &str, parent: &str, text: &str) -> String {
    format!(
        r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2026-03-14T09:30:01.000Z","message":{{"role":"user","content":"{text}","timestamp":1}}}}"#
    )
}

/// A Mistral answer `id` after `parent`.
fn answer(id: &str, parent: &str, text: &str) -> String {
    format!(
        r#"{{"type":"message","id":"{id}","parentId":"{parent}","timestamp":"2026-03-14T09:30:02.000Z","message":{{"role":"assistant","content":[{{"type":"text","text":"{text}"}}],"provider":"mistral","api":"mistral-conversations","model":"devstral-medium-2507","stopReason":"stop","usage":{{"input":1,"output":1}},"timestamp":2}}}}"#
    )
}

/// A session of one question and its answer, `text` in both.
fn session_text(text: &str) -> String {
    [HEADER.to_owned(), user("u0", "null", text), answer("a0", "u0", text)].join("\n") + "\n"
}

/// Which stream a line came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stream {
    Out,
    Err,
}

/// A running `replay --follow`, its output lines arriving on one channel.
struct Follow {
    child: Child,
    lines: Receiver<(Stream, String)>,
}

impl Follow {
    /// Start following `session` with `extra` arguments; returns once it says it follows.
    fn start(session: &Path, extra: &[&str]) -> Self {
        let mut child = Command::new(common::bin())
            .args(["replay", "--follow"])
            .args(extra)
            .arg(session)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (tx, lines) = channel();
        for (stream, pipe) in [
            (
                Stream::Out,
                Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>,
            ),
            (Stream::Err, Box::new(child.stderr.take().unwrap())),
        ] {
            let tx = tx.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(pipe).lines() {
                    if tx.send((stream, line.unwrap_or_default())).is_err() {
                        break;
                    }
                }
            });
        }
        let mut follow = Self { child, lines };
        follow.wait_for(Stream::Out, "following");
        follow
    }

    /// The lines up to the first of `stream` holding `what` (30 s at most between lines).
    fn wait_for(&mut self, stream: Stream, what: &str) -> Vec<(Stream, String)> {
        let mut seen = Vec::new();
        loop {
            let (from, line) = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no {what:?} on {stream:?} in {seen:#?}"));
            let hit = from == stream && line.contains(what);
            seen.push((from, line));
            if hit {
                return seen;
            }
        }
    }

    /// The lines up to those holding `said` on standard error and `out` on standard output,
    /// in either order (the two pipes are read by two threads).
    fn wait_for_both(&mut self, said: &str, out: &str) -> Vec<(Stream, String)> {
        let mut seen = Vec::new();
        let (mut said_seen, mut out_seen) = (false, false);
        while !(said_seen && out_seen) {
            let (from, line) = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no {said:?} and {out:?} in {seen:#?}"));
            said_seen |= from == Stream::Err && line.contains(said);
            out_seen |= from == Stream::Out && line.contains(out);
            seen.push((from, line));
        }
        seen
    }

    /// The standard error lines among `lines`.
    fn errors(lines: &[(Stream, String)]) -> Vec<&str> {
        lines
            .iter()
            .filter(|(s, _)| *s == Stream::Err)
            .map(|(_, l)| l.as_str())
            .collect()
    }
}

impl Drop for Follow {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn append(path: &Path, text: &str) {
    let mut file = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    file.write_all(text.as_bytes()).unwrap();
    file.flush().unwrap();
}

/// A folder holding `s.jsonl`, one question and answer saying "first".
fn fixture() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let session = dir.path().join("s.jsonl");
    std::fs::write(&session, session_text("first")).unwrap();
    (dir, session)
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

#[test]
fn appended_lines_are_replayed_and_the_verdict_follows() {
    let dir = tempfile::tempdir().unwrap();
    let session = dir.path().join("s.jsonl");
    std::fs::write(&session, session_text("answer")).unwrap();
    let mut follow = Follow::start(&session, &[]);
    let mut text = String::new();
    for line in [
        r#"{"type":"message","id":"c1","parentId":"a0","timestamp":"2026-03-14T09:31:00.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"abcdefghi","name":"read","arguments":{}}],"provider":"mistral","api":"mistral-conversations","model":"devstral-medium-2507","stopReason":"toolUse","usage":{"input":1,"output":1},"timestamp":3}}"#,
        r#"{"type":"message","id":"r1","parentId":"c1","timestamp":"2026-03-14T09:31:01.000Z","message":{"role":"toolResult","toolCallId":"abcdefghi","toolName":"read","content":[{"type":"text","text":"data"}],"isError":false,"timestamp":4}}"#,
        r#"{"type":"message","id":"u9","parentId":"r1","timestamp":"2026-03-14T09:31:02.000Z","message":{"role":"user","content":"and now?","timestamp":5}}"#,
    ] {
        text.push_str(line);
        text.push('\n');
    }
    append(&session, &text);
    let update = follow.wait_for(Stream::Out, "session changed");
    let head = &update.last().unwrap().1;
    assert!(head.contains("stored 5 → replay 5"), "{head}");
    assert!(head.contains("✗ payload would be rejected (1 finding)"), "{head}");
    let rest = follow.wait_for(Stream::Out, "and now?");
    assert!(
        rest.iter().any(|(_, l)| l.contains("#2")),
        "the replay's new messages are printed: {rest:#?}"
    );
    assert!(Follow::errors(&update).is_empty() && Follow::errors(&rest).is_empty());
}

#[test]
fn a_truncated_file_is_said_once_and_replayed_from_the_start() {
    let (_dir, session) = fixture();
    let mut follow = Follow::start(&session, &[]);
    std::fs::OpenOptions::new()
        .write(true)
        .open(&session)
        .unwrap()
        .set_len(0)
        .unwrap();
    follow.wait_for(
        Stream::Err,
        "s.jsonl was truncated to 0 bytes; reloading from the start",
    );
    append(&session, &session_text("second"));
    let lines = follow.wait_for(Stream::Out, "second");
    assert!(
        lines.iter().any(|(_, l)| l.contains("stored 2 → replay 2")),
        "the new file is replayed whole, not added to the old one: {lines:#?}"
    );
    assert!(
        lines.iter().any(|(_, l)| l.starts_with("#0")),
        "from its first message: {lines:#?}"
    );
    assert!(Follow::errors(&lines).is_empty(), "said once: {lines:#?}");
}

#[test]
fn a_deleted_file_is_waited_for_and_replayed_when_it_is_back() {
    let (_dir, session) = fixture();
    let mut follow = Follow::start(&session, &[]);
    std::fs::remove_file(&session).unwrap();
    follow.wait_for(Stream::Err, "s.jsonl was deleted; waiting for it to reappear");
    // Written whole beside it, then renamed into place: one event.
    let new = session.with_extension("new");
    std::fs::write(&new, session_text("again")).unwrap();
    std::fs::rename(&new, &session).unwrap();
    let lines = follow.wait_for_both("s.jsonl is back; reloading from the start", "again");
    assert_eq!(Follow::errors(&lines).len(), 1, "one line for its return: {lines:#?}");
}

#[test]
fn a_file_renamed_over_it_is_replayed_from_the_start() {
    let (dir, session) = fixture();
    let mut follow = Follow::start(&session, &[]);
    let new = dir.path().join("new.jsonl");
    std::fs::write(&new, session_text("renamed")).unwrap();
    std::fs::rename(&new, &session).unwrap();
    let lines = follow.wait_for_both(
        "s.jsonl was replaced by another file; reloading from the start",
        "renamed",
    );
    assert_eq!(Follow::errors(&lines).len(), 1, "said once: {lines:#?}");
    assert!(
        lines.iter().any(|(_, l)| l.contains("stored 2 → replay 2")),
        "{lines:#?}"
    );
}

/// Replace the session with what `plant` makes at the path it is given (renamed over the
/// session when it can be, so the replacement is one event) and check the one line said, and
/// that nothing hangs: a regular file put back afterwards is read, with one line for it.
fn replaced_and_not_read(plant: impl FnOnce(&Path), said: &str) {
    let (dir, session) = fixture();
    let mut follow = Follow::start(&session, &[]);
    let planted = dir.path().join("planted");
    plant(&planted);
    if std::fs::symlink_metadata(&planted).unwrap().is_dir() {
        // A folder cannot be renamed over a file.
        std::fs::remove_file(&session).unwrap();
    }
    std::fs::rename(&planted, &session).unwrap();
    let lines = follow.wait_for(Stream::Err, said);
    for line in Follow::errors(&lines) {
        assert!(
            line.contains(said) || line.ends_with("s.jsonl was deleted; waiting for it to reappear"),
            "only what happened is said: {lines:#?}"
        );
    }
    let back = dir.path().join("back.jsonl");
    std::fs::write(&back, session_text("back again")).unwrap();
    if std::fs::symlink_metadata(&session).unwrap().is_dir() {
        std::fs::remove_dir(&session).unwrap();
    }
    std::fs::rename(&back, &session).unwrap();
    let lines = follow.wait_for_both("reloading from the start", "back again");
    let errors = Follow::errors(&lines);
    // A folder is removed before the file is put back: that is a deletion, said too.
    let deleted = |l: &&str| l.ends_with("s.jsonl was deleted; waiting for it to reappear");
    let back: Vec<_> = errors.iter().filter(|l| !deleted(l)).collect();
    assert!(
        back.len() == 1 && back[0].contains("reloading from the start"),
        "one line for the file put back, no read error: {lines:#?}"
    );
}

#[test]
fn a_fifo_in_its_place_is_said_and_never_opened() {
    replaced_and_not_read(
        mkfifo,
        "s.jsonl was replaced by a FIFO; not following it until a regular file is back",
    );
}

#[test]
fn a_folder_in_its_place_is_said() {
    replaced_and_not_read(
        |p| std::fs::create_dir(p).unwrap(),
        "s.jsonl was replaced by a folder; not following it",
    );
}

#[test]
fn a_link_to_dev_zero_in_its_place_is_said_and_never_read() {
    replaced_and_not_read(
        |p| std::os::unix::fs::symlink("/dev/zero", p).unwrap(),
        "s.jsonl was replaced by a link to /dev/zero, which is not a regular file; not following it",
    );
}

#[test]
fn a_line_over_the_limit_is_said_with_its_number_and_the_follow_goes_on() {
    let (_dir, session) = fixture();
    let mut follow = Follow::start(&session, &["--max-line-mb", "1"]);
    append(&session, &format!("{}\n", user("u1", "\"a0\"", "one more")));
    follow.wait_for(Stream::Out, "one more");
    // Line 5 is 2 MiB long, still being written: already over the 1 MiB limit.
    append(
        &session,
        &format!("{{\"type\":\"custom\",\"data\":\"{}", "x".repeat(2 << 20)),
    );
    follow.wait_for(
        Stream::Err,
        "s.jsonl line 5 is longer than the line limit (--max-line-mb); not reading further until the file is truncated or replaced",
    );
    // Truncated back to what it was, it is read again.
    std::fs::write(&session, session_text("fresh start")).unwrap();
    let lines = follow.wait_for_both("was truncated to", "fresh start");
    assert_eq!(Follow::errors(&lines).len(), 1, "{lines:#?}");
}

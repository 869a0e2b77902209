//! Memory on many short messages: the most a command holds at once, against the file.
//!
//! A counting allocator follows the bytes in use and their peak while a session of 20,000
//! short messages (the worst case per byte: every assistant usage is rewritten, so both
//! sides of half the messages differ) is loaded, replayed and exported or linted. The count
//! is the same on every machine, so the test cannot flake. Before exports were streamed the
//! HTML report held its whole text twice (about 12× the file) and a redacted report held a
//! redacted copy of every message; before they read stored messages back from the file, an
//! export held both sides of the replay and a payload beside them (about 3.9×).

use std::path::Path;

use replaylens::export::stored_file::{ReadBack, StoredFile};
use replaylens::export::{ExportFormat, ExportOptions, LintFindings, Redaction, export_reading_back, export_to};
use replaylens::hygiene::ReplayOptions;
use replaylens::lint::lint;
use replaylens::load::{Keep, LoadOptions, load_path};
use replaylens::policy::Target;
use replaylens::replay::PreparedReplay;
use replaylens::wire::{replay_payload, stored_payload};

mod common;

use common::counting::{Counting, peak_in_use_during};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Write a chat of `n` short messages, user and assistant in turn, as
/// `examples/gen_large_session.rs --short` does; its size in bytes.
fn short_session(path: &Path, n: usize) -> usize {
    let mut text =
        String::from(r#"{"type":"session","version":3,"id":"short","timestamp":"2026-03-09T08:41:07.000Z","cwd":"/"}"#);
    text.push('\n');
    for i in 0..n {
        let parent = if i == 0 {
            "null".to_owned()
        } else {
            format!("\"m{}\"", i - 1)
        };
        let message = if i % 2 == 0 {
            format!(r#"{{"role":"user","content":[{{"type":"text","text":"short message {i}"}}],"timestamp":{i}}}"#)
        } else {
            format!(
                r#"{{"role":"assistant","content":[{{"type":"text","text":"short message {i}"}}],"timestamp":{i},"stopReason":"stop","usage":{{"input":1,"output":1,"totalTokens":2}},"provider":"anthropic","model":"claude-sonnet-4-6","api":"anthropic-messages"}}"#
            )
        };
        text.push_str(&format!(
            r#"{{"type":"message","id":"m{i}","parentId":{parent},"timestamp":"2026-03-09T08:41:08.000Z","message":{message}}}"#
        ));
        text.push('\n');
    }
    std::fs::write(path, &text).unwrap();
    text.len()
}

fn transcript_only() -> LoadOptions {
    LoadOptions {
        keep: Keep::Transcript,
        ..LoadOptions::default()
    }
}

fn anthropic() -> Target {
    Target {
        provider: Some("anthropic".into()),
        api: Some("anthropic-messages".into()),
        model: Some("claude-sonnet-4-6".into()),
    }
}

fn prepared(path: &Path) -> PreparedReplay {
    PreparedReplay::new(
        load_path(path, &transcript_only()).unwrap(),
        &anthropic(),
        &ReplayOptions::default(),
    )
}

fn options(format: ExportFormat, redaction: Redaction) -> ExportOptions {
    ExportOptions {
        format,
        redaction,
        ..ExportOptions::default()
    }
}

/// Export as the command line does for a JSONL session, into a sink: the lint section from
/// a first load, then the replay with its stored messages read back from the file.
fn export(path: &Path, format: ExportFormat, redaction: Redaction) {
    let file = StoredFile::open(path).unwrap().unwrap();
    let lint = LintFindings::of_prepared(prepared(path));
    let (session, replay, read_back) = ReadBack::replay(file, prepared(path)).unwrap();
    let mut written = CountingSink(0);
    export_reading_back(
        &session,
        &replay,
        &options(format, redaction),
        lint,
        &read_back,
        &mut written,
    )
    .unwrap();
    assert!(written.0 > 1000);
}

/// Export a replay that holds both sides (the inspector's export, sessions not read back).
fn export_held(path: &Path, format: ExportFormat) {
    let (session, replay) = prepared(path).into_replay();
    let mut written = CountingSink(0);
    export_to(&session, &replay, &options(format, Redaction::None), &mut written).unwrap();
    assert!(written.0 > 1000);
}

/// Lint both stages one side at a time, as `replaylens lint` does.
fn lint_both(path: &Path) {
    let prepared = prepared(path);
    let target = prepared.resolved.target.clone();
    let stored = lint(&stored_payload(&prepared.transcript.messages, &target).unwrap());
    let messages = prepared.run().into_messages();
    let sent = messages.len();
    let replayed = lint(&replay_payload(messages, &target).unwrap());
    assert!(stored.len() + replayed.len() < sent);
}

/// Counts what is written, keeps nothing.
struct CountingSink(usize);

impl std::io::Write for CountingSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What is measured, the most it may hold (times the file), and the work.
type Case<'a> = (&'static str, f64, Box<dyn FnOnce() + 'a>);

#[test]
fn many_short_messages_hold_a_few_times_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("short.jsonl");
    let file = short_session(&path, 20_000);
    // What a process builds once, whatever the file, is not counted against it: the secret
    // catalogue (gitleaks' rules, compiled on first use) and the other lazily built tables.
    // Their cost is measured here on a session of ten messages and bounded on its own.
    let tiny = dir.path().join("tiny.jsonl");
    short_session(&tiny, 10);
    let once = peak_in_use_during(|| {
        export(&tiny, ExportFormat::Html, Redaction::Secrets);
        export(&tiny, ExportFormat::Markdown, Redaction::AllText);
    });
    eprintln!(
        "built once per process: peak {:.1} MiB",
        once as f64 / f64::from(1 << 20)
    );
    assert!(once < 48 << 20, "the tables built once take {once} bytes");
    let cases: Vec<Case<'_>> = vec![
        (
            "export html",
            3.0,
            Box::new(|| export(&path, ExportFormat::Html, Redaction::None)),
        ),
        (
            "export json",
            3.0,
            Box::new(|| export(&path, ExportFormat::Json, Redaction::None)),
        ),
        (
            "export md",
            3.0,
            Box::new(|| export(&path, ExportFormat::Markdown, Redaction::None)),
        ),
        (
            "export md, all text redacted",
            3.0,
            Box::new(|| export(&path, ExportFormat::Markdown, Redaction::AllText)),
        ),
        (
            "export html, secrets redacted",
            3.0,
            Box::new(|| export(&path, ExportFormat::Html, Redaction::Secrets)),
        ),
        (
            "export html, both sides held",
            4.5,
            Box::new(|| export_held(&path, ExportFormat::Html)),
        ),
        ("lint, both stages", 3.0, Box::new(|| lint_both(&path))),
    ];
    let mut over = Vec::new();
    for (what, limit, work) in cases {
        let ratio = peak_in_use_during(work) as f64 / file as f64;
        eprintln!("{what}: peak {ratio:.2}× the file ({file} bytes)");
        if ratio > limit {
            over.push(format!("{what}: {ratio:.2}× (at most {limit}×)"));
        }
    }
    assert!(over.is_empty(), "{over:?}");
}

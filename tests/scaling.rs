//! No quadratic step: the work of a replay grows linearly with the session.
//!
//! Work is counted, not timed: a counting allocator totals the bytes each thread allocates
//! while it loads and replays a session of `n` and of `8n` turns. A step that copies what it
//! has accumulated so far on every turn (the 10,000-user-turn merge that took 19 s) grows
//! about 64×; a linear pipeline grows about 8×. The count is the same on every machine and
//! under any load, so the test cannot flake.

use std::path::Path;

use replaylens::hygiene::ReplayOptions;
use replaylens::load::{LoadOptions, load_path};
use replaylens::policy::Target;
use replaylens::replay::replay;

mod common;

use common::counting::{Counting, allocated_on_this_thread};

#[global_allocator]
static GLOBAL: Counting = Counting;

const HEADER: &str = r#"{"type":"session","version":3,"id":"s","timestamp":"2026-03-09T08:41:07.000Z","cwd":"/"}"#;

/// Bytes allocated on this thread while loading and replaying `path` for `target`.
fn work(path: &Path, target: &Target) -> u64 {
    let before = allocated_on_this_thread();
    let session = load_path(path, &LoadOptions::default()).expect("load");
    let out = replay(&session, target, &ReplayOptions::default());
    assert!(!out.projection.messages.is_empty());
    drop(out);
    drop(session);
    allocated_on_this_thread() - before
}

/// Write a session of `n` turns made by `turn(i, parent)`, which returns the line and its id.
fn session(dir: &Path, name: &str, n: usize, turn: impl Fn(usize, &str) -> (String, String)) -> std::path::PathBuf {
    let mut text = format!("{HEADER}\n");
    let mut parent = "null".to_owned();
    for i in 0..n {
        let (line, id) = turn(i, &parent);
        text.push_str(&line);
        text.push('\n');
        parent = format!("\"{id}\"");
    }
    let path = dir.join(format!("{name}-{n}.jsonl"));
    std::fs::write(&path, text).unwrap();
    path
}

fn user_turn(i: usize, parent: &str) -> (String, String) {
    let id = format!("u{i}");
    let line = format!(
        r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2026-03-09T08:41:08.000Z","message":{{"role":"user","content":[{{"type":"text","text":"quiet channel message number {i}"}}],"timestamp":{i}}}}}"#
    );
    (line, id)
}

/// A user turn, then a compaction keeping from that turn on.
fn compacted_turn(i: usize, parent: &str) -> (String, String) {
    let (user, uid) = user_turn(i, parent);
    let cid = format!("c{i}");
    let compaction = format!(
        r#"{{"type":"compaction","id":"{cid}","parentId":"{uid}","timestamp":"2026-03-09T08:41:09.000Z","summary":"summary {i}","firstKeptEntryId":"{uid}","tokensBefore":10}}"#
    );
    (format!("{user}\n{compaction}"), cid)
}

fn anthropic() -> Target {
    Target {
        provider: Some("anthropic".into()),
        api: Some("anthropic-messages".into()),
        model: Some("claude-sonnet-4-6".into()),
    }
}

/// Assert that 8× the turns cost at most 12× the work (quadratic would be about 64×).
fn assert_linear(what: &str, small: u64, large: u64) {
    let ratio = large as f64 / small as f64;
    eprintln!("{what}: {small} → {large} bytes allocated, {ratio:.1}× for 8× the turns");
    assert!(ratio < 12.0, "{what}: {ratio:.1}× the work for 8× the turns");
}

#[test]
fn consecutive_user_turns_merge_in_linear_work() {
    let dir = tempfile::tempdir().unwrap();
    let small = work(&session(dir.path(), "users", 1_250, user_turn), &anthropic());
    let large = work(&session(dir.path(), "users", 10_000, user_turn), &anthropic());
    assert_linear("10,000 consecutive user turns for Anthropic", small, large);
}

#[test]
fn many_compactions_replay_in_linear_work() {
    let dir = tempfile::tempdir().unwrap();
    let small = work(&session(dir.path(), "compactions", 2_500, compacted_turn), &anthropic());
    let large = work(
        &session(dir.path(), "compactions", 20_000, compacted_turn),
        &anthropic(),
    );
    assert_linear("20,000 compactions", small, large);
}

#[test]
fn many_short_messages_replay_in_linear_work_for_every_family() {
    let dir = tempfile::tempdir().unwrap();
    let alternating = |i: usize, parent: &str| {
        let id = format!("m{i}");
        let message = if i.is_multiple_of(2) {
            format!(r#"{{"role":"user","content":"short {i}","timestamp":{i}}}"#)
        } else {
            format!(
                r#"{{"role":"assistant","content":[{{"type":"text","text":"short {i}"}}],"stopReason":"stop","provider":"anthropic","api":"anthropic-messages","model":"claude-sonnet-4-6","timestamp":{i}}}"#
            )
        };
        let line = format!(
            r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2026-03-09T08:41:08.000Z","message":{message}}}"#
        );
        (line, id)
    };
    let small_path = session(dir.path(), "short", 2_500, alternating);
    let large_path = session(dir.path(), "short", 20_000, alternating);
    for (provider, api, model) in [
        ("anthropic", "anthropic-messages", "claude-sonnet-4-6"),
        ("openai", "openai-responses", "gpt-5.4"),
        ("google", "google-generative-ai", "gemini-3-pro"),
        ("mistral", "openai-completions", "mistral-large-latest"),
    ] {
        let target = Target {
            provider: Some(provider.into()),
            api: Some(api.into()),
            model: Some(model.into()),
        };
        let small = work(&small_path, &target);
        let large = work(&large_path, &target);
        assert_linear(&format!("20,000 short messages for {provider}"), small, large);
    }
}

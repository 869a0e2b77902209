//! Malformed input is reported by file and line, never fatal and never silent; the CLI
//! keeps the exit-status contract of `docs/internals.md`.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use replaylens::load::{LoadError, LoadOptions, load_path};
use replaylens::model::{Location, Severity};

const HEADER: &str =
    r#"{"type":"session","version":3,"id":"sess-1","timestamp":"2026-09-01T08:00:00.000Z","cwd":"/w"}"#;

fn line(id: &str, parent: Option<&str>, role: &str, text: &str) -> String {
    let parent = parent.map_or("null".to_owned(), |p| format!("\"{p}\""));
    format!(
        r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2026-09-01T08:00:01.000Z","message":{{"role":"{role}","content":[{{"type":"text","text":"{text}"}}],"timestamp":1788249601000}}}}"#
    )
}

fn write(dir: &Path, name: &str, body: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    p
}

fn corrupt_and_torn(dir: &Path) -> PathBuf {
    let body = [
        HEADER.to_owned(),
        line("a1", None, "user", "hi"),
        r#"{"type":"message","id":"a2","parentId":"a1", BROKEN"#.to_owned(),
        line("a3", Some("a1"), "assistant", "hello"),
        "[1,2]".to_owned(),
        line("a4", Some("a3"), "user", "more"),
    ]
    .join("\n")
        + "\n"
        + r#"{"type":"message","id":"a5","parentId":"a4","message":{"ro"#;
    write(dir, "damaged.jsonl", &body)
}

#[test]
fn corrupt_middle_line_and_torn_last_line_are_reported_by_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = corrupt_and_torn(dir.path());
    let s = load_path(&path, &LoadOptions::default()).unwrap();
    let t = s.transcript();
    assert_eq!(t.messages.len(), 3);
    let skipped: Vec<(Option<Location>, &str)> = s
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Skipped)
        .map(|d| (d.location, d.message.as_str()))
        .collect();
    assert_eq!(skipped.len(), 3, "{skipped:?}");
    assert_eq!(skipped[0].0, Some(Location::Line(3)));
    assert!(skipped[0].1.starts_with("not valid JSON"));
    assert_eq!(skipped[1].0, Some(Location::Line(5)));
    assert!(skipped[1].1.contains("an array"));
    assert_eq!(skipped[2].0, Some(Location::Line(7)));
    assert!(skipped[2].1.starts_with("torn last line"));
    assert!(s.diagnostics.iter().all(|d| d.file == path));
}

#[test]
fn cli_show_reports_both_lines_and_exits_zero() {
    let dir = tempfile::tempdir().unwrap();
    let path = corrupt_and_torn(dir.path());
    let out = Command::new(common::bin()).arg("show").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("damaged.jsonl: line 3: skipped: not valid JSON"),
        "{stderr}"
    );
    assert!(
        stderr.contains("damaged.jsonl: line 7: skipped: torn last line"),
        "{stderr}"
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("3 stored messages"), "{stdout}");
}

#[test]
fn cli_show_json_holds_the_stored_array() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "{HEADER}\n{}\n{}\n",
        line("a1", None, "user", "hi"),
        line("a2", Some("a1"), "assistant", "yo")
    );
    let path = write(dir.path(), "s.jsonl", &body);
    let out = Command::new(common::bin())
        .args(["show", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: replaylens::model::json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let stored = &v["stored"];
    assert_eq!(stored[0]["index"], 0);
    assert_eq!(stored[0]["entryId"], "a1");
    assert_eq!(stored[1]["message"]["content"][0]["text"], "yo");
    assert_eq!(v["target"], replaylens::json!({}), "no assistant turn names a model");
    assert!(v["targetSource"].is_null());
    assert_eq!(v["hidden"]["fileMessages"], 2);
    assert!(v["hiddenNote"].is_null(), "nothing is hidden");
}

#[test]
fn unusable_input_exits_two_with_one_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let junk = write(dir.path(), "junk.jsonl", "{\"hello\":\"world\"}\n");
    let missing = dir.path().join("nope.jsonl");
    for path in [junk, missing] {
        let out = Command::new(common::bin()).arg("show").arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", path.display());
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(&*path.to_string_lossy()), "{stderr}");
    }
    let out = Command::new(common::bin()).args(["show", "--bogus"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn terminal_escapes_in_transcripts_are_escaped_in_text_output() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "{HEADER}\n{}\n",
        line("a1", None, "user", "\\u001b[2J\\u001b]0;pwned\\u0007")
    );
    let path = write(dir.path(), "esc.jsonl", &body);
    let out = Command::new(common::bin()).arg("show").arg(&path).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(!stdout.contains('\u{1b}') && !stdout.contains('\u{7}'));
    assert!(stdout.contains("\\e[2J"), "{stdout}");
}

#[test]
fn branch_leaf_is_the_last_entry_and_leaf_entries_move_it() {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        HEADER.to_owned(),
        line("r1", None, "user", "question"),
        line("b1", Some("r1"), "assistant", "first try"),
        line("b2", Some("r1"), "assistant", "second try"),
    ];
    let p = write(dir.path(), "branch.jsonl", &(base.join("\n") + "\n"));
    let s = load_path(&p, &LoadOptions::default()).unwrap();
    let ids: Vec<_> = s
        .transcript()
        .messages
        .iter()
        .map(|m| m.entry_id.clone().unwrap())
        .collect();
    assert_eq!(ids, ["r1", "b2"]);

    let mut moved = base.to_vec();
    moved.push(
        r#"{"type":"leaf","id":"l1","parentId":"b2","targetId":"b1","timestamp":"2026-09-01T08:00:02.000Z"}"#.into(),
    );
    let p = write(dir.path(), "moved.jsonl", &(moved.join("\n") + "\n"));
    let s = load_path(&p, &LoadOptions::default()).unwrap();
    let ids: Vec<_> = s
        .transcript()
        .messages
        .iter()
        .map(|m| m.entry_id.clone().unwrap())
        .collect();
    assert_eq!(ids, ["r1", "b1"]);

    moved.push(line("c1", Some("b1"), "user", "continue"));
    let p = write(dir.path(), "appended.jsonl", &(moved.join("\n") + "\n"));
    let s = load_path(&p, &LoadOptions::default()).unwrap();
    let ids: Vec<_> = s
        .transcript()
        .messages
        .iter()
        .map(|m| m.entry_id.clone().unwrap())
        .collect();
    assert_eq!(ids, ["r1", "b1", "c1"]);
}

#[test]
fn side_appends_leave_the_conversation_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let body = [
        HEADER.to_owned(),
        line("r1", None, "user", "question"),
        line("a1", Some("r1"), "assistant", "answer"),
        r#"{"type":"custom","id":"s1","parentId":"a1","appendMode":"side","customType":"cache-ttl","data":{}}"#
            .to_owned(),
    ]
    .join("\n");
    let p = write(dir.path(), "side.jsonl", &body);
    let s = load_path(&p, &LoadOptions::default()).unwrap();
    let t = s.transcript();
    // OpenClaw's codec (`buildSessionContext`) walks from the last line: the side entry is the
    // leaf, and the conversation above it is unchanged.
    assert_eq!(t.leaf_id.as_deref(), Some("s1"));
    let ids: Vec<_> = t.messages.iter().map(|m| m.entry_id.clone().unwrap()).collect();
    assert_eq!(ids, ["r1", "a1"]);
}

#[test]
fn parent_cycles_stop_the_walk_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let body = [
        HEADER.to_owned(),
        line("x", Some("y"), "user", "a"),
        line("y", Some("x"), "assistant", "b"),
    ]
    .join("\n");
    let p = write(dir.path(), "cycle.jsonl", &body);
    let s = load_path(&p, &LoadOptions::default()).unwrap();
    let t = s.transcript();
    assert_eq!(t.messages.len(), 2);
    assert!(t.diagnostics.iter().any(|d| d.message.contains("cycle")));
}

#[test]
fn custom_message_and_branch_summary_become_messages_custom_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let body = [
        HEADER.to_owned(),
        r#"{"type":"custom","id":"c0","parentId":null,"customType":"model-snapshot","data":{"provider":"openai","modelApi":"openai-responses","modelId":"gpt-5.1"},"timestamp":"2026-09-01T08:00:00.500Z"}"#.to_owned(),
        r#"{"type":"custom_message","id":"c1","parentId":"c0","customType":"note","content":"ctx","display":false,"timestamp":"2026-09-01T08:00:01.000Z"}"#.to_owned(),
        r#"{"type":"branch_summary","id":"c2","parentId":"c1","fromId":"zz","summary":"tried X","timestamp":"2026-09-01T08:00:02.000Z","futureField":1}"#.to_owned(),
        r#"{"type":"future_kind","id":"c3","parentId":"c2","payload":{"x":1}}"#.to_owned(),
    ]
    .join("\n");
    let p = write(dir.path(), "kinds.jsonl", &body);
    let s = load_path(&p, &LoadOptions::default()).unwrap();
    let t = s.transcript();
    let roles: Vec<&str> = t.messages.iter().map(|m| m.message.role().as_str()).collect();
    assert_eq!(roles, ["custom", "branchSummary"]);
    assert_eq!(
        t.messages[0].message.get("customType"),
        Some(&replaylens::json!("note"))
    );
    assert_eq!(
        t.messages[1].message.get("timestamp"),
        Some(&replaylens::json!(1788249602000_i64))
    );
    // A model snapshot is hygiene's record (model events), not a model selection: OpenClaw's
    // buildSessionContext skips `custom` entries, so the session names no model.
    assert!(t.model.is_empty(), "{:?}", t.model);
    assert_eq!(t.model_events.len(), 1);
    assert_eq!(t.model_events[0].model.api.as_deref(), Some("openai-responses"));
    assert_eq!(t.branch_len, 4);
    assert_eq!(s.stored_values()[4]["payload"]["x"], 1, "opaque entry kept as stored");
}

#[test]
fn bare_message_arrays_load_and_report_non_objects() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(
        dir.path(),
        "payload.json",
        r#"[{"role":"user","content":"hi"}, null, {"role":"assistant","content":[],"provider":"anthropic","model":"claude-sonnet-4-6","api":"anthropic-messages"}, {"role":"weird","x":1}]"#,
    );
    let s = load_path(&p, &LoadOptions::default()).unwrap();
    let t = s.transcript();
    assert_eq!(t.messages.len(), 3);
    assert_eq!(t.messages[2].location, Some(Location::Index(3)));
    assert_eq!(s.diagnostics.len(), 1);
    assert_eq!(s.diagnostics[0].location, Some(Location::Index(1)));
    assert_eq!(t.model.model.as_deref(), Some("claude-sonnet-4-6"));
    let bad = write(dir.path(), "bad.json", "[{\"role\":\"user\",}]");
    match load_path(&bad, &LoadOptions::default()) {
        Err(LoadError::InvalidJson { line: 1, .. }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn zstd_compressed_jsonl_is_read_transparently() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!("{HEADER}\n{}\n", line("a1", None, "user", "hi"));
    let p = dir.path().join("cold.jsonl.zst");
    let mut enc = zstd::Encoder::new(std::fs::File::create(&p).unwrap(), 3).unwrap();
    enc.write_all(body.as_bytes()).unwrap();
    enc.finish().unwrap();
    let s = load_path(&p, &LoadOptions::default()).unwrap();
    assert_eq!(s.id, "sess-1");
    assert_eq!(s.transcript().messages.len(), 1);
}

#[test]
fn pi_core_v4_layout_with_lane_leaf() {
    let dir = tempfile::tempdir().unwrap();
    let body = [
        r#"{"kind":"header","version":4,"id":"v4-sess","createdAt":1788249600000,"cwd":"/w"}"#,
        r#"{"kind":"entry","lane":"main","type":"message","id":"e1","seq":1,"parentId":null,"timestamp":1788249601000,"message":{"role":"user","content":"hi"}}"#,
        r#"{"kind":"entry","lane":"main","type":"message","id":"e2","seq":2,"parentId":"e1","timestamp":1788249602000,"message":{"role":"assistant","content":[{"type":"text","text":"a"}]}}"#,
        r#"{"kind":"entry","lane":"main","type":"message","id":"e3","seq":3,"parentId":"e1","timestamp":1788249603000,"message":{"role":"assistant","content":[{"type":"text","text":"b"}]}}"#,
        r#"{"kind":"lane","seq":4,"lane":"main","leafId":"e2"}"#,
        r#"{"kind":"record","record":"usage","seq":5}"#,
    ]
    .join("\n");
    let p = write(dir.path(), "v4.jsonl", &body);
    let s = load_path(&p, &LoadOptions::default()).unwrap();
    assert_eq!(s.format.as_str(), "pi-core-v4");
    assert_eq!(s.id, "v4-sess");
    let ids: Vec<_> = s
        .transcript()
        .messages
        .iter()
        .map(|m| m.entry_id.clone().unwrap())
        .collect();
    assert_eq!(ids, ["e1", "e2"]);
    assert_eq!(s.stored_values().len(), 6);
}

#[test]
fn crlf_lines_and_blank_lines_are_fine() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!("{HEADER}\r\n\r\n{}\r\n", line("a1", None, "user", "hi"));
    let p = write(dir.path(), "crlf.jsonl", &body);
    let s = load_path(&p, &LoadOptions::default()).unwrap();
    assert!(s.diagnostics.is_empty());
    assert_eq!(s.transcript().messages.len(), 1);
}

#[test]
fn a_byte_order_mark_invalid_utf8_and_cr_only_lines_are_read_as_openclaw_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    // A BOM before the header: OpenClaw trims it away, so the header (and its id) count.
    let bom = write(
        dir.path(),
        "bom.jsonl",
        &format!("\u{feff}{HEADER}\n{}\n", line("a1", None, "user", "hi")),
    );
    let s = load_path(&bom, &LoadOptions::default()).unwrap();
    assert_eq!(s.id, "sess-1");
    assert_eq!(s.skipped_count(), 0);

    // Invalid UTF-8 inside a string: decoded with U+FFFD, the line is kept, with a warning.
    let mut bytes = format!("{HEADER}\n").into_bytes();
    bytes.extend_from_slice(
        line("a1", None, "user", "caf\u{e9}")
            .replace('\u{e9}', "\u{1}")
            .as_bytes(),
    );
    let at = bytes.iter().rposition(|b| *b == 1).unwrap();
    bytes[at] = 0xE9;
    bytes.push(b'\n');
    let latin1 = dir.path().join("latin1.jsonl");
    std::fs::write(&latin1, &bytes).unwrap();
    let s = load_path(&latin1, &LoadOptions::default()).unwrap();
    assert_eq!(s.skipped_count(), 0);
    let t = s.transcript();
    assert_eq!(t.messages[0].message.text(), "caf\u{fffd}");
    assert!(
        s.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Warning && d.location == Some(Location::Line(2))),
        "{:?}",
        s.diagnostics
    );

    // CR-only line endings: one line, to OpenClaw too; the report says why, not "torn".
    let cr = write(
        dir.path(),
        "cr.jsonl",
        &format!("{HEADER}\r{}\r", line("a1", None, "user", "hi")),
    );
    let err_or_session = load_path(&cr, &LoadOptions::default());
    let text = match err_or_session {
        Ok(s) => s
            .diagnostics
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n"),
        Err(e) => e.to_string(),
    };
    assert!(text.contains("CR-only line endings"), "{text}");
    assert!(!text.contains("torn last line"), "{text}");
}

#[test]
fn show_counts_what_a_reset_drops_as_hidden() {
    // OpenClaw's `buildSessionContext` keeps from a reset's window only user and assistant
    // turns and paired tool results (`selectResetKeptEntries`); the custom message there is
    // dropped (checked against oracle/openclaw_session.mjs: 4 context messages of 5).
    let dir = tempfile::tempdir().unwrap();
    let body = [
        HEADER.to_owned(),
        line("a1", None, "user", "hi"),
        line("a2", Some("a1"), "assistant", "yo"),
        r#"{"type":"custom_message","id":"c1","parentId":"a2","timestamp":"2026-09-01T08:00:01.000Z","customType":"note","content":"a note","display":true}"#.to_owned(),
        line("a3", Some("c1"), "user", "again"),
        r#"{"type":"reset","id":"r1","parentId":"a3","timestamp":"2026-09-01T08:00:02.000Z","reason":"reset","firstKeptEntryId":"a1"}"#.to_owned(),
        line("a4", Some("r1"), "user", "after"),
    ]
    .join("\n")
        + "\n";
    let path = write(dir.path(), "reset.jsonl", &body);
    let out = Command::new(common::bin())
        .args(["show", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: replaylens::model::json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["stored"].as_array().map(|a| a.len()), Some(4));
    assert_eq!(v["hidden"]["fileMessages"], 5);
    assert_eq!(v["hidden"]["droppedByReset"], 1);
    let note = v["hiddenNote"].as_str().expect("a reset's drop is said");
    assert!(
        note.contains("1 is not in the stored transcript: 1 dropped by the reset"),
        "{note}"
    );
    let text = Command::new(common::bin()).arg("show").arg(&path).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("dropped by the reset"), "{text}");
}

//! Tests on the shared Codex samples (`../shared/samples/codex` beside the checkout, or
//! `$REPLAYLENS_SHARED_SAMPLES`); each test returns early when the
//! samples are not on this machine (the integration tests insist on them).

use std::io::Write;
use std::path::Path;

use crate::json;
use crate::model::json::Value;

use crate::model::{Location, Mapped, Session, SessionFormat, Severity};

/// The shared Codex samples, when they are on this machine.
fn samples() -> Option<std::path::PathBuf> {
    let root = std::env::var_os("REPLAYLENS_SHARED_SAMPLES")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/samples"));
    root.is_dir().then(|| root.join("codex"))
}
const CLEAN: &str =
    "claude-code-log/sessions/2026/01/02/rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl";

pub(super) fn load(rel: &str) -> Option<Session> {
    let path = samples()?.join(rel);
    let session = crate::load::load_path(&path, &Default::default()).expect("sample loads");
    assert_eq!(session.format, SessionFormat::CodexRollout, "{rel}");
    Some(session)
}

/// The first `lines` lines of a sample, loaded from a temporary copy.
pub(super) fn load_head(rel: &str, lines: usize) -> Option<Session> {
    let text = std::fs::read_to_string(samples()?.join(rel)).expect("sample reads");
    let mut file = tempfile::Builder::new().suffix(".jsonl").tempfile().expect("temp file");
    for line in text.lines().take(lines) {
        writeln!(file, "{line}").expect("temp write");
    }
    Some(crate::load::load_path(file.path(), &Default::default()).expect("head loads"))
}

pub(super) fn mapped(s: &Session) -> &Mapped {
    s.mapped.as_ref().expect("a Codex session is mapped")
}

pub(super) fn roles(m: &Mapped) -> Vec<&str> {
    m.messages.iter().map(|m| m.message.role().as_str()).collect()
}

pub(super) fn content(m: &Mapped, i: usize) -> &[Value] {
    m.messages[i].message.content_array().expect("array content")
}

pub(super) fn has_note(m: &Mapped, severity: Severity, starts: &str) -> bool {
    m.diagnostics
        .iter()
        .any(|d| d.severity == severity && (d.message.starts_with(starts) || located(d).starts_with(starts)))
}

/// A diagnostic as `line N: message`, the way a view that names the file shows it.
pub(super) fn located(d: &crate::model::Diagnostic) -> String {
    match d.location {
        Some(l) => format!("{l}: {}", d.message),
        None => d.message.clone(),
    }
}

#[test]
fn clean_rollout_maps_reasoning_calls_and_outputs() {
    let Some(s) = load(CLEAN) else { return };
    let m = mapped(&s);
    assert_eq!(s.id, "11111111-1111-4111-8111-111111111111");
    assert_eq!(
        roles(m),
        [
            "user",
            "assistant",
            "toolResult",
            "assistant",
            "toolResult",
            "assistant",
            "toolResult",
            "assistant"
        ]
    );
    assert_eq!(m.messages[1].sources, [Location::Line(5), Location::Line(6)]);

    let reasoning = serde_json::to_string(&s.entries[4].raw["payload"]).expect("serializes");
    let blocks = content(m, 1);
    assert_eq!(blocks[0]["type"], "thinking");
    assert_eq!(blocks[0]["thinking"], "I will inspect the synthetic directory.");
    assert_eq!(blocks[0]["thinkingSignature"], json!(reasoning));
    assert!(reasoning.contains("SYNTHETIC_ENCRYPTED_CONTENT_MUST_NOT_RENDER"));
    assert_eq!(
        blocks[1],
        json!({"type": "toolCall", "id": "call-structured-001", "name": "exec_command",
            "arguments": {"cmd": "find . -maxdepth 1 -type f"}})
    );
    assert_eq!(
        m.messages[1]
            .message
            .stop_reason()
            .map(|r| r == crate::model::StopReason::ToolUse),
        Some(true)
    );
    assert_eq!(m.messages[2].message.tool_call_id(), Some("call-structured-001"));
    assert_eq!(m.messages[2].message.tool_name(), Some("exec_command"));
    assert_eq!(m.messages[2].message.text(), "./alpha.txt\n./beta.txt");

    assert_eq!(
        content(m, 3)[0],
        json!({"type": "toolCall", "id": "call-custom-001", "name": "apply_patch",
            "arguments": {"input": "*** Begin Patch\n*** Add File: gamma.txt\n+synthetic\n*** End Patch"}})
    );
    assert_eq!(m.messages[4].message.tool_call_id(), Some("call-custom-001"));
    assert_eq!(content(m, 4), &vec![json!({"type": "text", "text": "Done!"})]);
    assert_eq!(m.messages[6].message.tool_name(), Some("mcp__synthetic__lookup"));

    let last = &m.messages[7].message;
    assert_eq!(last.text(), "The synthetic files are alpha.txt and beta.txt.");
    assert_eq!(last.provider(), Some("synthetic"));
    assert_eq!(last.model(), Some("synthetic-model"));
    assert_eq!(last.api(), Some("openai-responses"));
    assert_eq!(last.timestamp_ms(), Some(1_767_323_055_001.0));

    assert_eq!(m.model.provider.as_deref(), Some("synthetic"));
    assert_eq!(m.model.api.as_deref(), Some("openai-responses"));
    assert_eq!(m.model.model.as_deref(), Some("synthetic-model"));
    assert_eq!(m.cwd.as_deref(), Some("/workspace/synthetic-project"));
    assert_eq!(m.branch_len, 9);
    assert!(m.compaction.is_none());
    assert!(has_note(m, Severity::Note, "`event_msg` line ×2 (line 3, line 12)"));
    assert!(has_note(m, Severity::Note, "`future_synthetic_record` line: "));
    assert!(!m.diagnostics.iter().any(|d| d.severity == Severity::Warning));
}

#[test]
fn stored_lines_round_trip_unchanged() {
    let Some(s) = load(CLEAN) else { return };
    let text = std::fs::read_to_string(samples().expect("loaded above").join(CLEAN)).expect("sample reads");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(s.entries.len(), lines.len());
    for (entry, line) in s.entries.iter().zip(lines) {
        assert_eq!(serde_json::to_string(&entry.raw).expect("serializes"), line);
    }
}

#[test]
fn large_drift_tool_call_pairs_by_name() {
    let Some(s) = load("agent-sessions/large.jsonl") else {
        return;
    };
    let m = mapped(&s);
    assert_eq!(m.messages.len(), 15, "lines 5 and 6 are one assistant turn");
    assert_eq!(
        roles(m)[..6],
        ["user", "assistant", "toolResult", "assistant", "user", "user"]
    );
    let turn = content(m, 1);
    assert_eq!(turn[0]["text"], "Acknowledged.");
    assert_eq!(turn[1]["id"], "call_line6");
    assert_eq!(turn[1]["name"], "run_shell_command");
    assert_eq!(turn[1]["arguments"]["cwd"], "/tmp/large");
    assert_eq!(m.messages[2].message.tool_call_id(), Some("call_line6"));
    assert_eq!(m.messages[2].message.tool_name(), Some("run_shell_command"));
    assert_eq!(
        m.messages[2].message.text(),
        r#"{"stdout":"line1\nline2\nline3\n","stderr":"","exitCode":0}"#
    );
    assert_eq!(m.model.model.as_deref(), Some("gpt-5.2"));
    assert_eq!(m.cwd.as_deref(), Some("/tmp/large"));
    let warnings: Vec<_> = m
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .collect();
    assert_eq!(warnings.len(), 1, "one warning for the whole file");
    assert!(
        warnings[0]
            .message
            .starts_with("tool call or output without `call_id` ×2 (line 6, line 7)")
    );
}

#[test]
fn schema_drift_loads_envelope_less_lines() {
    let Some(s) = load("agent-sessions/schema_drift.jsonl") else {
        return;
    };
    assert_eq!(s.entries.len(), 5, "the empty last line is not an entry");
    let m = mapped(&s);
    assert_eq!(roles(m), ["user", "assistant", "toolResult", "assistant"]);
    assert_eq!(m.messages[0].message.text(), "Translate 'hello' to Spanish");
    assert_eq!(m.messages[0].message.timestamp_ms(), Some(1_757_505_600_000.0));
    assert_eq!(content(m, 1)[0]["arguments"], json!({"text": "hello", "to": "es"}));
    assert_eq!(m.messages[1].message.model(), Some("gpt-4o-mini"));
    assert_eq!(m.messages[2].message.tool_call_id(), Some("call_line2"));
    assert_eq!(m.messages[2].message.text(), "hola");
    assert_eq!(m.messages[3].message.text(), "\"hola\"");
    assert_eq!(m.model.model.as_deref(), Some("gpt-4o-mini"));
    assert_eq!(m.model.provider.as_deref(), Some("openai"));
    assert!(has_note(m, Severity::Note, "line 5: `world_state` line:"));
    assert_eq!(s.id, "schema_drift");
}

#[test]
fn bare_era_reads_the_header_and_bare_items() {
    let Some(s) = load("claude-code-log/sessions/rollout-44444444-4444-4444-8444-444444444444.jsonl") else {
        return;
    };
    let m = mapped(&s);
    assert_eq!(s.id, "44444444-4444-4444-8444-444444444444");
    assert_eq!(roles(m), ["user", "assistant"]);
    assert_eq!(m.messages[1].message.text(), "The synthetic legacy session is open.");
    assert_eq!(m.messages[1].message.model(), Some("unknown"));
    assert_eq!(
        m.messages[0].message.timestamp_ms(),
        Some(1_767_503_167_000.0),
        "the header's time"
    );
    assert_eq!(m.cwd, None);
    assert!(m.diagnostics.is_empty(), "{:?}", m.diagnostics);
}

#[test]
fn malformed_line_is_skipped_by_the_loader_and_the_rest_kept() {
    let Some(s) = load("claude-code-log/malformed/rollout-66666666-6666-4666-8666-666666666666.jsonl") else {
        return;
    };
    assert_eq!(s.skipped_count(), 1);
    assert_eq!(s.diagnostics[0].location, Some(Location::Line(3)));
    let kept: Vec<_> = s.entries.iter().map(|e| e.location).collect();
    assert_eq!(kept, [Location::Line(1), Location::Line(2)]);
    assert_eq!(s.id, "66666666-6666-4666-8666-666666666666");
    let m = mapped(&s);
    assert!(m.messages.is_empty());
    assert_eq!(m.cwd.as_deref(), Some("/workspace/synthetic-project"));
}

#[test]
fn event_only_files_map_to_no_messages_and_say_why() {
    for (rel, id, events) in [
        ("agent-sessions/codex_050_legacy.jsonl", "test-legacy-session", 4),
        ("agent-sessions/codex_051_usage.jsonl", "test-usage-session", 2),
        ("agent-sessions/codex_052_raw.jsonl", "test-raw-session", 5),
        ("agent-sessions/codex_053_rate_limit.jsonl", "test-ratelimit-session", 4),
        (
            "claude-code-log/archived_sessions/rollout-55555555-5555-4555-8555-555555555555.jsonl",
            "55555555-5555-4555-8555-555555555555",
            1,
        ),
    ] {
        let Some(s) = load(rel) else { return };
        let m = mapped(&s);
        assert!(m.messages.is_empty(), "{rel}");
        assert_eq!(s.id, id);
        assert_eq!(m.branch_len, 0);
        assert!(
            has_note(m, Severity::Note, "no `response_item` or `compacted` line"),
            "{rel}"
        );
        let events_note = if events == 1 {
            "`event_msg` line: ".to_owned()
        } else {
            format!("`event_msg` line ×{events} ")
        };
        assert!(has_note(m, Severity::Note, &events_note), "{rel}");
    }
}

#[test]
fn instructions_era_session_keeps_injected_user_context() {
    let Some(s) = load("claude-code-transcripts/sample_codex_session.jsonl") else {
        return;
    };
    let m = mapped(&s);
    assert_eq!(s.id, "019b64e5-57fa-7463-b644-fba7e456f905");
    assert_eq!(roles(m), ["user", "user", "user"]);
    assert!(m.messages[0].message.text().starts_with("# AGENTS.md instructions"));
    assert!(m.messages[1].message.text().starts_with("<environment_context>"));
    assert_eq!(m.model.model.as_deref(), Some("gpt-5.2-codex"));
    assert_eq!(m.cwd.as_deref(), Some("/Users/macmini/Code/homelab-migration"));
    assert!(has_note(m, Severity::Note, "`turn_context` line ×6 (line 6, line 7"));
}

#[test]
fn typeless_payloads_and_session_id_only_meta() {
    let Some(s) = load("deja-vu/rollout-2026-07-17T09-00-00-registry-codex.jsonl") else {
        return;
    };
    let m = mapped(&s);
    assert_eq!(s.id, "registry-codex");
    assert_eq!(roles(m), ["user", "assistant"]);
    assert_eq!(m.messages[1].message.text(), "the rollout is readable");
    assert_eq!(m.cwd.as_deref(), Some("/workspace/registry-demo"));
}

#[test]
fn parent_and_child_threads() {
    let parent =
        "claude-code-log/sessions/2026/01/03/rollout-2026-01-03T04-05-06-22222222-2222-4222-8222-222222222222.jsonl";
    let child =
        "claude-code-log/sessions/2026/01/03/rollout-2026-01-03T04-05-10-33333333-3333-4333-8333-333333333333.jsonl";
    let Some(s) = load(parent) else { return };
    let m = mapped(&s);
    assert_eq!(roles(m), ["assistant", "toolResult"]);
    assert_eq!(content(m, 0)[0]["name"], "spawn_agent");
    assert_eq!(m.messages[1].message.tool_call_id(), Some("call-spawn-001"));
    let Some(s) = load(child) else { return };
    let m = mapped(&s);
    assert_eq!(s.id, "33333333-3333-4333-8333-333333333333");
    assert_eq!(roles(m), ["assistant"], "the copied call has no output in the child");
    assert_eq!(m.branch_len, 1);
}

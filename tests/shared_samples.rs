//! Every public sample in `../shared/samples` loads (OpenClaw and pi natively, Claude Code
//! and Codex through their mappings); loading is lossless.

mod common;

use std::path::Path;

use replaylens::load::{LoadError, LoadOptions, load_path};
use replaylens::model::Agent;
use replaylens::model::json::Value;
use replaylens::model::{Location, Role, SessionFormat};

fn load(path: &Path) -> Result<replaylens::model::Session, LoadError> {
    load_path(path, &LoadOptions::default())
}

#[test]
fn every_shared_sample_loads_in_its_own_format() {
    let Some(root) = common::shared_samples() else { return };
    let mut native = 0;
    let mut mapped = 0;
    for file in common::files_under(&root) {
        let rel = file.strip_prefix(&root).unwrap().to_string_lossy().into_owned();
        if !common::is_shared_session_file(&file) {
            continue;
        }
        let s = load(&file).unwrap_or_else(|e| panic!("{rel} must load: {e}"));
        if rel.starts_with("openclaw-jsonl/") || rel.starts_with("pi/") {
            assert!(!s.format.is_mapped(), "{rel}");
            assert!(!s.transcript().messages.is_empty(), "{rel} has no messages");
            native += 1;
        } else {
            let expected = if rel.starts_with("codex/") {
                Agent::Codex
            } else {
                Agent::ClaudeCode
            };
            assert_eq!(s.format.agent(), expected, "{rel}");
            assert!(s.mapped.is_some(), "{rel}");
            mapped += 1;
        }
    }
    let listed = |folders: &[&str]| {
        folders
            .iter()
            .flat_map(|f| common::listed_in_sources(&root, f))
            .filter(|name| common::is_shared_session_file(Path::new(name)))
            .count()
    };
    assert_eq!(native, listed(&["openclaw-jsonl", "pi"]));
    assert_eq!(mapped, listed(&["claude-code", "codex"]));
}

#[test]
fn load_then_serialize_equals_the_input_entries() {
    let Some(root) = common::shared_samples() else { return };
    for file in common::files_under(&root) {
        let Ok(session) = load(&file) else { continue };
        if session.format == SessionFormat::ClaudeCodeWeb {
            continue; // one document, not lines: tests/foreign_samples.rs checks it
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let input: Vec<Value> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(Value::is_object)
            .collect();
        let output: Vec<Value> = session
            .stored_values()
            .into_iter()
            .map(|v| serde_json::from_str(&serde_json::to_string(v).unwrap()).unwrap())
            .collect();
        assert_eq!(output.len(), input.len(), "{}", file.display());
        for (i, (a, b)) in input.iter().zip(&output).enumerate() {
            assert_eq!(a, b, "{} entry {i}", file.display());
        }
        let pretty = text.contains("\", \"") || text.contains("\": ");
        if !text.contains("\\u") && !pretty {
            let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
            let first = serde_json::to_string(session.stored_values()[0]).unwrap();
            assert_eq!(first, lines[0], "{}: key order and spelling kept", file.display());
        }
    }
}

#[test]
fn pi_v1_large_session_is_upgraded_linearly() {
    let Some(root) = common::shared_samples() else { return };
    let s = load(&root.join("pi/pi-mono/large-session.jsonl")).unwrap();
    assert_eq!(s.format, SessionFormat::PiJsonlV1);
    assert_eq!(s.version, Some(1));
    assert_eq!(s.entries.len(), 1018);
    assert!(s.entries.iter().all(|e| e.assigned_id));
    let t = s.transcript();
    let count = |role: Role<'_>| t.messages.iter().filter(|m| m.message.role() == role).count();
    assert_eq!(t.messages.len(), 914);
    assert_eq!(count(Role::Assistant), 453);
    assert_eq!(count(Role::ToolResult), 373);
    assert_eq!(count(Role::User), 88);
    assert_eq!(t.branch_len, 1018);
    assert_eq!(t.model.provider.as_deref(), Some("anthropic"));
    assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
}

#[test]
fn pi_v1_compaction_keeps_from_the_indexed_entry() {
    let Some(root) = common::shared_samples() else { return };
    let s = load(&root.join("pi/pi-mono/before-compaction.jsonl")).unwrap();
    let t = s.transcript();
    let c = t.compaction.as_ref().expect("compaction applied");
    assert_eq!(c.kind, "compaction");
    assert_eq!(t.messages[0].message.role(), Role::CompactionSummary);
    assert!(
        t.messages[0]
            .message
            .str_field("summary")
            .unwrap()
            .starts_with("# Context Checkpoint")
    );
    assert_eq!(
        t.messages[0].message.get("tokensBefore"),
        Some(&replaylens::json!(185014))
    );
    let compaction = s
        .entries
        .iter()
        .rev()
        .find(|e| e.type_str() == Some("compaction"))
        .unwrap();
    let index = compaction.raw["firstKeptEntryIndex"].as_u64().unwrap() as usize;
    let Location::Line(first_kept_line) = t.messages[1].location.unwrap() else {
        panic!()
    };
    assert_eq!(
        first_kept_line,
        index + 1,
        "firstKeptEntryIndex counts lines from the header"
    );
    assert_eq!(t.messages.len(), 446);
    assert_eq!(t.thinking_level.as_deref(), Some("off"));
}

#[test]
fn pi_v3_compaction_and_settings() {
    let Some(root) = common::shared_samples() else { return };
    let s = load(&root.join("pi/agent-sessions/small.jsonl")).unwrap();
    assert_eq!(s.version, Some(3));
    let t = s.transcript();
    let roles: Vec<&str> = t.messages.iter().map(|m| m.message.role().as_str()).collect();
    assert_eq!(roles, ["compactionSummary", "user", "assistant", "user", "assistant"]);
    assert_eq!(t.compaction.as_ref().unwrap().entry_id.as_deref(), Some("2c19d326"));
    assert_eq!(
        t.messages[0].message.get("timestamp"),
        Some(&replaylens::json!(1778547765843_i64))
    );
    assert_eq!(t.thinking_level.as_deref(), Some("off"));
    assert_eq!(t.model.provider.as_deref(), Some("pi-fixture"));
    assert_eq!(t.model.api.as_deref(), Some("openai-completions"));
    assert_eq!(t.model.model.as_deref(), Some("pi-fixture-model"));
}

#[test]
fn openclaw_off_shape_parent_links_are_reported_not_fatal() {
    let Some(root) = common::shared_samples() else { return };
    let s = load(&root.join("openclaw-jsonl/agent-sessions/large.jsonl")).unwrap();
    let t = s.transcript();
    assert_eq!(
        t.messages.len(),
        1,
        "the leaf's parent names a tool-call id, so the branch is the leaf alone"
    );
    assert!(
        t.diagnostics
            .iter()
            .any(|d| d.location == Some(Location::Line(11)) && d.message.contains("tc-write"))
    );
    let drift = load(&root.join("openclaw-jsonl/agent-sessions/schema_drift.jsonl")).unwrap();
    assert!(
        drift.entries.iter().any(|e| e.type_str() == Some("compact")),
        "opaque entry kept"
    );
    let dt = drift.transcript();
    assert_eq!(dt.messages.last().unwrap().message.role(), Role::Other("system"));
}

#[test]
fn openclaw_directory_layout_and_checkpoint_sibling() {
    let Some(root) = common::shared_samples() else { return };
    let dir = root.join("openclaw-jsonl/deja-vu/agents/main/sessions");
    let listed = replaylens::load::discover::list_path(&dir).unwrap();
    assert_eq!(listed.len(), 2);
    let checkpoint = listed.iter().find(|l| l.archive.is_some()).unwrap();
    assert_eq!(checkpoint.archive.as_deref(), Some("checkpoint"));
    let live = listed.iter().find(|l| l.archive.is_none()).unwrap();
    assert_eq!(live.id, "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d");
    assert_eq!(live.messages, 2);
    // The assistant turn after the model_change names a model and no provider, and it is the
    // newest selection on the branch: OpenClaw's buildSessionContext reports exactly that.
    assert_eq!(live.model.as_deref(), Some("claude-sonnet-4"));
}

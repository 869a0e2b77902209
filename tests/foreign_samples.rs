//! Claude Code and Codex samples: every one loads, keeps every stored line, reports the
//! lines that are broken on purpose, and maps to the messages in its snapshot.

mod common;

use std::path::{Path, PathBuf};

use replaylens::json;
use replaylens::load::{LoadOptions, load_path};
use replaylens::model::json::Value;
use replaylens::model::{Agent, Location, Session, SessionFormat, Severity};

fn load(path: &Path) -> Session {
    load_path(path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{} must load: {e}", path.display()))
}

/// The Claude Code and Codex session files among the shared samples.
fn foreign_samples(root: &Path) -> Vec<PathBuf> {
    ["claude-code", "codex"]
        .iter()
        .flat_map(|agent| common::files_under(&root.join(agent)))
        .filter(|p| {
            let name = p.to_string_lossy();
            name.ends_with(".jsonl") || name.ends_with("sample_session.json")
        })
        .collect()
}

/// What a snapshot holds: the mapped messages with their sources, and the notes.
fn mapped_view(root: &Path, session: &Session) -> Value {
    let t = session.transcript();
    let mapped = session.mapped.as_ref().unwrap();
    let notes: Vec<String> = t
        .diagnostics
        .iter()
        .chain(&session.diagnostics)
        .map(|d| {
            let at = d.location.map(|l| format!("{l}: ")).unwrap_or_default();
            format!("{at}{:?}: {}", d.severity, d.message)
        })
        .collect();
    json!({
        "file": session.path.strip_prefix(root).unwrap().to_string_lossy(),
        "format": session.format.as_str(),
        "id": session.id,
        "target": t.model,
        "cwd": mapped.cwd,
        "compaction": t.compaction,
        "messages": mapped.messages.iter().map(|m| json!({
            "sources": m.sources.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "message": m.message,
        })).collect::<Vec<_>>(),
        "diagnostics": notes,
    })
}

#[test]
fn every_claude_code_and_codex_sample_maps_as_its_snapshot_says() {
    let Some(root) = common::shared_samples() else { return };
    let files = foreign_samples(&root);
    let listed = ["claude-code", "codex"]
        .iter()
        .flat_map(|f| common::listed_in_sources(&root, f))
        .filter(|name| name.ends_with(".jsonl") || name.ends_with("sample_session.json"))
        .count();
    assert_eq!(files.len(), listed, "{files:?}");
    for file in files {
        let session = load(&file);
        let name = file
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace(['/', '.'], "_");
        let view = serde_json::to_string_pretty(&mapped_view(&root, &session)).unwrap();
        insta::assert_snapshot!(name, view);
    }
}

#[test]
fn every_stored_line_is_kept_as_it_was() {
    let Some(root) = common::shared_samples() else { return };
    for file in foreign_samples(&root) {
        let session = load(&file);
        let text = std::fs::read_to_string(&file).unwrap();
        let input: Vec<Value> = if session.format == SessionFormat::ClaudeCodeWeb {
            let doc: Value = serde_json::from_str(&text).unwrap();
            doc["loglines"].as_array().unwrap().to_vec()
        } else {
            text.lines()
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .filter(Value::is_object)
                .collect()
        };
        let output: Vec<Value> = session.stored_values().into_iter().cloned().collect();
        assert_eq!(output, input, "{}", file.display());
        assert!(session.mapped.is_some(), "{}", file.display());
    }
}

#[test]
fn the_three_broken_on_purpose_files_report_their_bad_lines_and_load_the_rest() {
    let Some(root) = common::shared_samples() else { return };
    let skipped = |s: &Session| -> Vec<Location> {
        s.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Skipped)
            .filter_map(|d| d.location)
            .collect()
    };
    let malformed =
        load(&root.join("codex/claude-code-log/malformed/rollout-66666666-6666-4666-8666-666666666666.jsonl"));
    assert_eq!(skipped(&malformed), [Location::Line(3)]);
    assert_eq!(malformed.entries.len(), 2);
    let drift = load(&root.join("codex/agent-sessions/schema_drift.jsonl"));
    assert_eq!(skipped(&drift), [Location::Line(6)]);
    assert_eq!(drift.entries.len(), 5);
    let edge = load(&root.join("claude-code/claude-code-log/edge_cases.jsonl"));
    assert_eq!(
        skipped(&edge),
        [Location::Line(13), Location::Line(15), Location::Line(16)]
    );
    assert_eq!(edge.entries.len(), 16);
    assert!(!edge.transcript().messages.is_empty());
}

#[test]
fn the_session_names_its_own_target() {
    let Some(root) = common::shared_samples() else { return };
    let cc = load(&root.join("claude-code/claude-code-log/representative_messages.jsonl"));
    assert_eq!(cc.format.agent(), Agent::ClaudeCode);
    let t = cc.transcript();
    assert_eq!(t.model.provider.as_deref(), Some("anthropic"));
    assert_eq!(t.model.api.as_deref(), Some("anthropic-messages"));
    assert_eq!(t.model.model.as_deref(), Some("claude-3-sonnet-20240229"));
    let codex = load(&root.join(
        "codex/claude-code-log/sessions/2026/01/02/rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl",
    ));
    assert_eq!(codex.format.agent(), Agent::Codex);
    let t = codex.transcript();
    assert_eq!(
        t.model.provider.as_deref(),
        Some("synthetic"),
        "session_meta.model_provider"
    );
    assert_eq!(t.model.api.as_deref(), Some("openai-responses"));
    assert!(t.model.model.is_some());
}

#[test]
fn claude_code_sub_agent_lines_stay_out_of_the_main_conversation() {
    let Some(root) = common::shared_samples() else { return };
    let s = load(&root.join("claude-code/claude-code-log/sidechain_integrated.jsonl"));
    let t = s.transcript();
    let sources: Vec<Option<Location>> = t.messages.iter().map(|m| m.location).collect();
    assert_eq!(
        sources,
        [
            Some(Location::Line(1)),
            Some(Location::Line(2)),
            Some(Location::Line(6))
        ]
    );
    let note = t
        .diagnostics
        .iter()
        .find(|d| d.message.contains("isSidechain"))
        .expect("the sub-agent lines are noted");
    assert!(note.message.contains("line 3, line 4, line 5"), "{}", note.message);
}

#[test]
fn claude_code_compaction_and_rewind_follow_the_tree() {
    let Some(root) = common::shared_samples() else { return };
    let s = load(&root.join("claude-code/claude-code-log/dag_compact_after_rewind.jsonl"));
    let t = s.transcript();
    let c = t.compaction.as_ref().expect("the compact boundary is applied");
    assert_eq!(c.entry_id.as_deref(), Some("cb"));
    assert!(
        t.messages[0]
            .message
            .text()
            .starts_with("This session is being continued")
    );
    assert!(
        t.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Note && d.message.contains("off the active branch")),
        "{:?}",
        t.diagnostics
    );
}

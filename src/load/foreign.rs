//! Recognising transcript formats that are not OpenClaw/pi (from their first line), so that
//! they fail with one sentence naming the format instead of a confusing parse report.

use crate::model::json::Value;

use crate::model::SessionFormat;

const CODEX_TYPES: &[&str] = &[
    "session_meta",
    "turn_context",
    "response_item",
    "event_msg",
    "compacted",
    "world_state",
    "inter_agent_communication",
];

const CLAUDE_TYPES: &[&str] = &[
    "user",
    "assistant",
    "summary",
    "system",
    "file-history-snapshot",
    "queue-operation",
    "attachment",
    "progress",
    "last-prompt",
];

/// Claude Code's metadata-only line types (no message, and often no `uuid` or `sessionId`):
/// a file holding only these, such as the one-line `teleported-from` stub Claude Code leaves
/// when a cloud session is continued on this machine, is an empty Claude Code session. No
/// OpenClaw or pi entry type is hyphenated.
const CLAUDE_META_TYPES: &[&str] = &[
    "teleported-from",
    "custom-title",
    "ai-title",
    "last-prompt",
    "permission-mode",
    "file-history-snapshot",
    "queue-operation",
    "agent-name",
    "agent-color",
    "agent-setting",
    "pr-link",
    "worktree-state",
    "task-summary",
    "content-replacement",
];

/// Name the foreign format one JSON line belongs to, if it is recognisably one.
pub fn foreign_format(line: &Value) -> Option<&'static str> {
    let obj = line.as_object()?;
    let ty = obj.get("type").and_then(Value::as_str);
    if let Some(t) = ty {
        if CODEX_TYPES.contains(&t) && (obj.contains_key("payload") || t == "session_meta") {
            return Some("Codex CLI rollout");
        }
        let claude_envelope = ["uuid", "parentUuid", "sessionId", "leafUuid"]
            .iter()
            .any(|k| obj.contains_key(k));
        if CLAUDE_TYPES.contains(&t) && claude_envelope || CLAUDE_META_TYPES.contains(&t) {
            return Some("Claude Code");
        }
    } else {
        if obj.contains_key("id") && obj.contains_key("timestamp") && !obj.contains_key("parentId") {
            return Some("Codex CLI rollout (bare era)");
        }
        if obj.contains_key("record_type") {
            return Some("Codex CLI rollout (bare era)");
        }
    }
    None
}

/// The format replaylens reads a foreign format name as ([`foreign_format`]).
pub fn mapped_format(name: &str) -> Option<SessionFormat> {
    if name.starts_with("Codex") {
        Some(SessionFormat::CodexRollout)
    } else if name == "Claude Code web export" {
        Some(SessionFormat::ClaudeCodeWeb)
    } else if name.starts_with("Claude Code") {
        Some(SessionFormat::ClaudeCodeJsonl)
    } else {
        None
    }
}

/// Name the foreign format of a whole JSON document (not JSONL), if recognisable.
pub fn foreign_document(doc: &Value) -> Option<&'static str> {
    let obj = doc.as_object()?;
    if obj.contains_key("loglines") {
        return Some("Claude Code web export");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn names_codex_and_claude_lines() {
        assert_eq!(
            foreign_format(&json!({"type": "session_meta", "payload": {}})),
            Some("Codex CLI rollout")
        );
        assert_eq!(
            foreign_format(&json!({"type": "user", "uuid": "u1"})),
            Some("Claude Code")
        );
        assert_eq!(
            foreign_format(&json!({"type": "teleported-from", "remoteSessionId": "session_01", "messageCount": 0})),
            Some("Claude Code")
        );
        assert_eq!(
            foreign_format(&json!({"id": "x", "timestamp": "t"})),
            Some("Codex CLI rollout (bare era)")
        );
        assert_eq!(
            foreign_format(&json!({"type": "message", "id": "a", "parentId": null})),
            None
        );
        assert_eq!(
            foreign_document(&json!({"loglines": []})),
            Some("Claude Code web export")
        );
    }
}

//! Synthetic missing-tool-result messages (OpenClaw's `makeMissingToolResult`).

use crate::json;
use crate::model::json::Value;

use crate::model::{BlockKind, Message};

/// The detail key that marks a synthesized result.
pub const SYNTHETIC_MARKER: &str = "openclawSyntheticMissingToolResult";

/// The legacy default text, recognised (exactly) as synthetic but never written.
pub const LEGACY_MISSING_TOOL_RESULT_TEXT: &str =
    "[openclaw] missing tool result in session history; inserted synthetic error result for transcript repair.";

/// Our default text for a synthesized missing result (the `newest` rule set's own wording: the outcome is
/// unknown, retry only read-only or idempotent operations; 2026.9.6 uses `DEFAULT_MISSING_TOOL_RESULT_TEXT`).
pub const MISSING_TOOL_RESULT_TEXT: &str = "[replay] No result was recorded for this tool call, so its outcome is unknown. \
Retry it only if the operation is read-only or idempotent; before repeating an operation that may have had side \
effects, verify the current state first.";

/// The placeholder OpenAI Responses replays use for a missing `function_call_output`.
pub const ABORTED_TEXT: &str = "aborted";

/// Whether a tool result is synthetic: `isError` truthy and the marker, or a text block equal
/// to the legacy text exactly (as OpenClaw's pairing repair recognises them).
pub fn is_synthetic_result(m: &Message) -> bool {
    let truthy = match m.get("isError") {
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(_) | Value::Object(_)) => true,
        _ => false,
    };
    if !truthy {
        return false;
    }
    if m.get("details").and_then(|d| d.get(SYNTHETIC_MARKER)) == Some(&Value::Bool(true)) {
        return true;
    }
    m.blocks()
        .any(|b| b.kind() == BlockKind::Text && b.text() == Some(LEGACY_MISSING_TOOL_RESULT_TEXT))
}

/// Build a synthetic result for a call (the shape of OpenClaw's `makeMissingToolResult`). `timestamp` comes from the
/// session (the owning assistant turn), never from the clock, so output is deterministic.
pub fn synthetic_result(call_id: &str, tool_name: &str, text: &str, timestamp: Option<Value>) -> Message {
    let mut v = json!({
        "role": "toolResult",
        "toolCallId": call_id,
        "toolName": tool_name,
        "content": [{"type": "text", "text": text}],
        "details": {SYNTHETIC_MARKER: true, "reason": "missing_tool_result"},
        "isError": true,
    });
    if let Some(ts) = timestamp {
        v["timestamp"] = ts;
    }
    Message::from_value(v).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_marker_or_exact_legacy_text_only() {
        let m = |v: Value| Message::from_value(v).unwrap();
        assert!(is_synthetic_result(&synthetic_result(
            "c",
            "read",
            MISSING_TOOL_RESULT_TEXT,
            None
        )));
        assert!(is_synthetic_result(&m(
            json!({"role": "toolResult", "isError": true, "content": [{"type": "text", "text": LEGACY_MISSING_TOOL_RESULT_TEXT}]})
        )));
        let sub = format!("{LEGACY_MISSING_TOOL_RESULT_TEXT} (extra)");
        assert!(!is_synthetic_result(&m(
            json!({"role": "toolResult", "isError": true, "content": [{"type": "text", "text": sub}]})
        )));
        assert!(!is_synthetic_result(&m(
            json!({"role": "toolResult", "isError": false, "details": {SYNTHETIC_MARKER: true}})
        )));
        assert!(!is_synthetic_result(&m(
            json!({"role": "toolResult", "isError": true, "content": [{"type": "text", "text": MISSING_TOOL_RESULT_TEXT}]})
        )));
    }

    #[test]
    fn default_text_says_what_readme_requires() {
        let t = MISSING_TOOL_RESULT_TEXT.to_lowercase();
        assert!(
            t.contains("unknown")
                && t.contains("read-only")
                && t.contains("idempotent")
                && t.contains("verify the current state")
        );
    }
}

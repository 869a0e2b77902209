//! Small JavaScript-faithful readers shared by both transforms: failed-turn classification
//! (`resolveFailedAssistantReplay`), reasoning-only `length` turns, truthiness.

use serde_json::{Map, Value};

use crate::hygiene::rules::assistant_text::js_trim;
use crate::model::Message;

/// `FAILED_ASSISTANT_REPLAY_TEXT`: what a failed turn that said something is replayed as.
pub const FAILED_ASSISTANT_REPLAY_TEXT: &str =
    "[This turn failed before it completed. Do not redo its work without confirming with the user first.]";

/// `STREAM_ERROR_FALLBACK_TEXT`: the placeholder a stream error leaves in a turn.
pub const STREAM_ERROR_FALLBACK_TEXT: &str = "[assistant turn failed before producing content]";

/// JavaScript truthiness of an optional JSON value (`undefined` when absent).
pub fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(_) | Value::Object(_)) => true,
    }
}

/// `isRecord`: a non-array object.
pub fn as_record(v: &Value) -> Option<&Map<String, Value>> {
    v.as_object()
}

/// `block.type` as a string.
pub fn block_type(v: &Value) -> Option<&str> {
    v.get("type").and_then(Value::as_str)
}

/// What `resolveFailedAssistantReplay` decides for a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailedReplay {
    /// Not a failed turn, or a failed tool turn the pairing repair will handle.
    Keep,
    /// Replay it as [`FAILED_ASSISTANT_REPLAY_TEXT`].
    Marker,
    /// Leave it out.
    Drop,
}

/// `isStreamErrorFallbackContent` for a string.
fn is_stream_error_fallback_text(text: &str) -> bool {
    let t = js_trim(text);
    t.is_empty() || t == STREAM_ERROR_FALLBACK_TEXT
}

/// `resolveFailedAssistantReplay(message, {pairingAware})`.
pub fn failed_replay(m: &Message, pairing_aware: bool) -> FailedReplay {
    if !m.is_assistant() || !matches!(m.str_field("stopReason"), Some("error" | "aborted")) {
        return FailedReplay::Keep;
    }
    let content: &[Value] = m.content_array().map_or(&[], Vec::as_slice);
    if content
        .iter()
        .any(|b| as_record(b).is_some() && block_type(b) == Some("toolCall"))
    {
        return if pairing_aware {
            FailedReplay::Keep
        } else {
            FailedReplay::Drop
        };
    }
    let says_something = content.iter().any(|b| {
        as_record(b).is_some()
            && block_type(b) == Some("text")
            && b.get("text")
                .and_then(Value::as_str)
                .is_some_and(|t| !is_stream_error_fallback_text(t))
    });
    if says_something {
        FailedReplay::Marker
    } else {
        FailedReplay::Drop
    }
}

/// `isReasoningOnlyLengthAssistantTurn`: a `length` turn holding only reasoning and blank text.
pub fn is_reasoning_only_length_turn(m: &Message) -> bool {
    if m.str_field("stopReason") != Some("length") || !m.is_assistant() {
        return false;
    }
    let single;
    let content: &[Value] = match m.content() {
        Some(Value::Array(a)) => a,
        Some(v @ Value::Object(_)) => {
            single = [v.clone()];
            &single
        }
        _ => &[],
    };
    let mut has_thinking = false;
    for block in content {
        let Some(obj) = block.as_object() else {
            return false;
        };
        match obj.get("type") {
            None => return false,
            Some(Value::String(t)) if t == "thinking" || t == "redacted_thinking" => has_thinking = true,
            Some(Value::String(t))
                if t == "text"
                    && obj
                        .get("text")
                        .and_then(Value::as_str)
                        .is_some_and(|s| js_trim(s).is_empty()) => {}
            _ => return false,
        }
    }
    has_thinking
}

/// A copy of `m` with `key` set: an existing key keeps its position, a new one goes last
/// (JavaScript's `{...m, key: value}`).
pub fn with_field(m: &Message, key: &str, value: Value) -> Message {
    let mut out = m.clone();
    out.set(key, value);
    out
}

/// A text block `{type:"text", text}`.
pub fn text_block(text: &str) -> Value {
    serde_json::json!({"type": "text", "text": text})
}

//! What both transforms share: failed-turn classification (`resolveFailedAssistantReplay`),
//! reasoning-only `length` turns, message and block builders.

use crate::model::json::{Map, Value};

use super::claude::ThinkingReplayMode;
use crate::model::Message;
use crate::openclaw::js::js_trim;
use crate::openclaw::js::truthy;
use crate::wire::blocks::block_type;

/// `FAILED_ASSISTANT_REPLAY_TEXT`: what a failed turn that said something is replayed as.
pub const FAILED_ASSISTANT_REPLAY_TEXT: &str =
    "[This turn failed before it completed. Do not redo its work without confirming with the user first.]";

/// `STREAM_ERROR_FALLBACK_TEXT`: the placeholder a stream error leaves in a turn.
pub const STREAM_ERROR_FALLBACK_TEXT: &str = "[assistant turn failed before producing content]";

/// `isRecord`: a non-array object.
pub fn as_record(v: &Value) -> Option<&Map> {
    v.as_object()
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
    let content: &[Value] = m.content_array().map_or(&[], |a| a.as_slice());
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
    crate::json!({"type": "text", "text": text})
}

/// A thinking block of an assistant turn as both transforms project it for the target;
/// `None` when it is left out. `same` says the turn counts as the target's own.
pub fn project_thinking(block: &Value, mode: ThinkingReplayMode, same: bool) -> Option<Value> {
    if mode == ThinkingReplayMode::Drop {
        return None;
    }
    if truthy(block.get("redacted")) {
        return same.then(|| block.clone());
    }
    if same && truthy(block.get("thinkingSignature")) {
        return Some(block.clone());
    }
    let thinking = block.get("thinking").and_then(Value::as_str).unwrap_or("");
    if js_trim(thinking).is_empty() {
        return None;
    }
    Some(if same { block.clone() } else { text_block(thinking) })
}

/// A text block of an assistant turn as both transforms project it: as it is on the target's
/// own turns, else `{type:"text", text: block.text}` (no `text` key when the block has none).
pub fn project_text(block: &Value, same: bool) -> Value {
    if same {
        return block.clone();
    }
    let mut out = Map::new();
    out.insert("type".into(), Value::String("text".to_owned().into()));
    if let Some(text) = block.get("text") {
        out.insert("text".into(), text.clone());
    }
    Value::Object(out)
}

//! Shared text and turn predicates of replay normalization (OpenClaw's
//! `normalizeAssistantReplayContent`, `sanitizeUserReplayContent`): blank text, the `NO_REPLY`
//! silent-reply payload, the stream-error fallback content,
//! zero-token usage, reasoning-only content and persisted user media.
//!
//! The normalization rules and the on-disk repair use these so that every pass agrees on what
//! "blank", "silent" and "zero usage" mean. Whitespace follows JavaScript's `String.trim()`.

use crate::model::json::{Map, Value};

use crate::model::{BlockKind, Message};
use crate::openclaw::js::js_trim;

/// `STREAM_ERROR_FALLBACK_TEXT`: the legacy placeholder of a failed assistant turn.
pub const STREAM_ERROR_FALLBACK_TEXT: &str = "[assistant turn failed before producing content]";

/// `EMPTY_CONTENT_PLACEHOLDER`: what a user or tool-result turn left empty is given.
pub const EMPTY_CONTENT_PLACEHOLDER: &str = "[empty content omitted]";

/// The silent-reply token.
pub use super::silent_token::SILENT_REPLY_TOKEN;

/// Whether a string is empty after `trim()`.
pub fn is_blank(s: &str) -> bool {
    js_trim(s).is_empty()
}

/// A `{type:"text"}` block whose `text` is a string that is blank. A text block without a
/// string `text` is not blank (it is left to the rules that own malformed blocks).
pub fn is_blank_text_block(block: &Value) -> bool {
    BlockKind::of(block) == BlockKind::Text && block.get("text").and_then(Value::as_str).is_some_and(is_blank)
}

pub use super::silent_token::is_silent_reply_payload;

/// A finite JSON number (`readFiniteTokenCount`).
fn finite(v: Option<&Value>) -> Option<f64> {
    v.and_then(Value::as_f64).filter(|f| f.is_finite())
}

/// JavaScript `a ?? b`: the first value that is present and not `null`.
fn coalesce<'a>(map: &'a Map, keys: &[&str]) -> Option<&'a Value> {
    keys.iter()
        .map(|k| map.get(k))
        .find(|v| !matches!(v, None | Some(Value::Null)))
        .flatten()
}

/// OpenClaw's `hasZeroTokenUsageSnapshot(usage)`: `usage` is an object; with
/// `total = total ?? totalTokens ?? total_tokens` a finite number, zero iff total is 0 and each
/// of input/output/cacheRead/cacheWrite is absent (or not a finite number) or 0; otherwise zero
/// iff at least one of those four is a finite number and every finite one is 0. Missing usage and
/// cost-only usage are not zero. Every other field (notably `contextUsage`, including
/// `{state:"unavailable"}`) is ignored.
pub fn has_zero_token_usage(usage: Option<&Value>) -> bool {
    let Some(Value::Object(map)) = usage else {
        return false;
    };
    let parts: Vec<Option<f64>> = ["input", "output", "cacheRead", "cacheWrite"]
        .iter()
        .map(|k| finite(map.get(k)))
        .collect();
    if let Some(total) = finite(coalesce(map, &["total", "totalTokens", "total_tokens"])) {
        return total == 0.0 && parts.iter().all(|p| p.is_none_or(|v| v == 0.0));
    }
    let present: Vec<f64> = parts.into_iter().flatten().collect();
    !present.is_empty() && present.iter().all(|v| *v == 0.0)
}

/// `isZeroUsageEmptyStopAssistantTurn` evaluated with the content treated as `[]`:
/// `stopReason === "stop"` and a zero token usage snapshot.
pub fn is_zero_usage_stop(m: &Message) -> bool {
    m.str_field("stopReason") == Some("stop") && has_zero_token_usage(m.get("usage"))
}

/// `hasNonzeroUsage(normalizeUsage(usage))`: any token count (canonical names and the common
/// provider aliases) that is a finite number greater than zero.
pub fn has_nonzero_usage(usage: &Map) -> bool {
    const TOKEN_FIELDS: &[&str] = &[
        "input",
        "output",
        "cacheRead",
        "cacheWrite",
        "total",
        "totalTokens",
        "total_tokens",
        "input_tokens",
        "output_tokens",
        "inputTokens",
        "outputTokens",
        "prompt_tokens",
        "completion_tokens",
        "cache_read_input_tokens",
        "cache_creation_input_tokens",
        "cacheReadInputTokens",
        "cacheCreationInputTokens",
    ];
    TOKEN_FIELDS
        .iter()
        .any(|k| finite(usage.get(k)).is_some_and(|v| v > 0.0))
}

/// OpenClaw's `isStreamErrorFallbackContent(content)` (newest): missing or `null` content; a
/// string that is blank or trims to the sentinel; or an array whose every block is a
/// `text` / `input_text` / `output_text` block with a string `text` that is blank or trims to
/// the sentinel (`[]` qualifies). A block with a non-string `text` is not fallback content.
pub fn is_stream_error_fallback_content(content: Option<&Value>) -> bool {
    let fallback_text = |s: &str| {
        let t = js_trim(s);
        t.is_empty() || t == STREAM_ERROR_FALLBACK_TEXT
    };
    match content {
        None | Some(Value::Null) => true,
        Some(Value::String(s)) => fallback_text(s),
        Some(Value::Array(blocks)) => blocks.iter().all(|b| {
            matches!(
                b.get("type").and_then(Value::as_str),
                Some("text" | "input_text" | "output_text")
            ) && b.get("text").and_then(Value::as_str).is_some_and(fallback_text)
        }),
        Some(_) => false,
    }
}

/// `hasOnlyAssistantReasoningContent` / the shape test of `isReasoningOnlyLengthAssistantTurn`:
/// at least one `thinking` / `redacted_thinking` block and every other block a `text` block
/// whose string text is blank.
pub fn is_reasoning_only(blocks: &[Value]) -> bool {
    let mut reasoning = false;
    for b in blocks {
        if BlockKind::of(b).is_thinking_like() {
            reasoning = true;
        } else if !is_blank_text_block(b) {
            return false;
        }
    }
    reasoning
}

/// `hasPersistedMedia(message)`: a non-blank string in `MediaPath`, `MediaPaths`, `MediaUrl` or
/// `MediaUrls` (each a string or an array of strings).
pub fn has_persisted_media(m: &Message) -> bool {
    ["MediaPath", "MediaPaths", "MediaUrl", "MediaUrls"]
        .iter()
        .any(|k| match m.get(k) {
            Some(Value::String(s)) => !is_blank(s),
            Some(Value::Array(items)) => items.iter().any(|v| v.as_str().is_some_and(|s| !is_blank(s))),
            _ => false,
        })
}

/// A short, single-line excerpt of a text for rewrite details (at most `max` characters).
pub fn excerpt(text: &str, max: usize) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    if flat.chars().count() <= max {
        flat
    } else {
        let cut: String = flat.chars().take(max).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn zero_usage_snapshot() {
        assert!(has_zero_token_usage(Some(&json!({"input": 0, "output": 0}))));
        assert!(has_zero_token_usage(Some(&json!({"totalTokens": 0}))));
        assert!(has_zero_token_usage(Some(&json!({"total_tokens": 0, "input": 0}))));
        assert!(
            has_zero_token_usage(Some(&json!({"total": 0, "totalTokens": 5}))),
            "total wins over totalTokens"
        );
        assert!(!has_zero_token_usage(Some(&json!({"total": 0, "output": 3}))));
        assert!(!has_zero_token_usage(Some(&json!({"totalTokens": 1, "input": 0}))));
        assert!(
            has_zero_token_usage(Some(&json!({"total": null, "totalTokens": 0}))),
            "null falls through ??"
        );
        assert!(
            has_zero_token_usage(Some(&json!({"input": 0, "output": "7"}))),
            "non-numeric counts are absent"
        );
        assert!(!has_zero_token_usage(Some(&json!({"cost": {"total": 0}}))), "cost-only");
        assert!(!has_zero_token_usage(Some(&json!({}))));
        assert!(!has_zero_token_usage(None));
        assert!(!has_zero_token_usage(Some(&json!(0))));
        assert!(has_zero_token_usage(Some(
            &json!({"input": 0, "output": 0, "contextUsage": {"state": "unavailable"}})
        )));
        assert!(!has_zero_token_usage(Some(
            &json!({"contextUsage": {"state": "unavailable"}})
        )));
    }

    #[test]
    fn fallback_content() {
        assert!(is_stream_error_fallback_content(None));
        assert!(is_stream_error_fallback_content(Some(&json!(null))));
        assert!(is_stream_error_fallback_content(Some(&json!("  "))));
        assert!(is_stream_error_fallback_content(Some(&json!(format!(
            " {STREAM_ERROR_FALLBACK_TEXT}\n"
        )))));
        assert!(is_stream_error_fallback_content(Some(&json!([]))));
        assert!(is_stream_error_fallback_content(Some(&json!([
            {"type": "output_text", "text": " "},
            {"type": "text", "text": STREAM_ERROR_FALLBACK_TEXT}
        ]))));
        assert!(!is_stream_error_fallback_content(Some(&json!([{"type": "text"}]))));
        assert!(!is_stream_error_fallback_content(Some(
            &json!([{"type": "thinking", "thinking": ""}])
        )));
        assert!(!is_stream_error_fallback_content(Some(&json!("partial"))));
        assert!(!is_stream_error_fallback_content(Some(
            &json!({"type": "text", "text": ""})
        )));
    }

    #[test]
    fn reasoning_only_and_blank() {
        assert!(is_reasoning_only(&[
            json!({"type": "thinking"}),
            json!({"type": "text", "text": " "})
        ]));
        assert!(is_reasoning_only(&[json!({"type": "redacted_thinking", "data": "x"})]));
        assert!(!is_reasoning_only(&[]));
        assert!(!is_reasoning_only(&[json!({"type": "text", "text": " "})]));
        assert!(!is_reasoning_only(&[
            json!({"type": "thinking"}),
            json!({"type": "text"})
        ]));
        assert!(is_blank(" \u{feff}\u{a0}\n"));
        assert!(!is_blank("\u{85}"), "NEL is not JavaScript whitespace");
    }

    #[test]
    fn persisted_media() {
        let m = |v: Value| Message::from_value(v).unwrap();
        assert!(has_persisted_media(&m(json!({"MediaPath": "/tmp/a.png"}))));
        assert!(has_persisted_media(&m(json!({"MediaUrls": ["", "https://x/y.jpg"]}))));
        assert!(!has_persisted_media(&m(json!({"MediaPaths": [" "], "MediaUrl": 3}))));
    }
}

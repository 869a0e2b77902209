//! Shared helpers of the thinking / signature rules (the thinking passes of OpenClaw's `sanitizeSessionHistory`):
//! what a thinking-like block is, when its signature is replayable, the latest assistant
//! turn, the "current tool turn" exemption and timestamp parsing.

use crate::json;
use crate::model::json::Value;

use crate::hygiene::Context;
use crate::model::Message;
use crate::model::time::iso_to_ms;

/// OpenClaw's `OMITTED_ASSISTANT_REASONING_TEXT`: the text a turn keeps when every block
/// of it was reasoning that had to be removed.
pub const OMITTED_ASSISTANT_REASONING_TEXT: &str = "[assistant reasoning omitted]";

/// `[{type:"text", text:"[assistant reasoning omitted]"}]`.
pub fn omitted_reasoning_content() -> Vec<Value> {
    vec![json!({"type": "text", "text": OMITTED_ASSISTANT_REASONING_TEXT})]
}

/// The `type` of a block, when it is an object with a string `type`.
pub fn block_type(block: &Value) -> Option<&str> {
    block.get("type").and_then(Value::as_str)
}

/// A thinking-like block: `type` is `thinking` or `redacted_thinking`.
pub fn is_thinking_like(block: &Value) -> bool {
    matches!(block_type(block), Some("thinking" | "redacted_thinking"))
}

/// Whether a thinking-like block carries a replayable signature (`stripInvalidThinkingSignatures`): one of its
/// candidate fields is a string that is not blank after trimming. For `thinking` the
/// candidates are `signature`, `thinkingSignature`, `thought_signature`; for
/// `redacted_thinking` also `data`. No length or shape heuristics.
pub fn has_replayable_signature(block: &Value) -> bool {
    let candidates: &[&str] = match block_type(block) {
        Some("thinking") => &["signature", "thinkingSignature", "thought_signature"],
        Some("redacted_thinking") => &["data", "signature", "thinkingSignature", "thought_signature"],
        _ => return false,
    };
    candidates.iter().any(|k| {
        block
            .get(*k)
            .and_then(Value::as_str)
            .is_some_and(|s| !s.trim().is_empty())
    })
}

/// A text block whose string `text` is blank after trimming.
pub fn is_blank_text(block: &Value) -> bool {
    block_type(block) == Some("text")
        && block
            .get("text")
            .and_then(Value::as_str)
            .is_some_and(|t| t.trim().is_empty())
}

/// A tool-call block as `thinking.ts` recognises it: `toolCall`, `tool_use` or
/// `function_call` (`toolUse` is deliberately not counted there, unlike in `validateAnthropicTurns`).
pub fn is_thinking_ts_tool_call(block: &Value) -> bool {
    matches!(block_type(block), Some("toolCall" | "tool_use" | "function_call"))
}

/// An assistant message whose content is an array.
pub fn is_assistant_with_content(m: &Message) -> bool {
    m.is_assistant() && m.content_array().is_some()
}

/// Index of the latest assistant message with array content.
pub fn latest_assistant_index(msgs: &[&Message]) -> Option<usize> {
    msgs.iter().rposition(|m| is_assistant_with_content(m))
}

/// Index of the latest `user` message.
pub fn latest_user_index(msgs: &[&Message]) -> Option<usize> {
    msgs.iter().rposition(|m| m.is_user())
}

/// Whether the assistant at `index` is the "current tool turn" (`shouldPreserveLatestAssistantThinking`): it is at or
/// after the latest user message, has a tool-call block (`toolCall`/`tool_use`/
/// `function_call`), no other assistant sits between it and the previous user message, and a
/// `toolResult` follows it before any user message.
pub fn is_current_tool_turn(msgs: &[&Message], index: usize, latest_user: Option<usize>) -> bool {
    let m = msgs[index];
    if latest_user.is_some_and(|u| index < u) || !is_assistant_with_content(m) {
        return false;
    }
    if !m
        .content_array()
        .is_some_and(|c| c.iter().any(is_thinking_ts_tool_call))
    {
        return false;
    }
    for prev in msgs[..index].iter().rev() {
        if prev.is_user() {
            break;
        }
        if prev.is_assistant() {
            return false;
        }
    }
    for next in &msgs[index + 1..] {
        if next.is_tool_result() {
            return true;
        }
        if next.is_user() {
            return false;
        }
    }
    false
}

/// OpenClaw's `shouldPreserveLatestAssistantThinking`: false without an assistant with
/// array content; true when that assistant is the last message; otherwise true iff it is the
/// current tool turn.
pub fn should_preserve_latest_assistant_thinking(msgs: &[&Message]) -> bool {
    let Some(latest) = latest_assistant_index(msgs) else {
        return false;
    };
    latest == msgs.len() - 1 || is_current_tool_turn(msgs, latest, latest_user_index(msgs))
}

/// `signedThinkingProvider` of OpenClaw's `sanitizeSessionHistory`: the normalised target provider is `anthropic`,
/// `amazon-bedrock` or `anthropic-vertex`.
pub fn signed_thinking_provider(ctx: &Context<'_>) -> bool {
    matches!(
        ctx.resolved.target.provider_str(),
        "anthropic" | "amazon-bedrock" | "anthropic-vertex"
    )
}

/// Parse a message timestamp as OpenClaw does: a finite number, or a string through
/// `Date.parse` (ISO-8601). Anything else is unparseable.
pub fn parse_timestamp_ms(v: Option<&Value>) -> Option<f64> {
    match v? {
        Value::Number(n) => n.as_f64().filter(|f| f.is_finite()),
        Value::String(s) => iso_to_ms(s.trim()),
        _ => None,
    }
}

/// A millisecond timestamp for details: integral values without a fraction.
pub fn fmt_ms(ms: f64) -> String {
    if ms.fract() == 0.0 && ms.abs() < 9.0e15 {
        format!("{}", ms as i64)
    } else {
        format!("{ms}")
    }
}

/// How a block is named in a rewrite detail: `toolCall call_1` for a tool call with an id,
/// else `<type> block <index>`.
pub fn describe_block(block: &Value, index: usize) -> String {
    let ty = block_type(block).unwrap_or("untyped");
    match block.get("id").and_then(Value::as_str) {
        Some(id)
            if matches!(
                ty,
                "toolCall" | "toolUse" | "functionCall" | "tool_call" | "tool_use" | "function_call"
            ) =>
        {
            format!("{ty} {id}")
        }
        _ => format!("{ty} block {index}"),
    }
}

/// Remove every thinking-like block from `content`; when any was removed also remove blank
/// text blocks (what OpenClaw's tests of `dropThinkingBlocks` / `dropReasoningFromHistory`
/// expect). Returns the new content (the omitted-reasoning text when nothing is left)
/// and the detail, or `None` when there is no thinking-like block.
pub fn strip_thinking_and_blank_text(content: &[Value], why: &str) -> Option<(Vec<Value>, String)> {
    if !content.iter().any(is_thinking_like) {
        return None;
    }
    let mut kept = Vec::with_capacity(content.len());
    let mut removed = Vec::new();
    for (i, b) in content.iter().enumerate() {
        if is_thinking_like(b) {
            removed.push(format!("{} block {i}", block_type(b).unwrap_or("thinking")));
        } else if is_blank_text(b) {
            removed.push(format!("blank text block {i}"));
        } else {
            kept.push(b.clone());
        }
    }
    let mut detail = format!("removed {}: {why}", crate::text::join_folded(&removed));
    if kept.is_empty() {
        kept = omitted_reasoning_content();
        detail.push_str(&format!(
            "; nothing left, so the turn keeps `{OMITTED_ASSISTANT_REASONING_TEXT}`"
        ));
    }
    Some((kept, detail))
}

/// The message with its content replaced (key position kept).
pub fn with_content(m: &Message, content: impl Into<crate::model::json::Array>) -> Message {
    let mut next = m.clone();
    next.set_content(content);
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(v: Value) -> Message {
        Message::from_value(v).unwrap()
    }

    #[test]
    fn replayable_signature_candidates_per_type() {
        assert!(has_replayable_signature(
            &json!({"type": "thinking", "thinking": "t", "signature": "s"})
        ));
        assert!(has_replayable_signature(
            &json!({"type": "thinking", "thinkingSignature": " s "})
        ));
        assert!(has_replayable_signature(
            &json!({"type": "thinking", "thought_signature": "s"})
        ));
        assert!(!has_replayable_signature(&json!({"type": "thinking", "data": "s"})));
        assert!(!has_replayable_signature(
            &json!({"type": "thinking", "signature": "  "})
        ));
        assert!(!has_replayable_signature(&json!({"type": "thinking", "signature": 5})));
        assert!(has_replayable_signature(
            &json!({"type": "redacted_thinking", "data": "opaque"})
        ));
        assert!(!has_replayable_signature(&json!({"type": "redacted_thinking"})));
        assert!(!has_replayable_signature(&json!({"type": "text", "signature": "s"})));
    }

    #[test]
    fn current_tool_turn_needs_a_result_before_the_next_user() {
        let user = m(json!({"role": "user", "content": "go"}));
        let call =
            m(json!({"role": "assistant", "content": [{"type": "toolCall", "id": "c", "name": "r", "arguments": {}}]}));
        let call_use =
            m(json!({"role": "assistant", "content": [{"type": "toolUse", "id": "c", "name": "r", "input": {}}]}));
        let result = m(json!({"role": "toolResult", "toolCallId": "c", "content": []}));
        let msgs = [&user, &call, &result];
        assert!(is_current_tool_turn(&msgs, 1, Some(0)));
        assert!(should_preserve_latest_assistant_thinking(&msgs));
        let msgs = [&user, &call_use, &result];
        assert!(!is_current_tool_turn(&msgs, 1, Some(0)), "toolUse is not counted");
        let msgs = [&user, &call, &call, &result];
        assert!(
            !is_current_tool_turn(&msgs, 2, Some(0)),
            "another assistant since the user"
        );
        let msgs = [&user, &call, &user];
        assert!(!should_preserve_latest_assistant_thinking(&msgs));
        assert!(!should_preserve_latest_assistant_thinking(&[&user]));
        assert!(should_preserve_latest_assistant_thinking(&[&user, &call]));
    }

    #[test]
    fn timestamps_parse_numbers_and_iso_strings() {
        assert_eq!(parse_timestamp_ms(Some(&json!(5))), Some(5.0));
        assert_eq!(
            parse_timestamp_ms(Some(&json!("2026-02-24T10:00:00Z"))),
            Some(1_771_927_200_000.0)
        );
        assert_eq!(parse_timestamp_ms(Some(&json!("soon"))), None);
        assert_eq!(parse_timestamp_ms(None), None);
        assert_eq!(fmt_ms(1000.0), "1000");
    }
}

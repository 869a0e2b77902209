//! Shared reading of tool-call blocks and tool results for the tool-call rules
//! (OpenClaw's `sanitizeToolCallInputs`, `sanitizeToolUseResultPairing`): input / id / name
//! checks, the tool allowlist, frames and the
//! "completed" approximation used by `malformed-tool-call` and `tool-call-id`.

use std::collections::HashSet;

use crate::model::json::Value;

use crate::hygiene::ReplayOptions;
use crate::model::{BlockKind, Message};

/// Fields a tool call's id may sit in; input validation accepts any of them (`sanitizeToolCallInputs`).
pub const CALL_ID_FIELDS: [&str; 6] = [
    "call_id",
    "tool_call_id",
    "toolCallId",
    "tool_use_id",
    "toolUseId",
    "id",
];

/// Longest tool name accepted, after trimming.
const MAX_NAME_CHARS: usize = 64;

/// Whether a content block is a tool call in any of the six spellings.
pub fn is_tool_call(block: &Value) -> bool {
    matches!(BlockKind::of(block), BlockKind::ToolCall(_))
}

/// Whether a tool call carries `input` or `arguments` that is present and not null
/// (`{}` and `"{}"` both count).
pub fn has_tool_call_input(block: &Value) -> bool {
    let present = |k: &str| block.get(k).is_some_and(|v| !v.is_null());
    present("input") || present("arguments")
}

/// Whether a tool call carries a string `partialJson` (streaming scratch).
pub fn has_partial_json(block: &Value) -> bool {
    block.get("partialJson").is_some_and(Value::is_string)
}

/// Whether any id alias field holds a string that is non-empty after trimming.
pub fn has_usable_id(block: &Value) -> bool {
    CALL_ID_FIELDS.iter().any(|k| {
        block
            .get(*k)
            .and_then(Value::as_str)
            .is_some_and(|s| !s.trim().is_empty())
    })
}

/// The trimmed name when the block's `name` is a string with surrounding whitespace and a
/// non-empty core (the only name rewrite OpenClaw makes).
pub fn trimmed_name(block: &Value) -> Option<&str> {
    let raw = block.get("name")?.as_str()?;
    let trimmed = raw.trim();
    (!trimmed.is_empty() && trimmed != raw).then_some(trimmed)
}

/// A short human description of a tool call for rewrite details: `` `name` (id `x`) ``.
pub fn describe_call(block: &Value) -> String {
    let name = match block.get("name") {
        Some(Value::String(s)) => format!("`{s}`"),
        Some(other) => format!("(name {other})"),
        None => "(no name)".to_owned(),
    };
    let id = CALL_ID_FIELDS
        .iter()
        .rev()
        .find_map(|k| block.get(*k).and_then(Value::as_str).filter(|s| !s.trim().is_empty()));
    match id {
        Some(id) => format!("{name} (id `{id}`)"),
        None => format!("{name} (no id)"),
    }
}

/// The normalised tool allowlist: names trimmed and lowercased, empty entries skipped; an
/// allowlist that ends up empty (or none at all) means "no allowlist".
#[derive(Debug, Clone, Default)]
pub struct AllowedTools(Option<HashSet<String>>);

impl AllowedTools {
    /// From `--tools`.
    pub fn from_options(options: &ReplayOptions) -> Self {
        let set: HashSet<String> = options
            .allowed_tools
            .iter()
            .flatten()
            .map(|n| n.trim())
            .filter(|n| !n.is_empty())
            .map(str::to_lowercase)
            .collect();
        Self((!set.is_empty()).then_some(set))
    }

    /// Whether there is an allowlist at all.
    pub fn is_active(&self) -> bool {
        self.0.is_some()
    }

    /// The name check (`isAllowedToolCallName`): a string, non-empty and at most 64 characters
    /// after trimming, matching `^[A-Za-z0-9_:.-]+$`, and (unless `waive_list`, for a completed
    /// call) in the allowlist when there is one. `Err` carries the reason.
    pub fn check(&self, name: Option<&Value>, waive_list: bool) -> Result<(), &'static str> {
        let Some(name) = name.and_then(Value::as_str) else {
            return Err("name is not a string");
        };
        let trimmed = name.trim();
        if trimmed.is_empty() {
            return Err("name is blank");
        }
        if trimmed.chars().count() > MAX_NAME_CHARS {
            return Err("name is longer than 64 characters");
        }
        if !trimmed
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '.' | '-'))
        {
            return Err("name has characters outside [A-Za-z0-9_:.-]");
        }
        match &self.0 {
            Some(set) if !waive_list && !set.contains(&trimmed.to_lowercase()) => {
                Err("tool is not in the current tool list")
            }
            _ => Ok(()),
        }
    }
}

/// One tool call as pairing sees it: a canonical spelling with a non-empty string `id`
/// (not trimmed).
#[derive(Debug, Clone, Copy)]
pub struct FrameCall<'a> {
    /// Index of the block in the assistant's content.
    pub block: usize,
    /// The raw id.
    pub id: &'a str,
    /// The `name`, when it is a string.
    pub name: Option<&'a str>,
}

/// The tool calls of an assistant that pairing and id rewriting recognise (`extractToolCallsFromAssistant`);
/// empty for any other message.
pub fn frame_calls(m: &Message) -> Vec<FrameCall<'_>> {
    if !m.is_assistant() {
        return Vec::new();
    }
    m.blocks()
        .enumerate()
        .filter(|(_, b)| b.kind().is_canonical_tool_call())
        .filter_map(|(i, b)| {
            let id = b.tool_call_id().filter(|s| !s.is_empty())?;
            Some(FrameCall {
                block: i,
                id,
                name: b.tool_call_name(),
            })
        })
        .collect()
}

/// The result ids of a tool result in pairing priority: trimmed, empties and duplicates removed.
pub fn pairing_result_ids(m: &Message) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for k in crate::openclaw::pairing::results::RESULT_ID_FIELDS {
        if let Some(s) = m.str_field(k).map(str::trim).filter(|s| !s.is_empty())
            && !out.iter().any(|o| o == s)
        {
            out.push(s.to_owned());
        }
    }
    out
}

/// The ids of a tool result after legacy id adoption (`sanitizeToolUseResultPairing`): a result with no id in a
/// frame with exactly one call takes that call's id unless both names are present and differ
/// after trimming. The flag says whether the id was adopted (adoption also forces `isError`).
pub fn result_ids_in_frame(m: &Message, calls: &[FrameCall<'_>]) -> (Vec<String>, bool) {
    let ids = pairing_result_ids(m);
    if !ids.is_empty() || calls.len() != 1 {
        return (ids, false);
    }
    let call = calls[0];
    let result_name = m.tool_name().map(str::trim).filter(|s| !s.is_empty());
    let call_name = call.name.map(str::trim).filter(|s| !s.is_empty());
    if let (Some(a), Some(b)) = (result_name, call_name)
        && a != b
    {
        return (ids, false);
    }
    let id = call.id.trim();
    if id.is_empty() {
        return (Vec::new(), false);
    }
    (vec![id.to_owned()], true)
}

/// The tool calls that are "completed" (`sanitizeToolCallInputs`): pairing gives them a real,
/// non-synthetic result, displaced results included (OpenClaw's `collectCompletedToolCallBlocks`
/// runs the whole pairing classification).
pub use crate::openclaw::pairing::classify::completed_calls;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn m(v: Value) -> Message {
        Message::from_value(v).unwrap()
    }

    #[test]
    fn name_check_and_allowlist_normalisation() {
        let opts = ReplayOptions {
            allowed_tools: Some(vec![" Read ".into(), "".into(), "  ".into()]),
            ..ReplayOptions::default()
        };
        let allow = AllowedTools::from_options(&opts);
        assert_eq!(allow.check(Some(&json!(" READ ")), false), Ok(()));
        assert_eq!(
            allow.check(Some(&json!("exec")), false),
            Err("tool is not in the current tool list")
        );
        assert_eq!(allow.check(Some(&json!("exec")), true), Ok(()));
        assert_eq!(allow.check(Some(&json!("mcp:fs.read-1")), true), Ok(()));
        assert!(allow.check(Some(&json!("bad name")), true).is_err());
        assert!(allow.check(Some(&json!("a".repeat(65))), true).is_err());
        assert!(allow.check(Some(&json!("a".repeat(64))), true).is_ok());
        assert!(allow.check(Some(&json!(7)), true).is_err());
        let blank = ReplayOptions {
            allowed_tools: Some(vec![" ".into()]),
            ..ReplayOptions::default()
        };
        assert!(!AllowedTools::from_options(&blank).is_active());
    }

    #[test]
    fn completed_counts_displaced_results_and_ignores_synthetics() {
        // A result displaced past a later tool-call turn still completes its call.
        let displaced = [
            m(json!({"role": "assistant", "content": [{"type": "toolUse", "id": "a", "name": "web", "input": {}}]})),
            m(json!({"role": "assistant", "content": [{"type": "functionCall", "id": " z "}]})),
            m(json!({"role": "toolResult", "toolCallId": "a", "content": "ok"})),
        ];
        let refs: Vec<&Message> = displaced.iter().collect();
        assert!(completed_calls(&refs).contains(&(0, 0)));
    }

    #[test]
    fn completed_uses_local_claiming_and_ignores_synthetics() {
        let list = [
            m(json!({"role": "assistant", "content": [
                {"type": "toolCall", "id": "a", "name": "read", "arguments": {}},
                {"type": "toolCall", "id": "a", "name": "read", "arguments": {}},
                {"type": "toolCall", "id": "b", "name": "read", "arguments": {}}]})),
            m(json!({"role": "toolResult", "toolCallId": "b", "isError": true,
                     "details": {"openclawSyntheticMissingToolResult": true}, "content": []})),
            m(json!({"role": "toolResult", "toolCallId": " a ", "content": []})),
            m(json!({"role": "assistant", "content": [{"type": "toolCall", "id": "c", "name": "x", "arguments": {}}]})),
            m(json!({"role": "toolResult", "toolName": "x", "content": []})),
        ];
        let refs: Vec<&Message> = list.iter().collect();
        let done = completed_calls(&refs);
        assert_eq!(done, HashSet::from([(0, 0), (3, 0)]));
    }
}

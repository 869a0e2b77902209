//! GitHub Copilot's stream wrapper on `anthropic-messages` (`wrapCopilotAnthropicStream`,
//! `extensions/github-copilot/stream.ts` of OpenClaw 2026.9.6), which patches the built body
//! before it is sent:
//!
//! - assistant thinking and redacted thinking blocks are removed; a turn left empty becomes
//!   one `[assistant reasoning omitted]` text block (`stripCopilotAssistantThinkingMessages`);
//! - every `tool_use` id and `tool_result` `tool_use_id` is re-allocated
//!   (`normalizeCopilotAnthropicToolIds`): a valid id (`[A-Za-z0-9_-]{1,64}`) is kept the first
//!   time it is claimed, others become their sanitized form (`tool` when nothing is left),
//!   made unique with `_2`, `_3`, …; a result takes the id its call got (in call order for
//!   repeated ids), else the last id given to that raw id, else an id of its own.
//!
//! The cache markers it re-applies only touch the system prompt and thinking blocks, so the
//! conversation keeps the transport's own.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::json;
use crate::model::json::Value;

use super::super::blocks::block_type;
use super::super::{WireItem, WireModel};
use super::OMITTED_REASONING_TEXT;

/// Longest tool id Copilot's Anthropic endpoint takes.
const ID_MAX: usize = 64;

/// Whether the wrapper patches requests to `model` (provider `github-copilot` on the
/// `anthropic-messages` API id itself).
pub(super) fn applies(model: &WireModel) -> bool {
    model.provider == "github-copilot" && model.api == "anthropic-messages"
}

/// Patch converted messages as the wrapper does.
pub(super) fn patch(items: &mut [WireItem]) {
    for item in items.iter_mut() {
        strip_thinking(&mut item.value);
    }
    normalize_tool_ids(items);
}

fn is_thinking(block: &Value) -> bool {
    matches!(block_type(block), Some("thinking" | "redacted_thinking"))
}

fn strip_thinking(message: &mut Value) {
    if message.get("role").and_then(Value::as_str) != Some("assistant") {
        return;
    }
    let Some(content) = message.get("content").and_then(Value::as_array) else {
        return;
    };
    if !content.iter().any(is_thinking) {
        return;
    }
    let kept: Vec<Value> = content.iter().filter(|b| !is_thinking(b)).cloned().collect();
    message["content"] = if kept.is_empty() {
        json!([{"type": "text", "text": OMITTED_REASONING_TEXT}])
    } else {
        Value::Array(kept.into())
    };
}

fn valid_id(id: &str) -> bool {
    (1..=ID_MAX).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// One id-carrying block: where it is, which field, and its id as built.
struct Slot {
    item: usize,
    block: usize,
    is_call: bool,
    raw: String,
}

/// The ids handed out so far.
struct Allocator {
    used: HashSet<String>,
    claimed_valid: HashSet<String>,
}

impl Allocator {
    fn allocate(&mut self, raw: &str) -> String {
        if valid_id(raw) && self.claimed_valid.insert(raw.to_owned()) {
            return raw.to_owned();
        }
        // `replace(/[^a-zA-Z0-9_-]/g, "_")` works on UTF-16 code units, then `slice(0, 64)`.
        let sanitized: String = raw
            .encode_utf16()
            .map(|u| match u8::try_from(u) {
                Ok(b) if b.is_ascii_alphanumeric() || b == b'_' || b == b'-' => char::from(b),
                _ => '_',
            })
            .take(ID_MAX)
            .collect();
        let base = if sanitized.is_empty() {
            "tool".to_owned()
        } else {
            sanitized
        };
        if self.used.insert(base.clone()) {
            return base;
        }
        (2..)
            .map(|n| {
                let suffix = format!("_{n}");
                format!("{}{suffix}", &base[..base.len().min(ID_MAX - suffix.len())])
            })
            .find(|candidate| self.used.insert(candidate.clone()))
            .expect("an unused id")
    }
}

fn slots(items: &[WireItem]) -> Vec<Slot> {
    let mut out = Vec::new();
    for (item, message) in items.iter().enumerate() {
        let Some(content) = message.value.get("content").and_then(Value::as_array) else {
            continue;
        };
        for (block, b) in content.iter().enumerate() {
            let (is_call, key) = match block_type(b) {
                Some("tool_use") => (true, "id"),
                Some("tool_result") => (false, "tool_use_id"),
                _ => continue,
            };
            if let Some(raw) = b.get(key).and_then(Value::as_str) {
                out.push(Slot {
                    item,
                    block,
                    is_call,
                    raw: raw.to_owned(),
                });
            }
        }
    }
    out
}

fn normalize_tool_ids(items: &mut [WireItem]) {
    let slots = slots(items);
    let reserved: HashSet<String> = slots
        .iter()
        .filter(|s| s.is_call && valid_id(&s.raw))
        .map(|s| s.raw.clone())
        .collect();
    let mut ids = Allocator {
        used: reserved,
        claimed_valid: HashSet::new(),
    };
    let mut pending: HashMap<&str, VecDeque<String>> = HashMap::new();
    let mut last_resolved: HashMap<&str, String> = HashMap::new();
    for slot in &slots {
        let raw = slot.raw.as_str();
        let wire_id = if slot.is_call {
            let id = ids.allocate(raw);
            pending.entry(raw).or_default().push_back(id.clone());
            id
        } else {
            let queued = pending.get_mut(raw).and_then(VecDeque::pop_front);
            if pending.get(raw).is_some_and(VecDeque::is_empty) {
                pending.remove(raw);
            }
            let id = queued
                .or_else(|| last_resolved.get(raw).cloned())
                .unwrap_or_else(|| ids.allocate(raw));
            last_resolved.insert(raw, id.clone());
            id
        };
        let key = if slot.is_call { "id" } else { "tool_use_id" };
        if let Some(block) = items[slot.item]
            .value
            .get_mut("content")
            .and_then(|c| c.get_mut(slot.block))
            .and_then(Value::as_object_mut)
        {
            block.insert(key.into(), Value::String(wire_id.into()));
        }
    }
}

/// Expectations are OpenClaw 2026.9.6's own output: `copilot_cases.json` holds message arrays
/// and the `messages` `oracle/openclaw_payload.mjs` captured for them on provider
/// `github-copilot` (the plugin's wrapper run).
#[cfg(test)]
mod tests {
    use crate::wire::WireApi;
    use crate::wire::test_support::{assert_matches_every_case, built, oracle_cases, values};

    #[test]
    fn matches_openclaw_on_every_oracle_case() {
        let cases = oracle_cases(include_str!("copilot_cases.json"), "", 7);
        assert!(cases.iter().all(|c| super::applies(&c.model)));
        assert_matches_every_case(&cases, |case| {
            values(&built(WireApi::AnthropicMessages, &case.messages, &case.model))
        });
    }
}

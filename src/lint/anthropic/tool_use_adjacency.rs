//! Every `tool_use` block needs its `tool_result` in the very next message.

use crate::lint::ids::{IdSet, ids_of};
use crate::lint::shape::{hit, messages_of, role};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "anthropic-tool-use-adjacency",
    apis: &[WireApi::AnthropicMessages],
    summary: "every tool_use needs a tool_result with its id in the next message",
    error: "messages.{N}: `tool_use` ids were found without `tool_result` blocks immediately after: {ids}. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
    reference: "Anthropic Messages API, https://docs.claude.com/en/api/messages; rejection: https://github.com/anthropics/claude-code/issues/5989",
    fixed_by: Some("tool-result-pairing"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let items = &payload.items;
    let mut hits = Vec::new();
    for (i, item) in messages_of(payload, "assistant") {
        let calls = ids_of(item, "tool_use", "id");
        if calls.is_empty() {
            continue;
        }
        let next = items
            .get(i + 1)
            .map(|next| &next.value)
            .filter(|next| role(next) == Some("user"));
        let answered = IdSet::of(next, "tool_result", "tool_use_id");
        let missing: Vec<&str> = calls.into_iter().filter(|id| !answered.contains(id)).collect();
        if !missing.is_empty() {
            hits.push(hit(
                i,
                format!("messages.{i}"),
                format!(
                    "messages.{i}: `tool_use` ids were found without `tool_result` blocks immediately after: {}. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
                    missing.join(", ")
                ),
            ));
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::model::json::Value;

    fn run(messages: Value) -> Vec<Hit> {
        let values = messages.as_array().unwrap().to_vec();
        check(
            &Payload::from_values(WireApi::AnthropicMessages, values),
            &WireModel::new("anthropic", "anthropic-messages", "claude-sonnet-4-6"),
        )
    }

    #[test]
    fn a_call_answered_in_the_next_message_passes() {
        let hits = run(json!([
            {"role": "user", "content": [{"type": "text", "text": "hi"}]},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "read", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]}
        ]));
        assert!(hits.is_empty());
    }

    #[test]
    fn a_call_answered_later_or_never_is_reported_with_the_provider_text() {
        let hits = run(json!([
            {"role": "user", "content": [{"type": "text", "text": "hi"}]},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {}},
                {"type": "tool_use", "id": "toolu_2", "name": "read", "input": {}}
            ]},
            {"role": "user", "content": [{"type": "text", "text": "wait"}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]}
        ]));
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].item, 1);
        assert_eq!(
            hits[0].message,
            "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1, toolu_2. Each `tool_use` block must have a corresponding `tool_result` block in the next message."
        );
    }
}

//! Every `tool_result` block needs a `tool_use` with its id in the previous message.

use crate::lint::ids::IdSet;
use crate::lint::shape::{blocks, hit, kind, role, str_at, with_previous};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "anthropic-tool-result-orphan",
    apis: &[WireApi::AnthropicMessages],
    summary: "every tool_result needs a tool_use with its id in the previous message",
    error: "messages.{N}.content.{M}: unexpected `tool_use_id` found in `tool_result` blocks: {ids}. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
    reference: "Anthropic Messages API, https://docs.claude.com/en/api/messages; rejection: https://github.com/anthropics/claude-code/issues/13460",
    fixed_by: Some("tool-result-pairing"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (i, prev, item) in with_previous(payload) {
        let calls = IdSet::of(prev.filter(|p| role(p) == Some("assistant")), "tool_use", "id");
        let orphans: Vec<(usize, &str)> = blocks(item)
            .iter()
            .enumerate()
            .filter(|(_, b)| kind(b) == Some("tool_result"))
            .map(|(j, b)| (j, str_at(b, "tool_use_id").unwrap_or("")))
            .filter(|(_, id)| !calls.contains(id))
            .collect();
        if let Some(&(first, _)) = orphans.first() {
            let ids: Vec<&str> = orphans.iter().map(|(_, id)| *id).collect();
            hits.push(hit(
                i,
                format!("messages.{i}.content.{first}"),
                format!(
                    "messages.{i}.content.{first}: unexpected `tool_use_id` found in `tool_result` blocks: {}. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
                    ids.join(", ")
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
    use crate::lint::anthropic::calls;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn results_answering_the_previous_message_pass() {
        let hits = run(
            &CONSTRAINT,
            json!([
                {"role": "user", "content": "hi"},
                calls(&["toolu_1"]),
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]}
            ]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn a_result_without_its_call_is_reported_at_its_block() {
        let hits = run(
            &CONSTRAINT,
            json!([
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_0", "content": "ok"}]},
                calls(&["toolu_1"]),
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"},
                    {"type": "tool_result", "tool_use_id": "toolu_9", "content": "ok"}
                ]}
            ]),
        );
        assert_eq!(
            texts(&hits),
            [
                "messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_0. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
                "messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_9. Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
            ]
        );
        assert_eq!(hits[1].path, "messages.2.content.1");
    }
}

//! Every message has content, except an optional final assistant message.

use crate::lint::shape::{hit, is_empty_content, role};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "anthropic-empty-content",
    apis: &[WireApi::AnthropicMessages],
    summary: "every message has non-empty content except an optional final assistant message",
    error: "messages.{N}: all messages must have non-empty content except for the optional final assistant message",
    reference: "Anthropic Messages API, https://docs.claude.com/en/api/messages; rejection: https://github.com/anthropics/claude-code/issues/3196",
    fixed_by: Some("blank-text"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let last = payload.items.len().saturating_sub(1);
    payload
        .items
        .iter()
        .enumerate()
        .filter(|(i, item)| !(*i == last && role(&item.value) == Some("assistant")))
        .filter(|(_, item)| is_empty_content(item.value.get("content")))
        .map(|(i, _)| {
            let message = format!(
                "messages.{i}: all messages must have non-empty content except for the optional final assistant message"
            );
            hit(i, format!("messages.{i}"), message)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::reply;
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn an_empty_final_assistant_passes() {
        let hits = run(&CONSTRAINT, reply(json!([])));
        assert!(hits.is_empty());
    }

    #[test]
    fn an_empty_earlier_message_is_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": []},
                {"role": "user", "content": ""}
            ]),
        );
        assert_eq!(
            texts(&hits),
            [
                "messages.1: all messages must have non-empty content except for the optional final assistant message",
                "messages.2: all messages must have non-empty content except for the optional final assistant message"
            ]
        );
    }
}

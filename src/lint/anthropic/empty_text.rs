//! Text blocks must not be empty, also inside `tool_result` content.

use super::text_blocks;
use crate::lint::shape::hit;
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "anthropic-empty-text",
    apis: &[WireApi::AnthropicMessages],
    summary: "text content blocks are non-empty",
    error: "messages: text content blocks must be non-empty",
    reference: "Anthropic Messages API, https://docs.claude.com/en/api/messages; rejection: https://github.com/anthropics/claude-code/issues/59812",
    fixed_by: Some("blank-text"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    text_blocks(payload)
        .filter(|t| t.text.is_empty())
        .map(|t| {
            hit(
                t.item,
                t.path(),
                "messages: text content blocks must be non-empty".to_string(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn text_passes() {
        let hits = run(
            &CONSTRAINT,
            json!([{"role": "user", "content": [{"type": "text", "text": "hi"}]}]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn an_empty_block_is_reported_where_it_is() {
        let hits = run(
            &CONSTRAINT,
            json!([{"role": "user", "content": [
                {"type": "text", "text": "hi"},
                {"type": "tool_result", "tool_use_id": "t", "content": [{"type": "text", "text": ""}]}
            ]}]),
        );
        assert_eq!(texts(&hits), ["messages: text content blocks must be non-empty"]);
        assert_eq!(hits[0].path, "messages.0.content.1.tool_result.content.0");
    }
}

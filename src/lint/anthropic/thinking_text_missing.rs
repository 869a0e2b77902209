//! A `thinking` block carries a `thinking` text field, even an empty one.

use super::thinking_field_missing;
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "anthropic-thinking-text-missing",
    apis: &[WireApi::AnthropicMessages],
    summary: "every thinking block has a thinking field (signature-only blocks need `thinking: \"\"`)",
    error: "messages.{N}.content.{M}.thinking.thinking: Field required",
    reference: "Anthropic extended thinking, https://docs.claude.com/en/docs/build-with-claude/extended-thinking; rejection: https://github.com/LibreChat-AI/agents/pull/279",
    fixed_by: None,
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    thinking_field_missing(payload, "thinking")
}

#[cfg(test)]
mod tests {
    use super::super::reply;
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn an_empty_thinking_text_passes() {
        let hits = run(
            &CONSTRAINT,
            reply(json!([
                {"type": "thinking", "thinking": "", "signature": "EqQB"}, {"type": "text", "text": "ok"}
            ])),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn a_signature_only_block_is_reported() {
        let hits = run(
            &CONSTRAINT,
            reply(json!([
                {"type": "thinking", "signature": "EqQB"}, {"type": "text", "text": "ok"}
            ])),
        );
        assert_eq!(texts(&hits), ["messages.1.content.0.thinking.thinking: Field required"]);
    }
}

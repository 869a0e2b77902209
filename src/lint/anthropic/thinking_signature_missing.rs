//! A `thinking` block carries a `signature` field.

use super::thinking_field_missing;
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "anthropic-thinking-signature-missing",
    apis: &[WireApi::AnthropicMessages],
    summary: "every thinking block has a signature field",
    error: "messages.{N}.content.{M}.thinking.signature: Field required",
    reference: "Anthropic extended thinking, https://docs.claude.com/en/docs/build-with-claude/extended-thinking; rejection: https://github.com/lbjlaq/Antigravity-Manager/issues/1650",
    fixed_by: Some("invalid-thinking-signature"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    thinking_field_missing(payload, "signature")
}

#[cfg(test)]
mod tests {
    use super::super::reply;
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn a_signed_block_passes() {
        let hits = run(
            &CONSTRAINT,
            reply(json!([
                {"type": "thinking", "thinking": "t", "signature": "EqQB"}, {"type": "text", "text": "ok"}
            ])),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn an_unsigned_block_is_reported() {
        let hits = run(
            &CONSTRAINT,
            reply(json!([
                {"type": "thinking", "thinking": "t"}, {"type": "text", "text": "ok"}
            ])),
        );
        assert_eq!(
            texts(&hits),
            ["messages.1.content.0.thinking.signature: Field required"]
        );
    }
}

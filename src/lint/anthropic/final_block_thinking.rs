//! An assistant message may not end with a `thinking` block.

use crate::lint::shape::{blocks, hit, kind, messages_of};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "anthropic-final-block-thinking",
    apis: &[WireApi::AnthropicMessages],
    summary: "an assistant message does not end with a thinking block",
    error: "messages.{N}: The final block in an assistant message cannot be `thinking`.",
    reference: "Anthropic extended thinking, https://docs.claude.com/en/docs/build-with-claude/extended-thinking; rejection: https://github.com/tailcallhq/forgecode/issues/2107",
    fixed_by: None,
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    messages_of(payload, "assistant")
        .filter(|(_, m)| blocks(m).last().and_then(kind) == Some("thinking"))
        .map(|(i, _)| {
            let message = format!("messages.{i}: The final block in an assistant message cannot be `thinking`.");
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
    fn thinking_then_text_passes() {
        let hits = run(
            &CONSTRAINT,
            reply(json!([
                {"type": "thinking", "thinking": "t", "signature": "s"}, {"type": "text", "text": "ok"}
            ])),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn a_thinking_only_turn_is_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": [{"type": "thinking", "thinking": "t", "signature": "s"}]},
                {"role": "user", "content": "go"}
            ]),
        );
        assert_eq!(
            texts(&hits),
            ["messages.1: The final block in an assistant message cannot be `thinking`."]
        );
    }
}

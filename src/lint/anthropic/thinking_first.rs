//! An assistant message with thinking blocks starts with one.

use crate::lint::shape::{blocks, hit, kind, messages_of};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "anthropic-thinking-first",
    apis: &[WireApi::AnthropicMessages],
    summary: "an assistant message containing thinking blocks starts with thinking or redacted_thinking",
    error: "messages.{N}.content.0: If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking. Found {type}.",
    reference: "Anthropic extended thinking, https://docs.claude.com/en/docs/build-with-claude/extended-thinking; rejection: https://github.com/anthropics/claude-code/issues/20705",
    fixed_by: None,
    check: Check::Code(check),
};

/// Whether a block is `thinking` or `redacted_thinking`.
fn is_thinking(block: &crate::model::json::Value) -> bool {
    matches!(kind(block), Some("thinking" | "redacted_thinking"))
}

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (i, item) in messages_of(payload, "assistant") {
        let content = blocks(item);
        if !content.iter().any(is_thinking) || is_thinking(&content[0]) {
            continue;
        }
        let found = kind(&content[0]).unwrap_or("unknown");
        hits.push(hit(
            i,
            format!("messages.{i}.content.0"),
            format!(
                "messages.{i}.content.0: If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking. Found {found}."
            ),
        ));
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::super::reply;
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn thinking_first_passes() {
        let hits = run(
            &CONSTRAINT,
            reply(json!([
                {"type": "redacted_thinking", "data": "x"}, {"type": "thinking", "thinking": "t", "signature": "s"},
                {"type": "text", "text": "ok"}
            ])),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn text_before_thinking_is_reported() {
        let hits = run(
            &CONSTRAINT,
            reply(json!([
                {"type": "text", "text": "ok"}, {"type": "thinking", "thinking": "t", "signature": "s"}
            ])),
        );
        assert_eq!(
            texts(&hits),
            [
                "messages.1.content.0: If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking. Found text."
            ]
        );
    }
}

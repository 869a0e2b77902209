//! An assistant message has content or tool calls.
//!
//! A 2024 wording said "but not both" (https://github.com/langchain-ai/langchain/issues/21196); the 2025
//! report says "but not none" (https://github.com/OpenHands/OpenHands/issues/8685), so only the
//! "none" case is checked.

use super::{message_hit, tool_calls};
use crate::lint::shape::{is_empty_content, messages_of};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The provider's text.
const MESSAGE: &str = "Assistant message must have either content or tool_calls, but not none.";

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "mistral-assistant-content",
    apis: &[WireApi::MistralConversations],
    summary: "every assistant message has content or tool_calls",
    error: MESSAGE,
    reference: "Mistral chat completions, https://docs.mistral.ai/api/#tag/chat; rejection: https://github.com/OpenHands/OpenHands/issues/8685",
    fixed_by: Some("blank-text"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    messages_of(payload, "assistant")
        .filter(|(_, m)| is_empty_content(m.get("content")) && tool_calls(m).is_empty())
        .map(|(i, _)| message_hit(payload, i, MESSAGE))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{answer, calls, user};
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn calls_or_content_pass() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), calls(&["aaaaaaaaa"]), answer("aaaaaaaaa"), {"role": "assistant", "content": [{"type": "text", "text": "ok"}]}]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn an_empty_assistant_is_reported() {
        let hits = run(&CONSTRAINT, json!([user("hi"), {"role": "assistant"}, user("go")]));
        assert_eq!(texts(&hits), [MESSAGE]);
    }
}

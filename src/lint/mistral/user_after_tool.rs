//! A user message does not directly follow a tool message (an assistant turn comes between).
//!
//! No hygiene rule inserts that assistant turn; OpenClaw's OpenAI-compatible converter does it
//! for servers that ask for it, the Mistral converter does not.

use super::message_hit;
use crate::lint::shape::role_after;
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The provider's text.
const MESSAGE: &str = "Unexpected role 'user' after role 'tool'";

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "mistral-user-after-tool",
    apis: &[WireApi::MistralConversations],
    summary: "a user message never directly follows a tool message",
    error: MESSAGE,
    reference: "Mistral chat completions, https://docs.mistral.ai/api/#tag/chat; rejection: https://github.com/datapizza-labs/datapizza-ai/issues/98",
    fixed_by: None,
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    role_after(payload, "user", "tool")
        .map(|i| message_hit(payload, i, MESSAGE))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{answer, calls, user};
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn an_assistant_between_passes() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), calls(&["aaaaaaaaa"]), answer("aaaaaaaaa"), {"role": "assistant", "content": "done"}, user("go")]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn a_user_right_after_a_tool_is_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), calls(&["aaaaaaaaa"]), answer("aaaaaaaaa"), user("go")]),
        );
        assert_eq!(texts(&hits), [MESSAGE]);
        assert_eq!(hits[0].item, 3);
    }
}

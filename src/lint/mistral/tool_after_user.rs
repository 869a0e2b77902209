//! A tool message does not directly follow a user message.

use super::message_hit;
use crate::lint::shape::role_after;
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The provider's text.
const MESSAGE: &str = "Unexpected role 'tool' after role 'user'";

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "mistral-tool-after-user",
    apis: &[WireApi::MistralConversations],
    summary: "a tool message never directly follows a user message",
    error: MESSAGE,
    reference: "Mistral chat completions, https://docs.mistral.ai/api/#tag/chat; rejection: https://github.com/charmbracelet/crush/issues/279",
    fixed_by: Some("tool-result-pairing"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    role_after(payload, "tool", "user")
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
    fn a_tool_after_its_call_passes() {
        assert!(
            run(
                &CONSTRAINT,
                json!([user("hi"), calls(&["aaaaaaaaa"]), answer("aaaaaaaaa")])
            )
            .is_empty()
        );
    }

    #[test]
    fn a_displaced_tool_message_is_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), calls(&["aaaaaaaaa"]), user("wait"), answer("aaaaaaaaa")]),
        );
        assert_eq!(texts(&hits), [MESSAGE]);
    }
}

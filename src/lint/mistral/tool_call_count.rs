//! An assistant message's tool calls are answered by as many tool messages right after it.

use super::{message_hit, tool_calls};
use crate::lint::shape::{messages_of, tool_run};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The provider's text.
const MESSAGE: &str = "Not the same number of function calls and responses";

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "mistral-tool-call-count",
    apis: &[WireApi::MistralConversations],
    summary: "each assistant message is followed by exactly one tool message per tool call",
    error: MESSAGE,
    reference: "Mistral chat completions, https://docs.mistral.ai/api/#tag/chat; rejection: https://github.com/mistralai/client-ts/issues/106",
    fixed_by: Some("tool-result-pairing"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    messages_of(payload, "assistant")
        .filter(|&(i, m)| tool_calls(m).len() != tool_run(payload, i).count())
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
    fn one_answer_per_call_passes() {
        let hits = run(
            &CONSTRAINT,
            json!([
                user("hi"),
                calls(&["aaaaaaaaa", "bbbbbbbbb"]),
                answer("aaaaaaaaa"),
                answer("bbbbbbbbb")
            ]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn a_missing_answer_is_reported_at_the_assistant() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), calls(&["aaaaaaaaa", "bbbbbbbbb"]), answer("aaaaaaaaa")]),
        );
        assert_eq!(texts(&hits), [MESSAGE]);
        assert_eq!(hits[0].item, 1);
    }
}

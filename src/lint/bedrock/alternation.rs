//! Messages alternate between user and assistant.

use crate::lint::shape::{hit, role, with_previous};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The provider's text.
const MESSAGE: &str = "A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.";

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "bedrock-alternation",
    apis: &[WireApi::BedrockConverseStream],
    summary: "user and assistant messages alternate",
    error: MESSAGE,
    reference: "Amazon Bedrock Converse, https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html; rejection: https://github.com/langchain-ai/langchain-aws/issues/130",
    fixed_by: Some("anthropic-turn-merge"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    with_previous(payload)
        .filter(|(_, prev, item)| prev.is_some_and(|p| role(p) == role(item)))
        .map(|(i, _, _)| hit(i, format!("messages.{i}"), MESSAGE.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{calls, results, user};
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn alternating_roles_pass() {
        assert!(run(&CONSTRAINT, json!([user("hi"), calls(&["a"]), results(&["a"])])).is_empty());
    }

    #[test]
    fn two_user_messages_in_a_row_are_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), calls(&["a"]), results(&["a"]), user("go")]),
        );
        assert_eq!(texts(&hits), [MESSAGE]);
        assert_eq!(hits[0].item, 3);
    }
}

//! Every message has at least one content block.

use crate::lint::shape::{blocks, hit};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "bedrock-empty-content",
    apis: &[WireApi::BedrockConverseStream],
    summary: "every message has at least one content block",
    error: "The content field in the Message object at messages.{N} is empty. Add a ContentBlock object to the content field and try again.",
    reference: "Amazon Bedrock Converse Message, https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Message.html; rejection: https://github.com/LibreChat-AI/agents/pull/243",
    fixed_by: Some("blank-text"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    payload
        .items
        .iter()
        .enumerate()
        .filter(|(_, m)| blocks(&m.value).is_empty())
        .map(|(i, _)| {
            let message = format!(
                "The content field in the Message object at messages.{i} is empty. Add a ContentBlock object to the content field and try again."
            );
            hit(i, format!("messages.{i}.content"), message)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{message, user};
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn messages_with_blocks_pass() {
        assert!(run(&CONSTRAINT, json!([user("hi")])).is_empty());
    }

    #[test]
    fn an_empty_message_is_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), message("assistant", json!([])), user("go")]),
        );
        assert_eq!(
            texts(&hits),
            [
                "The content field in the Message object at messages.1 is empty. Add a ContentBlock object to the content field and try again."
            ]
        );
    }
}

//! The first message is the user's.
//!
//! A May-2025 report says Bedrock relaxed this; later reports still show the error.

use crate::lint::shape::{hit, role};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The provider's text.
const MESSAGE: &str =
    "A conversation must start with a user message. Try again with a conversation that starts with a user message.";

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "bedrock-first-user",
    apis: &[WireApi::BedrockConverseStream],
    summary: "the conversation starts with a user message",
    error: MESSAGE,
    reference: "Amazon Bedrock Converse, https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html; rejection: https://github.com/strands-agents/sdk-typescript/issues/727",
    fixed_by: None,
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    match payload.items.first() {
        Some(first) if role(&first.value) != Some("user") => {
            vec![hit(0, "messages.0".to_string(), MESSAGE.to_string())]
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{calls, user};
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn a_user_start_passes() {
        assert!(run(&CONSTRAINT, json!([user("hi"), calls(&["a"])])).is_empty());
    }

    #[test]
    fn an_assistant_start_is_reported() {
        assert_eq!(texts(&run(&CONSTRAINT, json!([calls(&["a"]), user("hi")]))), [MESSAGE]);
    }
}

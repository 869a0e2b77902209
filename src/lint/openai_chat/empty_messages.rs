//! `messages` is not empty.
//!
//! OpenClaw puts the system prompt in `messages` too, and it is not part of this payload: an
//! empty conversation is only rejected when there is no system prompt either.

use crate::lint::shape::hit;
use crate::lint::{Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "openai-chat-messages-empty",
    apis: &[WireApi::OpenAiCompletions],
    summary: "messages holds at least one message",
    error: "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
    reference: "provider-constraints.md §2",
    fixed_by: None,
    check,
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    if !payload.items.is_empty() {
        return Vec::new();
    }
    let message =
        "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.";
    vec![hit(0, "messages".to_string(), message.to_string())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::test_support::{run, texts};
    use serde_json::json;

    #[test]
    fn one_message_passes() {
        assert!(run(&CONSTRAINT, json!([{"role": "user", "content": "hi"}])).is_empty());
    }

    #[test]
    fn no_message_is_reported() {
        assert_eq!(
            texts(&run(&CONSTRAINT, json!([]))),
            [
                "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead."
            ]
        );
    }
}

//! A reasoning block's `reasoningText.text` is not null (signature-only blocks are rejected).
//!
//! The message is AWS request validation, whose list indices are 1-based (`messages.1.member`
//! is `messages[0]`).

use crate::model::json::Value;

use super::blocks_with;
use crate::lint::shape::hit;
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "bedrock-reasoning-text",
    apis: &[WireApi::BedrockConverseStream],
    summary: "every reasoningText has a text",
    error: "1 validation error detected: Value at 'messages.{N+1}.member.content.{M+1}.member.reasoningContent.reasoningText.text' failed to satisfy constraint: Member must not be null",
    reference: "Amazon Bedrock Converse, https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html; rejection: https://github.com/LibreChat-AI/agents/pull/248",
    fixed_by: None,
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (i, item) in payload.items.iter().enumerate() {
        for (j, reasoning) in blocks_with(&item.value, "reasoningContent") {
            let Some(text) = reasoning.get("reasoningText") else {
                continue;
            };
            if matches!(text.get("text"), None | Some(Value::Null)) {
                let message = format!(
                    "1 validation error detected: Value at 'messages.{}.member.content.{}.member.reasoningContent.reasoningText.text' failed to satisfy constraint: Member must not be null",
                    i + 1,
                    j + 1
                );
                hits.push(hit(
                    i,
                    format!("messages.{i}.content.{j}.reasoningContent.reasoningText.text"),
                    message,
                ));
            }
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::super::{message, user};
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn reasoning_with_text_passes() {
        let reasoning =
            json!([{"reasoningContent": {"reasoningText": {"text": "", "signature": "s"}}}, {"text": "ok"}]);
        assert!(run(&CONSTRAINT, json!([user("hi"), message("assistant", reasoning)])).is_empty());
    }

    #[test]
    fn a_signature_only_block_is_reported_with_1_based_indices() {
        let reasoning = json!([{"text": "ok"}, {"reasoningContent": {"reasoningText": {"signature": "s"}}}]);
        let hits = run(&CONSTRAINT, json!([user("hi"), message("assistant", reasoning)]));
        assert_eq!(
            texts(&hits),
            [
                "1 validation error detected: Value at 'messages.2.member.content.2.member.reasoningContent.reasoningText.text' failed to satisfy constraint: Member must not be null"
            ]
        );
    }
}

//! `image_url` parts only in user messages.
//!
//! A 2026-02 report says GPT-5.2 no longer rejects images in tool messages
//! (https://github.com/openai/openai-openapi/issues/523).
//! OpenClaw's converter moves tool-result images into a user message of their own.

use crate::lint::shape::{blocks, hit, kind, provider_index, role};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "openai-chat-image-role",
    apis: &[WireApi::OpenAiCompletions],
    summary: "image_url parts appear only in user messages",
    error: "Invalid 'messages[{N}]'. Image URLs are only allowed for messages with role 'user', but this message with role '{role}' contains an image URL.",
    reference: "OpenAI Chat Completions API, https://platform.openai.com/docs/api-reference/chat; rejection: https://github.com/OpenHands/OpenHands/issues/7700",
    fixed_by: None,
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (i, item) in payload.items.iter().enumerate() {
        let who = role(&item.value).unwrap_or("");
        let n = provider_index(payload, i);
        if who != "user" && blocks(&item.value).iter().any(|b| kind(b) == Some("image_url")) {
            let message = format!(
                "Invalid 'messages[{n}]'. Image URLs are only allowed for messages with role 'user', but this message with role '{who}' contains an image URL."
            );
            hits.push(hit(i, format!("messages[{n}]"), message));
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, small_png, texts};

    fn image() -> crate::model::json::Value {
        json!({"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{}", small_png())}})
    }

    #[test]
    fn a_user_image_passes() {
        assert!(run(&CONSTRAINT, json!([{"role": "user", "content": [image()]}])).is_empty());
    }

    #[test]
    fn a_tool_image_is_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "a", "content": [image()]}]),
        );
        assert_eq!(
            texts(&hits),
            [
                "Invalid 'messages[2]'. Image URLs are only allowed for messages with role 'user', but this message with role 'tool' contains an image URL."
            ]
        );
    }
}

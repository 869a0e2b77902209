//! `tool_calls[].id` is at most 40 characters.

use crate::lint::shape::{array, hit, messages_of, provider_index, str_at};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// Longest tool-call id accepted, in characters.
pub const MAX_ID_CHARS: usize = 40;

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "openai-chat-tool-call-id-length",
    apis: &[WireApi::OpenAiCompletions],
    summary: "tool_calls ids are at most 40 characters",
    error: "Invalid 'messages[{N}].tool_calls[{M}].id': string too long. Expected a string with maximum length 40, but got a string with length {len} instead.",
    reference: "OpenAI Chat Completions API, https://platform.openai.com/docs/api-reference/chat; rejection: https://github.com/vercel/ai/issues/8132",
    fixed_by: Some("tool-call-id"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (i, item) in messages_of(payload, "assistant") {
        for (j, call) in array(item, "tool_calls").iter().enumerate() {
            let len = str_at(call, "id").map_or(0, |id| id.chars().count());
            if len > MAX_ID_CHARS {
                let path = format!("messages[{}].tool_calls[{j}].id", provider_index(payload, i));
                let message = format!(
                    "Invalid '{path}': string too long. Expected a string with maximum length {MAX_ID_CHARS}, but got a string with length {len} instead."
                );
                hits.push(hit(i, path, message));
            }
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::super::calls;
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn forty_characters_pass() {
        let id = "c".repeat(40);
        assert!(run(&CONSTRAINT, json!([{"role": "user", "content": "hi"}, calls(&[&id])])).is_empty());
    }

    #[test]
    fn a_longer_id_is_reported_with_its_length() {
        let id = "c".repeat(51);
        let hits = run(
            &CONSTRAINT,
            json!([{"role": "user", "content": "hi"}, calls(&["ok", &id])]),
        );
        assert_eq!(
            texts(&hits),
            [
                "Invalid 'messages[2].tool_calls[1].id': string too long. Expected a string with maximum length 40, but got a string with length 51 instead."
            ]
        );
    }
}

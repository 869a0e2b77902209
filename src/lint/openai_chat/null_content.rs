//! An assistant message's `content` may be null only when it has `tool_calls`.

use crate::model::json::Value;

use crate::lint::shape::{array, hit, messages_of, provider_index};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "openai-chat-null-content",
    apis: &[WireApi::OpenAiCompletions],
    summary: "assistant content is null only alongside tool_calls",
    error: "Invalid value for 'content': expected a string, got null.",
    reference: "OpenAI Chat Completions API, https://platform.openai.com/docs/api-reference/chat; rejection: https://github.com/run-llama/llama_index/pull/17921",
    fixed_by: Some("blank-text"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    messages_of(payload, "assistant")
        .filter(|(_, m)| m.get("content") == Some(&Value::Null) && array(m, "tool_calls").is_empty())
        .map(|(i, _)| {
            let message = "Invalid value for 'content': expected a string, got null.".to_string();
            hit(i, format!("messages.[{}].content", provider_index(payload, i)), message)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::calls;
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn null_with_tool_calls_passes() {
        assert!(run(&CONSTRAINT, json!([{"role": "user", "content": "hi"}, calls(&["a"])])).is_empty());
    }

    #[test]
    fn null_without_tool_calls_is_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([{"role": "user", "content": "hi"}, {"role": "assistant", "content": null}]),
        );
        assert_eq!(
            texts(&hits),
            ["Invalid value for 'content': expected a string, got null."]
        );
        assert_eq!(hits[0].path, "messages.[2].content", "the system prompt is message 0");
    }
}

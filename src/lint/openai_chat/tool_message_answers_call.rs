//! A tool message answers a call of the assistant message before its run of tool messages.

use super::call_ids;
use crate::lint::ids::IdSet;
use crate::lint::shape::{hit, provider_index, role, str_at};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "openai-chat-tool-message-answers-call",
    apis: &[WireApi::OpenAiCompletions],
    summary: "every tool message answers a tool_calls id of the preceding assistant message",
    error: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
    reference: "OpenAI Chat Completions API, https://platform.openai.com/docs/api-reference/chat; rejection: https://github.com/smarter-sh/smarter/issues/264",
    fixed_by: Some("tool-result-pairing"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let items = &payload.items;
    let mut hits = Vec::new();
    // The calls of the last message that is not a tool message, when it is an assistant's.
    let mut calls: Option<IdSet> = None;
    for (i, item) in items.iter().enumerate() {
        match role(&item.value) {
            Some("tool") => {}
            Some("assistant") => {
                calls = Some(IdSet::from_ids(call_ids(&item.value)));
                continue;
            }
            _ => {
                calls = None;
                continue;
            }
        }
        let id = str_at(&item.value, "tool_call_id").unwrap_or("");
        if !calls.as_ref().is_some_and(|c| c.contains(id)) {
            hits.push(hit(
                i,
                format!("messages.[{}].role", provider_index(payload, i)),
                "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.".to_string(),
            ));
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::super::{answer, calls};
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn answers_right_after_their_calls_pass() {
        let hits = run(
            &CONSTRAINT,
            json!([{"role": "user", "content": "hi"}, calls(&["a", "b"]), answer("a"), answer("b")]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn a_displaced_or_foreign_answer_is_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([{"role": "user", "content": "hi"}, calls(&["a"]), answer("x"), {"role": "user", "content": "go"}, answer("a")]),
        );
        let expected = "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
        assert_eq!(texts(&hits), [expected, expected]);
        assert_eq!(hits.iter().map(|h| h.item).collect::<Vec<_>>(), [2, 4]);
    }
}

//! An assistant message with `tool_calls` is followed by a tool message for every id.
//!
//! The provider's `param` names the message where a tool message was expected (the first one
//! after the run of tool messages); the finding's item is the assistant message.

use super::call_ids;
use crate::lint::ids::IdSet;
use crate::lint::shape::{hit, messages_of, provider_index, str_at, tool_run};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "openai-chat-tool-calls-answered",
    apis: &[WireApi::OpenAiCompletions],
    summary: "every tool_calls id is answered by a tool message right after the assistant message",
    error: "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: {ids}",
    reference: "OpenAI Chat Completions API, https://platform.openai.com/docs/api-reference/chat; rejection: https://github.com/router-for-me/CLIProxyAPI/issues/2798",
    fixed_by: Some("tool-result-pairing"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (i, item) in messages_of(payload, "assistant") {
        let calls = call_ids(item);
        if calls.is_empty() {
            continue;
        }
        let answered: Vec<&str> = tool_run(payload, i).filter_map(|m| str_at(m, "tool_call_id")).collect();
        let answers = answered.len();
        let answered = IdSet::from_ids(answered);
        let missing: Vec<&str> = calls.into_iter().filter(|id| !answered.contains(id)).collect();
        if missing.is_empty() {
            continue;
        }
        let next = i + 1 + answers;
        let at = if next < payload.items.len() { next } else { i };
        hits.push(hit(
            i,
            format!("messages.[{}].role", provider_index(payload, at)),
            format!(
                "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: {}",
                missing.join(", ")
            ),
        ));
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
    fn answered_calls_pass() {
        let hits = run(
            &CONSTRAINT,
            json!([{"role": "user", "content": "hi"}, calls(&["call_a", "call_b"]), answer("call_b"), answer("call_a")]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn an_unanswered_call_is_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([
                {"role": "user", "content": "hi"},
                calls(&["call_a", "call_b"]),
                answer("call_a"),
                {"role": "user", "content": "go on"},
                answer("call_b")
            ]),
        );
        assert_eq!(
            texts(&hits),
            [
                "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_b"
            ]
        );
        assert_eq!((hits[0].item, hits[0].path.as_str()), (1, "messages.[4].role"));
    }
}

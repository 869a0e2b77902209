//! Tool call ids are exactly 9 characters of `[a-zA-Z0-9]`, on calls and on tool messages.

use super::{call_ids, tool_call_id};
use crate::lint::shape::{hit, provider_index, role};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "mistral-tool-call-id-format",
    apis: &[WireApi::MistralConversations],
    summary: "tool call ids are exactly 9 characters of a-z, A-Z, 0-9",
    error: "Tool call id was {id} but must be a-z, A-Z, 0-9, with a length of 9.",
    reference: "Mistral chat completions, https://docs.mistral.ai/api/#tag/chat; rejection: https://github.com/nearai/ironclaw/issues/1241",
    fixed_by: Some("tool-call-id"),
    check: Check::Code(check),
};

fn valid(id: &str) -> bool {
    id.len() == 9 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut hits = Vec::new();
    let mut report = |i: usize, path: String, id: &str| {
        let message = format!("Tool call id was {id} but must be a-z, A-Z, 0-9, with a length of 9.");
        hits.push(hit(i, path, message));
    };
    for (i, item) in payload.items.iter().enumerate() {
        let n = provider_index(payload, i);
        for (j, id) in call_ids(&item.value).filter(|(_, id)| !valid(id)) {
            report(i, format!("messages[{n}].tool_calls[{j}].id"), id);
        }
        if role(&item.value) == Some("tool")
            && let Some(id) = tool_call_id(&item.value).filter(|id| !valid(id))
        {
            report(i, format!("messages[{n}].tool_call_id"), id);
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::super::{answer, calls, user};
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn nine_alphanumerics_pass() {
        assert!(
            run(
                &CONSTRAINT,
                json!([user("hi"), calls(&["aB3dE6gH9"]), answer("aB3dE6gH9")])
            )
            .is_empty()
        );
    }

    #[test]
    fn other_ids_are_reported_on_call_and_answer() {
        let hits = run(&CONSTRAINT, json!([user("hi"), calls(&["turn1_0"]), answer("turn1_0")]));
        let expected = "Tool call id was turn1_0 but must be a-z, A-Z, 0-9, with a length of 9.";
        assert_eq!(texts(&hits), [expected, expected]);
        assert_eq!(
            hits[1].path, "messages[3].tool_call_id",
            "the system prompt is message 0"
        );
    }
}

//! An item's `id` starts with its type's prefix: `fc` (function_call), `rs` (reasoning), `ctc`
//! (custom_tool_call), `msg` (assistant message).
//!
//! Typical cause: a `call_…` id stored in the item-id slot. Empty ids are left to
//! `openai-responses-item-id-charset`.

use super::{APIS, item_type};
use crate::lint::shape::{hit, str_at};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "openai-responses-item-id-prefix",
    apis: APIS,
    summary: "item ids start with fc (function_call), rs (reasoning), ctc (custom_tool_call) or msg (message)",
    error: "Invalid 'input[{N}].id': '{id}'. Expected an ID that begins with '{prefix}'.",
    reference: "OpenAI Responses API, https://platform.openai.com/docs/api-reference/responses; rejection: https://github.com/Wei-Shaw/sub2api/issues/3785",
    fixed_by: Some("responses-reasoning"),
    check: Check::Code(check),
};

fn prefix(item_type: &str) -> Option<&'static str> {
    Some(match item_type {
        "function_call" => "fc",
        "reasoning" => "rs",
        "custom_tool_call" => "ctc",
        "message" => "msg",
        _ => return None,
    })
}

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (i, item) in payload.items.iter().enumerate() {
        let (Some(id), Some(want)) = (str_at(&item.value, "id"), prefix(item_type(&item.value))) else {
            continue;
        };
        if !id.is_empty() && !id.starts_with(want) {
            let path = format!("input[{i}].id");
            let message = format!("Invalid '{path}': '{id}'. Expected an ID that begins with '{want}'.");
            hits.push(hit(i, path, message));
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::super::{call, user};
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn native_ids_pass() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), {"type": "reasoning", "id": "rs_1", "summary": []}, call(Some("fc_1"), "call_1")]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn foreign_ids_are_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([
                user("hi"),
                call(Some("item_A9v0SNfS3VaLrfX0j3y4xhyK"), "call_1"),
                {"type": "message", "role": "assistant", "id": "fc_2", "content": [{"type": "output_text", "text": "ok"}]}
            ]),
        );
        assert_eq!(
            texts(&hits),
            [
                "Invalid 'input[1].id': 'item_A9v0SNfS3VaLrfX0j3y4xhyK'. Expected an ID that begins with 'fc'.",
                "Invalid 'input[2].id': 'fc_2'. Expected an ID that begins with 'msg'."
            ]
        );
    }
}

//! A reasoning item is followed by the output item it produced.
//!
//! The following item must be an output item: an assistant message, a function or custom tool
//! call, or another `*_call` item. Reasoning items without an `id` are not checked (the provider
//! names the item by id).

use crate::model::json::Value;

use super::{APIS, item_type};
use crate::lint::shape::{hit, role, str_at};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "openai-responses-reasoning-following",
    apis: APIS,
    summary: "every reasoning item is directly followed by the output item it produced",
    error: "Item '{id}' of type 'reasoning' was provided without its required following item.",
    reference: "OpenAI Responses API, https://platform.openai.com/docs/api-reference/responses; rejection: https://github.com/continuedev/continue/issues/8933",
    fixed_by: Some("responses-reasoning"),
    check: Check::Code(check),
};

fn is_output(item: &Value) -> bool {
    match item_type(item) {
        "message" => role(item) == Some("assistant"),
        t => t.ends_with("_call"),
    }
}

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let items = &payload.items;
    let mut hits = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if item_type(&item.value) != "reasoning" || items.get(i + 1).is_some_and(|n| is_output(&n.value)) {
            continue;
        }
        if let Some(id) = str_at(&item.value, "id") {
            let message = format!("Item '{id}' of type 'reasoning' was provided without its required following item.");
            hits.push(hit(i, "input".to_string(), message));
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

    fn reasoning(id: &str) -> Value {
        json!({"type": "reasoning", "id": id, "summary": [], "encrypted_content": "gAAA"})
    }

    #[test]
    fn reasoning_before_its_call_passes() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), reasoning("rs_1"), call(Some("fc_1"), "call_1")]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn reasoning_without_its_item_is_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), reasoning("rs_1"), user("go"), reasoning("rs_2")]),
        );
        assert_eq!(
            texts(&hits),
            [
                "Item 'rs_1' of type 'reasoning' was provided without its required following item.",
                "Item 'rs_2' of type 'reasoning' was provided without its required following item."
            ]
        );
    }
}

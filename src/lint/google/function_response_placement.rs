//! A function-response turn comes right after a function-call turn.
//!
//! The reference has this text from an issue title only.

use super::{call_count, response_count};
use crate::lint::shape::hit;
use crate::lint::{Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "gemini-function-response-placement",
    apis: &[WireApi::GoogleGenerativeAi],
    summary: "a function response turn comes right after a function call turn",
    error: "Please ensure that function response turn comes immediately after a function call turn",
    reference: "provider-constraints.md §4",
    fixed_by: Some("tool-result-pairing"),
    check,
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let items = &payload.items;
    let mut hits = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let after_call = i.checked_sub(1).is_some_and(|p| call_count(&items[p].value) > 0);
        if response_count(&item.value) > 0 && !after_call {
            let message = "Please ensure that function response turn comes immediately after a function call turn";
            hits.push(hit(i, format!("contents[{i}]"), message.to_string()));
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::super::{calls, responses, user};
    use super::*;
    use crate::lint::test_support::{run, texts};
    use serde_json::json;

    #[test]
    fn a_response_after_its_call_passes() {
        assert!(
            run(
                &CONSTRAINT,
                json!([user("hi"), calls(&["read"], None), responses(&["read"])])
            )
            .is_empty()
        );
    }

    #[test]
    fn a_displaced_response_is_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), calls(&["read"], None), user("wait"), responses(&["read"])]),
        );
        assert_eq!(
            texts(&hits),
            ["Please ensure that function response turn comes immediately after a function call turn"]
        );
        assert_eq!(hits[0].item, 3);
    }
}

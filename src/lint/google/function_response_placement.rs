//! A function-response turn comes right after a function-call turn.
//!
//! The reference has this text from an issue title only.

use super::{call_count, response_count};
use crate::lint::shape::{hit, with_previous};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "gemini-function-response-placement",
    apis: super::APIS,
    summary: "a function response turn comes right after a function call turn",
    error: "Please ensure that function response turn comes immediately after a function call turn",
    reference: "Google Gemini generateContent, https://ai.google.dev/api/generate-content; rejection: https://github.com/langchain-ai/langchain/issues/27799",
    fixed_by: Some("tool-result-pairing"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    with_previous(payload)
        .filter(|(_, prev, item)| response_count(item) > 0 && !prev.is_some_and(|p| call_count(p) > 0))
        .map(|(i, _, _)| {
            let message = "Please ensure that function response turn comes immediately after a function call turn";
            hit(i, format!("contents[{i}]"), message.to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{calls, responses, user};
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

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

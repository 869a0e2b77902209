//! A function-response turn answers every call of the call turn before it, no more, no less.

use super::{call_count, response_count};
use crate::lint::shape::{hit, with_previous};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "gemini-function-response-count",
    apis: super::APIS,
    summary: "a function response turn has as many functionResponse parts as the call turn has functionCall parts",
    error: "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
    reference: "Google Gemini generateContent, https://ai.google.dev/api/generate-content; rejection: https://github.com/google-gemini/gemini-cli/issues/16415",
    fixed_by: Some("tool-result-pairing"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    with_previous(payload)
        .filter_map(|(i, prev, item)| Some((i, call_count(prev?), response_count(item))))
        .filter(|&(_, calls, answers)| calls > 0 && answers > 0 && calls != answers)
        .map(|(i, _, _)| {
            let message = "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.";
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
    fn every_call_answered_passes() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), calls(&["a", "b"], None), responses(&["a", "b"])]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn a_missing_response_is_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), calls(&["a", "b"], None), responses(&["a"])]),
        );
        assert_eq!(
            texts(&hits),
            [
                "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn."
            ]
        );
    }
}

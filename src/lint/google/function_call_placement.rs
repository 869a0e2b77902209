//! A function-call turn comes right after a user turn or a function-response turn.
//!
//! A history that starts with the model's call is fixed by `google-bootstrap` (the fix named);
//! a call turn right after another model turn by `gemini-turn-merge`.

use super::call_count;
use crate::lint::shape::{hit, role, with_previous};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "gemini-function-call-placement",
    apis: super::APIS,
    summary: "a function call turn comes right after a user turn or a function response turn",
    error: "Please ensure that function call turn comes immediately after a user turn or after a function response turn.",
    reference: "Google Gemini generateContent, https://ai.google.dev/api/generate-content; rejection: https://github.com/continuedev/continue/issues/11164",
    fixed_by: Some("google-bootstrap"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    with_previous(payload)
        .filter(|(_, prev, item)| call_count(item) > 0 && !prev.is_some_and(|p| role(p) == Some("user")))
        .map(|(i, _, _)| {
            let message = "Please ensure that function call turn comes immediately after a user turn or after a function response turn.";
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
    fn calls_after_user_and_response_turns_pass() {
        let hits = run(
            &CONSTRAINT,
            json!([
                user("hi"),
                calls(&["read"], None),
                responses(&["read"]),
                calls(&["edit"], None)
            ]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn a_leading_call_and_one_after_the_model_are_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([calls(&["read"], None), responses(&["read"]), {"role": "model", "parts": [{"text": "ok"}]}, calls(&["edit"], None)]),
        );
        let expected = "Please ensure that function call turn comes immediately after a user turn or after a function response turn.";
        assert_eq!(texts(&hits), [expected, expected]);
        assert_eq!(
            hits.iter().map(|h| h.path.as_str()).collect::<Vec<_>>(),
            ["contents[0]", "contents[3]"]
        );
    }
}

//! Gemini 3: in the current turn, each model step's first functionCall part carries a
//! `thoughtSignature`.
//!
//! The current turn is everything after the latest user content that is not a function
//! response. Parallel calls need the signature on the first call only; the
//! `skip_thought_signature_validator` sentinel counts as one. Gemini 3 image models do not
//! enforce it. The provider prefixes the function name with `default_api:`, and its
//! `position` is the 1-based index of the content (reports show `position 2` for a call at
//! `contents[1]`).

use crate::model::json::Value;

use super::{function_call, function_response, parts};
use crate::lint::shape::{field, hit, role, str_at};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "gemini-thought-signature",
    apis: super::APIS,
    summary: "Gemini 3: the first functionCall part of each model step in the current turn has a thoughtSignature",
    error: "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:{name}` , position {N+1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.",
    reference: "Gemini thought signatures, https://ai.google.dev/gemini-api/docs/thought-signatures; rejection: https://github.com/lbjlaq/Antigravity-Manager/issues/139",
    fixed_by: None,
    check: Check::Code(check),
};

/// Whether the model is Gemini 3 or later and not an image model.
fn enforces(model: &str) -> bool {
    let model = model.to_ascii_lowercase();
    let major = model.split('/').find_map(|segment| {
        let rest = segment.strip_prefix("gemini-")?;
        let rest = rest.strip_prefix("live-").unwrap_or(rest);
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse::<u32>().ok()
    });
    major.is_some_and(|m| m >= 3) && !model.contains("image")
}

fn signed(part: &Value) -> bool {
    field(part, &["thoughtSignature", "thought_signature"])
        .and_then(Value::as_str)
        .is_some_and(|s| !s.is_empty())
}

fn check(payload: &Payload, model: &WireModel) -> Vec<Hit> {
    if !enforces(&model.model) {
        return Vec::new();
    }
    let items = &payload.items;
    let start = items
        .iter()
        .rposition(|c| {
            role(&c.value) == Some("user") && !parts(&c.value).iter().any(|p| function_response(p).is_some())
        })
        .map_or(0, |i| i + 1);
    let mut hits = Vec::new();
    for (i, item) in items.iter().enumerate().skip(start) {
        if role(&item.value) != Some("model") {
            continue;
        }
        let Some(first) = parts(&item.value).iter().find(|p| function_call(p).is_some()) else {
            continue;
        };
        if !signed(first) {
            let name = function_call(first).and_then(|c| str_at(c, "name")).unwrap_or("");
            let message = format!(
                "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:{name}` , position {}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.",
                i + 1
            );
            hits.push(hit(i, format!("contents[{i}]"), message));
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::super::{calls, responses, user};
    use super::*;
    use crate::json;
    use crate::lint::test_support::{model_of, run, run_model, texts};
    use crate::wire::WireApi;

    #[test]
    fn signed_current_calls_and_unsigned_old_ones_pass() {
        let hits = run(
            &CONSTRAINT,
            json!([
                user("hi"),
                calls(&["read"], None),
                responses(&["read"]),
                user("next"),
                calls(&["a", "b"], Some("skip_thought_signature_validator")),
                responses(&["a", "b"])
            ]),
        );
        assert!(hits.is_empty());
        let mut older = model_of(WireApi::GoogleGenerativeAi);
        older.model = "gemini-2.5-pro".to_string();
        assert!(run_model(&CONSTRAINT, json!([user("hi"), calls(&["read"], None)]), &older).is_empty());
    }

    #[test]
    fn an_unsigned_call_of_the_current_turn_is_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([
                user("hi"),
                calls(&["Task"], Some("c2ln")),
                responses(&["Task"]),
                calls(&["read"], None)
            ]),
        );
        assert_eq!(
            texts(&hits),
            [
                "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:read` , position 4. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details."
            ]
        );
    }

    #[test]
    fn gemini_3_is_recognised() {
        assert!(enforces("gemini-3-pro-preview") && enforces("google/gemini-3.1-flash"));
        assert!(!enforces("gemini-2.5-flash") && !enforces("gemini-3-pro-image-preview"));
    }
}

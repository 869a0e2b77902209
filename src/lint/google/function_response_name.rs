//! Every `functionResponse` has a non-empty `name`.

use super::{function_response, parts};
use crate::lint::shape::{hit, str_at};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "gemini-function-response-name",
    apis: super::APIS,
    summary: "every functionResponse has a non-empty name",
    error: "* GenerateContentRequest.contents[{N}].parts[{M}].function_response.name: Name cannot be empty.",
    reference: "Google Gemini generateContent, https://ai.google.dev/api/generate-content; rejection: https://github.com/router-for-me/CLIProxyAPI/issues/2104",
    fixed_by: Some("tool-result-pairing"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (i, item) in payload.items.iter().enumerate() {
        for (j, part) in parts(&item.value).iter().enumerate() {
            if function_response(part).is_some_and(|r| str_at(r, "name").is_none_or(str::is_empty)) {
                let path = format!("contents[{i}].parts[{j}].function_response.name");
                let message = format!("* GenerateContentRequest.{path}: Name cannot be empty.");
                hits.push(hit(i, path, message));
            }
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::super::{calls, responses, user};
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn a_named_response_passes() {
        assert!(
            run(
                &CONSTRAINT,
                json!([user("hi"), calls(&["read"], None), responses(&["read"])])
            )
            .is_empty()
        );
    }

    #[test]
    fn an_unnamed_response_is_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), calls(&["read"], None), responses(&[""])]),
        );
        assert_eq!(
            texts(&hits),
            ["* GenerateContentRequest.contents[2].parts[0].function_response.name: Name cannot be empty."]
        );
    }
}

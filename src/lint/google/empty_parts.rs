//! Every content has at least one part.

use crate::lint::shape::hit;
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireModel};

use super::parts;

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "gemini-empty-parts",
    apis: super::APIS,
    summary: "every content has at least one part",
    error: "* GenerateContentRequest.contents[{N}].parts: contents.parts must not be empty.",
    reference: "Google Gemini generateContent, https://ai.google.dev/api/generate-content; rejection: https://github.com/egoist/chatwise-releases/issues/250",
    fixed_by: Some("blank-text"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    payload
        .items
        .iter()
        .enumerate()
        .filter(|(_, c)| parts(&c.value).is_empty())
        .map(|(i, _)| {
            let path = format!("contents[{i}].parts");
            let message = format!("* GenerateContentRequest.{path}: contents.parts must not be empty.");
            hit(i, path, message)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::user;
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn a_content_with_a_part_passes() {
        assert!(run(&CONSTRAINT, json!([user("hi")])).is_empty());
    }

    #[test]
    fn an_empty_content_is_reported() {
        let hits = run(&CONSTRAINT, json!([user("hi"), {"role": "model", "parts": []}]));
        assert_eq!(
            texts(&hits),
            ["* GenerateContentRequest.contents[1].parts: contents.parts must not be empty."]
        );
    }
}

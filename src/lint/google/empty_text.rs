//! No text part is empty.
//!
//! A signature-only part (`text: ""` with a `thoughtSignature`, as Gemini itself streams and
//! OpenClaw replays to the same model) is not counted.

use crate::model::json::Value;

use super::parts;
use crate::lint::shape::{field, hit};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireModel};

/// The provider's text.
const MESSAGE: &str = "Unable to submit request because it has an empty text parameter. Add a value to the parameter and try again. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/gemini";

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "gemini-empty-text",
    apis: super::APIS,
    summary: "no text part is empty",
    error: MESSAGE,
    reference: "Google Gemini generateContent, https://ai.google.dev/api/generate-content; rejection: https://github.com/chatboxai/chatbox/issues/1846",
    fixed_by: Some("blank-text"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (i, item) in payload.items.iter().enumerate() {
        for (j, part) in parts(&item.value).iter().enumerate() {
            let empty = part.get("text").and_then(Value::as_str) == Some("");
            if empty && field(part, &["thoughtSignature", "thought_signature"]).is_none() {
                hits.push(hit(i, format!("contents[{i}].parts[{j}].text"), MESSAGE.to_string()));
            }
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::super::user;
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn text_and_signature_only_parts_pass() {
        let hits = run(
            &CONSTRAINT,
            json!([user(" "), {"role": "model", "parts": [{"text": "", "thoughtSignature": "c2ln"}]}]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn an_empty_text_part_is_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), {"role": "model", "parts": [{"text": "ok"}, {"text": ""}]}]),
        );
        assert_eq!(texts(&hits), [MESSAGE]);
        assert_eq!(hits[0].path, "contents[1].parts[1].text");
    }
}

//! An item's `id` is non-empty letters, digits, underscores and dashes.

use super::APIS;
use crate::lint::shape::{hit, str_at};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "openai-responses-item-id-charset",
    apis: APIS,
    summary: "item ids are non-empty and use only letters, digits, underscores and dashes",
    error: "Invalid 'input[{N}].id': '{id}'. Expected an ID that contains letters, numbers, underscores, or dashes, but this value contained additional characters.",
    reference: "OpenAI Responses API, https://platform.openai.com/docs/api-reference/responses; rejection: https://github.com/langchain-ai/langchainjs/issues/11044",
    fixed_by: Some("responses-reasoning"),
    check: Check::Code(check),
};

fn valid(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (i, item) in payload.items.iter().enumerate() {
        if let Some(id) = str_at(&item.value, "id").filter(|id| !valid(id)) {
            let path = format!("input[{i}].id");
            let message = format!(
                "Invalid '{path}': '{id}'. Expected an ID that contains letters, numbers, underscores, or dashes, but this value contained additional characters."
            );
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
    fn plain_ids_pass() {
        assert!(run(&CONSTRAINT, json!([user("hi"), call(Some("fc_1-a"), "call_1")])).is_empty());
    }

    #[test]
    fn empty_or_punctuated_ids_are_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), call(Some("fc_1|x"), "call_1"), call(Some(""), "call_2")]),
        );
        assert_eq!(
            texts(&hits),
            [
                "Invalid 'input[1].id': 'fc_1|x'. Expected an ID that contains letters, numbers, underscores, or dashes, but this value contained additional characters.",
                "Invalid 'input[2].id': ''. Expected an ID that contains letters, numbers, underscores, or dashes, but this value contained additional characters."
            ]
        );
    }
}

//! A `call_id` is at most 64 characters, on calls and on outputs.

use super::APIS;
use crate::lint::shape::{hit, str_at};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireModel};

/// Longest call id accepted, in characters.
pub const MAX_CALL_ID_CHARS: usize = 64;

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "openai-responses-call-id-length",
    apis: APIS,
    summary: "call_id is at most 64 characters",
    error: "Invalid 'input[{N}].call_id': string too long. Expected a string with maximum length 64, but got a string with length {len} instead.",
    reference: "OpenAI Responses API, https://platform.openai.com/docs/api-reference/responses; rejection: https://github.com/orchidfiles/ungate/issues/26",
    fixed_by: Some("responses-reasoning"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (i, item) in payload.items.iter().enumerate() {
        let len = str_at(&item.value, "call_id").map_or(0, |id| id.chars().count());
        if len > MAX_CALL_ID_CHARS {
            let path = format!("input[{i}].call_id");
            let message = format!(
                "Invalid '{path}': string too long. Expected a string with maximum length {MAX_CALL_ID_CHARS}, but got a string with length {len} instead."
            );
            hits.push(hit(i, path, message));
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::super::{call, output, user};
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn sixty_four_characters_pass() {
        let id = "c".repeat(64);
        assert!(run(&CONSTRAINT, json!([user("hi"), call(None, &id), output(&id)])).is_empty());
    }

    #[test]
    fn longer_ids_are_reported_on_call_and_output() {
        let id = "c".repeat(86);
        let hits = run(&CONSTRAINT, json!([user("hi"), call(None, &id), output(&id)]));
        assert_eq!(
            texts(&hits),
            [
                "Invalid 'input[1].call_id': string too long. Expected a string with maximum length 64, but got a string with length 86 instead.",
                "Invalid 'input[2].call_id': string too long. Expected a string with maximum length 64, but got a string with length 86 instead."
            ]
        );
    }
}

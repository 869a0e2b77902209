//! No two input items share an `id`.

use std::collections::HashSet;

use super::APIS;
use crate::lint::shape::{hit, str_at};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "openai-responses-duplicate-item",
    apis: APIS,
    summary: "no two input items share an id",
    error: "Duplicate item found with id {id}. Remove duplicate items from your input and try again.",
    reference: "OpenAI Responses API, https://platform.openai.com/docs/api-reference/responses; rejection: https://github.com/OpenRouterTeam/ai-sdk-provider/issues/254",
    fixed_by: None,
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut seen = HashSet::new();
    let mut hits = Vec::new();
    for (i, item) in payload.items.iter().enumerate() {
        if let Some(id) = str_at(&item.value, "id").filter(|id| !id.is_empty())
            && !seen.insert(id)
        {
            let message =
                format!("Duplicate item found with id {id}. Remove duplicate items from your input and try again.");
            hits.push(hit(i, format!("input[{i}].id"), message));
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
    fn distinct_ids_pass() {
        assert!(
            run(
                &CONSTRAINT,
                json!([user("hi"), call(Some("fc_1"), "c1"), call(Some("fc_2"), "c2")])
            )
            .is_empty()
        );
    }

    #[test]
    fn a_repeated_id_is_reported_at_the_repeat() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), call(Some("fc_1"), "c1"), call(Some("fc_1"), "c2")]),
        );
        assert_eq!(
            texts(&hits),
            ["Duplicate item found with id fc_1. Remove duplicate items from your input and try again."]
        );
        assert_eq!(hits[0].item, 2);
    }
}

//! `tool_use` ids must be unique across the whole request.

use std::collections::HashSet;

use crate::lint::shape::{blocks, hit, kind, str_at};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "anthropic-tool-use-id-unique",
    apis: &[WireApi::AnthropicMessages],
    summary: "tool_use ids are unique across the request",
    error: "messages.{N}.content.{M}: tool_use ids must be unique",
    reference: "Anthropic Messages API, https://docs.claude.com/en/api/messages; rejection: https://github.com/anthropics/claude-code/issues/28515",
    fixed_by: Some("tool-call-id"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut seen = HashSet::new();
    let mut hits = Vec::new();
    for (i, item) in payload.items.iter().enumerate() {
        for (j, b) in blocks(&item.value).iter().enumerate() {
            if kind(b) != Some("tool_use") {
                continue;
            }
            if let Some(id) = str_at(b, "id")
                && !seen.insert(id)
            {
                let path = format!("messages.{i}.content.{j}");
                hits.push(hit(i, path.clone(), format!("{path}: tool_use ids must be unique")));
            }
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::lint::anthropic::calls;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn distinct_ids_pass() {
        let hits = run(
            &CONSTRAINT,
            json!([{"role": "user", "content": "hi"}, calls(&["a", "b"])]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn a_repeated_id_is_reported_at_its_second_occurrence() {
        let hits = run(
            &CONSTRAINT,
            json!([{"role": "user", "content": "hi"}, calls(&["a"]), {"role": "user", "content": "go"}, calls(&["b", "a"])]),
        );
        assert_eq!(texts(&hits), ["messages.3.content.1: tool_use ids must be unique"]);
        assert_eq!(hits[0].item, 3);
    }
}

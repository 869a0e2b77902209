//! `tool_use.id` matches `^[a-zA-Z0-9_-]+$`.

use crate::lint::shape::{blocks, hit, kind, str_at};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "anthropic-tool-use-id-pattern",
    apis: &[WireApi::AnthropicMessages],
    summary: "tool_use ids match ^[a-zA-Z0-9_-]+$",
    error: "messages.{N}.content.{M}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
    reference: "Anthropic Messages API, https://docs.claude.com/en/api/messages; rejection: https://github.com/RooCodeInc/Roo-Code/pull/10649",
    fixed_by: Some("tool-call-id"),
    check: Check::Code(check),
};

/// Whether an id matches `^[a-zA-Z0-9_-]+$`.
fn valid(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (i, item) in payload.items.iter().enumerate() {
        for (j, b) in blocks(&item.value).iter().enumerate() {
            if kind(b) == Some("tool_use") && str_at(b, "id").is_some_and(|id| !valid(id)) {
                let path = format!("messages.{i}.content.{j}.tool_use.id");
                let message = format!("{path}: String should match pattern '^[a-zA-Z0-9_-]+$'");
                hits.push(hit(i, path, message));
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
    fn native_ids_pass() {
        let hits = run(
            &CONSTRAINT,
            json!([{"role": "user", "content": "hi"}, calls(&["toolu_01Ab-9"])]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn foreign_ids_are_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([{"role": "user", "content": "hi"}, calls(&["ok", "call_abc|fc_123", "functions.read:0"])]),
        );
        assert_eq!(
            texts(&hits),
            [
                "messages.1.content.1.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
                "messages.1.content.2.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"
            ]
        );
    }
}

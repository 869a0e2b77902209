//! The toolUse blocks of one message have distinct ids.

use std::collections::HashSet;

use super::blocks_with;
use crate::lint::shape::{hit, str_at};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "bedrock-tool-use-duplicate-id",
    apis: &[WireApi::BedrockConverseStream],
    summary: "toolUse ids are unique within a message",
    error: "The toolUse blocks at messages.{N}.content contain duplicate Ids: {ids}",
    reference: "Amazon Bedrock Converse, https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html; rejection: https://github.com/bvcyber/Cyber-AutoAgent-ng/issues/72",
    fixed_by: Some("tool-call-id"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (i, item) in payload.items.iter().enumerate() {
        // Each repeated id once, in the order of its first repeat.
        let mut seen: HashSet<&str> = HashSet::new();
        let mut reported: HashSet<&str> = HashSet::new();
        let duplicates: Vec<&str> = blocks_with(&item.value, "toolUse")
            .filter_map(|(_, u)| str_at(u, "toolUseId"))
            .filter(|&id| !seen.insert(id) && reported.insert(id))
            .collect();
        if !duplicates.is_empty() {
            let path = format!("messages.{i}.content");
            let message = format!(
                "The toolUse blocks at {path} contain duplicate Ids: {}",
                duplicates.join(", ")
            );
            hits.push(hit(i, path, message));
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::super::{calls, user};
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn distinct_ids_and_ids_reused_in_another_turn_pass() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), calls(&["exec_0", "exec_1"]), user("go"), calls(&["exec_0"])]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn a_repeated_id_in_one_message_is_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), user("go"), calls(&["http_request", "x", "http_request"])]),
        );
        assert_eq!(
            texts(&hits),
            ["The toolUse blocks at messages.2.content contain duplicate Ids: http_request"]
        );
    }
}

//! `toolUseId` (on toolUse and toolResult) is 1–64 characters of `[a-zA-Z0-9_.:-]`.
//!
//! Documented (tag D) with no rejection text seen; the message is AWS request validation's
//! standard wording, with its 1-based list indices. The first failing rule is named.

use super::blocks_with;
use crate::lint::shape::{hit, str_at};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// Longest id accepted, in characters.
pub const MAX_ID_CHARS: usize = 64;

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "bedrock-tool-use-id-format",
    apis: &[WireApi::BedrockConverseStream],
    summary: "toolUseId is 1-64 characters matching [a-zA-Z0-9_.:-]+",
    error: "1 validation error detected: Value '{id}' at 'messages.{N+1}.member.content.{M+1}.member.{toolUse|toolResult}.toolUseId' failed to satisfy constraint: Member must {rule}",
    reference: "Amazon Bedrock Converse ToolUseBlock, https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolUseBlock.html",
    fixed_by: Some("tool-call-id"),
    check: Check::Code(check),
};

fn broken_rule(id: &str) -> Option<&'static str> {
    if id.is_empty() {
        Some("have length greater than or equal to 1")
    } else if id.chars().count() > MAX_ID_CHARS {
        Some("have length less than or equal to 64")
    } else if !id.bytes().all(|b| b.is_ascii_alphanumeric() || b"_.:-".contains(&b)) {
        Some("satisfy regular expression pattern: [a-zA-Z0-9_.:-]+")
    } else {
        None
    }
}

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (i, item) in payload.items.iter().enumerate() {
        for key in ["toolUse", "toolResult"] {
            for (j, block) in blocks_with(&item.value, key) {
                let Some((id, rule)) = str_at(block, "toolUseId").and_then(|id| Some((id, broken_rule(id)?))) else {
                    continue;
                };
                let message = format!(
                    "1 validation error detected: Value '{id}' at 'messages.{}.member.content.{}.member.{key}.toolUseId' failed to satisfy constraint: Member must {rule}",
                    i + 1,
                    j + 1
                );
                hits.push(hit(i, format!("messages.{i}.content.{j}.{key}.toolUseId"), message));
            }
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::super::{calls, results, user};
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn native_and_mcp_style_ids_pass() {
        let hits = run(
            &CONSTRAINT,
            json!([
                user("hi"),
                calls(&["tooluse_Ab-1", "fs.read:0"]),
                results(&["tooluse_Ab-1", "fs.read:0"])
            ]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn bad_ids_are_reported_on_use_and_result() {
        let long = "a".repeat(65);
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), calls(&["call_1|fc_2", &long]), results(&["call_1|fc_2"])]),
        );
        assert_eq!(
            texts(&hits),
            [
                "1 validation error detected: Value 'call_1|fc_2' at 'messages.2.member.content.1.member.toolUse.toolUseId' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.:-]+",
                format!("1 validation error detected: Value '{long}' at 'messages.2.member.content.2.member.toolUse.toolUseId' failed to satisfy constraint: Member must have length less than or equal to 64").as_str(),
                "1 validation error detected: Value 'call_1|fc_2' at 'messages.3.member.content.1.member.toolResult.toolUseId' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.:-]+"
            ]
        );
    }
}

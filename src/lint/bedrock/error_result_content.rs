//! A toolResult with status `error` has content.

use super::blocks_with;
use crate::lint::shape::{array, hit, str_at};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "bedrock-error-result-content",
    apis: &[WireApi::BedrockConverseStream],
    summary: "a toolResult with status error has content",
    error: "The content field at messages.{N}.content.{M}.toolResult cannot be empty when status value is error.",
    reference: "Amazon Bedrock Converse, https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html; rejection: https://github.com/aws-samples/sample-multi-agent-orchestration-chat-on-agentcore/issues/15",
    fixed_by: Some("blank-text"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (i, item) in payload.items.iter().enumerate() {
        for (j, result) in blocks_with(&item.value, "toolResult") {
            if str_at(result, "status") == Some("error") && array(result, "content").is_empty() {
                let path = format!("messages.{i}.content.{j}.toolResult");
                let message = format!("The content field at {path} cannot be empty when status value is error.");
                hits.push(hit(i, path, message));
            }
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::super::{calls, message, user};
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    fn result(content: crate::model::json::Value) -> crate::model::json::Value {
        message(
            "user",
            json!([{"toolResult": {"toolUseId": "a", "content": content, "status": "error"}}]),
        )
    }

    #[test]
    fn an_error_with_content_passes() {
        assert!(
            run(
                &CONSTRAINT,
                json!([user("hi"), calls(&["a"]), result(json!([{"text": "boom"}]))])
            )
            .is_empty()
        );
    }

    #[test]
    fn an_empty_error_is_reported() {
        let hits = run(&CONSTRAINT, json!([user("hi"), calls(&["a"]), result(json!([]))]));
        assert_eq!(
            texts(&hits),
            ["The content field at messages.2.content.0.toolResult cannot be empty when status value is error."]
        );
    }
}

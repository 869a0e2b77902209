//! A message has no more toolResult blocks than the previous message has toolUse blocks.

use super::blocks_with;
use crate::lint::shape::{hit, with_previous};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The provider's text.
const MESSAGE: &str = "The number of toolResult blocks exceeds the number of toolUse blocks of previous turn";

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "bedrock-tool-result-count",
    apis: &[WireApi::BedrockConverseStream],
    summary: "a message has at most as many toolResult blocks as the previous message has toolUse blocks",
    error: MESSAGE,
    reference: "Amazon Bedrock Converse, https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html; rejection: https://github.com/pydantic/pydantic-ai/issues/2327",
    fixed_by: Some("tool-result-pairing"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    with_previous(payload)
        .filter(|(_, prev, item)| {
            let uses = prev.map_or(0, |p| blocks_with(p, "toolUse").count());
            blocks_with(item, "toolResult").count() > uses
        })
        .map(|(i, _, _)| hit(i, format!("messages.{i}"), MESSAGE.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{calls, results, user};
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn one_result_per_use_passes() {
        assert!(
            run(
                &CONSTRAINT,
                json!([user("hi"), calls(&["a", "b"]), results(&["a", "b"])])
            )
            .is_empty()
        );
    }

    #[test]
    fn an_extra_result_is_reported() {
        let hits = run(&CONSTRAINT, json!([user("hi"), calls(&["a"]), results(&["a", "b"])]));
        assert_eq!(texts(&hits), [MESSAGE]);
        assert_eq!(hits[0].item, 2);
    }
}

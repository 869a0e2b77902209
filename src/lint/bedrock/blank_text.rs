//! No text block is blank.
//!
//! The converter drops blank assistant text and gives a tool result without content a text of
//! its own, so the blank blocks that reach the payload are user text: a blank string prompt or
//! blank text blocks, which `blank-user-turn` drops or removes (`blank-text` never sees them).
//! Not fixed: a blank user turn that carries persisted media (`MediaPath` …), which
//! `blank-user-turn` keeps as `content: ""` and the converter sends as `{"text": ""}`.

use crate::lint::shape::{hit, is_blank};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

use super::blocks_with;

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "bedrock-blank-text",
    apis: &[WireApi::BedrockConverseStream],
    summary: "no text block is empty or whitespace",
    error: "The text field in the ContentBlock object at messages.{N}.content.{M} is blank. Add text to the text field, and try again.",
    reference: "Amazon Bedrock Converse, https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html; rejection: https://github.com/continuedev/continue/issues/9767",
    fixed_by: Some("blank-user-turn"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (i, item) in payload.items.iter().enumerate() {
        for (j, text) in blocks_with(&item.value, "text") {
            if text.as_str().is_some_and(is_blank) {
                let path = format!("messages.{i}.content.{j}");
                let message = format!(
                    "The text field in the ContentBlock object at {path} is blank. Add text to the text field, and try again."
                );
                hits.push(hit(i, path, message));
            }
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::super::{message, user};
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn text_passes() {
        assert!(run(&CONSTRAINT, json!([user("hi")])).is_empty());
    }

    #[test]
    fn a_blank_block_is_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([
                user("hi"),
                message("assistant", json!([{"text": "ok"}, {"text": " \n"}]))
            ]),
        );
        assert_eq!(
            texts(&hits),
            [
                "The text field in the ContentBlock object at messages.1.content.1 is blank. Add text to the text field, and try again."
            ]
        );
    }
}

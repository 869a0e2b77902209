//! A `thinking` block's signature is not empty.
//!
//! The reference tags the rejection of `signature: ""` as a third-party claim (C) and quotes no
//! text for it; the text used is the one the API gives a signature that fails its check.
//! OpenClaw's converter writes `signature: ""` when empty signatures are allowed.

use super::thinking_blocks;
use crate::lint::shape::{hit, is_blank, str_at};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "anthropic-thinking-signature-blank",
    apis: &[WireApi::AnthropicMessages],
    summary: "a thinking block's signature is not empty or blank",
    error: "messages.{N}.content.{M}: Invalid `signature` in `thinking` block",
    reference: "Anthropic extended thinking, https://docs.claude.com/en/docs/build-with-claude/extended-thinking; empty signature reported rejected in https://github.com/dwgx/WindsurfAPI/pull/228",
    fixed_by: Some("invalid-thinking-signature"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    thinking_blocks(payload)
        .filter(|(_, _, b)| str_at(b, "signature").is_some_and(is_blank))
        .map(|(i, j, _)| {
            let path = format!("messages.{i}.content.{j}");
            hit(
                i,
                path.clone(),
                format!("{path}: Invalid `signature` in `thinking` block"),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::reply;
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn a_signed_block_passes() {
        let hits = run(
            &CONSTRAINT,
            reply(json!([
                {"type": "thinking", "thinking": "t", "signature": "EqQB"}, {"type": "text", "text": "ok"}
            ])),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn an_empty_signature_is_reported() {
        let hits = run(
            &CONSTRAINT,
            reply(json!([
                {"type": "text", "text": "ok"}, {"type": "thinking", "thinking": "t", "signature": ""}
            ])),
        );
        assert_eq!(
            texts(&hits),
            ["messages.1.content.1: Invalid `signature` in `thinking` block"]
        );
    }
}

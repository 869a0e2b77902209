//! Text blocks must hold non-whitespace text.
//!
//! The reference quotes this wording only from a client fix (opencode PR "Text content blocks
//! must contain non-whitespace text", tag C); an empty block gets `anthropic-empty-text`.

use super::text_blocks;
use crate::lint::shape::{hit, is_blank};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "anthropic-whitespace-text",
    apis: &[WireApi::AnthropicMessages],
    summary: "text content blocks (and string content) hold non-whitespace text",
    error: "messages: text content blocks must contain non-whitespace text",
    reference: "Anthropic Messages API, https://docs.claude.com/en/api/messages; whitespace-only text reported rejected in https://github.com/anomalyco/opencode/pull/3194",
    fixed_by: Some("blank-text"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    text_blocks(payload)
        .filter(|t| !t.text.is_empty() && is_blank(t.text))
        .map(|t| {
            let message = "messages: text content blocks must contain non-whitespace text".to_string();
            hit(t.item, t.path(), message)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn text_passes() {
        let hits = run(&CONSTRAINT, json!([{"role": "user", "content": " hi "}]));
        assert!(hits.is_empty());
    }

    #[test]
    fn whitespace_blocks_and_strings_are_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([
                {"role": "user", "content": "\n "},
                {"role": "assistant", "content": [{"type": "text", "text": "\t"}]}
            ]),
        );
        let expected = "messages: text content blocks must contain non-whitespace text";
        assert_eq!(texts(&hits), [expected, expected]);
        assert_eq!(hits[0].path, "messages.0.content");
        assert_eq!(hits[1].path, "messages.1.content.0");
    }
}

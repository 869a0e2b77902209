//! Expectations are OpenClaw 2026.9.6's own output: `oracle_cases.json` holds message arrays
//! and the `messages` of the body pi-ai's Mistral provider sent for them (captured at fetch,
//! after the Mistral SDK's serialization). Each case runs the whole wire stage.

use crate::json;

use super::*;
use crate::wire::WireApi;
use crate::wire::test_support::{assert_matches_every_case, built, oracle_cases, values};

#[test]
fn matches_openclaw_on_every_oracle_case() {
    let cases = oracle_cases(include_str!("oracle_cases.json"), "", 5);
    assert_matches_every_case(&cases, |case| {
        values(&built(WireApi::MistralConversations, &case.messages, &case.model))
    });
}

#[test]
fn every_other_block_is_a_tool_call_and_sources_are_kept() {
    let model = WireModel::new("mistral", "mistral-conversations", "m");
    let input = WireInput {
        message: Message::from_value(json!({"role": "assistant", "content": [{"type": "image", "data": "x"}]}))
            .unwrap(),
        source: smallvec::smallvec![4],
    };
    let items = convert(&[input], &model);
    assert_eq!(items[0].source.to_vec(), vec![4]);
    assert_eq!(
        items[0].value["tool_calls"][0],
        json!({"id": "null", "type": "function", "function": {"arguments": "{}"}, "index": 0})
    );
}

#[test]
fn tool_result_text_formats() {
    assert_eq!(
        format_tool_result("", Some("(see attached image)"), None, false),
        "(see attached image)"
    );
    assert_eq!(
        format_tool_result(" ", None, None, true),
        "[tool error] (no tool output)"
    );
    assert_eq!(format_tool_result("out", None, Some("[note]"), false), "out\n[note]");
}

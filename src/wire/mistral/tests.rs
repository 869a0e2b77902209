//! Expectations are OpenClaw 2026.9.6's own output: `oracle_cases.json` holds message arrays
//! and the `messages` of the body pi-ai's Mistral provider sent for them (captured at fetch,
//! after the Mistral SDK's serialization). Each case runs the whole wire stage.

use serde_json::{Value, json};

use super::super::{WireApi, build};
use super::*;

fn model_of(case: &Value) -> WireModel {
    let m = &case["model"];
    let mut model = WireModel::new(
        m["provider"].as_str().unwrap(),
        m["api"].as_str().unwrap(),
        m["id"].as_str().unwrap(),
    );
    if let Some(input) = m.get("input").and_then(Value::as_array) {
        model.input_images = input.contains(&json!("image"));
    }
    model
}

#[test]
fn matches_openclaw_on_every_oracle_case() {
    let cases: Vec<Value> = serde_json::from_str(include_str!("oracle_cases.json")).expect("fixture");
    assert!(cases.len() >= 5);
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let owned: Vec<Message> = case["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| Message::from_value(v.clone()).unwrap())
            .collect();
        let refs: Vec<&Message> = owned.iter().collect();
        let got = build(WireApi::MistralConversations, &refs, &model_of(case)).items;
        let got = Value::Array(got.into_iter().map(|i| i.value).collect());
        assert_eq!(got, case["expected"], "case {name}");
    }
}

#[test]
fn every_other_block_is_a_tool_call_and_sources_are_kept() {
    let model = WireModel::new("mistral", "mistral-conversations", "m");
    let input = WireInput {
        message: Message::from_value(json!({"role": "assistant", "content": [{"type": "image", "data": "x"}]}))
            .unwrap(),
        source: vec![4],
    };
    let items = convert(&[input], &model);
    assert_eq!(items[0].source, vec![4]);
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

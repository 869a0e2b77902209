//! Expectations are OpenClaw 2026.9.6's own output: `oracle_cases.json` holds message arrays
//! and the `input` each Responses route sent for them (`oracle/openclaw_payload.mjs`:
//! captured at fetch on OpenClaw's transports, at `onPayload` on the native Codex route).
//! Each case runs the whole wire stage: the transcript transform, then the converter. Cases
//! with `replay_item_ids` ran with `compat.supportsResponsesContinuation` (stored responses).

use crate::json;
use crate::model::json::Value;

use super::super::transform::ids::short_hash;
use super::*;
use crate::wire::test_support::{assert_matches_every_case, oracle_cases, prepared, values};

#[test]
fn matches_openclaw_on_every_oracle_case() {
    let cases = oracle_cases(include_str!("oracle_cases.json"), "", 12);
    assert_matches_every_case(&cases, |case| {
        let model = &case.model;
        let api = WireApi::from_api(&model.api).expect("responses api");
        let mut policy = Policy::for_model(model);
        policy.replay_item_ids = case.raw["replay_item_ids"] == json!(true);
        values(&convert_with(&prepared(api, &case.messages, model), model, &policy))
    });
}

#[test]
fn policies_of_the_routes() {
    let openai = Policy::for_model(&WireModel::new("openai", "openai-responses", "gpt-5"));
    assert!(!openai.provider_style && !openai.strip_status && openai.sanitize_images && !openai.replay_item_ids);
    let codex = Policy::for_model(&WireModel::new("openai", "openai-chatgpt-responses", "gpt-5.2-codex"));
    assert!(codex.provider_style && !codex.strip_status && !codex.sanitize_images);
    let custom = Policy::for_model(&WireModel::new("custom-x", "openai-responses", "m"));
    assert!(custom.strip_status);
    let azure = Policy::for_model(&WireModel::new(
        "azure-openai-responses",
        "azure-openai-responses",
        "gpt-5",
    ));
    assert!(!azure.strip_status);
}

#[test]
fn every_item_of_a_turn_traces_to_its_message() {
    let model = WireModel::new("openai", "openai-responses", "gpt-5");
    let input = WireInput {
        message: Message::from_value(json!({
            "role": "assistant", "provider": "openai", "api": "openai-responses", "model": "gpt-5",
            "content": [{"type": "text", "text": "a"}, {"type": "toolCall", "id": "call_1|fc_1", "name": "x", "arguments": {}}]
        }))
        .unwrap(),
        source: smallvec::smallvec![7],
    };
    let items = convert(&[input], &model, WireApi::OpenAiResponses);
    assert_eq!(items.len(), 2);
    assert!(items.iter().all(|i| i.source[..] == [7]));
}

#[test]
fn replay_metadata_must_name_this_route() {
    let model = WireModel::new("openai", "openai-responses", "gpt-5");
    let ctx = ReplayContext::of(&model);
    let meta = json!({"v": 1, "source": "openai-responses", "provider": "openai", "api": "openai-responses",
                      "model": "gpt-5", "baseUrlHash": short_hash("https://api.openai.com/v1")});
    assert_eq!(ctx.matches(&meta), Some(true));
    let mut with_session = meta.clone();
    with_session["sessionHash"] = json!("abc");
    assert_eq!(ctx.matches(&with_session), Some(false));
    let mut bad = meta.clone();
    bad["sessionHash"] = Value::Null;
    assert_eq!(ctx.matches(&bad), None);
    assert_eq!(ctx.matches(&json!({"v": 2})), None);
}

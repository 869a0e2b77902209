//! Expectations taken from OpenClaw 2026.9.6's own transform functions: `oracle_cases.json`
//! holds message arrays and, per target, the list each transport hands its converter, computed
//! by the release's `convertToLlm` (here `wire::llm_messages`) then `transformTransportMessages` (Anthropic after
//! `prepareClaudeNoPrefillRequestContext`, Google after its route folding) or
//! `transformProviderMessages` / `transformMessages` with each transport's id normalizer.
//! Timestamps are left out: upstream stamps synthesized results with the clock.

use crate::json;
use crate::model::json::Value;

use crate::wire::test_support::{OracleCase, assert_matches_every_case, oracle_cases, prepared};
use crate::wire::{WireApi, WireInput, WireModel};

fn cases() -> Vec<OracleCase> {
    oracle_cases(include_str!("oracle_cases.json"), "", 80)
}

fn run(case: &OracleCase) -> Vec<WireInput> {
    let api = WireApi::from_api(&case.model.api).expect("api");
    prepared(api, &case.messages, &case.model)
}

fn without_timestamp(v: &Value) -> Value {
    let mut v = v.clone();
    if let Some(o) = v.as_object_mut() {
        o.shift_remove("timestamp");
    }
    v
}

#[test]
fn every_api_prepares_what_its_transport_converts() {
    let mut cases = cases();
    for case in &mut cases {
        case.expected = case.expected.iter().map(without_timestamp).collect();
    }
    assert_matches_every_case(&cases, |case| {
        run(case)
            .iter()
            .map(|i| without_timestamp(&Value::Object(i.message.as_map().clone())))
            .collect()
    });
}

fn find(name: &str, api: &str) -> OracleCase {
    cases()
        .into_iter()
        .find(|c| c.name == name && c.model.api == api)
        .expect("case")
}

#[test]
fn provenance_per_transform() {
    let sources = |name: &str, api: &str| -> Vec<Vec<usize>> {
        run(&find(name, api)).into_iter().map(|i| i.source.to_vec()).collect()
    };
    // OpenClaw's transform: the pairing repair inserts a result without a source.
    assert_eq!(
        sources("tool-missing", "anthropic-messages"),
        vec![vec![0], vec![1], vec![], vec![2], vec![3]]
    );
    // pi-ai's transform synthesizes before the next user turn, also without a source.
    assert_eq!(
        sources("tool-missing", "openai-completions"),
        vec![vec![0], vec![1], vec![2], vec![], vec![3]]
    );
    // The async result moves back to its call.
    assert_eq!(
        sources("async-cross", "mistral-conversations"),
        vec![vec![0], vec![1], vec![3], vec![2]]
    );
    // The failed tool turn and its result are dropped (Anthropic pairs, so the turn is kept
    // through the transform and dropped by the repair's errored-assistant policy).
    assert_eq!(sources("error-toolcall", "anthropic-messages"), vec![vec![0], vec![3]]);
}

#[test]
fn synthesized_results_carry_the_transport_text() {
    let results = |name: &str, api: &str| -> Vec<Value> {
        run(&find(name, api))
            .into_iter()
            .filter(|i| i.source.is_empty())
            .map(|i| i.message.content().cloned().unwrap_or(Value::Null))
            .collect()
    };
    assert_eq!(
        results("tool-missing", "anthropic-messages"),
        vec![json!([{"type": "text", "text": "No result provided"}])]
    );
    assert_eq!(
        results("tool-missing", "mistral-conversations"),
        vec![json!([{"type": "text", "text": "No result provided"}])]
    );
}

#[test]
fn responses_missing_results_read_aborted() {
    let model = WireModel::new("openai", "openai-responses", "gpt-5");
    let messages = [
        json!({"role": "user", "content": "q"}),
        json!({"role": "assistant", "content": [{"type": "toolCall", "id": "call_1|fc_1", "name": "read", "arguments": {}}],
               "provider": "openai", "api": "openai-responses", "model": "gpt-5", "stopReason": "toolUse"}),
        json!({"role": "user", "content": "next"}),
    ];
    let prepared = prepared(WireApi::OpenAiResponses, &messages, &model);
    assert_eq!(prepared.len(), 4);
    assert_eq!(
        prepared[2].message.content(),
        Some(&json!([{"type": "text", "text": "aborted"}]))
    );
    assert_eq!(prepared[2].source.to_vec(), Vec::<usize>::new());
}

#[test]
fn a_gateway_model_serving_opus_5_leaves_out_the_trailing_prefill() {
    // `prepareClaudeNoPrefillRequestContext` names the model as `resolveClaudeModelIdentity`
    // does: `params.canonicalModelId` first (found by the configured replay differential,
    // seed 92258491413).
    let messages = [
        json!({"role": "user", "content": "q"}),
        json!({"role": "assistant", "content": [{"type": "text", "text": "prefill"}], "stopReason": "stop"}),
    ];
    let messages: Vec<crate::model::Message> = messages
        .iter()
        .map(|m| crate::model::Message::from_value(m.clone()).unwrap())
        .collect();
    let refs: Vec<&crate::model::Message> = messages.iter().collect();
    let plain = WireModel::new("acme", "anthropic-messages", "gemini-2.5-pro");
    assert_eq!(
        super::strip_unsupported_prefill(WireInput::numbered(&refs), &plain).len(),
        2
    );
    let gateway = WireModel {
        canonical_model_id: Some("claude-opus-5-5".into()),
        ..plain
    };
    let kept = super::strip_unsupported_prefill(WireInput::numbered(&refs), &gateway);
    assert_eq!(kept.len(), 1);
    assert!(!kept[0].message.is_assistant());
}

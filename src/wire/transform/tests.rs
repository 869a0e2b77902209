//! Expectations taken from OpenClaw 2026.9.6's own transform functions: `oracle_cases.json`
//! holds message arrays and, per target, the list each transport hands its converter, computed
//! by the release's `convertToLlm` (here `wire::llm_messages`) then `transformTransportMessages` (Anthropic after
//! `prepareClaudeNoPrefillRequestContext`, Google after its route folding) or
//! `transformProviderMessages` / `transformMessages` with each transport's id normalizer.
//! Timestamps are left out: upstream stamps synthesized results with the clock.

use serde::Deserialize;
use serde_json::{Value, json};

use super::prepare;
use crate::model::Message;
use crate::wire::{WireApi, WireInput, WireModel};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Case {
    name: String,
    provider: String,
    api: String,
    model: String,
    reasoning: Option<bool>,
    input_images: Option<bool>,
    messages: Vec<Value>,
    expected: Vec<Value>,
}

fn cases() -> Vec<Case> {
    serde_json::from_str(include_str!("oracle_cases.json")).expect("oracle_cases.json")
}

fn run(case: &Case) -> Vec<WireInput> {
    let mut model = WireModel::new(&case.provider, &case.api, &case.model);
    model.reasoning = case.reasoning.unwrap_or(true);
    model.input_images = case.input_images.unwrap_or(true);
    let messages: Vec<Message> = case
        .messages
        .iter()
        .map(|m| Message::from_value(m.clone()).unwrap())
        .collect();
    prepare_llm(WireApi::from_api(&case.api).expect("api"), &messages, &model)
}

/// What `wire::build` does before converting: the agent loop's message step, then
/// [`prepare`], sources mapped back to the given messages.
pub(crate) fn prepare_llm(api: WireApi, messages: &[Message], model: &WireModel) -> Vec<WireInput> {
    let refs: Vec<&Message> = messages.iter().collect();
    let llm = crate::wire::llm_messages::to_llm(&refs);
    let llm_refs: Vec<&Message> = llm.iter().map(|(m, _)| m.as_ref()).collect();
    let mut inputs = prepare(api, &llm_refs, model);
    for input in &mut inputs {
        for s in &mut input.source {
            *s = llm[*s].1;
        }
    }
    inputs
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
    let mut failures = Vec::new();
    for case in cases() {
        let got: Vec<Value> = run(&case)
            .iter()
            .map(|i| without_timestamp(&Value::Object(i.message.as_map().clone())))
            .collect();
        let got = serde_json::to_string(&got).unwrap();
        let want = serde_json::to_string(&case.expected.iter().map(without_timestamp).collect::<Vec<_>>()).unwrap();
        if got != want {
            failures.push(format!(
                "{} ({} {})\n  want {want}\n  got  {got}",
                case.name, case.api, case.model
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn find(name: &str, api: &str) -> Case {
    cases()
        .into_iter()
        .find(|c| c.name == name && c.api == api)
        .expect("case")
}

#[test]
fn provenance_per_transform() {
    let sources =
        |name: &str, api: &str| -> Vec<Vec<usize>> { run(&find(name, api)).into_iter().map(|i| i.source).collect() };
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
    let messages: Vec<Message> = messages
        .iter()
        .map(|m| Message::from_value(m.clone()).unwrap())
        .collect();
    let prepared = prepare_llm(WireApi::OpenAiResponses, &messages, &model);
    assert_eq!(prepared.len(), 4);
    assert_eq!(
        prepared[2].message.content(),
        Some(&json!([{"type": "text", "text": "aborted"}]))
    );
    assert_eq!(prepared[2].source, Vec::<usize>::new());
}

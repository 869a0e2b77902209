//! What the wire modules' tests share: the recorded cases (`oracle_cases.json` of each module,
//! `reference_cases.json` for Bedrock), their messages as converter inputs, and the comparison
//! with what OpenClaw produced: byte for byte as JSON (key order included), every differing
//! case listed before the test fails.

use crate::json;
use crate::model::json::Value;

use std::borrow::Cow;

use super::{WireApi, WireInput, WireItem, WireModel, build, llm_messages, transform};
use crate::model::Message;

/// One recorded case: messages, the model they were sent to, and OpenClaw's output.
pub(crate) struct OracleCase {
    /// The case's name, with its API and model for failure messages.
    pub label: String,
    /// The case's name as recorded.
    pub name: String,
    /// The model the case was recorded for.
    pub model: WireModel,
    /// The input messages as stored.
    pub messages: Vec<Value>,
    /// What OpenClaw produced.
    pub expected: Vec<Value>,
    /// The whole case as recorded, for the fields only one module reads.
    pub raw: Value,
}

/// The cases of a fixture, at least `min` of them. A case names its model either as an object
/// `{provider, api, id, input?}` (image input unless `input` leaves it out) or with flat
/// `provider`, `api` (else `default_api`), `model`, `reasoning` and `inputImages` fields
/// (both `true` when absent).
pub(crate) fn oracle_cases(fixture: &str, default_api: &str, min: usize) -> Vec<OracleCase> {
    let raw: Vec<Value> = serde_json::from_str(fixture).expect("fixture");
    assert!(raw.len() >= min, "{} cases, expected at least {min}", raw.len());
    raw.into_iter()
        .map(|case| {
            let text = |v: &Value, key: &str| {
                v[key]
                    .as_str()
                    .unwrap_or_else(|| panic!("no `{key}`: {case}"))
                    .to_owned()
            };
            let model = match &case["model"] {
                m @ Value::Object(_) => {
                    let mut model = WireModel::new(&text(m, "provider"), &text(m, "api"), &text(m, "id"));
                    if let Some(input) = m.get("input").and_then(Value::as_array) {
                        model.input_images = input.contains(&json!("image"));
                    }
                    model
                }
                _ => {
                    let api = case["api"].as_str().unwrap_or(default_api);
                    let mut model = WireModel::new(&text(&case, "provider"), api, &text(&case, "model"));
                    model.reasoning = case["reasoning"].as_bool().unwrap_or(true);
                    // The cases recorded with `reasoning: false` have thinking off in the
                    // request too (the Anthropic transport reads the request, not the model).
                    model.thinking = model.reasoning;
                    model.input_images = case["inputImages"].as_bool().unwrap_or(true);
                    model
                }
            };
            let name = text(&case, "name");
            OracleCase {
                label: format!("{name} ({} {})", model.api, model.model),
                name,
                model,
                messages: case["messages"].as_array().map(|a| a.to_vec()).expect("messages"),
                expected: case["expected"].as_array().map(|a| a.to_vec()).expect("expected"),
                raw: case,
            }
        })
        .collect()
}

/// Assert that `output` gives OpenClaw's output for every case.
pub(crate) fn assert_matches_every_case(cases: &[OracleCase], output: impl Fn(&OracleCase) -> Vec<Value>) {
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            let got = serde_json::to_string(&output(case)).expect("json");
            let want = serde_json::to_string(&case.expected).expect("json");
            (got != want).then(|| format!("{}\n  want {want}\n  got  {got}", case.label))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} case(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Stored messages as transcript messages.
pub(crate) fn messages(values: &[Value]) -> Vec<Message> {
    values
        .iter()
        .map(|v| Message::from_value(v.clone()).expect("message object"))
        .collect()
}

/// Stored messages as converter inputs, each from its own index, without any transform.
pub(crate) fn inputs(values: &[Value]) -> Vec<WireInput> {
    let owned = messages(values);
    WireInput::numbered(&owned.iter().collect::<Vec<_>>())
}

/// What `wire::build` hands `api`'s converter for stored messages: the message step, then the
/// transport's transform.
pub(crate) fn prepared(api: WireApi, values: &[Value], model: &WireModel) -> Vec<WireInput> {
    let owned = messages(values);
    transform::prepare(api, llm_messages::to_llm(owned.iter().map(Cow::Borrowed)), model)
}

/// The payload items `wire::build` produces for stored messages.
pub(crate) fn built(api: WireApi, values: &[Value], model: &WireModel) -> Vec<WireItem> {
    let owned = messages(values);
    build(api, &owned.iter().collect::<Vec<_>>(), model).items
}

/// The items' wire values.
pub(crate) fn values(items: &[WireItem]) -> Vec<Value> {
    items.iter().map(|i| i.value.clone()).collect()
}

//! Expectations are OpenClaw 2026.9.6's own output: `oracle_cases.json` holds message arrays
//! and the `messages` of the `/api/chat` body the bundled ollama plugin's stream function
//! built for them (captured at `onPayload`). Each case runs the whole wire stage.

use crate::json;

use super::*;
use crate::wire::test_support::{assert_matches_every_case, built, oracle_cases, values};
use crate::wire::{WireApi, WireModel};

#[test]
fn matches_openclaw_on_every_oracle_case() {
    let cases = oracle_cases(include_str!("oracle_cases.json"), "ollama", 5);
    assert_matches_every_case(&cases, |case| {
        values(&built(WireApi::Ollama, &case.messages, &case.model))
    });
}

#[test]
fn sources_are_kept() {
    let input = WireInput {
        message: Message::from_value(json!({"role": "user", "content": "hi"})).unwrap(),
        source: smallvec::smallvec![4],
    };
    let items = convert(&[input]);
    assert_eq!(items[0].source.to_vec(), vec![4]);
    assert_eq!(items[0].value, json!({"role": "user", "content": "hi"}));
    let _ = WireModel::new("ollama", "ollama", "llama3.1");
}

#[test]
fn arguments_become_objects_with_unsafe_integers_as_strings() {
    assert_eq!(arguments_object(Some(&json!({"a": 1}))), json!({"a": 1}));
    assert_eq!(
        arguments_object(Some(&json!(
            "{\"n\":9007199254740993,\"m\":[-12345678901234567890],\"s\":9007199254740991}"
        ))),
        json!({"n": "9007199254740993", "m": ["-12345678901234567890"], "s": 9007199254740991_u64})
    );
    assert_eq!(arguments_object(Some(&json!("[1]"))), json!({}));
    assert_eq!(arguments_object(Some(&json!("{oops"))), json!({}));
    assert_eq!(arguments_object(None), json!({}));
}

#[test]
fn tool_names_lose_their_namespace_prefix() {
    assert_eq!(tool_name(Some(&json!(" functions.read "))), Some(json!("read")));
    assert_eq!(tool_name(Some(&json!("Tools//exec"))), Some(json!("exec")));
    assert_eq!(tool_name(Some(&json!("tool_x"))), Some(json!("tool_x")));
    assert_eq!(tool_name(None), None);
}

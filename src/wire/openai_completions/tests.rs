//! Expectations are OpenClaw 2026.9.6's own output: `oracle_cases.json` holds message arrays
//! and the `messages` the `openai-completions` transport sent for them
//! (`oracle/openclaw_payload.mjs`, the request body captured at fetch). Each case runs the
//! whole wire stage: the transcript transform, then [`convert`].

use crate::json;

use super::replay::reasoning_model_candidates;
use super::*;
use crate::wire::WireApi;
use crate::wire::test_support::{assert_matches_every_case, built, inputs, oracle_cases, values};

#[test]
fn matches_openclaw_on_every_oracle_case() {
    let cases = oracle_cases(include_str!("oracle_cases.json"), "", 15);
    assert_matches_every_case(&cases, |case| {
        values(&built(WireApi::OpenAiCompletions, &case.messages, &case.model))
    });
}

#[test]
fn tool_images_trace_to_their_results_and_acks_are_synthesized() {
    let model = WireModel::new("openai", "openai-completions", "gpt-5");
    let mut inputs = inputs(&[
        json!({"role": "toolResult", "toolCallId": "a", "toolName": "x", "content": [{"type": "text", "text": "1"}]}),
        json!({"role": "toolResult", "toolCallId": "b", "toolName": "y",
               "content": [{"type": "image", "data": "QUJD", "mimeType": "image/png"}]}),
        json!({"role": "user", "content": "next"}),
    ]);
    for (i, input) in inputs.iter_mut().enumerate() {
        input.source = smallvec::smallvec![i + 10];
    }
    let compat = Compat {
        requires_assistant_after_tool_result: true,
        requires_tool_result_name: true,
        ..Compat::detect(&model)
    };
    let items = convert_with(&inputs, &model, &compat);
    let roles: Vec<&str> = items.iter().map(|i| i.value["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["tool", "tool", "assistant", "user", "user"]);
    assert_eq!(items[1].value["name"], json!("y"));
    assert_eq!(
        items[2].source.to_vec(),
        Vec::<usize>::new(),
        "the acknowledgement is synthesized"
    );
    assert_eq!(
        items[3].source.to_vec(),
        vec![11],
        "the image turn comes from the result with the image"
    );
    assert_eq!(
        items[3].value["content"][0]["text"],
        json!("Image(s) from tool result #2 (y):")
    );
    assert_eq!(items[4].source.to_vec(), vec![12]);
}

#[test]
fn explicit_compat_flags_shape_the_messages() {
    let model = WireModel::new("custom-x", "openai-completions", "m");
    let inputs = inputs(&[
        json!({"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}),
        json!({"role": "assistant", "provider": "custom-x", "api": "openai-completions", "model": "m",
               "content": [{"type": "thinking", "thinking": "t1", "thinkingSignature": "reasoning_content"},
                           {"type": "thinking", "thinking": "t2"}, {"type": "text", "text": "x"}]}),
    ]);
    let thinking_as_text = Compat {
        requires_thinking_as_text: true,
        ..Compat::detect(&model)
    };
    let items = convert_with(&inputs, &model, &thinking_as_text);
    assert_eq!(
        items[1].value,
        json!({"role": "assistant", "content": [{"type": "text", "text": "t1\n\nt2"}, {"type": "text", "text": "x"}]})
    );
    let strict = Compat {
        strict_message_keys: true,
        requires_string_content: true,
        ..Compat::detect(&model)
    };
    let items = convert_with(&inputs, &model, &strict);
    assert_eq!(items[0].value, json!({"role": "user", "content": "a\nb"}));
    assert_eq!(items[1].value, json!({"role": "assistant", "content": "x"}));
}

#[test]
fn tool_call_ids_for_the_transform() {
    let openai = WireModel::new("openai", "openai-completions", "gpt-5");
    let other = WireModel::new("groq", "openai-completions", "llama");
    assert_eq!(normalize_tool_call_id("call_1|fc.1", &openai), "call_1");
    assert_eq!(normalize_tool_call_id("call.😀|x", &other), "call___");
    assert_eq!(normalize_tool_call_id(&"a".repeat(45), &openai).len(), 40);
    assert_eq!(normalize_tool_call_id(&"a".repeat(45), &other).len(), 45);
}

#[test]
fn reasoning_model_candidates_strip_paths_colons_and_tiers() {
    assert_eq!(
        reasoning_model_candidates("Moonshot/Kimi-K2.6:free"),
        ["kimi-k2.6:free", "kimi-k2.6", "free"]
    );
    assert_eq!(
        reasoning_model_candidates("deepseek-v4-pro-trial"),
        ["deepseek-v4-pro-trial", "deepseek-v4-pro"]
    );
    assert!(reasoning_model_candidates("  ").is_empty());
}

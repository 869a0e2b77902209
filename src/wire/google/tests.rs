//! Expectations are OpenClaw 2026.9.6's own output: `oracle_cases.json` holds message arrays
//! and the `contents` that `projectGoogleMessages` (managed replay, as the google plugin calls
//! it) returned for them; cases marked `through_transform` went through the plugin's whole
//! `buildGoogleGenerativeAiParams`.

use crate::json;
use crate::model::json::Value;

use super::*;
use crate::wire::test_support::{assert_matches_every_case, inputs, oracle_cases, values};

fn gemini(id: &str) -> WireModel {
    WireModel::new("google", "google-generative-ai", id)
}

#[test]
fn matches_openclaw_on_every_oracle_case() {
    let cases = oracle_cases(include_str!("oracle_cases.json"), "", 25);
    assert_matches_every_case(&cases, |case| values(&convert(&inputs(&case.messages), &case.model)));
}

#[test]
fn consecutive_tool_results_share_one_content_and_trace_to_all() {
    let messages = [
        json!({"role": "user", "content": "go"}),
        json!({"role": "assistant", "provider": "google", "api": "google-generative-ai", "model": "gemini-2.5-pro",
               "content": [{"type": "toolCall", "id": "a", "name": "x", "arguments": {}},
                           {"type": "toolCall", "id": "b", "name": "y", "arguments": {}}]}),
        json!({"role": "toolResult", "toolCallId": "a", "toolName": "x", "content": [{"type": "text", "text": "1"}]}),
        json!({"role": "toolResult", "toolCallId": "b", "toolName": "y", "isError": true,
               "content": [{"type": "text", "text": "boom"}]}),
    ];
    let items = convert(&inputs(&messages), &gemini("gemini-2.5-pro"));
    assert_eq!(items.len(), 3);
    assert_eq!(items[2].source.to_vec(), vec![2, 3]);
    assert_eq!(
        items[2].value,
        json!({"role": "user", "parts": [
            {"functionResponse": {"name": "x", "response": {"output": "1"}, "id": "a"}},
            {"functionResponse": {"name": "y", "response": {"error": "boom"}, "id": "b"}}
        ]})
    );
}

#[test]
fn tool_result_image_turn_follows_the_run_on_gemini_2() {
    let messages = [
        json!({"role": "toolResult", "toolCallId": "a", "toolName": "shot",
               "content": [{"type": "image", "mimeType": "image/png", "data": "QUJD"}]}),
        json!({"role": "user", "content": "next"}),
    ];
    let items = convert(&inputs(&messages), &gemini("gemini-2.5-flash"));
    assert_eq!(items.len(), 3);
    assert_eq!(
        items[0].value["parts"][0]["functionResponse"]["response"],
        json!({"output": "(see attached image)"})
    );
    assert_eq!(items[1].value["parts"][0], json!({"text": "Tool result image:"}));
    assert_eq!(items[1].source.to_vec(), vec![0]);
    assert_eq!(items[2].source.to_vec(), vec![1]);
}

#[test]
fn empty_conversation_is_one_synthesized_blank_user_turn() {
    let items = convert(&[], &gemini("gemini-2.5-pro"));
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].value, json!({"role": "user", "parts": [{"text": " "}]}));
    assert!(items[0].source.is_empty());
}

#[test]
fn video_blocks_are_inlined_only_for_native_video_types() {
    let messages = [json!({"role": "user", "content": [
        {"type": "video", "mimeType": "video/mp4", "data": "AAAA"},
        {"type": "video", "mimeType": "video/x-matroska", "data": "AAAA"},
        {"type": "file", "mimeType": " Video/MP4", "data": "AAAA"}
    ]})];
    let items = convert(&inputs(&messages), &gemini("gemini-2.5-pro"));
    assert_eq!(
        items[0].value["parts"],
        json!([
            {"inlineData": {"mimeType": "video/mp4", "data": "AAAA"}},
            {"text": "(video omitted: unsupported Google video MIME type)"},
            {"text": "(video omitted: native video slot unavailable)"}
        ])
    );
}

#[test]
fn transport_alias_counts_as_the_same_route() {
    let messages = [
        json!({"role": "assistant", "provider": "google", "api": "openclaw-google-generative-ai-transport",
        "model": "gemini-2.5-pro", "content": [{"type": "thinking", "thinking": "p", "thinkingSignature": "QUJD"}]}),
    ];
    let items = convert(&inputs(&messages), &gemini("gemini-2.5-pro"));
    assert_eq!(
        items[0].value["parts"][0],
        json!({"thought": true, "text": "p", "thoughtSignature": "QUJD"})
    );
}

#[test]
fn model_predicates() {
    assert!(requires_tool_call_id("claude-sonnet-4-6"));
    assert!(requires_tool_call_id("gpt-oss-120b"));
    assert!(!requires_tool_call_id("gemini-2.5-pro"));
    assert!(requires_tool_call_signature("gemini-3-pro-preview"));
    assert!(requires_tool_call_signature("models/gemini-3.1-flash-lite"));
    assert!(requires_tool_call_signature("gemini-flash-latest"));
    assert!(!requires_tool_call_signature("gemini-2.5-pro"));
    assert!(!requires_tool_call_signature("gemini-30-pro"));
    assert!(multimodal_function_response("gemini-3-pro-preview"));
    assert!(multimodal_function_response("claude-sonnet-4-6"));
    assert!(!multimodal_function_response("gemini-live-2.5-flash"));
    assert!(!multimodal_function_response("Gemini-2.0-Flash"));
}

#[test]
fn signatures_must_be_padded_base64() {
    let s = |v: Value| signature(Some(&v));
    assert_eq!(s(json!(" QUJD\n")), Some("QUJD".to_owned()));
    assert_eq!(s(json!("QQ==")), Some("QQ==".to_owned()));
    for bad in [
        json!(""),
        json!("QUJ"),
        json!("Q==="),
        json!("QU=D"),
        json!("msg_01"),
        json!(3),
    ] {
        assert_eq!(s(bad.clone()), None, "{bad}");
    }
}

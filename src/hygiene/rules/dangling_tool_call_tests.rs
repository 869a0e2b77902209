//! Unit tests of `dangling-tool-call` (OpenClaw's `stripDanglingAnthropicToolUses`).

use crate::json;
use crate::model::json::Value;

use super::*;
use crate::hygiene::rules::helpers::turn_merge::testing::{all_borrowed, assert_json, borrowed, list};
use crate::hygiene::rules::test_support::{apply_rule, assert_gate, msgs, resolved};
use crate::hygiene::{Action, ReplayOptions};

fn call(id: &str, name: &str) -> Value {
    json!({"type": "toolCall", "id": id, "name": name, "arguments": {}})
}

fn result(id: &str, name: &str) -> Value {
    json!({"role": "toolResult", "toolCallId": id, "toolName": name, "content": [{"type": "text", "text": "ok"}], "isError": false})
}

fn thinking() -> Value {
    json!({"type": "thinking", "thinking": "plan", "thinkingSignature": "sig"})
}

#[test]
fn gate_is_validate_anthropic_turns() {
    assert_gate(
        &DanglingToolCall,
        &[
            ("anthropic", "anthropic-messages", "claude-sonnet-4-6", true),
            (
                "amazon-bedrock",
                "bedrock-converse-stream",
                "us.anthropic.claude-opus-4-6-v1",
                true,
            ),
            ("custom-responses", "openai-responses", "claude-sonnet-4-6", true),
            ("custom-responses", "openai-responses", "gpt-5.1", false),
            ("google", "google-generative-ai", "gemini-2.5-pro", false),
        ],
    );
}

#[test]
fn removes_only_unmatched_calls_and_keeps_other_blocks() {
    let work = msgs(json!([
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [{"type": "text", "text": "working"}, call("c1", "read"), call("c2", "exec")],
         "stopReason": "toolUse", "timestamp": 5},
        result("c1", "read"),
        {"role": "user", "content": "next"}
    ]));
    let (out, rw) = apply_rule(&DanglingToolCall, work);
    assert_json(
        &out,
        json!([
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [{"type": "text", "text": "working"}, call("c1", "read")],
             "stopReason": "toolUse", "timestamp": 5},
            result("c1", "read"),
            {"role": "user", "content": "next"}
        ]),
    );
    assert_eq!(rw.len(), 1);
    assert_eq!(
        (rw[0].rule, rw[0].action, rw[0].stored.clone()),
        ("dangling-tool-call", Action::Modify, vec![1])
    );
    assert_eq!(
        rw[0].detail,
        "removed tool call c2 (exec) without a result before the next assistant turn"
    );
}

#[test]
fn a_turn_left_empty_gets_the_omitted_text() {
    let work = msgs(json!([
        {"role": "assistant", "content": [call("c1", "read")], "stopReason": "toolUse", "x": 1},
        {"role": "user", "content": "hello"}
    ]));
    let (out, rw) = apply_rule(&DanglingToolCall, work);
    assert_json(
        &out,
        json!([
            {"role": "assistant", "content": [{"type": "text", "text": "[tool calls omitted]"}], "stopReason": "toolUse", "x": 1},
            {"role": "user", "content": "hello"}
        ]),
    );
    assert_eq!(
        rw[0].detail,
        "removed tool call c1 (read) without a result before the next assistant turn; nothing left, content is now `[tool calls omitted]`"
    );
}

#[test]
fn aborted_or_failed_turns_left_empty_get_empty_content() {
    for stop in ["aborted", "error"] {
        let work = msgs(json!([{"role": "assistant", "content": [call("c1", "read")], "stopReason": stop}]));
        let (out, rw) = apply_rule(&DanglingToolCall, work);
        assert_json(&out, json!([{"role": "assistant", "content": [], "stopReason": stop}]));
        assert!(
            rw[0]
                .detail
                .ends_with("content is now empty content (the turn was aborted/failed)")
        );
    }
}

#[test]
fn results_match_through_alias_fields_trimmed_ids_and_user_embedded_blocks() {
    let work = msgs(json!([
        {"role": "assistant", "content": [call("c1", "read"), call("c2", "read"), call(" c3 ", "read"), call("c4", "read")]},
        {"role": "toolResult", "tool_use_id": "c1", "content": []},
        {"role": "tool", "call_id": " c2 ", "content": "x"},
        {"role": "toolResult", "toolCallId": "c3", "content": []},
        {"role": "user", "content": [{"type": "toolResult", "toolUseId": "c4", "content": "ok"}]}
    ]));
    let (out, rw) = apply_rule(&DanglingToolCall, work);
    assert!(rw.is_empty(), "{rw:?}");
    assert_eq!(out[0].block_count(), 4);
}

#[test]
fn the_result_span_ends_at_the_next_assistant_turn() {
    let work = msgs(json!([
        {"role": "assistant", "content": [{"type": "text", "text": "a"}, call("c1", "read")]},
        {"role": "assistant", "content": [{"type": "text", "text": "b"}]},
        result("c1", "read")
    ]));
    let (out, rw) = apply_rule(&DanglingToolCall, work);
    assert_json(
        &out,
        json!([
            {"role": "assistant", "content": [{"type": "text", "text": "a"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "b"}]},
            result("c1", "read")
        ]),
    );
    assert_eq!(rw[0].stored, vec![0]);
}

#[test]
fn thinking_turn_with_every_call_resolved_is_kept() {
    let stored = list(json!([
        {"role": "assistant", "content": [thinking(), call("c1", "read"), call("c2", "exec")]},
        result("c1", "read"),
        {"role": "toolResult", "toolCallId": "c2", "content": [], "isError": false}
    ]));
    let mut work = borrowed(&stored);
    let r = resolved("anthropic", "anthropic-messages", "claude-sonnet-4-6");
    let opts = ReplayOptions::default();
    let ctx = Context {
        resolved: &r,
        options: &opts,
        model_events: &[],
        thinking_level: None,
    };
    let mut rw = Vec::new();
    DanglingToolCall.apply(&ctx, &mut work, &mut rw);
    assert!(rw.is_empty(), "an unnamed result resolves any name");
    assert!(all_borrowed(&work));
}

#[test]
fn thinking_turn_is_replaced_whole_when_a_call_is_unresolved() {
    let cases = [
        (
            json!([result("c1", "write")]),
            "tool call c1 (read) has no matching result: the result for c1 names tool `write`, not `read`",
        ),
        (
            json!([{"role": "user", "content": [{"type": "toolResult", "toolUseId": "c1"}]}]),
            "tool call c1 (read) has no matching result: the result for c1 is only a block embedded in another \
             message, which a turn with thinking blocks does not accept",
        ),
        (
            json!([]),
            "tool call c1 (read) has no matching result before the next assistant turn",
        ),
    ];
    for (after, why) in cases {
        let mut all = vec![
            json!({"role": "assistant", "content": [thinking(), {"type": "text", "text": "t"}, call("c1", "read")],
            "stopReason": "toolUse"}),
        ];
        all.extend(after.as_array().unwrap().iter().cloned());
        let (out, rw) = apply_rule(&DanglingToolCall, msgs(Value::Array(all.into())));
        assert_json(
            &out[..1],
            json!([{"role": "assistant", "content": [{"type": "text", "text": "[tool calls omitted]"}], "stopReason": "toolUse"}]),
        );
        assert_eq!(
            rw[0].detail,
            format!("replaced the content of a turn with thinking blocks by `[tool calls omitted]`: {why}")
        );
    }
}

#[test]
fn thinking_turn_with_a_nameless_call_or_abort_is_replaced() {
    let work = msgs(json!([
        {"role": "assistant", "content": [{"type": "redacted_thinking", "data": "x"}, call("c1", "read"),
            {"type": "toolUse", "id": "c2", "input": {}}], "stopReason": "aborted"},
        result("c1", "read"),
        {"role": "toolResult", "toolCallId": "c2", "toolName": "read", "content": []}
    ]));
    let (out, rw) = apply_rule(&DanglingToolCall, work);
    assert_json(
        &out[..1],
        json!([{"role": "assistant", "content": [], "stopReason": "aborted"}]),
    );
    assert_eq!(
        rw[0].detail,
        "replaced the content of a turn with thinking blocks by empty content (the turn was aborted/failed): \
         tool call c2 has no tool name"
    );
}

#[test]
fn a_result_under_another_tool_name_is_named_in_the_detail() {
    // The result is right there, but for `exec`: a signed turn cannot keep a call to `bash`.
    let work = msgs(json!([
        {"role": "user", "content": "run it"},
        {"role": "assistant", "content": [thinking(), call("call_1", "bash"), call("call_2", "read")],
         "stopReason": "toolUse"},
        result("call_1", "exec"),
        result("call_2", "read"),
        {"role": "assistant", "content": [{"type": "text", "text": "done"}], "stopReason": "stop"}
    ]));
    let (out, rw) = apply_rule(&DanglingToolCall, work);
    assert_json(
        &out[1..2],
        json!([{"role": "assistant", "content": [{"type": "text", "text": "[tool calls omitted]"}], "stopReason": "toolUse"}]),
    );
    assert_eq!(rw.len(), 1);
    assert_eq!(
        rw[0].detail,
        "replaced the content of a turn with thinking blocks by `[tool calls omitted]`: tool call call_1 (bash) \
         has no matching result: the result for call_1 names tool `exec`, not `bash`"
    );
    assert!(
        !rw[0].detail.contains("before the next assistant turn"),
        "{}",
        rw[0].detail
    );
}

#[test]
fn results_under_several_other_names_and_calls_without_an_id_are_explained() {
    let work = msgs(json!([
        {"role": "assistant", "content": [thinking(), call("c1", "bash"),
            {"type": "toolCall", "id": "  ", "name": "read", "arguments": {}}]},
        result("c1", "exec"),
        result("c1", "shell")
    ]));
    let (_, rw) = apply_rule(&DanglingToolCall, work);
    assert_eq!(
        rw[0].detail,
        "replaced the content of a turn with thinking blocks by `[tool calls omitted]`: tool call c1 (bash) has no \
         matching result: the results for c1 name tools `exec` and `shell`, not `bash`; tool call <no id> (read) has no id"
    );
}

#[test]
fn turns_without_identified_calls_are_untouched() {
    let stored = list(json!([
        {"role": "assistant", "content": [{"type": "text", "text": "plain"}]},
        {"role": "assistant", "content": [{"type": "toolCall", "name": "read", "arguments": {}}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "x", "name": "read", "input": {}}]},
        {"role": "assistant", "content": []},
        {"role": "assistant", "content": "string content"}
    ]));
    let mut work = borrowed(&stored);
    let r = resolved("anthropic", "anthropic-messages", "claude-sonnet-4-6");
    let opts = ReplayOptions::default();
    let ctx = Context {
        resolved: &r,
        options: &opts,
        model_events: &[],
        thinking_level: None,
    };
    let mut rw = Vec::new();
    DanglingToolCall.apply(&ctx, &mut work, &mut rw);
    assert!(rw.is_empty());
    assert!(all_borrowed(&work));
}

#[test]
fn idless_calls_and_null_entries_go_with_a_dangling_strip() {
    let work = msgs(json!([
        {"role": "assistant", "content": [null, call("c1", "read"), {"type": "functionCall", "name": "exec", "arguments": {}}]},
        result("c1", "read")
    ]));
    let (out, rw) = apply_rule(&DanglingToolCall, work);
    assert_json(
        &out[..1],
        json!([{"role": "assistant", "content": [call("c1", "read")]}]),
    );
    assert_eq!(
        rw[0].detail,
        "removed tool call <no id> (exec) without a result before the next assistant turn and 1 null/empty content entry"
    );
}

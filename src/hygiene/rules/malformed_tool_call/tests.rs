//! Unit tests of `malformed-tool-call`: one test per bullet of hygiene-a §3.2.

use std::borrow::Cow;

use crate::json;
use crate::model::json::Value;

use super::*;
use crate::hygiene::rules::test_support::{apply_rule, apply_rule_for, msgs, resolved};
use crate::hygiene::{ReplayOptions, WorkingMessage};

/// Apply for an OpenAI chat target (no signed-thinking path) with optional `--tools`.
fn run_b(v: Value, tools: Option<&[&str]>) -> (Vec<Message>, Vec<PendingRewrite>) {
    let opts = ReplayOptions {
        allowed_tools: tools.map(|t| t.iter().map(|s| (*s).to_owned()).collect()),
        ..ReplayOptions::default()
    };
    apply_rule_for(
        &MalformedToolCall,
        msgs(v),
        &resolved("openai", "openai-completions", "gpt-4.1"),
        &opts,
    )
}

/// Apply for the native Anthropic target (signed thinking may be replayed).
fn run_a(v: Value, tools: Option<&[&str]>) -> (Vec<Message>, Vec<PendingRewrite>) {
    let opts = ReplayOptions {
        allowed_tools: tools.map(|t| t.iter().map(|s| (*s).to_owned()).collect()),
        ..ReplayOptions::default()
    };
    let r = resolved("anthropic", "anthropic-messages", "claude-sonnet-4-6");
    apply_rule_for(&MalformedToolCall, msgs(v), &r, &opts)
}

fn json_of(out: &[Message]) -> Value {
    crate::model::json::to_value(&out).unwrap()
}

fn assert_rewrite(rw: &PendingRewrite, action: Action, stored: &[usize], detail: &str) {
    assert_eq!(rw.rule, "malformed-tool-call");
    assert_eq!(rw.action, action);
    assert_eq!(rw.stored, stored);
    assert_eq!(rw.detail, detail);
}

#[test]
fn drops_calls_without_input_or_arguments_and_keeps_empty_payloads() {
    let (out, rw) = run_b(
        json!([{"role": "assistant", "content": [
            {"type": "text", "text": "x"},
            {"type": "toolCall", "id": "c1", "name": "read"},
            {"type": "toolCall", "id": "c2", "name": "read", "arguments": null, "input": null},
            {"type": "toolCall", "id": "c3", "name": "read", "arguments": {}},
            {"type": "function_call", "id": "c4", "name": "read", "arguments": "{}"},
            {"type": "toolUse", "id": "c5", "name": "read", "input": {"p": 1}}
        ], "stopReason": "toolUse"}]),
        None,
    );
    assert_eq!(
        json_of(&out),
        json!([{"role": "assistant", "content": [
            {"type": "text", "text": "x"},
            {"type": "toolCall", "id": "c3", "name": "read", "arguments": {}},
            {"type": "function_call", "id": "c4", "name": "read", "arguments": "{}"},
            {"type": "toolUse", "id": "c5", "name": "read", "input": {"p": 1}}
        ], "stopReason": "toolUse"}])
    );
    assert_eq!(rw.len(), 1);
    assert_rewrite(
        &rw[0],
        Action::Modify,
        &[0],
        "dropped tool call `read` (id `c1`): no input or arguments; \
         dropped tool call `read` (id `c2`): no input or arguments",
    );
}

#[test]
fn drops_calls_without_a_usable_id_in_any_alias_field() {
    let (out, rw) = run_b(
        json!([{"role": "assistant", "content": [
            {"type": "toolCall", "id": "  ", "name": "read", "arguments": {}},
            {"type": "tool_use", "name": "read", "input": {}, "tool_use_id": ""},
            {"type": "tool_call", "name": "read", "arguments": {}, "call_id": "c9"},
            {"type": "toolCall", "id": 5, "name": "read", "arguments": {}, "toolUseId": "u1"}
        ]}]),
        None,
    );
    assert_eq!(
        json_of(&out),
        json!([{"role": "assistant", "content": [
            {"type": "tool_call", "name": "read", "arguments": {}, "call_id": "c9"},
            {"type": "toolCall", "id": 5, "name": "read", "arguments": {}, "toolUseId": "u1"}
        ]}])
    );
    assert_rewrite(
        &rw[0],
        Action::Modify,
        &[0],
        "dropped tool call `read` (no id): no usable id; dropped tool call `read` (no id): no usable id",
    );
}

#[test]
fn name_check_syntax_length_and_type() {
    let long = "a".repeat(65);
    let (out, rw) = run_b(
        json!([{"role": "assistant", "content": [
            {"type": "toolCall", "id": "c1", "name": "mcp:fs.read-file_2", "arguments": {}},
            {"type": "toolCall", "id": "c2", "name": "read file", "arguments": {}},
            {"type": "toolCall", "id": "c3", "name": long, "arguments": {}},
            {"type": "toolCall", "id": "c4", "name": 42, "arguments": {}},
            {"type": "toolCall", "id": "c5", "name": "   ", "arguments": {}}
        ]}]),
        None,
    );
    assert_eq!(
        json_of(&out),
        json!([{"role": "assistant", "content": [
            {"type": "toolCall", "id": "c1", "name": "mcp:fs.read-file_2", "arguments": {}}
        ]}])
    );
    assert_eq!(
        rw[0].detail,
        format!(
            "dropped tool call `read file` (id `c2`): name has characters outside [A-Za-z0-9_:.-]; \
             dropped tool call `{long}` (id `c3`): name is longer than 64 characters; \
             dropped tool call (name 42) (id `c4`): name is not a string; \
             dropped tool call `   ` (id `c5`): name is blank"
        )
    );
}

#[test]
fn allowlist_is_trimmed_lowercased_and_empty_means_none() {
    let transcript = json!([{"role": "assistant", "content": [
        {"type": "toolCall", "id": "c1", "name": "Read", "arguments": {}},
        {"type": "toolCall", "id": "c2", "name": "exec", "arguments": {}}
    ]}]);
    let (out, rw) = run_b(transcript.clone(), Some(&[" READ ", ""]));
    assert_eq!(
        json_of(&out),
        json!([{"role": "assistant", "content": [
            {"type": "toolCall", "id": "c1", "name": "Read", "arguments": {}}
        ]}])
    );
    assert_eq!(
        rw[0].detail,
        "dropped tool call `exec` (id `c2`): tool is not in the current tool list"
    );
    let (out, rw) = run_b(transcript.clone(), Some(&["  ", ""]));
    assert_eq!(json_of(&out), transcript);
    assert!(rw.is_empty());
}

#[test]
fn completed_calls_keep_history_when_their_tool_left_the_list() {
    let (out, rw) = run_b(
        json!([
            {"role": "assistant", "content": [
                {"type": "toolCall", "id": "c1", "name": "exec", "arguments": {}},
                {"type": "toolCall", "id": "c2", "name": "exec", "arguments": {}},
                {"type": "toolCall", "id": "c3", "name": "bad name", "arguments": {}}
            ]},
            {"role": "toolResult", "toolCallId": " c1 ", "toolName": "exec", "content": [], "isError": false},
            {"role": "toolResult", "toolCallId": "c2", "toolName": "exec", "content": [], "isError": true,
             "details": {"openclawSyntheticMissingToolResult": true}},
            {"role": "toolResult", "toolCallId": "c3", "toolName": "bad name", "content": [], "isError": false}
        ]),
        Some(&["read"]),
    );
    let content = out[0].content().unwrap();
    assert_eq!(
        content,
        &json!([{"type": "toolCall", "id": "c1", "name": "exec", "arguments": {}}])
    );
    assert_rewrite(
        &rw[0],
        Action::Modify,
        &[0],
        "dropped tool call `exec` (id `c2`): tool is not in the current tool list; \
         dropped tool call `bad name` (id `c3`): name has characters outside [A-Za-z0-9_:.-]",
    );
}

#[test]
fn finalized_responses_call_keeps_arguments_and_loses_partial_json() {
    let (out, rw) = run_b(
        json!([{"role": "assistant", "content": [
            {"type": "toolCall", "id": "call_a|fc_1", "name": "read", "arguments": {"p": 1}, "partialJson": "{\"p\":1}", "z": 0},
            {"type": "toolCall", "id": "call_b|fc_2", "name": "read", "arguments": {}, "partialJson": "  "},
            {"type": "toolCall", "id": "call_c|fc_3", "name": "read", "arguments": {"p": 1}, "partialJson": "{\"p\":"},
            {"type": "toolCall", "id": "call_d", "name": "read", "arguments": {}, "partialJson": "{}"},
            {"type": "toolCall", "id": "|fc_5", "name": "read", "arguments": {}, "partialJson": "{}"},
            {"type": "toolCall", "id": "call_f|", "name": "read", "arguments": {}, "partialJson": "{}"},
            {"type": "toolCall", "id": "call_g|fc_7", "name": "read", "arguments": {}, "input": {}, "partialJson": "{}"},
            {"type": "toolCall", "id": "call_h|fc_8", "name": "read", "arguments": [], "partialJson": "{}"}
        ], "stopReason": "toolUse"}]),
        None,
    );
    assert_eq!(
        json_of(&out),
        json!([{"role": "assistant", "content": [
            {"type": "toolCall", "id": "call_a|fc_1", "name": "read", "arguments": {"p": 1}, "z": 0},
            {"type": "toolCall", "id": "call_b|fc_2", "name": "read", "arguments": {}}
        ], "stopReason": "toolUse"}])
    );
    let expected = [
        "removed `partialJson` from finalized Responses call `read` (id `call_a|fc_1`)",
        "removed `partialJson` from finalized Responses call `read` (id `call_b|fc_2`)",
        "dropped tool call `read` (id `call_c|fc_3`): unfinished streaming call (`partialJson`)",
        "dropped tool call `read` (id `call_d`): unfinished streaming call (`partialJson`)",
        "dropped tool call `read` (id `|fc_5`): unfinished streaming call (`partialJson`)",
        "dropped tool call `read` (id `call_f|`): unfinished streaming call (`partialJson`)",
        "dropped tool call `read` (id `call_g|fc_7`): unfinished streaming call (`partialJson`)",
        "dropped tool call `read` (id `call_h|fc_8`): unfinished streaming call (`partialJson`)",
    ];
    assert_rewrite(&rw[0], Action::Modify, &[0], &expected.join("; "));
}

#[test]
fn partial_json_call_is_dropped_unless_the_turn_stopped_for_tool_use() {
    let (out, rw) = run_b(
        json!([
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [
                {"type": "toolCall", "id": "call_a|fc_1", "name": "read", "arguments": {}, "partialJson": "{}"}
            ], "stopReason": "error"}
        ]),
        None,
    );
    assert_eq!(json_of(&out), json!([{"role": "user", "content": "go"}]));
    assert_rewrite(
        &rw[0],
        Action::Drop,
        &[1],
        "dropped assistant turn left empty: \
         dropped tool call `read` (id `call_a|fc_1`): unfinished streaming call (`partialJson`)",
    );
}

#[test]
fn names_with_surrounding_whitespace_are_trimmed_in_place() {
    let (out, rw) = run_b(
        json!([{"role": "assistant", "content": [
            {"type": "toolCall", "id": "c1", "name": " read\n", "arguments": {}, "extra": true}
        ], "usage": {"input": 1}}]),
        None,
    );
    assert_eq!(
        serde_json::to_string(&out[0]).unwrap(),
        r#"{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{},"extra":true}],"usage":{"input":1}}"#
    );
    assert_rewrite(&rw[0], Action::Modify, &[0], "trimmed tool name ` read\n` → `read`");
}

#[test]
fn assistant_left_empty_is_dropped_but_empty_to_begin_with_is_kept() {
    let (out, rw) = run_b(
        json!([
            {"role": "assistant", "content": []},
            {"role": "assistant", "content": [{"type": "toolCall", "name": "read", "arguments": {}}]},
            {"role": "assistant", "content": "plain string content"},
            {"role": "user", "content": [{"type": "toolCall", "name": "read"}]}
        ]),
        None,
    );
    assert_eq!(
        json_of(&out),
        json!([
            {"role": "assistant", "content": []},
            {"role": "assistant", "content": "plain string content"},
            {"role": "user", "content": [{"type": "toolCall", "name": "read"}]}
        ])
    );
    assert_eq!(rw.len(), 1);
    assert_rewrite(
        &rw[0],
        Action::Drop,
        &[1],
        "dropped assistant turn left empty: dropped tool call `read` (no id): no usable id",
    );
}

#[test]
fn unchanged_transcript_stays_borrowed() {
    let stored: Vec<Message> = [
        json!({"role": "user", "content": "hi"}),
        json!({"role": "assistant", "content": [
            {"type": "thinking", "thinking": "t", "thinkingSignature": "s"},
            {"type": "toolCall", "id": "toolu_1", "name": "read", "arguments": {}}]}),
        json!({"role": "toolResult", "toolCallId": "toolu_1", "toolName": "read", "content": [], "isError": false}),
    ]
    .into_iter()
    .map(|v| Message::from_value(v).unwrap())
    .collect();
    let mut work = Working::default();
    for (i, m) in stored.iter().enumerate() {
        let uid = work.fresh_uid();
        work.messages.push(WorkingMessage {
            uid,
            message: Cow::Borrowed(m),
            source: vec![i],
        });
    }
    let r = resolved("anthropic", "anthropic-messages", "claude-sonnet-4-6");
    let opts = ReplayOptions::default();
    let ctx = Context {
        resolved: &r,
        options: &opts,
        model_events: &[],
        thinking_level: None,
    };
    let mut rw = Vec::new();
    MalformedToolCall.apply(&ctx, &mut work, &mut rw);
    assert!(rw.is_empty());
    assert!(work.messages.iter().all(|m| matches!(m.message, Cow::Borrowed(_))));
}

/// A signed-thinking assistant turn with the given tool-call blocks.
fn signed(calls: Value) -> Value {
    let mut content = vec![json!({"type": "thinking", "thinking": "plan", "thinkingSignature": "sig"})];
    content.extend(calls.as_array().unwrap().iter().cloned());
    json!({"role": "assistant", "content": content, "stopReason": "toolUse"})
}

fn result(id: &str) -> Value {
    json!({"role": "toolResult", "toolCallId": id, "toolName": "read", "content": [], "isError": false})
}

#[test]
fn safe_signed_turn_is_kept_byte_identical() {
    let v = json!([
        signed(json!([{"type": "toolCall", "id": "toolu_1", "name": "read", "arguments": {}}])),
        result("toolu_1")
    ]);
    let (out, rw) = run_a(v.clone(), None);
    assert_eq!(json_of(&out), v);
    assert!(rw.is_empty());
}

#[test]
fn unsafe_signed_turn_is_dropped_whole_never_trimmed() {
    let cases = [
        (
            json!([{"type": "toolCall", "id": "toolu_1", "name": "read"}]),
            "tool call `read` (id `toolu_1`) has no input or arguments",
        ),
        (
            json!([{"type": "toolCall", "id": "toolu_1|x", "name": "read", "arguments": {}, "partialJson": "{}"}]),
            "tool call `read` (id `toolu_1|x`) carries streaming `partialJson`",
        ),
        (
            json!([{"type": "toolCall", "call_id": "toolu_1", "name": "read", "arguments": {}}]),
            "tool call `read` (id `toolu_1`) has no `id`",
        ),
        (
            json!([{"type": "toolCall", "id": "toolu_1", "name": "read", "arguments": {}},
                   {"type": "toolCall", "id": "toolu_1 ", "name": "read", "arguments": {}}]),
            "tool call `read` (id `toolu_1 `) repeats id `toolu_1` inside the turn",
        ),
        (
            json!([{"type": "toolCall", "id": "toolu_1", "name": " read", "arguments": {}}]),
            "tool call ` read` (id `toolu_1`) name needs trimming",
        ),
        (
            json!([{"type": "toolCall", "id": "toolu_1", "name": "exec", "arguments": {}}]),
            "tool call `exec` (id `toolu_1`) tool is not in the current tool list",
        ),
    ];
    for (calls, reason) in cases {
        let v = json!([{"role": "user", "content": "go"}, signed(calls)]);
        let (out, rw) = run_a(v, Some(&["read"]));
        assert_eq!(json_of(&out), json!([{"role": "user", "content": "go"}]), "{reason}");
        assert_eq!(rw.len(), 1);
        assert_rewrite(
            &rw[0],
            Action::Drop,
            &[1],
            &format!("dropped signed-thinking turn: {reason}; a signed turn is replayed byte-identical or not at all"),
        );
    }
}

#[test]
fn signed_turn_with_a_completed_call_keeps_it_when_the_tool_left_the_list() {
    let v = json!([
        signed(json!([{"type": "toolCall", "id": "toolu_1", "name": "exec", "arguments": {}}])),
        result("toolu_1")
    ]);
    let (out, rw) = run_a(v.clone(), Some(&["read"]));
    assert_eq!(json_of(&out), v);
    assert!(rw.is_empty());
}

#[test]
fn signed_turn_reusing_an_id_kept_by_an_earlier_signed_turn_is_dropped() {
    let call = json!([{"type": "toolCall", "id": "toolu_1", "name": "read", "arguments": {}}]);
    let v = json!([signed(call.clone()), result("toolu_1"), signed(call), result("toolu_1")]);
    let (out, rw) = run_a(v.clone(), None);
    assert_eq!(json_of(&out), json!([v[0], v[1], v[3]]));
    assert_rewrite(
        &rw[0],
        Action::Drop,
        &[2],
        "dropped signed-thinking turn: call id `toolu_1` was already kept by an earlier signed-thinking turn; \
         a signed turn is replayed byte-identical or not at all",
    );
}

#[test]
fn sessions_spawn_with_attachments_needs_a_following_result_for_every_call() {
    let calls = json!([
        {"type": "toolCall", "id": "toolu_1", "name": "sessions_spawn", "input": {"attachments": [{"name": "a.txt"}]}},
        {"type": "toolCall", "id": "toolu_2", "name": "read", "arguments": {}}
    ]);
    let with_both = json!([signed(calls.clone()), result("toolu_1"), result(" toolu_2 ")]);
    let (out, rw) = run_a(with_both.clone(), None);
    assert_eq!(json_of(&out), with_both);
    assert!(rw.is_empty());

    let missing = json!([signed(calls), result("toolu_1"), {"role": "user", "content": "next"}]);
    let (out, rw) = run_a(missing.clone(), None);
    assert_eq!(json_of(&out), json!([missing[1], missing[2]]));
    assert_rewrite(
        &rw[0],
        Action::Drop,
        &[0],
        "dropped signed-thinking turn: it has a `sessions_spawn` call with attachments and call `toolu_2` \
         has no following result; a signed turn is replayed byte-identical or not at all",
    );
}

#[test]
fn displaced_results_drop_a_signed_turn_only_when_an_id_repeats_an_earlier_assistant() {
    let call = json!([{"type": "toolCall", "id": "call_1", "name": "read", "arguments": {}}]);
    let plain = json!({"role": "assistant", "content": [{"type": "toolCall", "id": "call_1", "name": "read", "arguments": {}}]});
    // Displaced (user message before the result) but no earlier assistant used the id: kept.
    let fresh = json!([signed(call.clone()), {"role": "user", "content": "u"}, result("call_1")]);
    let (out, rw) = run_a(fresh.clone(), None);
    assert_eq!(json_of(&out), fresh);
    assert!(rw.is_empty());
    // The same id was called by an earlier (unsigned) assistant: dropped.
    let repeated = json!([plain, result("call_1"), signed(call), {"role": "user", "content": "u"}, result("call_1")]);
    let (out, rw) = run_a(repeated.clone(), None);
    assert_eq!(
        json_of(&out),
        json!([repeated[0], repeated[1], repeated[3], repeated[4]])
    );
    assert_rewrite(
        &rw[0],
        Action::Drop,
        &[2],
        "dropped signed-thinking turn: its results are displaced and call id `call_1` already appeared in an \
         earlier assistant; a signed turn is replayed byte-identical or not at all",
    );
}

#[test]
fn without_signed_replay_a_thinking_turn_is_trimmed_block_by_block() {
    let v = json!([signed(json!([
        {"type": "toolCall", "id": "c1", "name": "read"},
        {"type": "toolCall", "id": "c2", "name": "read", "arguments": {}}
    ]))]);
    let (out, rw) = run_b(v, None);
    assert_eq!(
        json_of(&out),
        json!([signed(
            json!([{"type": "toolCall", "id": "c2", "name": "read", "arguments": {}}])
        )])
    );
    assert_rewrite(
        &rw[0],
        Action::Modify,
        &[0],
        "dropped tool call `read` (id `c1`): no input or arguments",
    );
    // The default test target is the signed one; a bad call there drops the whole turn.
    let (out, _) = apply_rule(
        &MalformedToolCall,
        msgs(json!([signed(
            json!([{"type": "toolCall", "id": "c1", "name": "read"}])
        )])),
    );
    assert!(out.is_empty());
}

#[test]
fn a_legacy_result_without_id_counts_as_following_result_of_a_lone_call() {
    let calls = json!([
        {"type": "toolCall", "id": "toolu_1", "name": "sessions_spawn", "input": {"attachments": [{"name": "a.txt"}]}}
    ]);
    let legacy = json!({"role": "toolResult", "toolName": "sessions_spawn", "content": [], "isError": false});
    let v = json!([signed(calls.clone()), legacy]);
    let (out, rw) = run_a(v.clone(), None);
    assert_eq!(json_of(&out), v);
    assert!(rw.is_empty());
    // Conflicting names: nothing is adopted, so the call has no following result.
    let other = json!({"role": "toolResult", "toolName": "read", "content": [], "isError": false});
    let (out, rw) = run_a(json!([signed(calls), other]), None);
    assert_eq!(out.len(), 1);
    assert_eq!(rw[0].action, Action::Drop);
}

#[test]
fn up_to_2026_9_4_completed_calls_get_the_name_check_too() {
    let transcript = json!([
        {"role": "assistant", "content": [
            {"type": "toolCall", "id": "c1", "name": "exec", "arguments": {}}
        ]},
        {"role": "toolResult", "toolCallId": "c1", "toolName": "exec", "content": [], "isError": false}
    ]);
    let opts = |set| ReplayOptions {
        allowed_tools: Some(vec!["read".to_owned()]),
        rule_set: set,
        ..ReplayOptions::default()
    };
    let r = resolved("openai", "openai-completions", "gpt-4.1");
    let (_, rw) = apply_rule_for(
        &MalformedToolCall,
        msgs(transcript.clone()),
        &r,
        &opts(&crate::rule_set::V2026_9_6),
    );
    assert!(rw.is_empty(), "2026.9.5 and later exempt the completed call: {rw:?}");
    let (out, rw) = apply_rule_for(
        &MalformedToolCall,
        msgs(transcript),
        &r,
        &opts(&crate::rule_set::V2026_9_3),
    );
    assert_eq!(out.len(), 1, "the emptied assistant turn goes");
    assert_eq!((rw[0].action, rw[0].stored.as_slice()), (Action::Drop, &[0][..]));
    assert!(
        rw[0].detail.contains("not in the current tool list"),
        "{}",
        rw[0].detail
    );
}

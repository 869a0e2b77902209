//! Unit tests of `tool-call-id` (hygiene-a §3.3). Every sha256-derived id was computed
//! independently with `python3 -c 'import hashlib; ...hexdigest()[:n]'` and hard-coded.

use std::borrow::Cow;

use crate::json;

use super::*;
use crate::hygiene::rules::test_support::{apply_rule_for, msgs, resolved};
use crate::hygiene::{Action, ReplayOptions, WorkingMessage};
use crate::policy::ResolvedPolicy;

fn anthropic() -> ResolvedPolicy {
    resolved("anthropic", "anthropic-messages", "claude-sonnet-4-6")
}

fn run(r: &ResolvedPolicy, v: Value) -> (Value, Vec<PendingRewrite>) {
    let (out, rw) = apply_rule_for(&ToolCallId, msgs(v), r, &ReplayOptions::default());
    (crate::model::json::to_value(&out).unwrap(), rw)
}

fn enabled_for(r: &ResolvedPolicy) -> bool {
    let opts = ReplayOptions::default();
    ToolCallId.enabled(&Context {
        resolved: r,
        options: &opts,
        model_events: &[],
        thinking_level: None,
    })
}

fn call(id: &str) -> Value {
    json!({"role": "assistant", "content": [{"type": "toolCall", "id": id, "name": "read", "arguments": {}}], "timestamp": 10})
}

fn result(id: &str) -> Value {
    json!({"role": "toolResult", "toolCallId": id, "toolName": "read", "content": [], "isError": false})
}

fn assert_rewrite(rw: &PendingRewrite, stored: usize, detail: &str) {
    assert_eq!(rw.rule, "tool-call-id");
    assert_eq!(rw.action, Action::Modify);
    assert_eq!(rw.stored, vec![stored]);
    assert_eq!(rw.detail, detail);
}

#[test]
fn gate_needs_ids_and_a_mode_and_never_runs_on_responses() {
    assert!(enabled_for(&anthropic()));
    assert!(enabled_for(&resolved(
        "mistral",
        "mistral-conversations",
        "mistral-large-latest"
    )));
    assert!(!enabled_for(&resolved("openai", "openai-responses", "gpt-5.1")));
    // The unowned Responses row sets strict ids, but the Responses family never rewrites them.
    let unowned = resolved("custom-responses", "openai-responses", "gpt-5.1");
    assert!(unowned.policy.sanitize_tool_call_ids);
    assert!(!enabled_for(&unowned));
    assert!(!enabled_for(&resolved("openai", "openai", "gpt-4o")));
    let mut no_mode = anthropic();
    no_mode.policy.tool_call_id_mode = None;
    assert!(!enabled_for(&no_mode));
}

#[test]
fn strict_collision_of_two_raw_ids_keeps_results_apart() {
    let r = resolved(
        "amazon-bedrock",
        "bedrock-converse-stream",
        "us.anthropic.claude-opus-4-6-v1",
    );
    let (out, rw) = run(
        &r,
        json!([
            {"role": "assistant", "content": [
                {"type": "toolCall", "id": "call_1", "name": "read", "arguments": {}},
                {"type": "toolUse", "id": "call-1", "name": "read", "input": {}}]},
            result("call-1"),
            result("call_1")
        ]),
    );
    // `call-1` sanitizes to the taken `call1`: base + sha256("call-1")[:8] = 5d7963c4.
    assert_eq!(
        out,
        json!([
            {"role": "assistant", "content": [
                {"type": "toolCall", "id": "call1", "name": "read", "arguments": {}},
                {"type": "toolUse", "id": "call15d7963c4", "name": "read", "input": {}}]},
            result("call15d7963c4"),
            result("call1")
        ])
    );
    assert_eq!(rw.len(), 3);
    assert_rewrite(
        &rw[0],
        0,
        "tool call ids (strict): `call_1` → `call1`, `call-1` → `call15d7963c4`",
    );
    assert_rewrite(&rw[1], 1, "result id (strict): toolCallId `call-1` → `call15d7963c4`");
    assert_rewrite(&rw[2], 2, "result id (strict): toolCallId `call_1` → `call1`");
}

#[test]
fn responses_style_ids_rewrite_every_alias_field() {
    let (out, rw) = run(
        &anthropic(),
        json!([
            call("call_abc|fc_123"),
            {"role": "toolResult", "toolCallId": "call_abc|fc_123", "toolName": "read", "call_id": "call_abc|fc_123",
             "toolUseId": "other", "content": [], "isError": false}
        ]),
    );
    assert_eq!(out[0]["content"][0]["id"], json!("callabcfc123"));
    assert_eq!(
        serde_json::to_string(&out[1]).unwrap(),
        r#"{"role":"toolResult","toolCallId":"callabcfc123","toolName":"read","call_id":"callabcfc123","toolUseId":"callabcfc123","content":[],"isError":false}"#
    );
    assert_rewrite(&rw[0], 0, "tool call ids (strict): `call_abc|fc_123` → `callabcfc123`");
    assert_rewrite(
        &rw[1],
        1,
        "result id (strict): toolCallId `call_abc|fc_123` → `callabcfc123`, toolUseId `other` → `callabcfc123`, \
         call_id `call_abc|fc_123` → `callabcfc123`",
    );
}

#[test]
fn result_raw_id_priority_prefers_call_id_and_adds_missing_tool_call_id() {
    let (out, rw) = run(
        &anthropic(),
        json!([
            call("a-1"),
            {"role": "toolResult", "toolCallId": "zzz", "call_id": "a-1", "content": [], "isError": false},
            call("b1"),
            {"role": "toolResult", "tool_use_id": "b1", "content": [], "isError": false}
        ]),
    );
    assert_eq!(out[1]["toolCallId"], json!("a1"));
    assert_eq!(out[1]["call_id"], json!("a1"));
    assert_eq!(
        serde_json::to_string(&out[3]).unwrap(),
        r#"{"role":"toolResult","tool_use_id":"b1","content":[],"isError":false,"toolCallId":"b1"}"#
    );
    assert_eq!(rw.len(), 3, "`b1` is already strict; only the result changes");
    assert_rewrite(
        &rw[1],
        1,
        "result id (strict): toolCallId `zzz` → `a1`, call_id `a-1` → `a1`",
    );
    assert_rewrite(&rw[2], 3, "result id (strict): added toolCallId `b1`");
}

#[test]
fn kimi_ids_kept_and_repeats_get_openai_style_ids() {
    let r = resolved("moonshot", "openai-completions", "kimi-k2.6");
    assert_eq!(
        r.policy.duplicate_tool_call_id_style,
        Some(DuplicateToolCallIdStyle::Openai)
    );
    let (out, rw) = run(
        &r,
        json!([
            call("functions.read:0"),
            result("functions.read:0"),
            call("functions.read:0"),
            result("functions.read:0")
        ]),
    );
    // call_ + sha256("functions.read:0:2:0")[:24]
    let second = "call_48530e21d1a951803b2f0bee";
    assert_eq!(out[0]["content"][0]["id"], json!("functions.read:0"));
    assert_eq!(out[1]["toolCallId"], json!("functions.read:0"));
    assert_eq!(out[2]["content"][0]["id"], json!(second));
    assert_eq!(out[3]["toolCallId"], json!(second));
    assert_eq!(rw.len(), 2);
    assert_rewrite(
        &rw[0],
        2,
        &format!("tool call ids (strict): `functions.read:0` → `{second}`"),
    );
    assert_rewrite(
        &rw[1],
        3,
        &format!("result id (strict): toolCallId `functions.read:0` → `{second}`"),
    );
}

#[test]
fn openai_style_keeps_first_call_ids() {
    let r = resolved("moonshot", "openai-completions", "kimi-k2.6");
    let (out, rw) = run(
        &r,
        json!([call("call_1"), result("call_1"), call("call_1"), result("call_1")]),
    );
    // call_ + sha256("call_1:2:0")[:24]
    assert_eq!(out[0]["content"][0]["id"], json!("call_1"));
    assert_eq!(out[2]["content"][0]["id"], json!("call_4905863d919f8881291f8965"));
    assert_eq!(out[3]["toolCallId"], json!("call_4905863d919f8881291f8965"));
    assert_eq!(rw.len(), 2);
}

#[test]
fn mistral_strict9_rejected_and_short_ids() {
    let r = resolved("mistral", "mistral-conversations", "mistral-large-latest");
    let (out, rw) = run(
        &r,
        json!([
            call("call_49c89af0"),
            result("call_49c89af0"),
            call("t1"),
            result("t1"),
            result("ghost")
        ]),
    );
    assert_eq!(out[0]["content"][0]["id"], json!("call49c89"));
    assert_eq!(out[1]["toolCallId"], json!("call49c89"));
    // sha256("t1")[:9]
    assert_eq!(out[2]["content"][0]["id"], json!("628b49d96"));
    assert_eq!(out[3]["toolCallId"], json!("628b49d96"));
    // Orphan: seed `ghost:tool_result:1` → first 9 alphanumerics.
    assert_eq!(out[4]["toolCallId"], json!("ghosttool"));
    assert_rewrite(&rw[0], 0, "tool call ids (strict9): `call_49c89af0` → `call49c89`");
    assert_rewrite(&rw[2], 2, "tool call ids (strict9): `t1` → `628b49d96`");
    assert_rewrite(&rw[4], 4, "result id (strict9): toolCallId `ghost` → `ghosttool`");
}

#[test]
fn repeated_raw_ids_across_turns_stay_with_their_occurrence() {
    let (out, rw) = run(
        &anthropic(),
        json!([call("call_1"), result("call_1"), call("call_1"), result("call_1")]),
    );
    assert_eq!(out[0]["content"][0]["id"], json!("call1"));
    assert_eq!(out[1]["toolCallId"], json!("call1"));
    assert_eq!(out[2]["content"][0]["id"], json!("call12"));
    assert_eq!(out[3]["toolCallId"], json!("call12"));
    assert_rewrite(&rw[2], 2, "tool call ids (strict): `call_1` → `call12`");
}

#[test]
fn native_anthropic_ids_kept_once_on_anthropic_but_not_on_bedrock() {
    let v = json!([
        call("toolu_01A"),
        result("toolu_01A"),
        call("toolu_01A"),
        result("toolu_01A")
    ]);
    let (out, rw) = run(&anthropic(), v.clone());
    assert_eq!(out[0]["content"][0]["id"], json!("toolu_01A"));
    assert_eq!(out[2]["content"][0]["id"], json!("toolu01A2"));
    assert_eq!(out[3]["toolCallId"], json!("toolu01A2"));
    assert_eq!(rw.len(), 2);
    let bedrock = resolved(
        "amazon-bedrock",
        "bedrock-converse-stream",
        "us.anthropic.claude-opus-4-6-v1",
    );
    let (out, _) = run(&bedrock, v);
    assert_eq!(out[0]["content"][0]["id"], json!("toolu01A"));
    assert_eq!(out[1]["toolCallId"], json!("toolu01A"));
}

#[test]
fn orphan_results_use_the_tool_result_seed() {
    let (out, rw) = run(
        &anthropic(),
        json!([result("gh-1"), result("gh-1"), result("toolu_9"), result("toolu_9")]),
    );
    assert_eq!(out[0]["toolCallId"], json!("gh1toolresult1"));
    assert_eq!(out[1]["toolCallId"], json!("gh1toolresult2"));
    assert_eq!(out[2]["toolCallId"], json!("toolu_9"));
    assert_eq!(out[3]["toolCallId"], json!("toolu9toolresult2"));
    assert_eq!(rw.len(), 3);
}

fn signed(id: &str, name: &str) -> Value {
    json!({"role": "assistant", "content": [
        {"type": "thinking", "thinking": "plan", "thinkingSignature": "sig"},
        {"type": "toolCall", "id": id, "name": name, "arguments": {}}], "stopReason": "toolUse"})
}

#[test]
fn replay_safe_signed_turns_keep_their_ids() {
    let v = json!([
        signed("call|1", "read"),
        result("call|1"),
        call("call|1"),
        result("call|1"),
        signed("x|2", " read"),
        result("x|2")
    ]);
    let (out, rw) = run(&anthropic(), v.clone());
    assert_eq!(out[0], v[0]);
    assert_eq!(out[1], v[1]);
    assert_eq!(out[2]["content"][0]["id"], json!("call1"));
    assert_eq!(out[3]["toolCallId"], json!("call1"));
    // A name that needs trimming makes the turn unsafe: its id is rewritten.
    assert_eq!(out[4]["content"][1]["id"], json!("x2"));
    assert_eq!(rw.len(), 4);
    assert_rewrite(&rw[0], 2, "tool call ids (strict): `call|1` → `call1`");
    // Without allowProviderOwnedThinkingReplay (an older Claude drops thinking) every id is rewritten.
    let old = resolved("anthropic", "anthropic-messages", "claude-sonnet-4-5-20250929");
    let (out, _) = run(&old, v);
    assert_eq!(out[0]["content"][1]["id"], json!("call1"));
    assert_eq!(out[2]["content"][0]["id"], json!("call12"));
}

#[test]
fn first_signed_turn_claiming_an_id_wins() {
    let v = json!([
        signed("a|1", "read"),
        result("a|1"),
        signed("a|1", "read"),
        result("a|1")
    ]);
    let (out, rw) = run(&anthropic(), v.clone());
    assert_eq!(out[0], v[0]);
    assert_eq!(out[1], v[1]);
    assert_eq!(out[2]["content"][1]["id"], json!("a1"));
    assert_eq!(out[3]["toolCallId"], json!("a1"));
    assert_eq!(rw.len(), 2);
}

#[test]
fn unchanged_transcript_stays_borrowed() {
    let stored: Vec<Message> = [
        call("toolu_1"),
        result("toolu_1"),
        json!({"role": "user", "content": "ok"}),
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
    let r = anthropic();
    let opts = ReplayOptions::default();
    let ctx = Context {
        resolved: &r,
        options: &opts,
        model_events: &[],
        thinking_level: None,
    };
    let mut rw = Vec::new();
    ToolCallId.apply(&ctx, &mut work, &mut rw);
    assert!(rw.is_empty());
    assert!(work.messages.iter().all(|m| matches!(m.message, Cow::Borrowed(_))));
}

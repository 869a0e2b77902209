//! Unit tests of `responses-reasoning`.

use crate::json;

use super::*;
use crate::hygiene::ReplayOptions;
use crate::hygiene::rules::helpers::responses_reasoning_ids::normalize_function_call_id;
use crate::hygiene::rules::test_support::{apply_rule_with_events, msgs, resolved};
use crate::model::{ModelEvent, ModelRef};

fn event(before: usize, model: &str) -> ModelEvent {
    ModelEvent {
        before_message: before,
        model: ModelRef {
            provider: Some("openai".into()),
            api: Some("openai-responses".into()),
            model: Some(model.into()),
        },
        source: "model-snapshot",
    }
}

fn rs(id: &str) -> String {
    json!({"type": "reasoning", "id": id, "encrypted_content": "gAAA", "summary": []}).to_string()
}

fn run(v: crate::model::json::Value, model: &str, events: &[ModelEvent]) -> (Vec<Message>, Vec<PendingRewrite>) {
    apply_rule_with_events(
        &ResponsesReasoning,
        msgs(v),
        &resolved("openai", "openai-responses", model),
        &ReplayOptions::default(),
        events,
    )
}

#[test]
fn drops_reasoning_recorded_before_the_latest_model_switch() {
    let events = [event(0, "gpt-5"), event(3, "gpt-5.1")];
    let (out, rw) = run(
        json!([
            {"role": "user", "content": "q1"},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "", "thinkingSignature": rs("rs_1")},
                {"type": "text", "text": "a", "textSignature": "{\"v\":1,\"id\":\"msg_1\",\"phase\":\"final_answer\"}", "z": 1},
                {"type": "text", "text": "b", "textSignature": "msg_legacy"}
            ]},
            {"role": "assistant", "content": [{"type": "thinking", "thinking": "", "thinkingSignature": rs("rs_2")}, null]},
            {"role": "user", "content": "q2"},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "", "thinkingSignature": rs("rs_3")},
                {"type": "text", "text": "c"}
            ]}
        ]),
        "gpt-5.1",
        &events,
    );
    assert_eq!(out.len(), 4);
    assert_eq!(
        out[1].content().unwrap(),
        &json!([
            {"type": "text", "text": "a", "textSignature": "{\"v\":1,\"phase\":\"final_answer\"}", "z": 1},
            {"type": "text", "text": "b"}
        ])
    );
    assert_eq!(
        out[3].content().unwrap(),
        &json!([{"type": "thinking", "thinking": "", "thinkingSignature": rs("rs_3")}, {"type": "text", "text": "c"}]),
        "after the switch: kept"
    );
    assert_eq!(rw.len(), 2);
    assert_eq!((rw[0].action, rw[0].stored.clone()), (Action::Modify, vec![1]));
    assert_eq!(
        rw[0].detail,
        "dropped replayable reasoning block 0 (rs_1), cleared the paired msg id from the textSignature of text block 1 (kept phase final_answer), removed the paired textSignature of text block 2: recorded before the model switch to openai/openai-responses/gpt-5.1"
    );
    assert_eq!((rw[1].action, rw[1].stored.clone()), (Action::Drop, vec![2]));
    assert_eq!(
        rw[1].detail,
        "dropped turn: nothing left after dropped replayable reasoning block 0 (rs_2), removed empty block 1: recorded before the model switch to openai/openai-responses/gpt-5.1"
    );
}

#[test]
fn a_target_that_differs_from_the_last_model_makes_every_turn_pre_switch() {
    let events = [event(0, "gpt-5")];
    let (out, rw) = run(
        json!([
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "s", "thinkingSignature": rs("rs_1")},
                {"type": "text", "text": "a"}
            ]}
        ]),
        "gpt-5.1",
        &events,
    );
    assert_eq!(out[1].content().unwrap(), &json!([{"type": "text", "text": "a"}]));
    assert_eq!(
        rw[0].detail,
        "dropped replayable reasoning block 0 (rs_1): the target openai/openai-responses/gpt-5.1 differs from the session's last model openai/openai-responses/gpt-5"
    );
    // Same model, no switch: nothing happens.
    let (_, rw) = run(
        json!([{"role": "assistant", "content": [
            {"type": "thinking", "thinking": "s", "thinkingSignature": rs("rs_1")},
            {"type": "text", "text": "a"}
        ]}]),
        "gpt-5",
        &events,
    );
    assert!(rw.is_empty());
}

#[test]
fn drops_orphaned_reasoning_without_a_following_item_in_the_stream_stage() {
    let (out, rw) = apply_rule_with_events(
        &ResponsesOrphanReasoning,
        msgs(json!([
            {"role": "assistant", "content": [
                {"type": "text", "text": "x"},
                {"type": "thinking", "thinking": "", "thinkingSignature": rs("rs_9")}
            ]},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "", "thinkingSignature": rs("rs_a")},
                {"type": "thinking", "thinking": "", "thinkingSignature": rs("rs_b")},
                {"type": "toolCall", "id": "call_1|fc_1", "name": "read", "arguments": {}}
            ]},
            {"role": "toolResult", "toolCallId": "call_1|fc_1", "toolName": "read", "content": []},
            {"role": "assistant", "content": [{"type": "thinking", "thinking": "", "thinkingSignature": rs("rs_c")}]},
            {"role": "assistant", "content": [{"type": "thinking", "thinking": "plain", "thinkingSignature": "sig"}]}
        ])),
        &resolved("openai", "openai-responses", "gpt-5"),
        &ReplayOptions::default(),
        &[],
    );
    assert_eq!(out.len(), 4);
    assert_eq!(out[0].content().unwrap(), &json!([{"type": "text", "text": "x"}]));
    assert_eq!(out[1].block_count(), 3, "reasoning followed by its call: kept");
    assert_eq!(
        out[1].content().unwrap()[2],
        json!({"type": "toolCall", "id": "call_1|fc_1", "name": "read", "arguments": {}}),
        "canonical same-model pair preserved"
    );
    assert_eq!(rw.len(), 2);
    assert_eq!((rw[0].action, rw[0].stored.clone()), (Action::Modify, vec![0]));
    assert_eq!(
        rw[0].detail,
        "dropped orphaned reasoning block 1 (rs_9): no output item follows it in the turn"
    );
    assert_eq!((rw[1].action, rw[1].stored.clone()), (Action::Drop, vec![3]));
    assert_eq!(
        rw[1].detail,
        "dropped turn: nothing left after dropped orphaned reasoning block 0 (rs_c): no output item follows it in the turn"
    );
}

#[test]
fn normalizes_malformed_call_ids_on_calls_and_results() {
    let new_id = normalize_function_call_id("toolu_01.read");
    let (out, rw) = run(
        json!([
            {"role": "assistant", "content": [{"type": "toolUse", "id": "toolu_01.read", "name": "read", "input": {}}]},
            {"role": "toolResult", "toolCallId": "toolu_01.read", "toolUseId": "toolu_01.read", "toolName": "read", "content": []}
        ]),
        "gpt-5",
        &[],
    );
    assert_eq!(out[0].content().unwrap()[0]["id"], json!(new_id));
    assert_eq!(out[1].tool_call_id(), Some(new_id.as_str()));
    assert_eq!(out[1].get("toolUseId"), Some(&json!(new_id)));
    assert_eq!(rw.len(), 2);
    assert_eq!(
        rw[0].detail,
        format!(
            "normalized tool call id toolu_01.read → {new_id}: not a valid OpenAI Responses call_*/fc_* id (≤ 64 characters)"
        )
    );
    assert_eq!(
        rw[1].detail,
        format!(
            "normalized result id toolCallId toolu_01.read → {new_id}, toolUseId toolu_01.read → {new_id}: not a valid OpenAI Responses call_*/fc_* id (≤ 64 characters)"
        )
    );
    assert_eq!(rw[1].stored, vec![1]);
}

#[test]
fn downgrades_fc_pairs_without_preceding_reasoning() {
    let (out, rw) = run(
        json!([
            {"role": "assistant", "content": [
                {"type": "text", "text": "x"},
                {"type": "toolCall", "id": "call_2|fc_2", "name": "read", "arguments": {}}
            ]},
            {"role": "toolResult", "toolCallId": "call_2|fc_2", "toolName": "read", "content": []},
            {"role": "user", "content": "next"},
            {"role": "toolResult", "toolCallId": "call_2|fc_2", "toolName": "read", "content": []}
        ]),
        "gpt-5",
        &[],
    );
    assert_eq!(out[0].content().unwrap()[1]["id"], json!("call_2"));
    assert_eq!(out[1].tool_call_id(), Some("call_2"));
    assert_eq!(
        out[3].tool_call_id(),
        Some("call_2|fc_2"),
        "a user message ends the turn's results"
    );
    assert_eq!(rw.len(), 2);
    assert_eq!(
        rw[0].detail,
        "downgraded tool call id call_2|fc_2 → call_2: no replayable reasoning item precedes it in the turn"
    );
    assert_eq!(
        rw[1].detail,
        "downgraded result id toolCallId call_2|fc_2 → call_2 with its call"
    );
    assert_eq!(rw[1].stored, vec![1]);
}

#[test]
fn gate_is_the_responses_family() {
    let opts = ReplayOptions::default();
    let on = |p: &crate::policy::ResolvedPolicy| {
        ResponsesReasoning.enabled(&Context {
            resolved: p,
            options: &opts,
            model_events: &[],
            thinking_level: None,
        })
    };
    assert!(on(&resolved("openai", "openai-responses", "gpt-5")));
    assert!(on(&resolved("azure-openai", "azure-openai-responses", "gpt-5")));
    assert!(!on(&resolved("openai", "openai-completions", "gpt-5")));
}

#[test]
fn history_stage_keeps_orphaned_reasoning() {
    // OpenClaw 2026.9.6 leaves orphaned reasoning to the transport (the stream stage here).
    let turn = json!([
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "", "thinkingSignature": rs("rs_1")}],
         "stopReason": "aborted"}
    ]);
    let (out, rw) = run(turn, "gpt-5", &[]);
    assert_eq!(out.len(), 2);
    assert!(rw.is_empty(), "{rw:?}");
}

#[test]
fn responses_invariant_matches_openclaw_errors() {
    let m = |v: crate::model::json::Value| Message::from_value(v).unwrap();
    let call = |ids: &[&str]| {
        let blocks: Vec<_> = ids
            .iter()
            .map(|id| json!({"type": "toolCall", "id": id, "name": "read", "arguments": {}}))
            .collect();
        m(json!({"role": "assistant", "content": blocks}))
    };
    let result = |id: &str| m(json!({"role": "toolResult", "toolCallId": id, "content": []}));
    let user = m(json!({"role": "user", "content": "hi"}));
    let ok = [user.clone(), call(&["a", "b"]), result("b"), result(" a ")];
    assert_eq!(invariant_violation(ok.iter()), None);
    // A repeated id inside one turn is one pending call: the second result is an orphan.
    let twice = [user.clone(), call(&["a", "a"]), result("a"), result("a")];
    assert_eq!(
        invariant_violation(twice.iter()).as_deref(),
        Some(
            "invalid_replay_transcript: OpenAI Responses replay contains orphan_tool_result toolCallId=a at message index 3"
        )
    );
    let dangling = [call(&["a"]), user];
    assert_eq!(
        invariant_violation(dangling.iter()).as_deref(),
        Some(
            "invalid_replay_transcript: OpenAI Responses replay contains dangling_tool_call toolCallId=a at message index 0"
        )
    );
}

#[test]
fn up_to_2026_9_1_orphaned_reasoning_goes_already_in_the_history() {
    let transcript = json!([
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "", "thinkingSignature": "{\"type\":\"reasoning\",\"id\":\"rs_77\",\"summary\":[]}"}
        ], "stopReason": "aborted"},
        {"role": "user", "content": "again"}
    ]);
    let run_with = |set| {
        let options = ReplayOptions {
            rule_set: set,
            ..ReplayOptions::default()
        };
        apply_rule_with_events(
            &ResponsesReasoning,
            msgs(transcript.clone()),
            &resolved("openai", "openai-responses", "gpt-5"),
            &options,
            &[],
        )
    };
    let (out, rw) = run_with(&crate::rule_set::V2026_9_2);
    assert_eq!(
        (out.len(), rw.len()),
        (3, 0),
        "2026.9.2 and later leave it to the request stage"
    );
    let (out, rw) = run_with(&crate::rule_set::V2026_8);
    assert_eq!(out.len(), 2, "the turn is left empty and goes");
    assert!(
        rw[0].detail.contains("rs_77") && rw[0].detail.contains("no output item follows"),
        "{}",
        rw[0].detail
    );
}

#[test]
fn in_2026_6_9_and_6_10_the_responses_invariant_is_not_checked() {
    let on = |rule: &ResponsesReplayInvariant, set| {
        crate::hygiene::rules::test_support::enabled_in(rule, ("openai", "openai-responses", "gpt-5"), set)
    };
    assert!(on(&ResponsesReplayInvariant::LEGACY, &crate::rule_set::V2026_6));
    assert!(!on(&ResponsesReplayInvariant::CURRENT, &crate::rule_set::V2026_6));
    assert!(!on(&ResponsesReplayInvariant::LEGACY, &crate::rule_set::V2026_6_9));
    assert!(!on(&ResponsesReplayInvariant::CURRENT, &crate::rule_set::V2026_6_9));
}

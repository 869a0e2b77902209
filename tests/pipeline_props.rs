//! Property tests over random transcripts, for every family preset: the whole pipeline never
//! panics, provenance indices are always valid, and rewrites point at real messages.

use std::collections::HashSet;

use proptest::prelude::*;
use replaylens::hygiene::{Context, ReplayOptions, Working, run};
use replaylens::json;
use replaylens::model::Message;
use replaylens::model::json::Value;
use replaylens::policy::{Family, preset, resolve};

fn id_strategy() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!("call_1")),
        Just(json!("call_2")),
        Just(json!("toolu_01ABC")),
        Just(json!("call_a|fc_b")),
        Just(json!(" call_1 ")),
        Just(json!("functions.read:0")),
        Just(json!("")),
        Just(Value::Null),
        "[a-z_|:.-]{0,50}".prop_map(Value::from),
    ]
}

fn text_strategy() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("   ".to_owned()),
        Just("NO_REPLY".to_owned()),
        Just("[assistant turn failed before producing content]".to_owned()),
        Just("<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>x<<<END_OPENCLAW_INTERNAL_CONTEXT>>>".to_owned()),
        Just("\u{1b}]0;pwned\u{7}".to_owned()),
        ".{0,40}",
    ]
}

fn block_strategy() -> impl Strategy<Value = Value> {
    prop_oneof![
        text_strategy().prop_map(|t| json!({"type": "text", "text": t})),
        (
            text_strategy(),
            prop_oneof![
                Just(json!("c2lnbmF0dXJl")),
                Just(json!("")),
                Just(Value::Null),
                Just(json!("{\"id\":\"rs_1\"}"))
            ]
        )
            .prop_map(|(t, s)| json!({"type": "thinking", "thinking": t, "thinkingSignature": s})),
        Just(json!({"type": "redacted_thinking", "data": "abc"})),
        (
            id_strategy(),
            prop_oneof![Just(json!("read")), Just(json!("bad name!")), Just(Value::Null)],
            any::<bool>()
        )
            .prop_map(|(id, name, args)| {
                let mut b = json!({"type": "toolCall", "id": id, "name": name});
                if args {
                    b["arguments"] = json!({"path": "a"});
                }
                b
            }),
        (id_strategy()).prop_map(
            |id| json!({"type": "toolUse", "id": id, "name": "exec", "input": {}, "thought_signature": "!!"})
        ),
        Just(json!({"type": "image", "data": "aGVsbG8=", "mimeType": "image/png"})),
        Just(json!({"type": "image", "data": "", "mimeType": "image/png"})),
        Just(json!({"type": "future_block", "x": 1})),
        Just(json!(null)),
        Just(json!("loose string")),
    ]
}

fn usage_strategy() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0})),
        Just(json!({"input": 10, "output": 5, "totalTokens": 15})),
        Just(Value::Null),
    ]
}

fn message_strategy() -> impl Strategy<Value = Value> {
    let content = prop_oneof![
        prop::collection::vec(block_strategy(), 0..4).prop_map(Value::from),
        text_strategy().prop_map(Value::from),
        Just(Value::Null),
    ];
    let stop = prop_oneof![
        Just("stop"),
        Just("toolUse"),
        Just("length"),
        Just("error"),
        Just("aborted")
    ];
    prop_oneof![
        content.clone().prop_map(|c| json!({"role": "user", "content": c, "timestamp": 1000})),
        (content.clone(), stop, usage_strategy(), prop_oneof![Just("anthropic"), Just("openclaw"), Just("openai")], prop_oneof![Just("claude-sonnet-4-6"), Just("delivery-mirror"), Just("gpt-5.1")])
            .prop_map(|(c, s, u, p, m)| json!({"role": "assistant", "content": c, "stopReason": s, "usage": u, "provider": p, "model": m, "api": "anthropic-messages", "timestamp": 2000})),
        (id_strategy(), content.clone(), any::<bool>(), any::<bool>()).prop_map(|(id, c, err, details)| {
            let mut m = json!({"role": "toolResult", "toolCallId": id, "toolName": "read", "content": c, "isError": err, "timestamp": 3000});
            if details {
                m["details"] = json!({"openclawSyntheticMissingToolResult": true});
            }
            m
        }),
        Just(json!({"role": "compactionSummary", "summary": "s", "tokensBefore": 10, "timestamp": 1500})),
        Just(json!({"role": "bashExecution", "command": "ls", "output": "x"})),
        Just(json!({"role": "user", "content": "hi", "provenance": {"kind": "inter_session", "sourceSessionKey": "agent:main:x"}})),
    ]
}

fn transcript_strategy() -> impl Strategy<Value = Vec<Message>> {
    prop::collection::vec(message_strategy(), 0..14)
        .prop_map(|v| v.into_iter().map(|m| Message::from_value(m).expect("object")).collect())
}

/// Rules that are not idempotent on their own output in OpenClaw (every other rule is, and
/// the property below checks it). The whole pipeline is not a fixed point of itself either:
/// a later rule can leave work for an earlier one on the next replay (a merge that makes a
/// blank user turn, a drop that makes the history start with an assistant, …), exactly as in
/// OpenClaw, so idempotence is checked rule by rule.
///
/// - `tool-call-id`: an orphan result (no call before it) is renamed `<raw>:tool_result:<m>`
///   (sanitized) on every run; in the pipeline, pairing removes orphans before it runs.
/// - `tool-result-pairing`: as in OpenClaw, the synthetic result of a call whose id has
///   surrounding whitespace never pairs again (result ids are trimmed, call ids are not), so a
///   second run replaces it.
const NOT_IDEMPOTENT: &[&str] = &["tool-call-id", "tool-result-pairing"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn pipeline_never_panics_and_provenance_is_valid(messages in transcript_strategy()) {
        let n = messages.len();
        for &family in Family::all() {
            let resolved = resolve(&preset(family));
            for thinking in [None, Some(true)] {
                let options = ReplayOptions { thinking, ..ReplayOptions::default() };
                let ctx = Context { resolved: &resolved, options: &options, model_events: &[], thinking_level: Some("high") };
                let p = run(Working::from_messages(messages.clone()), &ctx);
                let mut used = HashSet::new();
                for m in &p.messages {
                    for &s in &m.source {
                        prop_assert!(s < n, "{}: source {} out of {}", family.id(), s, n);
                        prop_assert!(used.insert(s), "{}: stored {} used twice", family.id(), s);
                    }
                }
                for rw in &p.rewrites {
                    prop_assert!(rw.stored.iter().all(|&s| s < n));
                    prop_assert!(rw.replay.iter().all(|&r| r < p.messages.len()));
                    prop_assert!(replaylens::hygiene::registry::by_id(rw.rule).is_some());
                }
            }
        }
    }

    #[test]
    fn every_rule_is_idempotent_on_its_own_output(messages in transcript_strategy()) {
        for &family in Family::all() {
            let resolved = resolve(&preset(family));
            let options = ReplayOptions { thinking: Some(true), ..ReplayOptions::default() };
            let ctx = Context { resolved: &resolved, options: &options, model_events: &[], thinking_level: Some("high") };
            for rule in replaylens::hygiene::registry::pipeline() {
                if NOT_IDEMPOTENT.contains(&rule.info().id) || !rule.enabled(&ctx) {
                    continue;
                }
                let mut work = Working::from_messages(messages.clone());
                let mut first = Vec::new();
                rule.apply(&ctx, &mut work, &mut first);
                let once: Vec<Message> = work.iter_messages().cloned().collect();
                let mut again = Vec::new();
                rule.apply(&ctx, &mut work, &mut again);
                let twice: Vec<Message> = work.iter_messages().cloned().collect();
                prop_assert!(
                    again.is_empty() && once == twice,
                    "{}: {} changed its own output again: {:?}",
                    family.id(),
                    rule.info().id,
                    again.iter().map(|r| r.detail.clone()).collect::<Vec<_>>()
                );
            }
        }
    }
}

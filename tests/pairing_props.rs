//! Property tests of `tool-result-pairing` over random transcripts: no panic, honest
//! provenance, idempotence, and the pairing invariant providers require.

use std::collections::HashSet;

use proptest::prelude::*;
use replaylens::json;
use replaylens::model::json::Value;

use replaylens::hygiene::rules::tool_result_pairing::ToolResultPairing;
use replaylens::hygiene::{Action, Context, PendingRewrite, ReplayOptions, Rule, Working};
use replaylens::model::{BlockKind, Message};
use replaylens::openclaw::synthetic::{
    ABORTED_TEXT, LEGACY_MISSING_TOOL_RESULT_TEXT, MISSING_TOOL_RESULT_TEXT, is_synthetic_result,
};
use replaylens::policy::{ResolvedPolicy, Target, resolve};

/// Ids shared by calls and results: plain, repeated, padded and blank.
const IDS: [&str; 6] = ["a", "b", "call_1", " a", "a ", "  "];
const NAMES: [Option<&str>; 4] = [Some("read"), Some(" exec "), Some(""), None];

fn targets() -> Vec<ResolvedPolicy> {
    let t = |p: &str, a: Option<&str>, m: &str| {
        resolve(&Target {
            provider: Some(p.into()),
            api: a.map(Into::into),
            model: Some(m.into()),
        })
    };
    vec![
        t("anthropic", Some("anthropic-messages"), "claude-sonnet-4-6"),
        t("openai", Some("openai-responses"), "gpt-5"),
        t("google", Some("google-generative-ai"), "gemini-2.5-pro"),
        t("mistral", None, "mistral-large-latest"),
        t("acme", None, "x"),
    ]
}

fn id() -> impl Strategy<Value = String> {
    prop::sample::select(IDS.to_vec()).prop_map(str::to_owned)
}

fn name() -> impl Strategy<Value = Option<&'static str>> {
    prop::sample::select(NAMES.to_vec())
}

fn call() -> impl Strategy<Value = Value> {
    (id(), name(), 0..8u8).prop_map(|(id, name, kind)| {
        let mut b = match kind {
            0 => json!({"type": "tool_use", "id": id, "input": {}}),
            1 => json!({"type": "toolUse", "id": id, "input": {}}),
            2 => json!({"type": "functionCall", "id": id, "arguments": "{}"}),
            3 => json!({"type": "toolCall", "id": "", "arguments": {}}),
            _ => json!({"type": "toolCall", "id": id, "arguments": {}}),
        };
        if let Some(n) = name {
            b["name"] = json!(n);
        }
        b
    })
}

fn assistant() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(call(), 0..=3),
        prop::sample::select(vec!["toolUse", "stop", "error", "aborted"]),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(calls, stop, with_text, with_ts)| {
            let mut content = calls;
            if with_text || content.is_empty() {
                content.insert(0, json!({"type": "text", "text": "thinking out loud"}));
            }
            let mut m = json!({"role": "assistant", "content": content, "stopReason": stop});
            if with_ts {
                m["timestamp"] = json!(1_700_000_000_000_i64);
            }
            m
        })
}

fn tool_result() -> impl Strategy<Value = Value> {
    (id(), 0..6u8, name(), 0..4u8, any::<bool>()).prop_map(|(id, id_field, name, body, is_error)| {
        let mut m = json!({"role": "toolResult", "content": [{"type": "text", "text": "output"}], "isError": is_error});
        match id_field {
            0 | 1 => m["toolCallId"] = json!(id),
            2 => m["toolUseId"] = json!(id),
            3 => m["call_id"] = json!(id.trim()),
            4 => m["toolCallId"] = json!(""),
            _ => {}
        }
        if let Some(n) = name {
            m["toolName"] = json!(n);
        }
        match body {
            0 => {
                m["isError"] = json!(true);
                m["details"] = json!({"openclawSyntheticMissingToolResult": true});
            }
            1 => {
                m["isError"] = json!(true);
                m["content"] = json!([{"type": "text", "text": LEGACY_MISSING_TOOL_RESULT_TEXT}]);
            }
            _ => {}
        }
        m
    })
}

fn message() -> impl Strategy<Value = Value> {
    prop_oneof![
        2 => Just(json!({"role": "user", "content": "next"})),
        4 => assistant(),
        5 => tool_result(),
        1 => Just(json!({"role": "custom", "customType": "note", "data": {"k": 1}})),
    ]
}

fn transcript() -> impl Strategy<Value = Vec<Message>> {
    prop::collection::vec(message(), 0..14)
        .prop_map(|v| v.into_iter().map(|m| Message::from_value(m).expect("object")).collect())
}

fn apply(policy: &ResolvedPolicy, work: &mut Working<'_>) -> Vec<PendingRewrite> {
    let options = ReplayOptions::default();
    let ctx = Context {
        resolved: policy,
        options: &options,
        model_events: &[],
        thinking_level: None,
    };
    let mut rewrites = Vec::new();
    if ToolResultPairing.enabled(&ctx) {
        ToolResultPairing.apply(&ctx, work, &mut rewrites);
    }
    rewrites
}

/// The ids of the canonical tool calls with a non-empty string id (not trimmed).
fn call_ids(m: &Message) -> Vec<String> {
    if !m.is_assistant() {
        return Vec::new();
    }
    m.blocks()
        .filter(|b| b.kind().is_canonical_tool_call())
        .filter_map(|b| b.tool_call_id().filter(|s| !s.is_empty()).map(str::to_owned))
        .collect()
}

/// Whether result `r` answers call `id`: a real result by its first trimmed non-empty alias id,
/// a synthetic one by its exact `toolCallId` (it carries the call's raw id).
fn answers(r: &Message, id: &str) -> bool {
    if is_synthetic_result(r) && r.tool_call_id() == Some(id) {
        return true;
    }
    [
        "toolCallId",
        "toolUseId",
        "tool_call_id",
        "tool_use_id",
        "callId",
        "call_id",
    ]
    .iter()
    .filter_map(|f| r.str_field(f))
    .map(str::trim)
    .find(|s| !s.is_empty())
        == Some(id)
}

/// Every tool-call turn is followed by exactly one result per call occurrence, in call order.
fn assert_paired(out: &[Message]) {
    let mut i = 0;
    while i < out.len() {
        let m = &out[i];
        assert!(!m.is_tool_result(), "result at {i} does not follow a tool-call turn");
        let calls = call_ids(m);
        i += 1;
        for id in &calls {
            let r = out.get(i).filter(|r| r.is_tool_result());
            let r = r.unwrap_or_else(|| panic!("call {id:?} of {calls:?} has no result at {i}"));
            assert!(answers(r, id), "result at {i} does not answer call {id:?} of {calls:?}");
            i += 1;
        }
    }
}

fn has_any_tool_call_block(m: &Message) -> bool {
    m.blocks().any(|b| matches!(b.kind(), BlockKind::ToolCall(_)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn pairing_holds_for_every_family(input in transcript(), t in 0..5usize) {
        let policy = &targets()[t];
        let n = input.len();
        let mut work = Working::from_messages(input.clone());
        let rewrites = apply(policy, &mut work);

        // Provenance: valid, each stored index at most once, and every stored index is either
        // in the output or dropped by exactly one rewrite.
        let mut seen = HashSet::new();
        for wm in &work.messages {
            for &s in &wm.source {
                prop_assert!(s < n);
                prop_assert!(seen.insert(s), "stored index {} appears twice", s);
            }
        }
        for r in rewrites.iter().filter(|r| r.action == Action::Drop) {
            prop_assert_eq!(r.stored.len(), 1);
            prop_assert!(seen.insert(r.stored[0]), "dropped index {} is also kept or dropped twice", r.stored[0]);
        }
        prop_assert_eq!(seen.len(), n);

        // Unchanged output records nothing; recorded changes mean a different output.
        let out: Vec<Message> = work.iter_messages().cloned().collect();
        prop_assert_eq!(rewrites.is_empty(), out == input);

        // Inserted synthetics carry the family's text and their owning call's id.
        let text = if policy.target.api.as_deref() == Some("openai-responses") { ABORTED_TEXT } else { MISSING_TOOL_RESULT_TEXT };
        for r in rewrites.iter().filter(|r| r.action == Action::Insert) {
            let wm = work.messages.iter().find(|m| m.uid == r.result[0]).expect("inserted message present");
            prop_assert!(wm.source.is_empty());
            prop_assert!(is_synthetic_result(&wm.message));
            prop_assert_eq!(wm.message.blocks().next().and_then(|b| b.text()), Some(text));
        }

        assert_paired(&out);
        // Failed tool-call turns never survive (erroredAssistantResultPolicy "drop").
        for m in &out {
            let failed = m.stop_reason().is_some_and(|s| s.is_failure());
            prop_assert!(!failed || call_ids(m).is_empty());
        }
        // Assistant turns are never rewritten by this rule.
        for wm in work.messages.iter().filter(|m| m.message.is_assistant() && has_any_tool_call_block(&m.message)) {
            let s = wm.source[0];
            prop_assert_eq!(&*wm.message, &input[s]);
        }

        // Idempotence, except where OpenClaw is not idempotent either: the synthetic result of a
        // call id with surrounding whitespace never pairs again (result ids are trimmed, call ids
        // are not), so each pass replaces it.
        let padded = out.iter().flat_map(call_ids).any(|id| id != id.trim());
        prop_assume!(!padded);
        let mut again = Working::from_messages(out.clone());
        let second = apply(policy, &mut again);
        prop_assert!(second.is_empty(), "second pass recorded {:?}", second);
        let twice: Vec<Message> = again.iter_messages().cloned().collect();
        prop_assert_eq!(twice, out);
    }
}

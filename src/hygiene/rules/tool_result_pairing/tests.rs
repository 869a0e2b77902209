//! Unit tests of `tool-result-pairing`: one test per bullet of hygiene-a §3.4 / §3.5, with
//! hand-written expected transcripts and rewrites.

use std::borrow::Cow;

use crate::json;
use crate::model::json::Value;

use super::ToolResultPairing;
use crate::hygiene::rules::test_support::{apply_rule_for, msgs, resolved};
use crate::hygiene::{Action, Context, ReplayOptions, Rule, Working, WorkingMessage};
use crate::model::Message;
use crate::openclaw::pairing::classify::{ErroredPolicy, Item, Options, plan};
use crate::openclaw::synthetic::{LEGACY_MISSING_TOOL_RESULT_TEXT, MISSING_TOOL_RESULT_TEXT};
use crate::policy::ResolvedPolicy;

mod algorithm;
mod displacement;
mod legacy;

const TS: i64 = 1000;

fn tc(id: &str, name: &str) -> Value {
    json!({"type": "toolCall", "id": id, "name": name, "arguments": {}})
}

fn asst(calls: Value) -> Value {
    json!({"role": "assistant", "content": calls, "stopReason": "toolUse", "timestamp": TS})
}

fn failed(calls: Value, reason: &str) -> Value {
    json!({"role": "assistant", "content": calls, "stopReason": reason, "timestamp": TS})
}

fn text_turn(text: &str) -> Value {
    json!({"role": "assistant", "content": [{"type": "text", "text": text}], "stopReason": "stop"})
}

fn res(id: &str, name: &str, text: &str) -> Value {
    json!({"role": "toolResult", "toolCallId": id, "toolName": name,
           "content": [{"type": "text", "text": text}], "isError": false})
}

fn user(text: &str) -> Value {
    json!({"role": "user", "content": text})
}

/// A synthetic result as this rule writes it (default text, the assistant's timestamp).
fn syn(id: &str, name: &str) -> Value {
    syn_text(id, name, MISSING_TOOL_RESULT_TEXT)
}

fn syn_text(id: &str, name: &str, text: &str) -> Value {
    json!({"role": "toolResult", "toolCallId": id, "toolName": name,
           "content": [{"type": "text", "text": text}],
           "details": {"openclawSyntheticMissingToolResult": true, "reason": "missing_tool_result"},
           "isError": true, "timestamp": TS})
}

/// A result marked synthetic by an earlier repair.
fn marked(id: &str, name: &str, text: &str) -> Value {
    json!({"role": "toolResult", "toolCallId": id, "toolName": name,
           "content": [{"type": "text", "text": text}], "isError": true,
           "details": {"openclawSyntheticMissingToolResult": true}})
}

type Rw = (Action, Vec<usize>, String);

fn rw(action: Action, stored: &[usize], detail: &str) -> Rw {
    (action, stored.to_vec(), detail.to_owned())
}

fn anthropic() -> ResolvedPolicy {
    resolved("anthropic", "anthropic-messages", "claude-sonnet-4-6")
}

/// Apply the rule for a target; checks the shape of every rewrite and that a second pass
/// over the output changes nothing (hygiene-a §3.4 step 5), unless a call id has surrounding
/// whitespace (then, as in OpenClaw, its synthetic result is replaced on every pass).
fn run_for(policy: &ResolvedPolicy, input: Value) -> (Value, Vec<Rw>) {
    let n = input.as_array().map_or(0, |a| a.len());
    let (out, rewrites) = apply_rule_for(&ToolResultPairing, msgs(input), policy, &ReplayOptions::default());
    for p in &rewrites {
        assert_eq!(p.rule, "tool-result-pairing");
        match p.action {
            Action::Insert => assert!(p.stored.is_empty() && p.result.len() == 1 && p.result[0] as usize >= n),
            Action::Drop => assert!(p.result.is_empty() && p.stored.len() == 1),
            _ => assert!(p.result.len() == 1 && p.stored.len() == 1),
        }
    }
    let padded = out
        .iter()
        .any(|m| m.blocks().filter_map(|b| b.str_field("id")).any(|id| id != id.trim()));
    if !padded {
        let again = Working::from_messages(out.clone());
        let (twice, second) = apply_rule_for(&ToolResultPairing, again, policy, &ReplayOptions::default());
        assert_eq!(twice, out, "a second pass changes nothing");
        assert!(second.is_empty(), "a second pass records nothing: {second:?}");
    }
    let summary = rewrites
        .into_iter()
        .map(|p| (p.action, p.stored, p.detail.to_string()))
        .collect();
    (crate::model::json::to_value(&out).unwrap(), summary)
}

fn run(input: Value) -> (Value, Vec<Rw>) {
    run_for(&anthropic(), input)
}

#[test]
fn info_and_gate() {
    let rule = ToolResultPairing;
    assert_eq!(rule.info().id, "tool-result-pairing");
    assert_eq!(
        rule.info().summary,
        "move displaced results, drop duplicates and orphans, synthesize missing results (`aborted` on Responses)"
    );
    for (p, a, m) in [
        ("anthropic", "anthropic-messages", "claude-sonnet-4-6"),
        ("openai", "openai-responses", "gpt-5"),
        ("google", "google-generative-ai", "gemini-2.5-pro"),
        ("mistral", "", "mistral-large-latest"),
        ("somewhere", "", "x"),
    ] {
        let r = resolved(p, a, m);
        let ctx = Context {
            resolved: &r,
            options: &ReplayOptions::default(),
            model_events: &[],
            thinking_level: None,
        };
        assert!(rule.enabled(&ctx), "{p}");
    }
    let mut off = anthropic();
    off.policy.repair_tool_use_result_pairing = false;
    let ctx = Context {
        resolved: &off,
        options: &ReplayOptions::default(),
        model_events: &[],
        thinking_level: None,
    };
    assert!(!rule.enabled(&ctx));
}

#[test]
fn paired_transcript_is_left_untouched_and_borrowed() {
    let stored: Vec<Message> = crate::model::json::from_value(json!([
        user("hi"),
        asst(json!([tc("a", "read"), tc("b", "exec")])),
        res("a", "read", "A"),
        res("b", "exec", "B"),
        text_turn("done"),
        asst(json!([tc("a", "read")])),
        res("a", "read", "again")
    ]))
    .unwrap();
    let mut work = Working::default();
    work.messages = stored
        .iter()
        .enumerate()
        .map(|(i, m)| WorkingMessage {
            uid: i as u32,
            message: Cow::Borrowed(m),
            source: vec![i],
        })
        .collect();
    let r = anthropic();
    let ctx = Context {
        resolved: &r,
        options: &ReplayOptions::default(),
        model_events: &[],
        thinking_level: None,
    };
    let mut rewrites = Vec::new();
    ToolResultPairing.apply(&ctx, &mut work, &mut rewrites);
    assert!(rewrites.is_empty());
    assert_eq!(work.messages.len(), 7);
    assert!(work.messages.iter().all(|m| matches!(m.message, Cow::Borrowed(_))));
    assert!(work.messages.iter().enumerate().all(|(i, m)| m.source == vec![i]));
}

#[test]
fn canonical_spellings_form_frames_snake_case_does_not() {
    let (out, rws) = run(json!([
        {"role": "assistant", "content": [
            {"type": "toolUse", "id": "u", "name": "read", "input": {}},
            {"type": "functionCall", "id": "f", "name": "exec", "arguments": "{}"},
            {"type": "tool_use", "id": "s", "name": "grep", "input": {}}
        ], "timestamp": TS},
        res("u", "read", "U"),
        res("f", "exec", "F"),
        res("s", "grep", "S")
    ]));
    assert_eq!(
        out,
        json!([
            {"role": "assistant", "content": [
                {"type": "toolUse", "id": "u", "name": "read", "input": {}},
                {"type": "functionCall", "id": "f", "name": "exec", "arguments": "{}"},
                {"type": "tool_use", "id": "s", "name": "grep", "input": {}}
            ], "timestamp": TS},
            res("u", "read", "U"),
            res("f", "exec", "F")
        ])
    );
    assert_eq!(
        rws,
        vec![rw(
            Action::Drop,
            &[3],
            "dropped orphan result for s (grep): no tool call with this id is waiting for a result"
        )]
    );
}

#[test]
fn empty_or_non_string_call_ids_are_not_calls() {
    let (out, rws) = run(json!([
        {"role": "assistant", "content": [{"type": "toolCall", "id": "", "name": "read", "arguments": {}},
                                          {"type": "toolCall", "id": 7, "name": "read", "arguments": {}}]},
        res("", "read", "x")
    ]));
    assert_eq!(
        out,
        json!([{"role": "assistant", "content": [{"type": "toolCall", "id": "", "name": "read", "arguments": {}},
                                                {"type": "toolCall", "id": 7, "name": "read", "arguments": {}}]}])
    );
    assert_eq!(
        rws,
        vec![rw(
            Action::Drop,
            &[1],
            "dropped orphan result without a tool-call id: no assistant tool call precedes it"
        )]
    );
}

#[test]
fn repeated_ids_in_one_turn_are_separate_occurrences() {
    let (out, rws) = run(json!([
        asst(json!([tc("a", "read"), tc("a", "read")])),
        res("a", "read", "first")
    ]));
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read"), tc("a", "read")])),
            res("a", "read", "first"),
            syn("a", "read")
        ])
    );
    assert_eq!(
        rws,
        vec![rw(Action::Insert, &[], "synthesized missing result for a (read)")]
    );
}

#[test]
fn repeated_ids_on_later_turns_keep_their_adjacent_results() {
    let (out, rws) = run(json!([
        asst(json!([tc("a", "read")])),
        res("a", "read", "1"),
        asst(json!([tc("a", "read")])),
        res("a", "read", "2")
    ]));
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read")])),
            res("a", "read", "1"),
            asst(json!([tc("a", "read")])),
            res("a", "read", "2")
        ])
    );
    assert!(rws.is_empty());
}

#[test]
fn result_ids_follow_alias_priority_and_are_trimmed() {
    let aliased = json!({"role": "toolResult", "toolCallId": "  ", "tool_use_id": " b ", "call_id": "a",
                         "toolName": "exec", "content": [], "isError": false, "extra": 1});
    let (out, rws) = run(json!([
        asst(json!([tc("a", "read"), tc("b", "exec")])),
        aliased.clone()
    ]));
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read"), tc("b", "exec")])),
            syn("a", "read"),
            aliased
        ])
    );
    assert_eq!(
        rws,
        vec![rw(Action::Insert, &[], "synthesized missing result for a (read)")]
    );
}

#[test]
fn call_ids_are_not_trimmed_so_padded_calls_get_a_synthetic() {
    let (out, rws) = run(json!([asst(json!([tc(" a ", "read")])), res(" a ", "read", "real")]));
    assert_eq!(out, json!([asst(json!([tc(" a ", "read")])), syn(" a ", "read")]));
    assert_eq!(
        rws,
        vec![
            rw(Action::Insert, &[], "synthesized missing result for \" a \" (read)"),
            rw(
                Action::Drop,
                &[1],
                "dropped orphan result for a (read): no tool call with this id is waiting for a result"
            ),
        ]
    );
}

#[test]
fn legacy_text_is_synthetic_only_when_exact() {
    let legacy = json!({"role": "toolResult", "toolCallId": "a", "toolName": "read",
                        "content": [{"type": "text", "text": LEGACY_MISSING_TOOL_RESULT_TEXT}], "isError": true});
    let (out, rws) = run(json!([
        asst(json!([tc("a", "read")])),
        legacy,
        res("a", "read", "real")
    ]));
    assert_eq!(out, json!([asst(json!([tc("a", "read")])), res("a", "read", "real")]));
    assert_eq!(
        rws,
        vec![rw(
            Action::Drop,
            &[1],
            "dropped synthetic result for a (read): a real result for the call follows"
        )]
    );

    let near = json!({"role": "toolResult", "toolCallId": "a", "toolName": "read",
                      "content": [{"type": "text", "text": format!("{LEGACY_MISSING_TOOL_RESULT_TEXT} ")}], "isError": true});
    let (out, rws) = run(json!([
        asst(json!([tc("a", "read")])),
        near.clone(),
        res("a", "read", "real")
    ]));
    assert_eq!(out, json!([asst(json!([tc("a", "read")])), near]));
    assert_eq!(
        rws,
        vec![rw(
            Action::Drop,
            &[2],
            "dropped duplicate result for a (read): the call already has an earlier real result"
        )]
    );
}

#[test]
fn legacy_result_without_id_adopts_the_only_call_and_becomes_an_error() {
    let (out, rws) = run(json!([
        asst(json!([tc("a", "read")])),
        {"role": "toolResult", "toolName": " read", "content": [], "isError": false, "z": 1}
    ]));
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read")])),
            {"role": "toolResult", "toolName": "read", "content": [], "isError": true, "z": 1, "toolCallId": "a"}
        ])
    );
    assert_eq!(
        rws,
        vec![rw(
            Action::Modify,
            &[1],
            "adopted id a of the only tool call of its turn and set isError:true (legacy result without an id); \
             trimmed toolName \" read\" to `read`"
        )]
    );
}

#[test]
fn legacy_adoption_needs_one_call_and_compatible_names() {
    let no_id = |name: &str| json!({"role": "toolResult", "toolName": name, "content": [], "isError": false});
    let (out, rws) = run(json!([asst(json!([tc("a", "read")])), no_id("exec")]));
    assert_eq!(out, json!([asst(json!([tc("a", "read")])), syn("a", "read")]));
    assert_eq!(
        rws,
        vec![
            rw(Action::Insert, &[], "synthesized missing result for a (read)"),
            rw(
                Action::Drop,
                &[1],
                "dropped result without a tool-call id: its toolName `exec` conflicts with `read`, the only tool call of its assistant turn"
            ),
        ]
    );
    let (out, rws) = run(json!([asst(json!([tc("a", "read"), tc("b", "read")])), no_id("read")]));
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read"), tc("b", "read")])),
            syn("a", "read"),
            syn("b", "read")
        ])
    );
    assert_eq!(
        rws,
        vec![
            rw(Action::Insert, &[], "synthesized missing result for a (read)"),
            rw(Action::Insert, &[], "synthesized missing result for b (read)"),
            rw(
                Action::Drop,
                &[1],
                "dropped result without a tool-call id: its assistant turn has 2 tool calls, so the result cannot be assigned"
            ),
        ]
    );
}

#[test]
fn assigned_results_get_their_tool_name_normalised() {
    let named = |id: &str, name: Value| json!({"role": "toolResult", "toolCallId": id, "toolName": name, "content": [], "isError": false});
    let (out, rws) = run(json!([
        asst(json!([tc("a", " read "), tc("b", "exec"), {"type": "toolCall", "id": "c", "arguments": {}}, tc("d", "ls")])),
        named("a", json!(" read ")),
        named("b", json!("")),
        named("c", json!("  ")),
        {"role": "toolResult", "toolCallId": "d", "content": [], "isError": false}
    ]));
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", " read "), tc("b", "exec"), {"type": "toolCall", "id": "c", "arguments": {}}, tc("d", "ls")])),
            named("a", json!("read")),
            named("b", json!("exec")),
            named("c", json!("unknown")),
            {"role": "toolResult", "toolCallId": "d", "content": [], "isError": false, "toolName": "ls"}
        ])
    );
    assert_eq!(
        rws,
        vec![
            rw(Action::Modify, &[1], "trimmed toolName \" read \" to `read`"),
            rw(Action::Modify, &[2], "set blank toolName to `exec` from its call"),
            rw(Action::Modify, &[3], "set blank toolName to `unknown`"),
            rw(Action::Modify, &[4], "set missing toolName to `ls` from its call"),
        ]
    );
}

#[test]
fn up_to_2026_9_6_synthetic_results_carry_the_legacy_text() {
    let transcript = json!([asst(json!([tc("a", "read")])), user("next")]);
    let text = |set| {
        let (out, _) =
            crate::hygiene::rules::test_support::apply_rule_in(&ToolResultPairing, msgs(transcript.clone()), set);
        out[1].content().unwrap()[0]["text"].as_str().unwrap().to_owned()
    };
    assert_eq!(text(crate::rule_set::RuleSet::newest()), MISSING_TOOL_RESULT_TEXT);
    assert_eq!(text(&crate::rule_set::V2026_9_6), LEGACY_MISSING_TOOL_RESULT_TEXT);
}

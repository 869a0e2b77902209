//! Unit tests of the 2026.7 planner (`legacy::plan_legacy`), against what the real release returned.

use crate::json;
use crate::model::json::Value;

use super::{TS, asst, failed, res, tc, user};
use crate::model::Message;
use crate::openclaw::pairing::classify::{ErroredPolicy, Item, Options, Plan};
use crate::openclaw::pairing::legacy::plan_legacy;
use crate::openclaw::synthetic::ABORTED_TEXT;
use crate::openclaw::synthetic::LEGACY_MISSING_TOOL_RESULT_TEXT;

fn opts(responses: bool) -> Options<'static> {
    Options {
        errored: ErroredPolicy::Drop,
        missing_text: if responses {
            ABORTED_TEXT
        } else {
            LEGACY_MISSING_TOOL_RESULT_TEXT
        },
    }
}

/// Apply a plan the way the rule does (each input message taken at most once).
fn apply(input: &[Message], plan: Option<Plan>) -> Vec<Message> {
    let Some(plan) = plan else { return input.to_vec() };
    let mut taken = vec![false; input.len()];
    for (index, _) in &plan.dropped {
        assert!(!std::mem::replace(&mut taken[*index], true), "dropped twice: {index}");
    }
    plan.items
        .into_iter()
        .map(|item| match item {
            Item::Kept { index, change, .. } => {
                assert!(!std::mem::replace(&mut taken[index], true), "kept twice: {index}");
                change.map_or_else(|| input[index].clone(), |(m, _)| m)
            }
            Item::Synthetic { message, .. } | Item::Copy { message, .. } => message,
        })
        .collect()
}

fn run_with(input: Value, responses: bool) -> (Value, Option<Plan>) {
    run_with_opts(input, &opts(responses))
}

fn run_with_opts(input: Value, opts: &Options<'_>) -> (Value, Option<Plan>) {
    let list: Vec<Message> = input
        .as_array()
        .expect("array")
        .iter()
        .map(|m| Message::from_value(m.clone()).expect("object"))
        .collect();
    let view: Vec<&Message> = list.iter().collect();
    let plan = plan_legacy(&view, opts);
    let out = apply(&list, plan.clone());
    (crate::model::json::to_value(&out).unwrap(), plan)
}

// Every expected transcript below is what the real OpenClaw 2026.7.35
// `sanitizeToolUseResultPairing(messages, {erroredAssistantResultPolicy: "drop"})` (plus
// `missingToolResultText: "aborted"` for Responses) returned for the same input, run with
// Node 24 against oracle/releases/2026.7.35; only the synthetic results' `timestamp` differs
// (7.35 writes `Date.now()`, the planner the owning assistant's timestamp).

fn no_id(text: &str) -> Value {
    json!({"role": "toolResult", "content": [{"type": "text", "text": text}], "isError": false})
}

/// A result marked synthetic by an earlier repair.
fn marked(id: &str, name: &str) -> Value {
    json!({"role": "toolResult", "toolCallId": id, "toolName": name,
           "content": [{"type": "text", "text": "aborted"}], "isError": true,
           "details": {"openclawSyntheticMissingToolResult": true}})
}

/// A synthetic result as 7.35 writes it: no `reason` in details, the raw call name.
fn syn(id: &str, name: &str, text: &str) -> Value {
    json!({"role": "toolResult", "toolCallId": id, "toolName": name,
           "content": [{"type": "text", "text": text}],
           "details": {"openclawSyntheticMissingToolResult": true},
           "isError": true, "timestamp": TS})
}

fn run(input: Value) -> (Value, Plan) {
    let (out, plan) = run_with(input, false);
    (out, plan.expect("7.35 changes this transcript"))
}

fn dropped(plan: &Plan) -> Vec<usize> {
    plan.dropped.iter().map(|(i, _)| *i).collect()
}

fn moved(plan: &Plan) -> Vec<usize> {
    plan.items
        .iter()
        .filter_map(|it| match it {
            Item::Kept {
                index, moved: Some(_), ..
            } => Some(*index),
            _ => None,
        })
        .collect()
}

#[test]
fn results_in_the_span_follow_their_calls_and_the_remainder_goes_after() {
    let input = json!([
        asst(json!([tc("a", "read"), tc("b", "exec")])),
        user("u"),
        res("b", "exec", "B"),
        res("a", "read", "A")
    ]);
    let (out, plan) = run(input);
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read"), tc("b", "exec")])),
            res("a", "read", "A"),
            res("b", "exec", "B"),
            user("u")
        ])
    );
    assert!(plan.dropped.is_empty());
    assert_eq!(moved(&plan), vec![3, 1]);
}

#[test]
fn reordering_inside_one_span_alone_is_not_applied() {
    // 7.35 sets neither `changed` nor `moved` for it and returns the input array.
    let input = json!([
        asst(json!([tc("a", "read"), tc("b", "exec")])),
        res("b", "exec", "B"),
        res("a", "read", "A")
    ]);
    assert_eq!(run_with(input.clone(), false), (input, None));
    // With any other change in the transcript, the reordered output is returned.
    let input = json!([
        asst(json!([tc("a", "read"), tc("b", "exec")])),
        res("b", "exec", "B"),
        res("a", " read ", "A")
    ]);
    let (out, plan) = run(input);
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read"), tc("b", "exec")])),
            res("a", "read", "A"),
            res("b", "exec", "B")
        ])
    );
    assert_eq!(moved(&plan), vec![2]);
}

#[test]
fn a_displaced_later_result_moves_up_to_its_call() {
    let input = json!([
        asst(json!([tc("a", "read")])),
        user("u"),
        asst(json!([tc("b", "exec")])),
        res("b", "exec", "B"),
        res("a", "read", "A")
    ]);
    let (out, plan) = run(input);
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read")])),
            res("a", "read", "A"),
            user("u"),
            asst(json!([tc("b", "exec")])),
            res("b", "exec", "B")
        ])
    );
    assert!(plan.dropped.is_empty());
    assert_eq!(moved(&plan), vec![4]);
}

#[test]
fn missing_results_are_synthesized_with_either_text() {
    let calls = json!([
        tc("a", "read"),
        tc("b", " exec "),
        {"type": "toolCall", "id": "c", "arguments": {}}
    ]);
    let input = json!([asst(calls.clone()), res("a", "read", "A")]);
    for (responses, text) in [(false, LEGACY_MISSING_TOOL_RESULT_TEXT), (true, ABORTED_TEXT)] {
        let (out, plan) = run_with(input.clone(), responses);
        assert_eq!(
            out,
            json!([
                asst(calls.clone()),
                res("a", "read", "A"),
                syn("b", " exec ", text),
                syn("c", "unknown", text)
            ])
        );
        let plan = plan.unwrap();
        assert!(matches!(&plan.items[2], Item::Synthetic { owner: 0, .. }));
    }
}

#[test]
fn duplicates_are_dropped_and_the_first_result_wins() {
    let input = json!([
        asst(json!([tc("a", "read")])),
        res("a", "read", "first"),
        res("a", "read", "second"),
        asst(json!([tc("b", "exec")])),
        res("b", "exec", "B"),
        res("a", "read", "third")
    ]);
    let (out, plan) = run(input);
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read")])),
            res("a", "read", "first"),
            asst(json!([tc("b", "exec")])),
            res("b", "exec", "B")
        ])
    );
    assert_eq!(dropped(&plan), vec![2, 5]);
}

#[test]
fn a_repeated_call_id_gets_no_second_result() {
    let input = json!([
        asst(json!([tc("a", "read")])),
        res("a", "read", "A1"),
        asst(json!([tc("a", "read")])),
        res("a", "read", "A2")
    ]);
    let (out, plan) = run(input);
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read")])),
            res("a", "read", "A1"),
            asst(json!([tc("a", "read")]))
        ])
    );
    assert_eq!(dropped(&plan), vec![3]);
}

#[test]
fn orphans_before_any_call_and_unknown_ids_are_dropped() {
    let input = json!([
        user("u"),
        res("a", "read", "early"),
        asst(json!([tc("a", "read")])),
        res("a", "read", "A"),
        res("zzz", "read", "Z"),
        {"role": "toolResult", "content": [{"type": "text", "text": "N"}], "isError": false}
    ]);
    let (out, plan) = run(input);
    assert_eq!(
        out,
        json!([user("u"), asst(json!([tc("a", "read")])), res("a", "read", "A")])
    );
    // The result without an id adopts `a`, which already has a result: a duplicate.
    assert_eq!(dropped(&plan), vec![1, 4, 5]);
    assert!(plan.dropped[0].1.contains("no assistant tool call precedes it"));
}

#[test]
fn errored_and_aborted_turns_are_dropped_with_their_results() {
    let input = json!([
        user("u"),
        failed(json!([tc("a", "read")]), "error"),
        res("a", "read", "A"),
        user("v"),
        failed(json!([tc("b", "exec")]), "aborted"),
        res("b", "exec", "B"),
        res("zzz", "x", "Z")
    ]);
    let (out, plan) = run(input);
    assert_eq!(out, json!([user("u"), user("v")]));
    assert_eq!(dropped(&plan), vec![1, 2, 4, 5, 6]);
    assert!(plan.dropped[0].1.contains("stopReason `error`"));
}

#[test]
fn a_call_with_an_empty_id_is_no_call() {
    // The block stays; the turn's only call is `a`, so a result without an id adopts it.
    let calls = json!([tc("a", "read"), tc("", "exec")]);
    let (out, _) = run(json!([asst(calls.clone()), no_id("N")]));
    assert_eq!(
        out,
        json!([
            asst(calls),
            {"role": "toolResult", "content": [{"type": "text", "text": "N"}], "isError": true,
             "toolCallId": "a", "toolName": "read"}
        ])
    );
    // A turn whose only call has an empty id opens no span: its result is an orphan.
    let only = json!([tc("", "exec")]);
    let (out, plan) = run(json!([asst(only.clone()), res("", "exec", "E"), user("u")]));
    assert_eq!(out, json!([asst(only), user("u")]));
    assert_eq!(dropped(&plan), vec![1]);
}

#[test]
fn a_synthetic_result_is_replaced_by_a_real_one_found_later() {
    let input = json!([
        asst(json!([tc("a", "read")])),
        marked("a", "read"),
        user("u"),
        asst(json!([tc("b", "exec")])),
        res("b", "exec", "B"),
        res("a", "read", "A")
    ]);
    let (out, plan) = run(input);
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read")])),
            res("a", "read", "A"),
            user("u"),
            asst(json!([tc("b", "exec")])),
            res("b", "exec", "B")
        ])
    );
    assert_eq!(dropped(&plan), vec![1]);
    assert_eq!(moved(&plan), vec![5]);
    // Within one span too.
    let (out, plan) = run(json!([
        asst(json!([tc("a", "read")])),
        marked("a", "read"),
        res("a", "read", "A")
    ]));
    assert_eq!(out, json!([asst(json!([tc("a", "read")])), res("a", "read", "A")]));
    assert_eq!(dropped(&plan), vec![1]);
}

#[test]
fn legacy_result_ids_are_adopted_unless_the_names_conflict() {
    let named = |name: &str| {
        json!({"role": "toolResult", "content": [{"type": "text", "text": "N"}], "isError": false,
               "toolName": name})
    };
    let (out, plan) = run(json!([asst(json!([tc("a", "read")])), named("read")]));
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read")])),
            {"role": "toolResult", "content": [{"type": "text", "text": "N"}], "isError": true,
             "toolName": "read", "toolCallId": "a"}
        ])
    );
    assert!(matches!(
        &plan.items[1],
        Item::Kept {
            index: 1,
            change: Some(_),
            ..
        }
    ));
    let (out, plan) = run(json!([asst(json!([tc("a", "read")])), named("exec")]));
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read")])),
            syn("a", "read", LEGACY_MISSING_TOOL_RESULT_TEXT)
        ])
    );
    assert_eq!(dropped(&plan), vec![1]);
}

#[test]
fn a_legacy_result_is_copied_to_every_single_call_turn_that_adopts_it() {
    let input = json!([
        asst(json!([tc("a", "read")])),
        user("u"),
        asst(json!([tc("b", "exec")])),
        no_id("N")
    ]);
    let (out, plan) = run(input);
    let adopted = |id: &str, name: &str| {
        json!({"role": "toolResult", "content": [{"type": "text", "text": "N"}], "isError": true,
               "toolCallId": id, "toolName": name})
    };
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read")])),
            adopted("a", "read"),
            user("u"),
            asst(json!([tc("b", "exec")])),
            adopted("b", "exec")
        ])
    );
    assert!(matches!(&plan.items[1], Item::Kept { index: 3, .. }));
    assert!(
        matches!(&plan.items[4], Item::Copy { owner: 2, of: 3, .. }),
        "the second adoption is a copy of the stored result"
    );
}

#[test]
fn a_padded_call_id_never_pairs() {
    let (out, plan) = run(json!([asst(json!([tc(" a ", "read")])), res(" a ", "read", "A")]));
    assert_eq!(
        out,
        json!([
            asst(json!([tc(" a ", "read")])),
            syn(" a ", "read", LEGACY_MISSING_TOOL_RESULT_TEXT)
        ])
    );
    assert_eq!(dropped(&plan), vec![1]);
}

/// Read `{"messages": [...], "responses": bool}` lines from `LEGACY_PAIRING_CASES` and write
/// the planner's output, one JSON array a line, to `LEGACY_PAIRING_OUT` (compared with the
/// real 7.35 `sanitizeToolUseResultPairing` outside the test, see the module docs).
#[test]
#[ignore]
fn randomized_cases_from_env() {
    let (Ok(input), Ok(output)) = (
        std::env::var("LEGACY_PAIRING_CASES"),
        std::env::var("LEGACY_PAIRING_OUT"),
    ) else {
        panic!("set LEGACY_PAIRING_CASES and LEGACY_PAIRING_OUT");
    };
    // `LEGACY_PAIRING_PRESERVE=1`: the upstream default erroredAssistantResultPolicy instead.
    let preserve = std::env::var("LEGACY_PAIRING_PRESERVE").is_ok_and(|v| v == "1");
    let text = std::fs::read_to_string(input).unwrap();
    let mut lines = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).unwrap();
        let responses = case["responses"].as_bool().unwrap_or(false);
        let mut options = opts(responses);
        if preserve {
            options.errored = ErroredPolicy::Preserve;
        }
        let (out, _) = run_with_opts(case["messages"].clone(), &options);
        lines.push(serde_json::to_string(&out).unwrap());
    }
    std::fs::write(output, lines.join("\n") + "\n").unwrap();
}

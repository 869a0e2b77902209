//! The planner's own tests: options no rule uses (the upstream `preserve` policy for errored
//! turns) and the tool that runs the 2026.7 planner over cases compared with the real release.
//! What the rule does with a plan is tested by `tests/rule_cases/tool-result-pairing.json`.

use crate::json;
use crate::model::Message;
use crate::model::json::Value;

use super::classify::{ErroredPolicy, Item, Options, Plan, plan};
use super::legacy::plan_legacy;
use crate::openclaw::synthetic::{ABORTED_TEXT, LEGACY_MISSING_TOOL_RESULT_TEXT, MISSING_TOOL_RESULT_TEXT};

const TS: i64 = 1000;

fn tc(id: &str, name: &str) -> Value {
    json!({"type": "toolCall", "id": id, "name": name, "arguments": {}})
}

fn res(id: &str, name: &str, text: &str) -> Value {
    json!({"role": "toolResult", "toolCallId": id, "toolName": name,
           "content": [{"type": "text", "text": text}], "isError": false})
}

#[test]
fn preserve_policy_keeps_failed_frames_without_synthesizing() {
    let input: Vec<Message> = crate::model::json::from_value(json!([
        {"role": "assistant", "content": [tc("a", "read"), tc("b", "exec")], "stopReason": "error", "timestamp": TS},
        {"role": "user", "content": "u"},
        res("a", "read", "A")
    ]))
    .unwrap();
    let view: Vec<&Message> = input.iter().collect();
    let opts = Options {
        errored: ErroredPolicy::Preserve,
        missing_text: MISSING_TOOL_RESULT_TEXT,
    };
    let repaired = plan(&view, &opts).expect("the user turn moves");
    assert!(repaired.dropped.is_empty());
    assert_eq!(
        repaired.items,
        vec![
            Item::Kept {
                index: 0,
                change: None,
                moved: None
            },
            Item::Kept {
                index: 2,
                change: None,
                moved: None
            },
            Item::Kept {
                index: 1,
                change: None,
                moved: Some(
                    "moved user message after the results for a (read): results must directly follow their tool calls"
                        .into()
                )
            },
        ]
    );
    assert_eq!(plan(&view[..1], &opts), None, "a failed frame alone is left as it is");
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

/// Not a test: runs the 2026.7 planner over `LEGACY_PAIRING_CASES` (JSON lines of
/// `{"messages": [...], "responses": bool}`) and writes one output transcript per line to
/// `LEGACY_PAIRING_OUT`, to compare with the real 7.35 `sanitizeToolUseResultPairing` outside
/// the test. `LEGACY_PAIRING_PRESERVE=1`: the upstream default erroredAssistantResultPolicy.
#[test]
#[ignore]
fn randomized_cases_from_env() {
    let (Ok(input), Ok(output)) = (
        std::env::var("LEGACY_PAIRING_CASES"),
        std::env::var("LEGACY_PAIRING_OUT"),
    ) else {
        panic!("set LEGACY_PAIRING_CASES and LEGACY_PAIRING_OUT");
    };
    let preserve = std::env::var("LEGACY_PAIRING_PRESERVE").is_ok_and(|v| v == "1");
    let text = std::fs::read_to_string(input).unwrap();
    let mut lines = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).unwrap();
        let responses = case["responses"].as_bool().unwrap_or(false);
        let options = Options {
            errored: if preserve {
                ErroredPolicy::Preserve
            } else {
                ErroredPolicy::Drop
            },
            missing_text: if responses {
                ABORTED_TEXT
            } else {
                LEGACY_MISSING_TOOL_RESULT_TEXT
            },
        };
        let list: Vec<Message> = crate::model::json::from_value(case["messages"].clone()).unwrap();
        let view: Vec<&Message> = list.iter().collect();
        let out = apply(&list, plan_legacy(&view, &options));
        lines.push(serde_json::to_string(&crate::model::json::to_value(&out).unwrap()).unwrap());
    }
    std::fs::write(output, lines.join("\n") + "\n").unwrap();
}

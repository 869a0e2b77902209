//! Frames, local claiming, duplicates and assembly (hygiene-a §3.4 steps 1, 2, 4, 5; §3.5).

use super::*;

#[test]
fn text_turns_stay_in_the_frame_and_interleaved_messages_follow_the_results() {
    let (out, rws) = run(json!([
        asst(json!([tc("a", "read"), tc("b", "exec")])),
        res("a", "read", "A"),
        user("wait"),
        text_turn("still working"),
        res("b", "exec", "B")
    ]));
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read"), tc("b", "exec")])),
            res("a", "read", "A"),
            res("b", "exec", "B"),
            user("wait"),
            text_turn("still working")
        ])
    );
    assert_eq!(
        rws,
        vec![
            rw(
                Action::Move,
                &[2],
                "moved user message after the results for b (exec): results must directly follow their tool calls"
            ),
            rw(
                Action::Move,
                &[3],
                "moved assistant message after the results for b (exec): results must directly follow their tool calls"
            ),
        ]
    );
}

#[test]
fn results_are_placed_in_call_order() {
    let (out, rws) = run(json!([
        asst(json!([tc("a", "read"), tc("b", "exec")])),
        res("b", "exec", "B"),
        res("a", "read", "A")
    ]));
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read"), tc("b", "exec")])),
            res("a", "read", "A"),
            res("b", "exec", "B")
        ])
    );
    assert_eq!(
        rws,
        vec![rw(
            Action::Move,
            &[2],
            "moved result for a (read) ahead of the result for b (exec): results follow their calls in order"
        )]
    );
}

#[test]
fn failed_frames_are_dropped_with_their_results_but_not_their_remainder() {
    let (out, rws) = run(json!([
        user("go"),
        failed(json!([tc("a", "read")]), "error"),
        user("next"),
        res("a", "read", "A"),
        asst(json!([tc("b", "exec")])),
        res("b", "exec", "B")
    ]));
    assert_eq!(
        out,
        json!([
            user("go"),
            user("next"),
            asst(json!([tc("b", "exec")])),
            res("b", "exec", "B")
        ])
    );
    assert_eq!(
        rws,
        vec![
            rw(
                Action::Drop,
                &[1],
                "dropped failed assistant turn (stopReason `error`) with tool calls a (read): failed tool-call turns are not replayed"
            ),
            rw(
                Action::Drop,
                &[3],
                "dropped result for a (read): its assistant turn failed (stopReason `error`) and is not replayed"
            ),
        ]
    );
}

#[test]
fn aborted_frames_get_no_synthetic_results() {
    let (out, rws) = run(json!([failed(json!([tc("a", "read")]), "aborted"), text_turn("sorry")]));
    assert_eq!(out, json!([text_turn("sorry")]));
    assert_eq!(
        rws,
        vec![rw(
            Action::Drop,
            &[0],
            "dropped failed assistant turn (stopReason `aborted`) with tool calls a (read): failed tool-call turns are not replayed"
        )]
    );
}

#[test]
fn the_first_real_duplicate_wins() {
    let (out, rws) = run(json!([
        asst(json!([tc("a", "read")])),
        res("a", "read", "1"),
        res("a", "read", "2")
    ]));
    assert_eq!(out, json!([asst(json!([tc("a", "read")])), res("a", "read", "1")]));
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
fn a_synthetic_result_loses_to_a_later_real_one() {
    let (out, rws) = run(json!([
        asst(json!([tc("a", "read")])),
        marked("a", "read", "old repair"),
        user("retry"),
        res("a", "read", "real")
    ]));
    assert_eq!(
        out,
        json!([asst(json!([tc("a", "read")])), res("a", "read", "real"), user("retry")])
    );
    assert_eq!(
        rws,
        vec![
            rw(
                Action::Drop,
                &[1],
                "dropped synthetic result for a (read): a real result for the call follows"
            ),
            rw(
                Action::Move,
                &[2],
                "moved user message after the results for a (read): results must directly follow their tool calls"
            ),
        ]
    );
}

#[test]
fn a_later_synthetic_never_replaces_a_result() {
    for first in [res("a", "read", "real"), marked("a", "read", "x")] {
        let (out, rws) = run(json!([
            asst(json!([tc("a", "read")])),
            first.clone(),
            marked("a", "read", "y")
        ]));
        assert_eq!(out, json!([asst(json!([tc("a", "read")])), first]));
        assert_eq!(
            rws,
            vec![rw(
                Action::Drop,
                &[2],
                "dropped duplicate synthetic result for a (read): the call already has a result"
            )]
        );
    }
}

#[test]
fn a_real_duplicate_replaces_the_first_replaceable_synthetic_occurrence() {
    let (out, rws) = run(json!([
        asst(json!([tc("a", "read"), tc("a", "read")])),
        marked("a", "read", "x"),
        res("a", "read", "r1"),
        res("a", "read", "r2")
    ]));
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read"), tc("a", "read")])),
            res("a", "read", "r2"),
            res("a", "read", "r1")
        ])
    );
    assert_eq!(
        rws,
        vec![
            rw(
                Action::Drop,
                &[1],
                "dropped synthetic result for a (read): a real result for the call follows"
            ),
            rw(
                Action::Move,
                &[3],
                "moved result for a (read) ahead of the result for a (read): results follow their calls in order"
            ),
        ]
    );
}

#[test]
fn synthetic_shape_without_timestamp_or_name() {
    let (out, rws) = run(json!([
        {"role": "assistant", "content": [{"type": "toolCall", "id": "x", "arguments": {}}]}
    ]));
    assert_eq!(
        out,
        json!([
            {"role": "assistant", "content": [{"type": "toolCall", "id": "x", "arguments": {}}]},
            {"role": "toolResult", "toolCallId": "x", "toolName": "unknown",
             "content": [{"type": "text", "text": MISSING_TOOL_RESULT_TEXT}],
             "details": {"openclawSyntheticMissingToolResult": true, "reason": "missing_tool_result"},
             "isError": true}
        ])
    );
    assert_eq!(
        rws,
        vec![rw(Action::Insert, &[], "synthesized missing result for x (unknown)")]
    );
}

#[test]
fn responses_family_synthesizes_aborted() {
    let responses = resolved("openai", "openai-responses", "gpt-5");
    let (out, rws) = run_for(&responses, json!([asst(json!([tc("call_1", "read")])), user("?")]));
    assert_eq!(
        out,
        json!([
            asst(json!([tc("call_1", "read")])),
            syn_text("call_1", "read", "aborted"),
            user("?")
        ])
    );
    assert_eq!(
        rws,
        vec![rw(
            Action::Insert,
            &[],
            "synthesized missing result for call_1 (read) with the OpenAI Responses placeholder `aborted`"
        )]
    );
    let azure = resolved("azure-openai", "azure-openai-responses", "gpt-5");
    let (out, _) = run_for(&azure, json!([asst(json!([tc("c", "read")]))]));
    assert_eq!(out[1]["content"][0]["text"], json!("aborted"));
}

#[test]
fn synthetics_of_padded_call_ids_are_replaced_on_every_pass() {
    // OpenClaw trims result ids but not call ids, so its own synthetic result for a padded (or
    // blank) call id never pairs again: each pass drops it and synthesizes a fresh one.
    let repaired = json!([
        asst(json!([tc(" a ", "read"), tc("  ", "exec")])),
        syn(" a ", "read"),
        syn("  ", "exec")
    ]);
    let (out, rws) = run(repaired.clone());
    assert_eq!(out, repaired);
    let actions: Vec<Action> = rws.iter().map(|r| r.0).collect();
    assert_eq!(
        actions,
        [Action::Insert, Action::Insert, Action::Drop, Action::Drop],
        "{rws:?}"
    );
}

#[test]
fn a_mixed_transcript_is_repaired_in_one_idempotent_pass() {
    let (out, rws) = run(json!([
        user("start"),
        asst(json!([tc("a", "read"), tc("b", "exec")])),
        res("b", "exec", "B"),
        user("interrupt"),
        asst(json!([tc("c", "ls")])),
        res("a", "read", "late A"),
        res("c", "ls", "C"),
        res("c", "ls", "C again"),
        failed(json!([tc("d", "rm")]), "aborted"),
        res("d", "rm", "D")
    ]));
    assert_eq!(
        out,
        json!([
            user("start"),
            asst(json!([tc("a", "read"), tc("b", "exec")])),
            res("a", "read", "late A"),
            res("b", "exec", "B"),
            user("interrupt"),
            asst(json!([tc("c", "ls")])),
            res("c", "ls", "C")
        ])
    );
    assert_eq!(
        rws,
        vec![
            rw(
                Action::Move,
                &[5],
                "moved result for a (read) back to its call: it had been displaced past a later tool-call turn"
            ),
            rw(
                Action::Drop,
                &[7],
                "dropped duplicate result for c (ls): the call already has an earlier real result"
            ),
            rw(
                Action::Drop,
                &[8],
                "dropped failed assistant turn (stopReason `aborted`) with tool calls d (rm): failed tool-call turns are not replayed"
            ),
            rw(
                Action::Drop,
                &[9],
                "dropped result for d (rm): its assistant turn failed (stopReason `aborted`) and is not replayed"
            ),
        ]
    );
}

#[test]
fn preserve_policy_keeps_failed_frames_without_synthesizing() {
    let input: Vec<Message> = crate::model::json::from_value(json!([
        failed(json!([tc("a", "read"), tc("b", "exec")]), "error"),
        user("u"),
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

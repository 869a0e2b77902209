//! Displacement and orphans (hygiene-a §3.4 step 3, and the orphans of step 4).

use super::*;

#[test]
fn a_displaced_result_moves_back_to_its_only_unresolved_call() {
    let (out, rws) = run(json!([
        asst(json!([tc("a", "read")])),
        user("meanwhile"),
        asst(json!([tc("b", "exec")])),
        res("b", "exec", "B"),
        res("a", "read", "A")
    ]));
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read")])),
            res("a", "read", "A"),
            user("meanwhile"),
            asst(json!([tc("b", "exec")])),
            res("b", "exec", "B")
        ])
    );
    assert_eq!(
        rws,
        vec![rw(
            Action::Move,
            &[4],
            "moved result for a (read) back to its call: it had been displaced past a later tool-call turn"
        )]
    );
}

#[test]
fn a_displaced_real_result_replaces_an_earlier_synthetic() {
    let (out, rws) = run(json!([
        asst(json!([tc("a", "read")])),
        marked("a", "read", "x"),
        asst(json!([tc("b", "exec")])),
        res("b", "exec", "B"),
        res("a", " read", "A")
    ]));
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read")])),
            res("a", "read", "A"),
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
                "dropped synthetic result for a (read): a real result displaced past a later tool-call turn replaces it"
            ),
            rw(
                Action::Move,
                &[4],
                "moved result for a (read) back to its call: it had been displaced past a later tool-call turn"
            ),
            rw(Action::Modify, &[4], "trimmed toolName \" read\" to `read`"),
        ]
    );
}

#[test]
fn a_displaced_synthetic_does_not_replace_a_synthetic() {
    let (out, rws) = run(json!([
        asst(json!([tc("a", "read")])),
        marked("a", "read", "old"),
        asst(json!([tc("b", "exec")])),
        res("b", "exec", "B"),
        marked("a", "read", "late")
    ]));
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read")])),
            marked("a", "read", "old"),
            asst(json!([tc("b", "exec")])),
            res("b", "exec", "B")
        ])
    );
    assert_eq!(
        rws,
        vec![rw(
            Action::Drop,
            &[4],
            "dropped orphan result for a (read): no tool call with this id is waiting for a result"
        )]
    );
}

#[test]
fn an_ambiguous_displaced_result_is_an_orphan() {
    let (out, rws) = run(json!([
        asst(json!([tc("a", "read")])),
        asst(json!([tc("a", "read")])),
        asst(json!([tc("b", "exec")])),
        res("b", "exec", "B"),
        res("a", "read", "A")
    ]));
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read")])),
            syn("a", "read"),
            asst(json!([tc("a", "read")])),
            syn("a", "read"),
            asst(json!([tc("b", "exec")])),
            res("b", "exec", "B")
        ])
    );
    assert_eq!(
        rws,
        vec![
            rw(Action::Insert, &[], "synthesized missing result for a (read)"),
            rw(Action::Insert, &[], "synthesized missing result for a (read)"),
            rw(
                Action::Drop,
                &[4],
                "dropped ambiguous result for a (read): 2 earlier tool calls with this id lack a result, so its owner is unknown"
            ),
        ]
    );
}

#[test]
fn results_never_move_forward() {
    let (out, rws) = run(json!([
        asst(json!([tc("a", "read")])),
        res("b", "exec", "early"),
        res("a", "read", "A"),
        asst(json!([tc("b", "exec")]))
    ]));
    assert_eq!(
        out,
        json!([
            asst(json!([tc("a", "read")])),
            res("a", "read", "A"),
            asst(json!([tc("b", "exec")])),
            syn("b", "exec")
        ])
    );
    assert_eq!(
        rws,
        vec![
            rw(
                Action::Drop,
                &[1],
                "dropped orphan result for b (exec): no tool call with this id is waiting for a result"
            ),
            rw(Action::Insert, &[], "synthesized missing result for b (exec)"),
        ]
    );
}

#[test]
fn results_before_the_first_frame_are_orphans() {
    let (out, rws) = run(json!([
        res("x", "read", "stale"),
        user("hi"),
        asst(json!([tc("a", "read")])),
        res("a", "read", "A")
    ]));
    assert_eq!(
        out,
        json!([user("hi"), asst(json!([tc("a", "read")])), res("a", "read", "A")])
    );
    assert_eq!(
        rws,
        vec![rw(
            Action::Drop,
            &[0],
            "dropped orphan result for x (read): no assistant tool call precedes it"
        )]
    );
}

#[test]
fn a_result_displaced_into_a_failed_frame_is_dropped_with_it() {
    let (out, rws) = run(json!([
        failed(json!([tc("a", "read")]), "error"),
        asst(json!([tc("b", "exec")])),
        res("b", "exec", "B"),
        res("a", "read", "A")
    ]));
    assert_eq!(out, json!([asst(json!([tc("b", "exec")])), res("b", "exec", "B")]));
    assert_eq!(
        rws,
        vec![
            rw(
                Action::Drop,
                &[0],
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

//! The wire payload in the inspector: rows whose payload items break a provider constraint
//! carry a marker, `x` jumps to them, `w` shows the row's payload and findings, and the
//! header says whether the provider would accept the request.

use replaylens::json;
use replaylens::policy::{Family, preset};

use super::{app_with, press, screen, text};
use crate::tui::app::DetailView;
use crate::tui::fixtures;
use crate::tui::snapshot::annotate;
use crate::tui::theme::Theme;

/// An assistant turn of the target model whose thinking block comes after its text: the
/// converter keeps the order, and Anthropic rejects it (no hygiene rule reorders blocks).
fn misordered_thinking() -> crate::tui::inspection::Inspection {
    let target = preset(Family::Anthropic);
    let m = |v: replaylens::model::json::Value| replaylens::model::json::from_value(v).unwrap();
    fixtures::build(
        "lint",
        vec![
            m(json!({"role": "user", "content": "Plan the release."})),
            m(json!({"role": "assistant", "stopReason": "stop",
            "provider": target.provider, "api": target.api, "model": target.model,
            "content": [
                {"type": "text", "text": "Here is the plan."},
                {"type": "thinking", "thinking": "Order the steps.", "thinkingSignature": "EqQBCkgIARABGAIiQ"}
            ]})),
            m(json!({"role": "user", "content": "Go on."})),
        ],
        vec![(vec![0], None), (vec![1], None), (vec![2], None)],
        Vec::new(),
    )
}

#[test]
fn a_finding_is_marked_jumped_to_and_shown_with_the_provider_text() {
    let mut app = app_with(misordered_thinking(), Theme::dark());
    let insp = app.insp.as_ref().unwrap();
    let ids: Vec<&str> = insp.wire.findings.iter().map(|f| f.constraint).collect();
    assert_eq!(ids, ["anthropic-thinking-first", "anthropic-final-block-thinking"]);
    let first = text(&screen(&mut app));
    assert!(first.contains("payload would be rejected (2, x)"), "{first}");
    assert!(
        first.contains(" ✗ "),
        "the row with the finding carries a marker:\n{first}"
    );

    press(&mut app, "x");
    assert_eq!(app.selected_row().unwrap().replay, Some(1));
    // The detail pane names the finding and the provider's text at once, before `w`.
    let landed = text(&screen(&mut app));
    assert!(landed.contains("✗ anthropic-thinking-first"), "{landed}");
    assert!(
        landed.contains("If an assistant message contains any thinking"),
        "{landed}"
    );
    press(&mut app, "x");
    assert_eq!(
        app.status.as_deref(),
        Some("no other lint finding"),
        "one row holds both findings"
    );

    press(&mut app, "w");
    assert_eq!(app.detail_view, DetailView::Payload);
    let buf = screen(&mut app);
    let shown = text(&buf);
    assert!(shown.contains("wire payload"));
    assert!(shown.contains("anthropic-thinking-first"));
    assert!(shown.contains("messages.1.content.0: If an assistant message contains any thinking blocks"));
    assert!(shown.contains("not fixed by hygiene"));
    assert!(shown.contains("The final block in an assistant message cannot be `thinking`."));
    assert!(shown.contains("messages[1]"));
    assert!(shown.contains("\"role\": \"assistant\""));
    insta::assert_snapshot!(annotate(&buf));

    // The detail pane scrolls down to the thinking block the provider complains about.
    press(&mut app, "\t");
    press(&mut app, "jjjjjjjjjj");
    assert!(text(&screen(&mut app)).contains("\"type\": \"thinking\""));
    press(&mut app, "\t");

    press(&mut app, "w");
    assert_eq!(app.detail_view, DetailView::Rewrites);
}

#[test]
fn a_clean_replay_is_accepted_and_a_dropped_row_has_no_payload() {
    let mut app = app_with(fixtures::every_kind(), Theme::dark());
    let s = text(&screen(&mut app));
    assert!(s.contains("payload accepted"), "{s}");
    press(&mut app, "x");
    assert_eq!(app.status.as_deref(), Some("no provider lint finding for this target"));
    let dropped = app
        .view
        .iter()
        .position(|&r| app.rows[r].replay.is_none())
        .expect("every_kind has a dropped row");
    app.select(dropped);
    press(&mut app, "w");
    assert!(text(&screen(&mut app)).contains("not in the replay, so it is not in the payload"));
}

#[test]
fn the_payload_follows_the_projection_off_the_ui_thread() {
    use crate::tui::app::{App, Effect};
    use crate::tui::keymap::Keymap;
    use crate::tui::pickers::SessionSource;

    let mut app = App::new(Keymap::default(), Theme::dark(), SessionSource::Default);
    app.resize(ratatui::layout::Rect::new(0, 0, 120, 40));
    app.set_inspection(misordered_thinking());
    // The projection is on screen at once; the payload is a job for a background thread.
    assert!(text(&screen(&mut app)).contains("payload …"));
    assert!(app.effects.iter().any(|e| matches!(e, Effect::Wire(_))));
    let stale = match app.effects.last() {
        Some(Effect::Wire(job)) => job.clone(),
        _ => unreachable!(),
    };
    app.compute_wire_now();
    assert!(text(&screen(&mut app)).contains("payload would be rejected (2, x)"));

    // Another target: a new projection, a new job; a late result for the old one is ignored.
    app.retarget(preset(Family::Google));
    // The re-projection lands (it runs off the UI thread too), the wire job follows it.
    let jobs: Vec<_> = std::mem::take(&mut app.effects)
        .into_iter()
        .filter_map(|e| match e {
            Effect::Reproject(job) => Some(job),
            _ => None,
        })
        .collect();
    assert_eq!(jobs.len(), 1);
    app.reprojected(jobs[0].clone().run());
    assert!(app.insp.as_ref().unwrap().wire.pending);
    let old = crate::tui::wire_state::WireState::compute(&stale);
    app.wire_ready(&stale, old);
    assert!(
        app.insp.as_ref().unwrap().wire.pending,
        "a result for an older projection is dropped"
    );
    app.compute_wire_now();
    let wire = &app.insp.as_ref().unwrap().wire;
    assert!(!wire.pending);
    assert_eq!(wire.api.map(|a| a.id()), Some("google-generative-ai"));
}

#[test]
fn b_shows_what_the_stored_payload_broke_and_the_rule_that_fixes_it() {
    let mut app = app_with(super::sample("anthropic-tool-repair.jsonl"), Theme::dark());
    app.resize(ratatui::layout::Rect::new(0, 0, 80, 24));
    app.compute_wire_now();
    let stored = app
        .insp
        .as_ref()
        .unwrap()
        .wire
        .of_stage(replaylens::wire::WireStage::Stored)
        .len();
    assert_eq!(stored, 5, "the sample's stored payload breaks five constraints");

    press(&mut app, "b");
    assert!(
        app.status.as_deref().is_some_and(|s| s.contains("before hygiene (5)")),
        "{:?}",
        app.status
    );
    press(&mut app, "x");
    let row = app.selected_row().unwrap();
    assert!(row.stored.contains(&7), "x visits stored-stage findings: {row:?}");
    press(&mut app, "\t");
    let shown = text(&screen(&mut app));
    assert!(shown.contains("findings before hygiene"), "{shown}");
    assert!(shown.contains("✗ anthropic-tool-use-adjacency"), "{shown}");
    assert!(shown.contains("immediately after"), "{shown}");
    assert!(shown.contains("fixed by hygiene rule"), "{shown}");

    press(&mut app, "b");
    let back = text(&screen(&mut app));
    assert!(!back.contains("findings before hygiene"), "{back}");
    assert!(
        !back.contains("✗ anthropic-tool-use-adjacency"),
        "the replay payload has no such finding here:\n{back}"
    );
}

#[test]
fn a_rule_set_switch_keeps_the_stored_payload_lint_instead_of_computing_it_again() {
    let mut app = app_with(super::sample("anthropic-tool-repair.jsonl"), Theme::dark());
    app.compute_wire_now();
    let before = app
        .insp
        .as_ref()
        .unwrap()
        .wire
        .stored
        .clone()
        .expect("stored lint computed");
    press(&mut app, "v");
    let insp = app.insp.as_ref().unwrap();
    assert!(!insp.wire.pending, "the new projection's payload is computed");
    let after = insp.wire.stored.clone().expect("stored lint kept");
    assert!(
        std::sync::Arc::ptr_eq(&before, &after),
        "the same transcript and target: not linted again"
    );
    assert_eq!(after.findings.len(), 5);
}

//! The inspector shows the stored side as soon as the session is read, reports read
//! progress in bytes, and swaps in the projection when it is ready, keeping the selection.

use std::sync::{Arc, Mutex};

use super::{app_with, screen, text};
use crate::tui::app::LoadRequest;
use crate::tui::loader::{LoadEvent, Report, load};
use crate::tui::theme::Theme;

fn request(name: &str) -> LoadRequest {
    LoadRequest {
        path: format!("{}/sample-sessions/{name}", env!("CARGO_MANIFEST_DIR")).into(),
        session: None,
        target: replaylens::policy::Target::default(),
        rule_set: replaylens::rule_set::RuleSet::newest(),
        rule_set_from_session: false,
    }
}

/// Every event of one load, in order, and its result.
fn events_of(name: &str) -> (Vec<LoadEvent>, crate::tui::inspection::Inspection) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let report: Report = Arc::new(move |e| log.lock().unwrap().push(e));
    let done = load(&request(name), &report).unwrap();
    let events = std::mem::take(&mut *seen.lock().unwrap());
    (events, done)
}

#[test]
fn the_stored_side_comes_first_then_the_projection() {
    let (events, done) = events_of("anthropic-tool-repair.jsonl");
    let stored_at = events.iter().position(|e| matches!(e, LoadEvent::Stored(_))).unwrap();
    let progress_at = events
        .iter()
        .position(|e| matches!(e, LoadEvent::Progress { .. }))
        .unwrap();
    assert!(progress_at < stored_at, "bytes are reported while reading");
    let size = std::fs::metadata(request("anthropic-tool-repair.jsonl").path)
        .unwrap()
        .len();
    let last_read = events.iter().rev().find_map(|e| match e {
        LoadEvent::Progress { read, total } => Some((*read, *total)),
        _ => None,
    });
    assert_eq!(last_read, Some((size, size)), "the whole file, of its size");
    let LoadEvent::Stored(first) = &events[stored_at] else {
        unreachable!()
    };
    assert!(first.pending && first.replay.is_empty() && first.rewrites.is_empty());
    assert!(
        Arc::ptr_eq(&first.transcript, &done.transcript),
        "one copy of the stored side"
    );
    assert!(!done.pending && !done.rewrites.is_empty());
}

#[test]
fn the_pending_view_shows_stored_rows_and_keeps_the_selection_when_the_projection_lands() {
    let (events, done) = events_of("anthropic-tool-repair.jsonl");
    let first = events
        .into_iter()
        .find_map(|e| match e {
            LoadEvent::Stored(i) => Some(*i),
            _ => None,
        })
        .unwrap();
    let mut app = app_with(first, Theme::dark());
    let s = text(&screen(&mut app));
    assert!(s.contains("computing the projection"), "{s}");
    assert!(s.contains("replay projection (computing…)"), "{s}");
    assert_eq!(app.view.len(), app.insp.as_ref().unwrap().stored_len());
    let stored_len = app.view.len();
    app.select(stored_len - 1);
    let selected_stored = app.selected_row().unwrap().stored[0];
    app.loaded(Ok(done));
    let row = app.selected_row().unwrap();
    assert!(
        row.stored.contains(&selected_stored),
        "selection stays on stored #{selected_stored}"
    );
    let s = text(&screen(&mut app));
    assert!(!s.contains("computing"), "{s}");
}

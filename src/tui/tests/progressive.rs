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
        config: None,
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

/// The stored side a load reported first, and the finished inspection.
fn stored_then_done(name: &str) -> (crate::tui::inspection::Inspection, crate::tui::inspection::Inspection) {
    let (events, done) = events_of(name);
    let first = events
        .into_iter()
        .find_map(|e| match e {
            LoadEvent::Stored(i) => Some(*i),
            _ => None,
        })
        .unwrap();
    (first, done)
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
    let (first, done) = stored_then_done("anthropic-tool-repair.jsonl");
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

/// A linear OpenClaw session of `messages` turns, each with a text of `text_bytes` bytes.
fn write_large_session(dir: &std::path::Path, messages: usize, text_bytes: usize) -> std::path::PathBuf {
    use std::io::Write;
    let path = dir.join("large.jsonl");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    writeln!(
        out,
        r#"{{"type":"session","version":3,"id":"large","timestamp":"2026-03-09T08:41:07.000Z","cwd":"/"}}"#
    )
    .unwrap();
    let filler = "x".repeat(text_bytes);
    for i in 0..messages {
        let parent = if i == 0 {
            "null".to_owned()
        } else {
            format!("\"m{}\"", i - 1)
        };
        let role = if i % 2 == 0 { "user" } else { "assistant" };
        writeln!(
            out,
            r#"{{"type":"message","id":"m{i}","parentId":{parent},"timestamp":"2026-03-09T08:41:08.000Z","message":{{"role":"{role}","content":[{{"type":"text","text":"turn {i} {filler}"}}],"timestamp":{i}}}}}"#
        )
        .unwrap();
    }
    out.flush().unwrap();
    path
}

#[test]
fn a_large_file_shows_its_first_messages_while_the_rest_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_large_session(dir.path(), 4_000, 1_500);
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size >= crate::tui::loader::PREVIEW_FROM_BYTES, "{size}");
    let request = LoadRequest {
        path: path.clone(),
        ..request("anthropic-tool-repair.jsonl")
    };
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let report: Report = Arc::new(move |e| log.lock().unwrap().push(e));
    let done = load(&request, &report).unwrap();
    let events = std::mem::take(&mut *seen.lock().unwrap());

    let preview_at = events
        .iter()
        .position(|e| matches!(e, LoadEvent::Preview(_)))
        .expect("a preview of the first messages");
    let stored_at = events.iter().position(|e| matches!(e, LoadEvent::Stored(_))).unwrap();
    assert!(preview_at < stored_at);
    let read_after_preview = events[preview_at..].iter().find_map(|e| match e {
        LoadEvent::Progress { read, .. } => Some(*read),
        _ => None,
    });
    assert!(
        read_after_preview.is_some_and(|r| r < size),
        "the preview arrives while the file is still being read ({read_after_preview:?} of {size})"
    );
    let LoadEvent::Preview(preview) = &events[preview_at] else {
        unreachable!()
    };
    assert!(preview.preview && preview.pending && preview.replay.is_empty());
    let n = preview.stored_len();
    assert_eq!(n, replaylens::load::preview::PREVIEW_ENTRIES);
    for i in 0..n {
        assert_eq!(
            preview.transcript.messages[i].message, done.transcript.messages[i].message,
            "message {i} of the preview is message {i} of the active branch"
        );
    }

    // On screen: the rows, marked as the first messages of a file still being read.
    let mut app = crate::tui::app::App::new(
        crate::tui::keymap::Keymap::default(),
        Theme::dark(),
        crate::tui::pickers::SessionSource::Default,
    );
    app.resize(ratatui::layout::Rect::new(0, 0, 120, 40));
    app.request_load(request.clone());
    app.loading.as_mut().unwrap().read = 2_000_000;
    app.loading.as_mut().unwrap().total = size;
    app.show_preview((**preview).clone());
    let s = text(&screen(&mut app));
    assert!(s.contains(&format!("stored (first {n}, reading…)")), "{s}");
    assert!(s.contains("the first messages, in file order"), "{s}");
    assert!(s.contains("\"text\": \"turn 0"), "{s}");
    assert!(
        s.contains("… once the whole file is read") && !s.contains("computing"),
        "{s}"
    );
    assert!(!s.contains(" loading "), "no loading box over the rows: {s}");

    // The user moves down; the stored side of the branch keeps the selection there.
    app.select(40);
    let selected = app.selected_row().unwrap().stored[0];
    let LoadEvent::Stored(stored) = &events[stored_at] else {
        unreachable!()
    };
    app.show_stored((**stored).clone());
    assert!(!app.insp.as_ref().unwrap().preview);
    assert_eq!(app.selected_row().unwrap().stored[0], selected);
    let s = text(&screen(&mut app));
    assert!(s.contains("computing the projection"), "{s}");
}

#[test]
fn a_small_file_has_no_preview() {
    let (events, _) = events_of("anthropic-tool-repair.jsonl");
    assert!(!events.iter().any(|e| matches!(e, LoadEvent::Preview(_))));
}

#[test]
fn help_opened_while_the_projection_is_computed_stays_open_when_it_lands() {
    let (first, done) = stored_then_done("anthropic-tool-repair.jsonl");
    let mut app = app_with(first, Theme::dark());
    app.mode = crate::tui::app::Mode::Help(crate::tui::overlay::HelpOverlay::default());
    app.loaded(Ok(done));
    assert!(matches!(app.mode, crate::tui::app::Mode::Help(_)));
    let s = text(&screen(&mut app));
    assert!(s.contains("next rewrite"), "{s}");
}

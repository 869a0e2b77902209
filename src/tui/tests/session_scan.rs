//! The session picker's counts: a background scan fills each row with its rewrites and lint
//! findings, `Tab` sorts by them, and `Enter` opens a session at its first finding. The scan
//! runs here synchronously (`compute_scan_now`) or is fed fabricated results.

use std::sync::{Arc, Mutex};

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use super::{press, screen, text};
use crate::tui::app::{App, Effect, Mode};
use crate::tui::input::handle_key;
use crate::tui::keymap::Keymap;
use crate::tui::loader::{LoadEvent, Report, load};
use crate::tui::overlay::sessions::PickerLine;
use crate::tui::pickers::{SessionPicker, SessionSource};
use crate::tui::scan_state::{Cell, ScanResult, SortOrder};
use crate::tui::snapshot::annotate;
use crate::tui::theme::Theme;

/// An app with the picker open over the bundled samples (a relative path, so that screens do
/// not depend on where the checkout is), its scan not run yet.
fn picker_app(width: u16, height: u16) -> App {
    let mut app = App::new(
        Keymap::default(),
        Theme::dark(),
        SessionSource::Path("sample-sessions".into()),
    );
    app.resize(Rect::new(0, 0, width, height));
    press(&mut app, "o");
    app
}

fn picker(app: &App) -> &SessionPicker {
    let Mode::Sessions(p) = &app.mode else {
        panic!("no session picker")
    };
    p
}

/// The cell of the listing whose file name (or database session id) is `name`.
fn cell_of(app: &App, name: &str) -> Cell {
    let p = picker(app);
    let i = p
        .listings
        .iter()
        .position(|l| l.path.ends_with(name) || l.id == name)
        .unwrap();
    p.cell(i)
}

/// File names (or database session keys) in display order.
fn order(app: &App) -> Vec<String> {
    let p = picker(app);
    p.matches
        .iter()
        .map(|&i| {
            let l = &p.listings[i];
            l.session_key
                .clone()
                .unwrap_or_else(|| l.path.file_name().unwrap().to_string_lossy().into_owned())
        })
        .collect()
}

fn key(app: &mut App, code: KeyCode) {
    handle_key(app, KeyEvent::new(code, KeyModifiers::NONE));
}

/// The screen line that shows a session.
fn line_of(shown: &str, name: &str) -> String {
    shown.lines().find(|l| l.contains(name)).unwrap_or_default().to_owned()
}

#[test]
fn counts_fill_in_when_the_background_scan_reports() {
    let mut app = picker_app(120, 30);
    let p = picker(&app);
    let job = p.scan.job.clone().expect("opening the picker asks for a scan");
    assert_eq!(job.generation, p.scan.generation);
    assert_eq!(job.paths.len(), 8, "each file once, the database once: {:?}", job.paths);
    assert!(p.scan.cells.iter().all(|c| *c == Cell::Pending));
    let shown = text(&screen(&mut app));
    assert!(shown.contains("counting (10 to go)"), "{shown}");
    assert!(
        line_of(&shown, "mistral-ids-and-images.jsonl").contains(" … "),
        "{shown}"
    );

    app.compute_scan_now();
    let Cell::Known(mistral) = cell_of(&app, "mistral-ids-and-images.jsonl") else {
        panic!("mistral not counted")
    };
    assert_eq!(
        (mistral.rewrites, mistral.stored_findings, mistral.replay_findings),
        (12, 6, 2)
    );
    assert!(mistral.rejected);
    assert_eq!(mistral.first_finding_stored, Some(3));
    // The database's windows are matched by their session ids.
    for (id, rewrites) in [
        ("16ef695f-a786-4000-a7be-fae1faf4236f", 27),
        ("c5db8a19-9f49-438a-aab2-3342c23a87cd", 25),
        ("8afea5ca-1e5f-4a04-a2fb-2a626c57faa5", 12),
    ] {
        assert!(
            matches!(cell_of(&app, id), Cell::Known(c) if c.rewrites == rewrites),
            "{id}"
        );
    }
    let shown = text(&screen(&mut app));
    assert!(!shown.contains("counting"), "{shown}");
    let row = line_of(&shown, "mistral-ids-and-images.jsonl");
    assert!(row.contains("  12 rw     6→2 lint ✗"), "{row}");
    let row = line_of(&shown, "anthropic-tool-repair.jsonl");
    assert!(row.contains("  27 rw     5→0 lint  "), "{row}");
}

#[test]
fn a_result_for_a_closed_or_replaced_picker_is_dropped() {
    let mut app = picker_app(120, 30);
    let old = app.take_scan_job().unwrap();
    assert!(app.wants_scan(old.generation));
    let rows = |job: &crate::tui::scan_state::ScanJob| {
        let path = job.paths[0].clone();
        let rows = replaylens::scan::scan_source(&path, &job.options());
        ScanResult {
            generation: job.generation,
            path,
            rows,
        }
    };
    press(&mut app, "\u{1b}");
    assert!(!app.wants_scan(old.generation), "closing the picker cancels its scan");
    app.scan_ready(vec![rows(&old)]);
    assert!(matches!(app.mode, Mode::Normal));

    press(&mut app, "o");
    let new = app.take_scan_job().unwrap();
    assert_ne!(new.generation, old.generation);
    assert!(!app.wants_scan(old.generation));
    app.scan_ready(vec![rows(&old)]);
    assert!(
        picker(&app).scan.cells.iter().all(|c| *c == Cell::Pending),
        "old results dropped"
    );
    app.scan_ready(vec![rows(&new)]);
    assert!(picker(&app).scan.cells.iter().any(|c| matches!(c, Cell::Known(_))));
    app.scan_done(new.generation);
    assert_eq!(
        picker(&app).scan.pending(),
        0,
        "what the scan never reached shows nothing"
    );
}

#[test]
fn tab_cycles_the_order_and_selects_its_first_session() {
    let mut app = picker_app(120, 30);
    app.compute_scan_now();
    press(&mut app, "/gemsig");
    let matched = picker(&app).matches.len();
    key(&mut app, KeyCode::Tab);
    assert_eq!(picker(&app).order, SortOrder::Findings);
    assert_eq!(picker(&app).filter, "gemsig", "Tab is not typed into the filter");
    assert_eq!(picker(&app).matches.len(), matched, "the filter still applies");
    for _ in 0.."gemsig".len() {
        key(&mut app, KeyCode::Backspace);
    }
    let by_findings = order(&app);
    assert_eq!(by_findings[0], "mistral-ids-and-images.jsonl", "{by_findings:?}");
    let p = picker(&app);
    assert_eq!(
        p.lines()[0],
        PickerLine::Heading {
            title: "most replay findings first",
            count: 10
        },
        "one heading: the groups give way to the order"
    );
    assert_eq!(p.lines().len(), 11);
    let shown = text(&screen(&mut app));
    assert!(
        shown.contains("open session · most replay findings first (/ filters · Tab: sort by rewrites)"),
        "{shown}"
    );

    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Tab);
    assert_eq!(picker(&app).order, SortOrder::Rewrites);
    assert_eq!(picker(&app).selected, 0, "a new order starts at its first session");
    let rewrites: Vec<usize> = picker(&app)
        .matches
        .iter()
        .map(|&i| match picker(&app).cell(i) {
            Cell::Known(c) => c.rewrites,
            _ => 0,
        })
        .collect();
    assert_eq!(rewrites[0], 27);
    assert!(rewrites.windows(2).all(|w| w[0] >= w[1]), "{rewrites:?}");

    key(&mut app, KeyCode::Tab);
    assert_eq!(picker(&app).order, SortOrder::Newest);
    assert!(matches!(
        picker(&app).lines()[0],
        PickerLine::Heading { title: "OpenClaw", .. }
    ));
    key(&mut app, KeyCode::BackTab);
    assert_eq!(picker(&app).order, SortOrder::Rewrites, "Shift-Tab goes back");
    // Moving skips the heading, and stays within the list.
    key(&mut app, KeyCode::Up);
    assert_eq!(picker(&app).selected, 0);
    assert_eq!(picker(&app).selected_line(), 1);
}

#[test]
fn sorted_by_findings_sessions_without_counts_come_last_and_move_up_as_counts_arrive() {
    let mut app = picker_app(120, 30);
    let job = app.take_scan_job().unwrap();
    key(&mut app, KeyCode::Tab);
    let mistral = job
        .paths
        .iter()
        .find(|p| p.ends_with("mistral-ids-and-images.jsonl"))
        .unwrap()
        .clone();
    let before = order(&app);
    assert_ne!(before[0], "mistral-ids-and-images.jsonl");
    key(&mut app, KeyCode::Down);
    let chosen = picker(&app).current().unwrap().clone();
    app.scan_ready(vec![ScanResult {
        generation: job.generation,
        rows: replaylens::scan::scan_source(&mistral, &job.options()),
        path: mistral,
    }]);
    assert_eq!(order(&app)[0], "mistral-ids-and-images.jsonl");
    let now = picker(&app).current().unwrap();
    assert_eq!(
        (&now.path, &now.id),
        (&chosen.path, &chosen.id),
        "arriving counts do not move the selection to another session"
    );
}

/// Load what the picker asked for, as the event loop does: the stored side, then the rest.
fn run_load(app: &mut App) {
    let effects = std::mem::take(&mut app.effects);
    let [Effect::Load(request)] = effects.as_slice() else {
        panic!("expected one load, got {effects:?}")
    };
    let stored = Arc::new(Mutex::new(None));
    let keep = Arc::clone(&stored);
    let report: Report = Arc::new(move |e| {
        if let LoadEvent::Stored(insp) = e {
            *keep.lock().unwrap() = Some(*insp);
        }
    });
    let done = load(request, &report).unwrap();
    let first = stored.lock().unwrap().take().unwrap();
    app.show_stored(first);
    app.loaded(Ok(done));
    app.compute_wire_now();
}

#[test]
fn enter_opens_a_session_at_its_first_finding() {
    let mut app = picker_app(120, 40);
    app.compute_scan_now();
    press(&mut app, "/mistralids");
    assert_eq!(picker(&app).first_finding(), Some(3));
    press(&mut app, "\n");
    run_load(&mut app);
    assert!(matches!(app.mode, Mode::Normal));
    let row = app.selected_row().unwrap();
    assert!(row.stored.contains(&3), "{row:?}");
    let insp = app.insp.as_ref().unwrap();
    assert!(
        row.replay.is_some_and(|r| insp.wire.has_finding(r)),
        "the selected row is the one with the finding"
    );
    let shown = text(&screen(&mut app));
    assert!(shown.contains(" 4/12"), "{shown}");
    assert!(
        shown.contains("at the first replay lint finding (stored #3; x: next)"),
        "{shown}"
    );
    press(&mut app, "x");
    assert!(
        app.selected_row().unwrap().stored[0] > 3,
        "x goes on to the next finding"
    );
}

#[test]
fn enter_opens_at_the_top_without_a_finding_or_before_the_counts() {
    // As a session opens without the picker: on the row of the first stored message.
    let at_top = |app: &App| app.selected_row().unwrap().stored.first() == Some(&0) && app.selected <= 1;
    for scanned in [true, false] {
        let mut app = picker_app(120, 40);
        if scanned {
            app.compute_scan_now();
        }
        press(&mut app, "gemsig\n");
        assert_eq!(app.open_at, None);
        run_load(&mut app);
        assert!(at_top(&app), "{}", app.selected);
        assert!(app.status.is_none(), "{:?}", app.status);
    }
    // Not scanned yet: even a session with a finding opens as before.
    let mut app = picker_app(120, 40);
    press(&mut app, "mistralids\n");
    run_load(&mut app);
    assert!(at_top(&app), "{}", app.selected);
}

#[test]
fn rows_stay_inside_a_narrow_popup_and_keep_their_counts() {
    let mut app = picker_app(80, 24);
    app.compute_scan_now();
    press(&mut app, "/mistralids");
    let shown = text(&screen(&mut app));
    let row = line_of(&shown, "mistral-ids-and-images.jsonl");
    assert!(row.contains("12 rw     6→2 lint ✗"), "{row}");
    assert!(row.contains('…'), "the rest is cut: {row}");
    assert!(row.trim_end().ends_with('│'), "the border is intact: {row}");
}

#[test]
fn snapshot_session_picker_with_counts() {
    let mut app = picker_app(120, 22);
    app.compute_scan_now();
    key(&mut app, KeyCode::Down);
    insta::assert_snapshot!(annotate(&screen(&mut app)));
}

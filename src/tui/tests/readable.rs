//! Nothing cut: the focused detail pane pages and jumps on its own; the session picker ranks
//! the file the filter names first.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{app_with, press, sample};
use crate::tui::app::{Mode, Pane};
use crate::tui::input::handle_key;
use crate::tui::pickers::SessionSource;
use crate::tui::theme::Theme;

#[test]
fn paging_keys_in_the_focused_detail_pane_scroll_it_and_leave_the_rows() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    app.rules = crate::tui::app::library_rules;
    app.resize(ratatui::layout::Rect::new(0, 0, 80, 24));
    // The row with the longest explanation.
    let pos = (0..app.view.len())
        .max_by_key(|&p| {
            app.select(p);
            crate::tui::render::detail::scroll_extent(&app)
        })
        .unwrap();
    app.select(pos);
    press(&mut app, "\t");
    assert_eq!(app.focus, Pane::Detail);
    let extent = crate::tui::render::detail::scroll_extent(&app);
    assert!(extent > usize::from(app.areas().detail.height), "{extent} lines");
    handle_key(&mut app, KeyEvent::new(KeyCode::PageDown, KeyModifiers::NONE));
    assert_eq!(app.selected, pos, "PgDn did not move the rows");
    assert!(app.detail_scroll > 1);
    press(&mut app, "G");
    assert_eq!(app.selected, pos, "G did not move the rows");
    let end = app.detail_scroll;
    assert!(usize::from(end) + usize::from(app.areas().detail.height) >= extent);
    press(&mut app, "g");
    assert_eq!((app.selected, app.detail_scroll), (pos, 0));
}

#[test]
fn the_session_picker_ranks_the_file_the_filter_names_first() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/sample-sessions/gemini-signatures.jsonl"
    ))
    .unwrap();
    // The exact file is written first: the checkpoint copies are newer.
    std::fs::write(dir.path().join("invoice-run.jsonl"), &text).unwrap();
    for name in [
        "invoice-run.checkpoint-1.jsonl",
        "invoice-run-checkpoint.jsonl",
        "run-invoice.jsonl",
    ] {
        std::fs::write(dir.path().join(name), &text).unwrap();
    }
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    app.sessions = SessionSource::Path(dir.path().to_path_buf());
    press(&mut app, "o/invoice-run");
    let Mode::Sessions(picker) = &app.mode else {
        panic!("no picker")
    };
    let first = &picker.listings[picker.matches[0]];
    assert!(first.path.ends_with("invoice-run.jsonl"), "{:?}", first.path);
    assert!(picker.current().unwrap().path.ends_with("invoice-run.jsonl"));
}

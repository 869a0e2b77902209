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

#[test]
fn an_id_shows_whole_once_enter_expands_its_message() {
    use crate::tui::fixtures;
    let id = "toolu_01FGZSNZjTUQb6oOSZKK7T3f_and_more";
    let call = replaylens::json!({
        "role": "assistant",
        "content": [{"type": "toolCall", "id": id, "name": "read", "arguments": {"path": "a.rs"}}],
        "provider": "anthropic", "api": "anthropic-messages", "model": "claude-sonnet-4-6",
        "stopReason": "toolUse",
    });
    let result = replaylens::json!({
        "role": "toolResult", "toolCallId": id, "toolName": "read",
        "content": [{"type": "text", "text": "fn main() {}"}], "isError": false,
    });
    let insp = fixtures::build(
        "ids",
        vec![
            replaylens::model::json::from_value(call).unwrap(),
            replaylens::model::json::from_value(result).unwrap(),
        ],
        vec![(vec![0], None), (vec![1], None)],
        Vec::new(),
    );
    let mut app = app_with(insp, Theme::dark());
    app.resize(ratatui::layout::Rect::new(0, 0, 80, 24));
    let rows = |app: &mut crate::tui::app::App| {
        let screen = super::text(&super::screen(app));
        let area = app.areas().rows;
        screen
            .lines()
            .skip(usize::from(area.y))
            .take(usize::from(area.height))
            // The rows pane (left of the divider), lines trimmed and joined: an id wrapped
            // after a separator reads whole again.
            .map(|l| l.split('│').next().unwrap_or("").trim().to_owned())
            .collect::<String>()
    };
    let collapsed = rows(&mut app);
    assert!(
        !collapsed.contains(id),
        "the row header shortens a long id:\n{collapsed}"
    );
    assert!(collapsed.contains('…'), "{collapsed}");
    press(&mut app, "\n");
    let expanded = rows(&mut app);
    assert!(
        expanded.contains(&format!("id={id}")),
        "Enter shows the id whole:\n{expanded}"
    );
    // And it stays whole while the message stays expanded.
    press(&mut app, "j");
    press(&mut app, "k");
    let again = rows(&mut app);
    assert!(again.contains(id), "{again}");
}

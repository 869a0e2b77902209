//! A huge message expands at once: only what is on screen (plus a page) is laid out, and
//! the rest is laid out as the user scrolls into it.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use replaylens::json;

use super::{app_with, press, screen, text};
use crate::tui::describe::Extent;
use crate::tui::fixtures;
use crate::tui::input::handle_key;
use crate::tui::row_view;
use crate::tui::theme::Theme;

fn huge_app() -> crate::tui::app::App {
    let many_lines: String = (0..200_000).map(|i| format!("line {i}\n")).collect();
    let one_line_blob = "QUJD".repeat(1 << 20);
    let insp = fixtures::build(
        "huge",
        vec![
            replaylens::model::json::from_value(
                json!({"role": "user", "content": [{"type": "text", "text": many_lines}]}),
            )
            .unwrap(),
            replaylens::model::json::from_value(json!({"role": "toolResult", "toolCallId": "c1", "toolName": "read",
                "content": [{"type": "text", "text": one_line_blob}]}))
            .unwrap(),
        ],
        vec![(vec![0], None), (vec![1], None)],
        Vec::new(),
    );
    app_with(insp, Theme::dark())
}

fn laid_out_lines(app: &crate::tui::app::App, row: usize) -> usize {
    let insp = app.insp.as_ref().unwrap();
    let width = app.areas().side_width();
    row_view::layout(insp, &app.rows[row], width, app.extent(row), &app.theme).height()
}

/// The last laid-out line of a row's stored side.
fn last_line(app: &crate::tui::app::App, row: usize) -> String {
    let insp = app.insp.as_ref().unwrap();
    let width = app.areas().side_width();
    let lines = row_view::layout(insp, &app.rows[row], width, app.extent(row), &app.theme);
    lines.left.last().map(ToString::to_string).unwrap_or_default()
}

#[test]
fn expanding_a_huge_message_lays_out_only_the_first_screens() {
    let mut app = huge_app();
    press(&mut app, "\n");
    assert!(matches!(app.extent(0), Extent::Expanded(_)));
    let laid = laid_out_lines(&app, 0);
    assert!(
        laid <= 2 * app.page() + 4,
        "{laid} lines laid out for a {} line page",
        app.page()
    );
    let s = text(&screen(&mut app));
    assert!(s.contains("line 0 ") && s.contains("line 10 "), "{s}");
    assert!(last_line(&app, 0).contains("more below"), "the rest is announced");
}

#[test]
fn scrolling_an_expanded_message_lays_out_the_rest_on_demand() {
    let mut app = huge_app();
    press(&mut app, "\n");
    for _ in 0..5 {
        handle_key(&mut app, KeyEvent::new(KeyCode::PageDown, KeyModifiers::NONE));
    }
    assert_eq!(app.selected, 0, "PgDn reads on inside the message");
    assert_eq!(app.row_scroll, 5 * app.page());
    let s = text(&screen(&mut app));
    let first_shown = 5 * app.page() - 1;
    assert!(s.contains(&format!("line {first_shown} ")), "{s}");
    assert!(!s.contains("line 0 "), "{s}");
    assert!(laid_out_lines(&app, 0) <= 7 * app.page() + 4);
    press(&mut app, "k");
    assert_eq!(app.row_scroll, 5 * app.page() - 1);
    press(&mut app, "\n");
    assert_eq!(
        (app.row_scroll, app.extent(0)),
        (0, Extent::Collapsed),
        "collapsing resets"
    );
}

#[test]
fn a_single_line_blob_is_cut_to_the_budget() {
    let mut app = huge_app();
    press(&mut app, "j\n");
    assert_eq!(app.selected, 1);
    let laid = laid_out_lines(&app, app.view[1]);
    assert!(laid <= 2 * app.page() + 4, "{laid}");
    let s = text(&screen(&mut app));
    assert!(s.contains("QUJDQUJD"), "{s}");
    assert!(last_line(&app, app.view[1]).contains("more below"));
    press(&mut app, "\n");
    press(&mut app, "j");
    assert_eq!(app.selected, 1, "collapsed: j at the last row stays");
}

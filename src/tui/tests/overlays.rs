//! Overlays as components (issue 30): the explain prompt (`E`) with pasted and typed-out
//! errors, paste into the other text fields, the help's overlay sections, and the session
//! picker's dates at 80 columns.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use super::{app_with, press, sample, screen, text};
use crate::tui::app::{App, Mode};
use crate::tui::input::{handle_burst, handle_key, handle_paste};
use crate::tui::keymap::Keymap;
use crate::tui::overlay::explain::Answer;
use crate::tui::pickers::SessionSource;
use crate::tui::theme::Theme;

const ORPHAN: &str = "messages.13.content.2: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01OvWOYRsMCFltjuQJSeeuAV. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.";

fn key(app: &mut App, code: KeyCode) {
    handle_key(app, KeyEvent::new(code, KeyModifiers::NONE));
}

fn explain_text(app: &App) -> &str {
    match &app.mode {
        Mode::Explain(p) => &p.text,
        other => panic!("no explain prompt: {other:?}"),
    }
}

fn stored_of_selection(app: &App) -> Vec<usize> {
    app.selected_row().unwrap().stored.to_vec()
}

#[test]
fn a_pasted_error_jumps_to_its_message_and_shows_the_answer() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    assert_eq!(app.selected, 0);
    press(&mut app, "E");
    assert!(matches!(app.mode, Mode::Explain(_)));
    // Bracketed paste, wrapped over lines as a terminal copies it: the line breaks stay in
    // the text and do not submit.
    let pasted = ORPHAN.replace(" found in ", "\nfound in ");
    handle_paste(&mut app, pasted.clone());
    assert_eq!(explain_text(&app), pasted);
    assert!(matches!(app.mode, Mode::Explain(ref p) if p.answer.is_none()));
    assert!(text(&screen(&mut app)).contains("explain a provider error (Enter explains"));
    key(&mut app, KeyCode::Enter);
    assert!(stored_of_selection(&app).contains(&16), "{:?}", app.selected_row());
    assert_eq!(
        app.status.as_deref(),
        Some("the error points at stored #16; rule tool-result-pairing fixes it")
    );
    let Mode::Explain(p) = &app.mode else {
        panic!("the answer closed")
    };
    assert!(matches!(&p.answer, Some(Answer::Explained(e)) if e.explanation.stored == [16]));
    let shown = text(&screen(&mut app));
    for want in [
        "anthropic-tool-result-orphan",
        "stored #16 (selected)",
        "rule tool-result-pairing",
        "it points at stored message s16",
        "(the session's own)",
    ] {
        assert!(shown.contains(want), "{want} missing:\n{shown}");
    }
    // The selected row is in sight above the answer.
    let marker_row = shown.lines().position(|l| l.starts_with('▶'));
    let answer_row = shown.lines().position(|l| l.contains(" explained ("));
    assert!(marker_row < answer_row, "{shown}");
    key(&mut app, KeyCode::Esc);
    assert!(matches!(app.mode, Mode::Normal));
    assert!(stored_of_selection(&app).contains(&16));
}

#[test]
fn after_a_profile_switch_the_sessions_own_error_is_explained_against_its_own_target() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    // Another provider on screen: its projection is another payload.
    app.retarget(replaylens::policy::Target::new(
        Some("mistral"),
        Some("mistral-conversations"),
        None,
    ));
    let jobs: Vec<_> = std::mem::take(&mut app.effects)
        .into_iter()
        .filter_map(|e| match e {
            crate::tui::app::Effect::Reproject(job) => Some(job),
            _ => None,
        })
        .collect();
    app.reprojected(jobs[0].clone().run());
    assert_eq!(
        app.insp.as_ref().unwrap().resolved.target.provider.as_deref(),
        Some("mistral")
    );
    press(&mut app, "E");
    handle_paste(&mut app, ORPHAN.to_owned());
    key(&mut app, KeyCode::Enter);
    assert!(stored_of_selection(&app).contains(&16), "{:?}", app.selected_row());
    let Mode::Explain(p) = &app.mode else {
        panic!("the answer closed")
    };
    let Some(Answer::Explained(e)) = &p.answer else {
        panic!("no explanation: {:?}", p.answer)
    };
    assert_eq!(e.explanation.stored, [16]);
    assert!(
        e.target.starts_with("anthropic / anthropic-messages / ") && e.target.ends_with("(the session's own)"),
        "{}",
        e.target
    );
    assert!(text(&screen(&mut app)).contains("(the session's own)"));
}

#[test]
fn an_error_naming_an_absent_id_says_so_and_does_not_move() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    press(&mut app, "jj");
    let before = app.selected;
    press(&mut app, "E");
    handle_paste(
        &mut app,
        "messages.3.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01XXXXXXXXXXXXXXXXXXXXXX"
            .into(),
    );
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.selected, before, "the selection stays");
    assert_eq!(
        app.status.as_deref(),
        Some("the ids it names are not in this session; the selection stays")
    );
    let shown = text(&screen(&mut app));
    assert!(shown.contains("no message of this session"), "{shown}");
    assert!(shown.contains("does not occur"), "{shown}");
}

#[test]
fn an_error_typed_out_as_a_burst_of_keys_keeps_its_line_breaks() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    press(&mut app, "E");
    // A terminal without bracketed paste types the paste out: its line break arrives as
    // Enter among the other keys, and must not submit.
    let typed = ORPHAN.replacen(' ', "\n", 3);
    let events: Vec<KeyEvent> = typed
        .chars()
        .map(|c| match c {
            '\n' => KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE),
            c => KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE),
        })
        .collect();
    handle_burst(&mut app, &events);
    assert_eq!(explain_text(&app), typed);
    // Enter on its own explains.
    handle_burst(&mut app, &[KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)]);
    assert!(stored_of_selection(&app).contains(&16));
    // Backspace and Ctrl-u edit, unrecognised text leaves the selection alone.
    press(&mut app, "\u{1b}E");
    press(&mut app, "nonsense");
    key(&mut app, KeyCode::Backspace);
    assert_eq!(explain_text(&app), "nonsens");
    handle_key(&mut app, KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    assert_eq!(explain_text(&app), "");
    press(&mut app, "nonsense\n");
    assert!(stored_of_selection(&app).contains(&16));
    assert_eq!(
        app.status.as_deref(),
        Some("error text not recognised; the selection stays")
    );
}

#[test]
fn paste_goes_to_the_open_text_field_on_one_line() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    handle_paste(&mut app, "ignored".into());
    assert!(matches!(app.mode, Mode::Normal));
    press(&mut app, "/");
    handle_paste(&mut app, "read\n".into());
    assert!(matches!(&app.mode, Mode::SearchInput(s) if s.query == "read"));
    press(&mut app, "\u{1b}p");
    handle_paste(&mut app, "mistral\r\n".into());
    assert!(matches!(&app.mode, Mode::Profiles(p) if p.filter == "mistral"));
}

#[test]
fn the_help_lists_every_overlay_table_from_the_keymap() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    app.resize(Rect::new(0, 0, 120, 200));
    press(&mut app, "?");
    let shown = text(&screen(&mut app));
    for (heading, rows) in Keymap::default().overlay_help() {
        assert!(shown.contains(heading), "{heading} missing:\n{shown}");
        for (keys, desc) in rows {
            assert!(shown.contains(&format!("{keys}  {desc}")), "{keys} {desc} missing");
        }
    }
    assert!(shown.contains("explain a pasted provider error"));
    // The key that opened the help closes it, as do the table's keys.
    press(&mut app, "?");
    assert!(matches!(app.mode, Mode::Normal));
    press(&mut app, "s");
    press(&mut app, "s");
    assert!(matches!(app.mode, Mode::Normal), "s opens and closes rewrites per rule");
}

#[test]
fn a_rebound_overlay_key_works_and_shows_in_the_help() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    app.keymap = Keymap::with_overrides("[pickers]\n\"ctrl-j\" = \"down\"\n").unwrap();
    press(&mut app, "p");
    let Mode::Profiles(p) = &app.mode else {
        panic!("no picker")
    };
    let before = p.selected;
    handle_key(&mut app, KeyEvent::new(KeyCode::Char('j'), KeyModifiers::CONTROL));
    let Mode::Profiles(p) = &app.mode else {
        panic!("no picker")
    };
    assert_eq!(p.selected, before + 1);
    assert_eq!(p.filter, "", "a bound key is not typed");
}

#[test]
fn the_session_picker_dates_are_readable_at_80_columns() {
    let mut app = App::new(
        Keymap::default(),
        Theme::dark(),
        SessionSource::Path("sample-sessions".into()),
    );
    app.resize(Rect::new(0, 0, 80, 24));
    press(&mut app, "o");
    app.compute_scan_now();
    let shown = text(&screen(&mut app));
    let row = shown
        .lines()
        .find(|l| l.contains("mistral-ids-and-images.jsonl"))
        .unwrap_or_default();
    assert!(row.contains("12 rw     6→2 lint ✗  03-14 09:33"), "{row}");
    assert!(!shown.contains("20…"), "{shown}");
    assert!(row.trim_end().ends_with('│'), "{row}");
    // Wide, the full date is back.
    app.resize(Rect::new(0, 0, 120, 24));
    let shown = text(&screen(&mut app));
    assert!(shown.contains("2026-03-14 09:33"), "{shown}");
}

#[test]
fn a_scrolled_list_says_how_much_is_above_it() {
    let mut app = app_with(sample("mistral-ids-and-images.jsonl"), Theme::dark());
    app.resize(Rect::new(0, 0, 80, 24));
    press(&mut app, "p");
    let top = text(&screen(&mut app));
    assert!(top.contains("filter:") && top.contains("more lines"), "{top}");
    assert!(!top.contains("more above"), "{top}");
    key(&mut app, KeyCode::End);
    let bottom = text(&screen(&mut app));
    assert!(bottom.contains("more above"), "{bottom}");
    assert!(!bottom.contains("filter:"), "the filter line scrolled away: {bottom}");
}

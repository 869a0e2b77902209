//! Inspector tests: state and keys, whole-screen snapshots with styles, escaping.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use replaylens::json;
use replaylens::policy::Family;

use super::app::{App, Mode};
use super::fixtures;
use super::input::{handle_key, handle_mouse};
use super::inspection::Inspection;
use super::keymap::Keymap;
use super::loader::load;
use super::pickers::SessionSource;
use super::render::draw;
use super::rows::RowKind;
use super::snapshot::annotate;
use super::theme::Theme;

mod contrast;
mod escape_props;
mod every_scalar_width;
mod export;
mod header_target;
mod huge_message;
mod live;
mod overlays;
mod papercuts;
mod payload_view;
mod progressive;
mod readable;
mod reduce;
mod search_copy;
mod session_scan;

fn app_with(insp: Inspection, theme: Theme) -> App {
    let mut app = App::new(Keymap::default(), theme, SessionSource::Default);
    app.rules = fixtures::rule_info;
    app.resize(Rect::new(0, 0, 120, 40));
    app.set_inspection(insp);
    app.compute_wire_now();
    app
}

fn screen(app: &mut App) -> Buffer {
    let (w, h) = (app.screen.width, app.screen.height);
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| draw(app, f)).unwrap();
    terminal.backend().buffer().clone()
}

fn text(buf: &Buffer) -> String {
    let mut out = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

fn press(app: &mut App, keys: &str) {
    for c in keys.chars() {
        let code = match c {
            '\n' => KeyCode::Enter,
            '\u{1b}' => KeyCode::Esc,
            '\t' => KeyCode::Tab,
            c => KeyCode::Char(c),
        };
        handle_key(app, KeyEvent::new(code, KeyModifiers::NONE));
        // What the event loop does between keys: background work (a re-projection, the
        // wire payload) arrives.
        app.compute_wire_now();
    }
}

fn select_kind(app: &mut App, kind: RowKind) {
    let pos = app.view.iter().position(|&r| app.rows[r].kind == kind).unwrap();
    app.select(pos);
}

fn sample(name: &str) -> Inspection {
    let request = super::app::LoadRequest {
        path: format!("{}/sample-sessions/{name}", env!("CARGO_MANIFEST_DIR")).into(),
        session: None,
        target: replaylens::policy::Target::default(),
        rule_set: replaylens::rule_set::RuleSet::newest(),
        rule_set_from_session: false,
        config: None,
    };
    load(&request, &(std::sync::Arc::new(|_| {}) as super::loader::Report)).unwrap()
}

macro_rules! snapshot_kind {
    ($name:ident, $kind:expr) => {
        #[test]
        fn $name() {
            let mut app = app_with(fixtures::every_kind(), Theme::dark());
            select_kind(&mut app, $kind);
            insta::assert_snapshot!(annotate(&screen(&mut app)));
        }
    };
}

snapshot_kind!(snapshot_dropped_row, RowKind::Dropped);
snapshot_kind!(snapshot_inserted_synthetic_result, RowKind::Inserted);
snapshot_kind!(snapshot_merge, RowKind::Merged);
snapshot_kind!(snapshot_moved_result, RowKind::Moved);

#[test]
fn snapshot_stripped_thinking() {
    let mut app = app_with(fixtures::every_kind(), Theme::dark());
    app.select(1);
    assert!(
        app.selected_row()
            .unwrap()
            .rewrites
            .iter()
            .any(|&r| app.insp.as_ref().unwrap().rewrites[r].rule == "drop-thinking")
    );
    insta::assert_snapshot!(annotate(&screen(&mut app)));
}

#[test]
fn snapshot_image_recompression() {
    let mut app = app_with(fixtures::every_kind(), Theme::dark());
    press(&mut app, "G");
    let buf = screen(&mut app);
    assert!(text(&buf).contains("image/png 2600×400 1.8 MB → image/jpeg 1200×185 140 KB"));
    insta::assert_snapshot!(annotate(&buf));
}

#[test]
fn snapshot_no_color_keeps_markers_and_tags() {
    let mut app = app_with(fixtures::every_kind(), Theme::load("dark", true).unwrap());
    let buf = screen(&mut app);
    let s = text(&buf);
    assert!(s.contains("‹stream-error-turn›") && s.contains("✗ dropped"));
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            assert!(buf[(x, y)].fg == ratatui::style::Color::Reset, "colour at {x},{y}");
        }
    }
    insta::assert_snapshot!(annotate(&buf));
}

#[test]
fn snapshot_real_sample_replay() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    app.rules = super::app::library_rules;
    insta::assert_snapshot!(annotate(&screen(&mut app)));
}

#[test]
fn snapshot_help_overlay() {
    let mut app = app_with(fixtures::every_kind(), Theme::dark());
    press(&mut app, "?");
    assert!(matches!(app.mode, Mode::Help(_)));
    let s = text(&screen(&mut app));
    assert!(s.contains("next rewrite") && s.contains("Ctrl-d"));
    insta::assert_snapshot!(s);
}

#[test]
fn escape_sequences_are_shown_escaped() {
    let evil = "title \u{1b}]0;pwned\u{7} clear \u{1b}[2J done";
    let insp = fixtures::build(
        "evil\u{1b}[31m",
        vec![
            replaylens::model::json::from_value(json!({"role": "user", "content": [{"type": "text", "text": evil}]}))
                .unwrap(),
        ],
        vec![(vec![0], None)],
        Vec::new(),
    );
    let mut app = app_with(insp, Theme::dark());
    let buf = screen(&mut app);
    let s = text(&buf);
    assert!(s.contains("\\e]0;pwned\\x07 clear \\e[2J done"), "{s}");
    assert!(!s.contains('\u{1b}') && !s.contains('\u{7}'));
    assert!(s.contains("evil\\e[31m"));
}

#[test]
fn next_rewrite_walks_every_rewritten_row() {
    let mut app = app_with(fixtures::every_kind(), Theme::dark());
    let expected: Vec<usize> = (0..app.rows.len()).filter(|&r| app.rows[r].is_rewritten()).collect();
    let mut seen = Vec::new();
    for _ in 0..expected.len() {
        press(&mut app, "]");
        seen.push(app.view[app.selected]);
    }
    assert_eq!(seen, expected);
    press(&mut app, "]");
    assert_eq!(app.status.as_deref(), Some("no later rewrite"));
    press(&mut app, "[");
    assert_eq!(app.view[app.selected], expected[expected.len() - 2]);
}

#[test]
fn navigation_keys() {
    let mut app = app_with(fixtures::plain(500), Theme::dark());
    press(&mut app, "jjj");
    assert_eq!(app.selected, 3);
    press(&mut app, "k");
    assert_eq!(app.selected, 2);
    press(&mut app, "G");
    assert_eq!(app.selected, 499);
    assert!(app.top > 400);
    press(&mut app, "g");
    assert_eq!((app.selected, app.top), (0, 0));
    handle_key(&mut app, KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL));
    let half = app.selected;
    assert!((4..30).contains(&half), "{half}");
    handle_key(&mut app, KeyEvent::new(KeyCode::PageDown, KeyModifiers::NONE));
    assert!(app.selected > half);
    handle_key(&mut app, KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    assert!(app.selected < 2 * half + 30);
    press(&mut app, "q");
    assert!(app.quit);
}

#[test]
fn tab_moves_focus_and_scrolls_detail() {
    let mut app = app_with(fixtures::every_kind(), Theme::dark());
    handle_key(&mut app, KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE));
    assert_eq!(app.focus, super::app::Pane::Detail);
    press(&mut app, "jj");
    assert_eq!((app.selected, app.detail_scroll), (0, 2));
    handle_key(&mut app, KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE));
    press(&mut app, "j");
    assert_eq!(app.selected, 1);
}

#[test]
fn enter_expands_a_long_message() {
    let long = (0..30).map(|i| format!("line {i}")).collect::<Vec<_>>().join("\n");
    let insp = fixtures::build(
        "long",
        vec![replaylens::model::json::from_value(json!({"role": "user", "content": long})).unwrap()],
        vec![(vec![0], None)],
        Vec::new(),
    );
    let mut app = app_with(insp, Theme::dark());
    let before = app.row_height(0);
    press(&mut app, "\n");
    assert!(app.row_height(0) > before + 20);
    assert!(text(&screen(&mut app)).contains("line 20"));
    press(&mut app, "\n");
    assert_eq!(app.row_height(0), before);
}

#[test]
fn search_and_filter() {
    let mut app = app_with(fixtures::every_kind(), Theme::dark());
    press(&mut app, "/rounding\n");
    let first = app.view[app.selected];
    assert!(app.search.as_ref().unwrap().matches.len() >= 2);
    press(&mut app, "n");
    assert!(app.view[app.selected] > first);
    press(&mut app, "N");
    assert_eq!(app.view[app.selected], first);
    press(&mut app, "f");
    assert!(app.view.iter().all(|&r| app.rows[r].is_rewritten()));
    press(&mut app, "f");
    let rule = match app.filter {
        super::search::Filter::Rule(r) => r,
        other => panic!("{other:?}"),
    };
    assert_eq!(rule, "anthropic-turn-merge");
    assert_eq!(app.view.len(), 1);
}

#[test]
fn search_says_which_match_wraps_and_marks_the_term() {
    let mut app = app_with(fixtures::every_kind(), Theme::dark());
    press(&mut app, "/rounding\n");
    let n = app.search.as_ref().unwrap().matches.len();
    assert_eq!(app.status.as_deref(), Some(format!("match 1 of {n}").as_str()));
    for k in 2..=n {
        press(&mut app, "n");
        assert_eq!(app.status.as_deref(), Some(format!("match {k} of {n}").as_str()));
    }
    press(&mut app, "n");
    assert_eq!(
        app.status.as_deref(),
        Some(format!("match 1 of {n} (wrapped to the top)").as_str())
    );
    press(&mut app, "N");
    assert_eq!(
        app.status.as_deref(),
        Some(format!("match {n} of {n} (wrapped to the bottom)").as_str())
    );
    // The term itself is marked in the rows.
    let buf = screen(&mut app);
    let marked = app.theme.style(super::theme::Role::SearchMatch);
    let mut word = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            let cell = &buf[(x, y)];
            if marked.fg.is_some() && cell.fg == marked.fg.unwrap() && cell.symbol() != " " {
                word.push_str(cell.symbol());
            }
        }
    }
    assert!(word.to_lowercase().contains("rounding"), "marked: {word:?}");
}

#[test]
fn summary_jumps_to_first_occurrence() {
    let mut app = app_with(fixtures::every_kind(), Theme::dark());
    press(&mut app, "s");
    assert!(text(&screen(&mut app)).contains("image-sanitize"));
    press(&mut app, "jjj\n");
    let row = &app.rows[app.view[app.selected]];
    let insp = app.insp.as_ref().unwrap();
    assert!(
        row.rewrites
            .iter()
            .any(|&r| insp.rewrites[r].rule == "stream-error-turn")
    );
}

#[test]
fn profile_switch_recomputes_and_keeps_selection() {
    let mut app = app_with(sample("mistral-ids-and-images.jsonl"), Theme::dark());
    press(&mut app, "jjjjj");
    let anchor = app.anchor();
    press(&mut app, "p");
    let Mode::Profiles(picker) = &app.mode else {
        panic!("no picker")
    };
    let target = picker
        .items
        .iter()
        .position(|i| i.label.starts_with("openai ") && i.label.contains(" openai-responses "))
        .unwrap();
    let chosen = picker.items[target].target.clone().unwrap();
    let delta = target as isize - picker.selected as isize;
    let key = if delta > 0 { KeyCode::Down } else { KeyCode::Up };
    for _ in 0..delta.unsigned_abs() {
        handle_key(&mut app, KeyEvent::new(key, KeyModifiers::NONE));
    }
    press(&mut app, "\n");
    let insp = app.insp.as_ref().unwrap();
    assert_eq!(insp.resolved.family, Family::OpenAIResponses);
    assert_eq!(insp.requested, chosen);
    assert_eq!(app.anchor(), anchor);
    press(&mut app, "p");
    handle_key(&mut app, KeyEvent::new(KeyCode::End, KeyModifiers::NONE));
    press(&mut app, "\n");
    assert!(matches!(&app.mode, Mode::Profiles(p) if p.input.is_some()));
    press(&mut app, "mistral mistral-conversations devstral\n");
    assert_eq!(app.insp.as_ref().unwrap().resolved.family, Family::Mistral);
}

#[test]
fn session_picker_filters_and_loads() {
    let mut app = app_with(fixtures::plain(3), Theme::dark());
    app.sessions = SessionSource::Path(format!("{}/sample-sessions", env!("CARGO_MANIFEST_DIR")).into());
    press(&mut app, "o");
    press(&mut app, "/gemsig");
    let Mode::Sessions(picker) = &app.mode else {
        panic!("no picker")
    };
    assert!(picker.current().unwrap().path.ends_with("gemini-signatures.jsonl"));
    press(&mut app, "\n");
    assert_eq!(app.effects.len(), 1);
    assert!(app.loading.is_some());
}

#[test]
fn mouse_click_and_wheel_select() {
    let mut app = app_with(fixtures::plain(100), Theme::dark());
    let rows = app.areas().rows;
    let click = MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: 10,
        row: rows.y + 4,
        modifiers: KeyModifiers::NONE,
    };
    handle_mouse(&mut app, click);
    assert_eq!(app.selected, 2);
    handle_mouse(
        &mut app,
        MouseEvent {
            kind: MouseEventKind::ScrollDown,
            ..click
        },
    );
    assert_eq!(app.selected, 5);
}

#[test]
fn large_session_renders_only_the_viewport() {
    let mut app = app_with(fixtures::synthetic(20_000), Theme::dark());
    press(&mut app, "G");
    let s = text(&screen(&mut app));
    assert!(s.contains("#19999"));
    assert!(s.contains("stored 20000 → replay 20000"));
}

#[test]
fn readme_key_table_matches_keymap() {
    let mut table = String::from("| keys | action |\n|---|---|\n");
    for (keys, desc) in Keymap::default().help() {
        table.push_str(&format!("| `{keys}` | {desc} |\n"));
    }
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(
        readme.contains(&table),
        "README.md key table is out of date; expected:\n{table}"
    );
}

#[test]
fn empty_app_survives_keys_and_resize() {
    let mut app = App::new(Keymap::default(), Theme::dark(), SessionSource::Default);
    app.resize(Rect::new(0, 0, 80, 20));
    press(&mut app, "jkGg]ps/x\n");
    app.resize(Rect::new(0, 0, 40, 10));
    assert!(text(&screen(&mut app)).contains("no session loaded"));
}

#[test]
fn snapshot_export_dialog() {
    let mut app = app_with(fixtures::every_kind(), Theme::dark());
    press(&mut app, "e");
    handle_key(&mut app, KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE));
    handle_key(&mut app, KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
    press(&mut app, "\u{7}");
    insta::assert_snapshot!(annotate(&screen(&mut app)));
}

#[test]
fn v_switches_the_openclaw_rule_set_and_replays_again() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    assert!(text(&screen(&mut app)).contains("openclaw newest"));
    let synthetic = |app: &App| {
        let insp = app.insp.as_ref().unwrap();
        (0..insp.replay.len())
            .filter_map(|i| insp.replayed(i))
            .filter(|m| m.is_tool_result())
            .any(|m| m.text().starts_with("[openclaw] missing tool result"))
    };
    assert!(!synthetic(&app), "newest writes the outcome-unknown text");
    press(&mut app, "v");
    let shown = text(&screen(&mut app));
    assert!(shown.contains("openclaw 2026.9.6"), "{shown}");
    assert!(synthetic(&app), "2026.9.6 writes its legacy synthetic text");
    for older in ["2026.9.3", "2026.9.2", "2026.8", "2026.7", "2026.6", "2026.6.9"] {
        press(&mut app, "v");
        let shown = text(&screen(&mut app));
        assert!(shown.contains(&format!("openclaw {older}")), "{shown}");
    }
    press(&mut app, "v");
    assert!(
        text(&screen(&mut app)).contains("openclaw newest"),
        "v wraps around to newest"
    );
}

#[test]
fn load_problems_show_as_a_badge_and_a_list() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("damaged.jsonl");
    let header = r#"{"type":"session","version":3,"id":"d1","timestamp":"2026-03-09T08:41:07.000Z","cwd":"/"}"#;
    let ok = r#"{"type":"message","id":"a1","parentId":null,"timestamp":"2026-03-09T08:41:08.000Z","message":{"role":"user","content":"hi","timestamp":1}}"#;
    std::fs::write(&path, format!("{header}\n{{broken\n{ok}\n")).unwrap();
    let request = super::app::LoadRequest {
        path,
        session: None,
        target: replaylens::policy::Target::default(),
        rule_set: replaylens::rule_set::RuleSet::newest(),
        rule_set_from_session: false,
        config: None,
    };
    let insp = load(&request, &(std::sync::Arc::new(|_| {}) as super::loader::Report)).unwrap();
    assert_eq!(insp.load_problems.len(), 1, "{:?}", insp.load_problems);
    let mut app = app_with(insp, Theme::dark());
    assert!(text(&screen(&mut app)).contains("⚠ 1 load problem (!)"));
    press(&mut app, "!");
    let shown = text(&screen(&mut app));
    assert!(shown.contains("line 2") && shown.contains("not valid JSON"), "{shown}");
    press(&mut app, "\u{1b}");
    assert!(matches!(app.mode, super::app::Mode::Normal));
}

//! What a newcomer trips over (issue 15): typing in the profile picker, cuts without `…`,
//! the session picker's twin rows and folder, the detail pane's clipped explanation and
//! sticky scroll, the status bar's missing keys, Esc quitting, "(1 rows)".

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use replaylens::hygiene::RuleInfo;
use replaylens::load::discover::list_path;
use replaylens::policy::Family;

use super::{app_with, press, sample, screen, text};
use crate::tui::app::{App, Mode, Pane};
use crate::tui::fixtures;
use crate::tui::pickers::{ProfilePicker, SessionPicker, SessionSource};
use crate::tui::search::Filter;
use crate::tui::theme::Theme;

fn key(app: &mut App, code: KeyCode) {
    crate::tui::input::handle_key(app, KeyEvent::new(code, KeyModifiers::NONE));
}

fn profiles(app: &App) -> &ProfilePicker {
    let Mode::Profiles(p) = &app.mode else {
        panic!("no profile picker")
    };
    p
}

fn sessions(app: &App) -> &SessionPicker {
    let Mode::Sessions(p) = &app.mode else {
        panic!("no session picker")
    };
    p
}

fn samples_dir() -> std::path::PathBuf {
    concat!(env!("CARGO_MANIFEST_DIR"), "/sample-sessions").into()
}

#[test]
fn typing_filters_the_profile_picker_and_home_end_backspace_work() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    press(&mut app, "p");
    let all = profiles(&app).matches.len();
    // Before `/` letters do not filter (q closes); after it they are typed into the filter.
    press(&mut app, "mis");
    assert!(profiles(&app).filter.is_empty());
    press(&mut app, "/mistrl");
    let p = profiles(&app);
    assert_eq!(p.filter, "mistrl");
    assert!(p.matches.len() < all, "the list is filtered");
    assert!(p.current().unwrap().label.starts_with("mistral "), "{:?}", p.current());
    assert!(text(&screen(&mut app)).contains("filter: mistrl▏"));
    key(&mut app, KeyCode::End);
    let p = profiles(&app);
    assert!(
        p.current().unwrap().target.is_none(),
        "End: the free-entry line, always last"
    );
    key(&mut app, KeyCode::Home);
    assert_eq!(profiles(&app).selected, 0);
    for _ in 0.."mistrl".len() {
        key(&mut app, KeyCode::Backspace);
    }
    assert_eq!(profiles(&app).matches.len(), all, "Backspace edits the filter");
    press(&mut app, "qpgG");
    assert!(
        matches!(app.mode, Mode::Profiles(_)),
        "while typing, q and p type, they do not close"
    );
    key(&mut app, KeyCode::Esc);
    assert!(matches!(app.mode, Mode::Normal));
    // Before `/`, q closes the picker.
    press(&mut app, "pq");
    assert!(matches!(app.mode, Mode::Normal), "q closes a picker");

    press(&mut app, "p");
    press(&mut app, "/google");
    assert!(profiles(&app).current().unwrap().label.starts_with("google "));
    press(&mut app, "\n");
    assert_eq!(app.insp.as_ref().unwrap().resolved.family, Family::Google);
}

#[test]
fn free_entry_still_works_from_its_line_and_from_typed_text() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    // Its line, as before: End, Enter, type, Enter.
    press(&mut app, "p");
    key(&mut app, KeyCode::End);
    press(&mut app, "\n");
    assert_eq!(profiles(&app).input.as_deref(), Some(""));
    press(&mut app, "mistral mistral-conversations devstral\n");
    assert_eq!(app.insp.as_ref().unwrap().resolved.family, Family::Mistral);
    // Typed text that matches no entry: the free-entry line offers it.
    press(&mut app, "p");
    press(&mut app, "/zz9 zz9 zz9");
    let p = profiles(&app);
    assert_eq!(p.matches.len(), 1);
    assert!(
        p.current().unwrap().label.contains("use \"zz9 zz9 zz9\""),
        "{:?}",
        p.current()
    );
    assert!(text(&screen(&mut app)).contains("custom…  use \"zz9 zz9 zz9\""));
    press(&mut app, "\n");
    assert_eq!(profiles(&app).input.as_deref(), Some("zz9 zz9 zz9"));
    press(&mut app, "\n");
    assert_eq!(
        app.insp.as_ref().unwrap().requested.model.as_deref(),
        Some("zz9"),
        "the typed entry applies"
    );
}

#[test]
fn profile_labels_keep_their_column_and_overlay_cuts_end_in_an_ellipsis() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    press(&mut app, "p");
    // Every profile's API, model and family start in the same columns, at least two spaces
    // after the longest entry of the column before.
    let offered = replaylens::policy::providers::catalog().profiles();
    let picker = profiles(&app);
    let columns: Vec<[usize; 3]> = picker.items[1..=offered.len()]
        .iter()
        .zip(&offered)
        .map(|(item, p)| {
            // The session's own profile is marked after its provider, within the column.
            use crate::tui::overlay::profiles::OWN_MARK;
            let l = &item.label.replacen(OWN_MARK, &" ".repeat(OWN_MARK.chars().count()), 1);
            assert!(l.starts_with(&format!("{}  ", p.provider)), "{l}");
            let api = p.provider.len() + l[p.provider.len()..].find(&format!("  {}  ", p.api)).unwrap() + 2;
            let model = api + l[api..].find(&format!("  {}", p.model)).unwrap() + 2;
            let family = l.rfind("  ").unwrap() + 2;
            [api, model, family]
        })
        .collect();
    assert!(columns.windows(2).all(|w| w[0] == w[1]), "{columns:?}");
    let shown = text(&screen(&mut app));
    assert!(shown.contains(&format!("{}  ", offered[0].provider)), "{shown}");

    // Every overlay line that is cut on a narrow screen ends in `…`: each line of the popup is
    // compared with the same line on a wide screen, where nothing is cut (same height, so the
    // same rows; the popup spans columns 4..56 at 60 wide and 45..155 at 200).
    let inner = |l: &str, from: usize, to: usize| -> String {
        l.chars()
            .skip(from + 1)
            .take(to - from - 2)
            .collect::<String>()
            .trim_end()
            .to_owned()
    };
    // (The help wraps instead: `overlay::help`'s test holds that nothing of it is cut.)
    for keys in ["", "\u{1b}s"] {
        press(&mut app, keys);
        app.resize(Rect::new(0, 0, 200, 30));
        let wide = text(&screen(&mut app));
        app.resize(Rect::new(0, 0, 60, 30));
        let narrow = text(&screen(&mut app));
        let mut cut = 0;
        for (n, w) in narrow.lines().zip(wide.lines()) {
            if n.chars().nth(4) != Some('│') || n.chars().nth(55) != Some('│') {
                continue;
            }
            let (n, w) = (inner(n, 4, 56), inner(w, 45, 155));
            if n != w {
                cut += 1;
                assert!(
                    n.ends_with('…'),
                    "cut without an ellipsis ({keys:?}): {n:?} for {w:?}\n{narrow}"
                );
            }
        }
        assert!(cut > 0, "nothing is cut in {keys:?}:\n{narrow}");
        let title = narrow.lines().find(|l| l.contains('┌')).unwrap();
        assert!(title.contains("…┐") || !wide.contains("(/ filters"), "{title}");
    }
}

#[test]
fn the_session_picker_marks_a_previous_window_in_full() {
    let db = samples_dir().join("openclaw-agent.sqlite");
    let listings = list_path(&db).unwrap();
    let labels: Vec<String> = listings
        .iter()
        .filter(|l| l.session_key.as_deref() == Some("agent:main:main"))
        .map(SessionPicker::label)
        .collect();
    assert_eq!(labels.len(), 2, "{labels:?}");
    assert_ne!(labels[0], labels[1]);
    assert!(
        labels
            .iter()
            .any(|l| l.starts_with("agent:main:main (previous window: reset) ")),
        "{labels:?}"
    );
}

#[test]
fn o_lists_the_folder_of_the_opened_file_and_a_picked_session_keeps_its_source() {
    let mut app = app_with(sample("gemini-signatures.jsonl"), Theme::dark());
    assert_eq!(app.sessions, SessionSource::Default);
    press(&mut app, "o");
    assert_eq!(app.sessions, SessionSource::Path(samples_dir()));
    let p = sessions(&app);
    assert_eq!(p.origin, samples_dir().display().to_string());
    assert!(p.listings.iter().any(|l| l.path.ends_with("gemini-signatures.jsonl")));
    assert!(
        p.listings
            .iter()
            .any(|l| l.session_key.as_deref() == Some("agent:main:main")),
        "the folder's database windows are listed too"
    );

    // A database given on the command line: its windows and its folder.
    let mut app = app_with(sample("gemini-signatures.jsonl"), Theme::dark());
    let db = samples_dir().join("openclaw-agent.sqlite");
    app.insp.as_mut().unwrap().session.path = db.clone();
    app.sessions = SessionSource::Path(db);
    press(&mut app, "o");
    assert_eq!(app.sessions, SessionSource::Path(samples_dir()));

    // Nothing opened: as before.
    let mut app = App::new(
        crate::tui::keymap::Keymap::default(),
        Theme::dark(),
        SessionSource::Path("sample-sessions".into()),
    );
    press(&mut app, "o");
    assert_eq!(app.sessions, SessionSource::Path("sample-sessions".into()));
    // A session chosen in the picker: the picker's source stays.
    let listing = sessions(&app).current().unwrap().clone();
    app.open_listing(&listing, None);
    assert!(app.picked);
}

fn long_rule(id: &str) -> Option<&'static RuleInfo> {
    static INFO: RuleInfo = RuleInfo {
        id: "drop-thinking",
        summary: "drop thinking blocks from older assistant turns",
        explanation: "First sentence of a long explanation that wraps over several lines of the detail pane. \
            Second sentence, which used to be cut off after the third line of the pane. \
            Third sentence, more of the same so that it wraps at a hundred and twenty columns. \
            Fourth sentence, still going.\nA second paragraph on its own line.\nThe LAST-WORDS-OF-IT.",
        families: "fixture",
        reference: "fixture.md",
    };
    fixtures::rule_info(id).map(|_| &INFO)
}

#[test]
fn the_detail_pane_shows_the_whole_explanation_and_forgets_its_scroll() {
    let mut app = app_with(fixtures::every_kind(), Theme::dark());
    app.rules = long_rule;
    app.select(1);
    assert!(!app.selected_row().unwrap().rewrites.is_empty());
    let shown = text(&screen(&mut app));
    assert!(shown.contains("The LAST-WORDS-OF-IT."), "{shown}");
    assert!(shown.contains("Fourth sentence, still going."), "{shown}");

    key(&mut app, KeyCode::Tab);
    press(&mut app, "jjj");
    assert_eq!((app.focus, app.detail_scroll), (Pane::Detail, 3));
    key(&mut app, KeyCode::Tab);
    assert_eq!(
        (app.focus, app.detail_scroll),
        (Pane::Rows, 0),
        "leaving the pane resets it"
    );
    key(&mut app, KeyCode::Tab);
    press(&mut app, "jj");
    press(&mut app, "\u{1b}");
    assert_eq!((app.focus, app.detail_scroll), (Pane::Rows, 0), "Esc leaves the pane");
    app.detail_scroll = 4;
    press(&mut app, "j");
    assert_eq!(app.detail_scroll, 0, "another row starts at the top");

    // A pane too small for it: the last line says how much is left and how to read on.
    app.select(1);
    app.resize(Rect::new(0, 0, 100, 22));
    let shown = text(&screen(&mut app));
    assert!(!shown.contains("LAST-WORDS"), "{shown}");
    assert!(shown.contains("more lines (Tab, then ↓ scrolls)"), "{shown}");
    key(&mut app, KeyCode::Tab);
    press(&mut app, "jjjjjj");
    let shown = text(&screen(&mut app));
    assert!(shown.contains("The LAST-WORDS-OF-IT."), "{shown}");
}

#[test]
fn the_status_bar_names_tab_d_s_and_e() {
    let mut app = app_with(fixtures::every_kind(), Theme::dark());
    let shown = text(&screen(&mut app));
    let bar = shown.lines().last().unwrap();
    for hint in ["Tab pane", "d detail", "s rules", "e export", "? help", "q quit"] {
        assert!(bar.contains(hint), "{hint} missing: {bar}");
    }
    app.resize(Rect::new(0, 0, 70, 30));
    let shown = text(&screen(&mut app));
    let bar = shown.lines().last().unwrap();
    assert!(bar.contains("… ? help  q quit"), "{bar}");
}

#[test]
fn esc_in_the_main_view_never_quits() {
    let mut app = app_with(fixtures::every_kind(), Theme::dark());
    press(&mut app, "p\u{1b}\u{1b}");
    assert!(!app.quit, "a double Esc from the picker leaves the app running");
    assert_eq!(app.status.as_deref(), Some("press q to quit"));
    assert!(text(&screen(&mut app)).contains("press q to quit"));
    press(&mut app, "/rounding\n");
    assert!(app.search.is_some());
    press(&mut app, "\u{1b}");
    assert!(app.search.is_none() && !app.quit);
    press(&mut app, "f\u{1b}");
    assert_eq!(app.filter, Filter::All);
    assert!(!app.quit);
    press(&mut app, "q");
    assert!(app.quit);
    let mut app = app_with(fixtures::every_kind(), Theme::dark());
    crate::tui::input::handle_key(&mut app, KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert!(app.quit, "Ctrl-c quits");
}

#[test]
fn one_row_is_not_one_rows() {
    let mut app = app_with(fixtures::every_kind(), Theme::dark());
    press(&mut app, "ff");
    assert_eq!(app.view.len(), 1);
    assert_eq!(app.status.as_deref(), Some("filter: rule anthropic-turn-merge (1 row)"));
    assert!(text(&screen(&mut app)).contains("(1 row)"));
    press(&mut app, "\u{1b}/Merged\n");
    let n = app.search.as_ref().unwrap().matches.len();
    if n == 1 {
        assert_eq!(app.status.as_deref(), Some("1 matching row"));
    }
    assert_eq!(crate::tui::app::plural(1, "rule"), "1 rule");
    assert_eq!(crate::tui::app::plural(0, "rule"), "0 rules");
}

#[test]
fn the_help_scrolls_to_its_last_line_at_80_by_24_and_shows_where_it_is() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    app.resize(Rect::new(0, 0, 80, 24));
    press(&mut app, "?");
    let first = text(&screen(&mut app));
    assert!(first.contains("keys 1–17 of "), "{first}");
    assert!(first.contains("more lines"), "{first}");
    press(&mut app, "jjj");
    assert!(text(&screen(&mut app)).contains("keys 4–20 of "));
    key(&mut app, KeyCode::End);
    let end = text(&screen(&mut app));
    assert!(
        end.contains("‹hidden") || end.contains("markers: ~ modified"),
        "the last line: {end}"
    );
    assert!(!end.contains("more line"), "{end}");
    key(&mut app, KeyCode::PageUp);
    key(&mut app, KeyCode::Home);
    assert!(text(&screen(&mut app)).contains("keys 1–17 of "));
    press(&mut app, "\u{1b}");
    assert!(matches!(app.mode, Mode::Normal));
}

#[test]
fn braces_move_between_user_turns_and_ctrl_f_b_page() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    let is_user = |app: &App| {
        let row = app.selected_row().unwrap();
        let insp = app.insp.as_ref().unwrap();
        row.stored
            .iter()
            .filter_map(|&s| insp.stored(s))
            .any(|m| m.role() == replaylens::model::Role::User)
    };
    assert!(is_user(&app), "the session starts with a user turn");
    press(&mut app, "}");
    let second = app.selected;
    assert!(second > 0 && is_user(&app));
    press(&mut app, "{");
    assert_eq!(app.selected, 0);
    press(&mut app, "{");
    assert_eq!(app.status.as_deref(), Some("no earlier user turn"));
    crate::tui::input::handle_key(&mut app, KeyEvent::new(KeyCode::Char('f'), KeyModifiers::CONTROL));
    let paged = app.selected;
    assert!(paged > 1, "Ctrl-f pages down: {paged}");
    crate::tui::input::handle_key(&mut app, KeyEvent::new(KeyCode::Char('b'), KeyModifiers::CONTROL));
    assert!(app.selected < paged);
}

#[test]
fn y_copies_the_message_or_the_payload_item_as_json_through_osc52() {
    use crate::tui::app::Effect;
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    app.effects.clear();
    press(&mut app, "y");
    let copied: Vec<String> = app
        .effects
        .iter()
        .filter_map(|e| match e {
            Effect::Copy(text) => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(copied.len(), 1);
    let value: serde_json::Value = serde_json::from_str(&copied[0]).unwrap();
    assert_eq!(value["role"], "user");
    let status = app.status.clone().unwrap();
    assert!(
        status.starts_with("replay message #0") && status.contains("unconfirmed"),
        "{status}"
    );
    assert_eq!(
        app.last_copy.as_ref().map(|(_, t)| t),
        Some(&copied[0]),
        "printed on quit"
    );
    let osc = crate::tui::copy::osc52(&copied[0]);
    assert!(osc.starts_with("\u{1b}]52;c;") && osc.ends_with('\u{7}'));
    app.effects.clear();
    press(&mut app, "w");
    press(&mut app, "y");
    assert!(
        app.status.as_deref().unwrap().starts_with("payload item 0"),
        "{:?}",
        app.status
    );
    assert!(
        app.effects
            .iter()
            .any(|e| matches!(e, Effect::Copy(t) if t.contains("\"role\": \"user\"")))
    );
}

#[test]
fn a_switch_shows_a_busy_mark_in_the_header_at_once() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    app.resize(Rect::new(0, 0, 80, 24));
    assert!(text(&screen(&mut app)).contains("✓ payload accepted"));
    key(&mut app, KeyCode::Char('v'));
    assert!(
        app.reprojecting.is_some(),
        "v re-projects under another rule set, in the background"
    );
    let shown = text(&screen(&mut app));
    let second = shown.lines().nth(1).unwrap();
    assert!(second.starts_with("⟳ re-projecting"), "{second}");
    key(&mut app, KeyCode::Char('j'));
    assert_eq!(app.selected, 1, "keys keep working meanwhile");
    // A second switch before the first result: only the newest result is taken.
    key(&mut app, KeyCode::Char('v'));
    let jobs: Vec<crate::tui::reproject::Job> = app
        .effects
        .drain(..)
        .filter_map(|e| match e {
            crate::tui::app::Effect::Reproject(job) => Some(job),
            _ => None,
        })
        .collect();
    assert_eq!(jobs.len(), 2);
    let newest = jobs[1].options.rule_set.name;
    app.reprojected(jobs[1].clone().run());
    app.reprojected(jobs[0].clone().run());
    assert_eq!(app.insp.as_ref().unwrap().options.rule_set.name, newest);
    assert!(app.reprojecting.is_none());
    assert_eq!(app.selected, 1, "the selection stays on the same stored message");
    // A switch still running when another session opens never lands on the new one.
    key(&mut app, KeyCode::Char('v'));
    let late = app
        .effects
        .drain(..)
        .find_map(|e| match e {
            crate::tui::app::Effect::Reproject(job) => Some(job),
            _ => None,
        })
        .unwrap();
    app.set_inspection(sample("mistral-ids-and-images.jsonl"));
    let before = app.insp.as_ref().unwrap().replay.len();
    app.reprojected(late.run());
    assert_eq!(
        app.insp.as_ref().unwrap().session.id,
        "3a4f30b2-7418-4202-ac0b-0b8012901a51"
    );
    assert_eq!(
        app.insp.as_ref().unwrap().replay.len(),
        before,
        "the late result is dropped"
    );
}

//! Issue 29 in the inspector: a session holding text from every code point category in every
//! field (the generator of `tests/escape_props.rs`) never puts a character
//! `replaylens::text::first_unsafe` finds into a screen cell, whichever row is
//! selected, expanded or shown as payload, in the load problems, rule summary and session
//! picker, at 80×24 and 120×40. (A skin-tone modifier in a cell of its own is fine.)

#[path = "../../../tests/escape_support/mod.rs"]
mod escape_support;

use proptest::prelude::*;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use replaylens::text::first_unsafe;

use super::{app_with, press, screen};
use crate::tui::app::{App, LoadRequest};
use crate::tui::loader::{Report, load};
use crate::tui::pickers::SessionSource;
use crate::tui::theme::Theme;

/// Panics at the first cell holding an unsafe character, naming the cell and the screen.
fn assert_safe(buf: &Buffer, what: &str) {
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            let symbol = buf[(x, y)].symbol();
            if let Some((_, c)) = first_unsafe(symbol) {
                let row: String = (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
                panic!(
                    "{what}: cell {x},{y} holds U+{:04X} ({symbol:?}); row {y}: {row:?}",
                    c as u32
                );
            }
        }
    }
}

/// Draw the screen and check it.
fn check(app: &mut App, what: &str) {
    let size = app.screen;
    assert_safe(&screen(app), &format!("{}×{} {what}", size.width, size.height));
}

fn every_screen_is_escaped(f: &escape_support::Fields) {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = escape_support::write_session(dir.path(), f);
    let request = LoadRequest {
        path,
        session: None,
        target: replaylens::policy::Target::default(),
        rule_set: replaylens::rule_set::RuleSet::newest(),
        rule_set_from_session: false,
        config: None,
    };
    let insp = load(&request, &(std::sync::Arc::new(|_| {}) as Report)).unwrap();
    let mut app = app_with(insp, Theme::dark());
    app.sessions = SessionSource::Path(dir.path().to_owned());
    for (w, h) in [(80, 24), (120, 40)] {
        app.resize(Rect::new(0, 0, w, h));
        for payload in [false, true] {
            if payload {
                press(&mut app, "w");
            }
            for pos in 0..app.view.len() {
                app.select(pos);
                check(&mut app, &format!("row {pos} (payload {payload})"));
                press(&mut app, "\n");
                check(&mut app, &format!("row {pos} expanded (payload {payload})"));
                press(&mut app, "\n");
            }
            if payload {
                press(&mut app, "w");
            }
        }
        for (keys, what) in [("!", "load problems"), ("s", "rule summary"), ("o", "session picker")] {
            press(&mut app, keys);
            if keys == "o" {
                app.compute_scan_now();
            }
            check(&mut app, what);
            press(&mut app, "\u{1b}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, max_shrink_iters: 32, ..ProptestConfig::default() })]

    #[test]
    fn no_inspector_cell_holds_an_unsafe_character(f in escape_support::fields()) {
        every_screen_is_escaped(&f);
    }
}

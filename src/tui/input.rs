//! Key, paste and mouse events → state changes. The main view goes through the keymap's main
//! table; with an overlay open, input goes to the overlay ([`super::overlay::dispatch`]),
//! through the keymap's table for it.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent, MouseEventKind};

use super::action::Action;
use super::app::{App, Mode};
use super::keymap::Key;
use super::overlay::{Input, dispatch, input_for};

/// Handle one key event (the event loop hands keys over in bursts, [`handle_burst`]).
#[cfg_attr(not(test), allow(dead_code))]
pub fn handle_key(app: &mut App, ev: KeyEvent) {
    handle_key_in(app, ev, false);
}

/// Handle key events that arrived together (read without waiting for more). Two or more at
/// once are a paste typed out by a terminal without bracketed paste: an Enter among them is a
/// line break for a multi-line field (the explain prompt), not a submit.
pub fn handle_burst(app: &mut App, events: &[KeyEvent]) {
    let burst = events.iter().filter(|e| e.kind != KeyEventKind::Release).count() > 1;
    for &ev in events {
        handle_key_in(app, ev, burst);
    }
}

fn handle_key_in(app: &mut App, ev: KeyEvent, burst: bool) {
    if ev.kind == KeyEventKind::Release {
        return;
    }
    let key = Key::from_event(ev);
    if key.code == KeyCode::Char('c') && key.mods.contains(KeyModifiers::CONTROL) {
        app.quit = true;
        return;
    }
    let input = match app.mode.overlay() {
        None => {
            if let Some(action) = app.keymap.action(key) {
                app.apply(action);
            }
            return;
        }
        Some(overlay) => input_for(overlay, &app.keymap, key, burst),
    };
    if let Some(input) = input {
        dispatch(app, input);
    }
}

/// Handle pasted text (bracketed paste): it goes to the open overlay's text field; the main
/// view ignores it.
pub fn handle_paste(app: &mut App, text: String) {
    if matches!(app.mode, Mode::Normal) {
        return;
    }
    dispatch(app, Input::Paste(text));
}

/// Handle one mouse event: the wheel scrolls, a click selects.
pub fn handle_mouse(app: &mut App, ev: MouseEvent) {
    if !matches!(app.mode, Mode::Normal) {
        return;
    }
    match ev.kind {
        MouseEventKind::ScrollDown => (0..3).for_each(|_| app.apply(Action::Down)),
        MouseEventKind::ScrollUp => (0..3).for_each(|_| app.apply(Action::Up)),
        MouseEventKind::Down(_) => app.click(ev.row),
        _ => {}
    }
}

impl App {
    /// Jump to the first row a rule touched (clearing a filter that hides it).
    pub fn jump_to_rule(&mut self, rule: &str) {
        let Some(insp) = &self.insp else { return };
        let first = self
            .rows
            .iter()
            .position(|r| r.rewrites.iter().any(|&i| insp.rewrites[i].rule == rule));
        let Some(first) = first else { return };
        if !self.view.contains(&first) {
            self.set_filter(super::search::Filter::All);
        }
        if let Some(pos) = self.view.iter().position(|&r| r == first) {
            self.select(pos);
        }
    }
}

//! Key and mouse events → state changes. The main view goes through the keymap table;
//! overlays (pickers, search prompt, help) have their own small fixed keys.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent, MouseEventKind};

use super::action::Action;
use super::app::{App, Mode};
use super::keymap::Key;
use super::pickers::{ProfilePicker, parse_target};

/// Keys of the overlays, for the help screen.
pub const OVERLAY_KEYS: &[(&str, &str)] = &[
    ("↑ ↓ Home End", "move in a picker (also Ctrl-p Ctrl-n, PgUp PgDn)"),
    ("Enter  Esc", "choose / run the search; close the picker or prompt"),
    (
        "type  Tab",
        "filter (Backspace edits; p: custom… takes what you typed); Tab sorts sessions",
    ),
];

/// Handle one key event.
pub fn handle_key(app: &mut App, ev: KeyEvent) {
    if ev.kind == KeyEventKind::Release {
        return;
    }
    let key = Key::from_event(ev);
    if key.code == KeyCode::Char('c') && key.mods.contains(KeyModifiers::CONTROL) {
        app.quit = true;
        return;
    }
    let mode = std::mem::replace(&mut app.mode, Mode::Normal);
    app.mode = match mode {
        Mode::Normal => {
            if let Some(action) = app.keymap.action(key) {
                app.apply(action);
            }
            return;
        }
        Mode::Help(top) => {
            // The main view's movement keys scroll the help.
            let n = super::render::help_lines(app);
            let half = isize::try_from(app.screen.height / 2).unwrap_or(10);
            let ctrl = key.mods.contains(KeyModifiers::CONTROL);
            match (key.code, nav(key)) {
                (KeyCode::Char('q') | KeyCode::Esc | KeyCode::Char('?') | KeyCode::Enter | KeyCode::F(1), _) => {
                    Mode::Normal
                }
                (_, Some(delta)) => Mode::Help(step(top, delta, n)),
                (KeyCode::Char('d'), _) if ctrl => Mode::Help(step(top, half, n)),
                (KeyCode::Char('u'), _) if ctrl => Mode::Help(step(top, -half, n)),
                (KeyCode::Char('f'), _) if ctrl => Mode::Help(step(top, 2 * half, n)),
                (KeyCode::Char('b'), _) if ctrl => Mode::Help(step(top, -2 * half, n)),
                (KeyCode::Char(' '), _) => Mode::Help(step(top, 2 * half, n)),
                (KeyCode::Home | KeyCode::Char('g'), _) => Mode::Help(0),
                (KeyCode::End | KeyCode::Char('G'), _) => Mode::Help(n.saturating_sub(1)),
                _ => Mode::Help(top),
            }
        }
        Mode::SearchInput(mut text) => match key.code {
            KeyCode::Esc => Mode::Normal,
            KeyCode::Enter => {
                app.run_search(text);
                return;
            }
            KeyCode::Backspace => {
                text.pop();
                Mode::SearchInput(text)
            }
            KeyCode::Char(c) if !key.mods.contains(KeyModifiers::CONTROL) => {
                text.push(c);
                Mode::SearchInput(text)
            }
            _ => Mode::SearchInput(text),
        },
        Mode::Summary(sel) => summary_key(app, key, sel),
        Mode::LoadProblems(top) => {
            let n = app.insp.as_ref().map_or(0, |i| i.load_problems.len());
            match (key.code, nav(key)) {
                (_, Some(delta)) => Mode::LoadProblems(step(top, delta, n)),
                (KeyCode::Esc | KeyCode::Char('q' | '!'), _) => Mode::Normal,
                _ => Mode::LoadProblems(top),
            }
        }
        Mode::Export(dialog) => super::export_dialog::handle_key(app, dialog, key),
        Mode::Profiles(picker) => match profiles_key(app, picker, key) {
            Some(picker) => Mode::Profiles(picker),
            None => return,
        },
        Mode::Sessions(mut picker) => {
            match (key.code, nav(key)) {
                (KeyCode::Char('j' | 'k'), _) if !key.mods.contains(KeyModifiers::CONTROL) => {
                    push_filter(&mut picker, key);
                }
                (KeyCode::Tab | KeyCode::BackTab, _) => picker.cycle_order(key.code == KeyCode::Tab),
                (_, Some(delta)) => picker.selected = step(picker.selected, delta, picker.matches.len()),
                (KeyCode::Home, _) => picker.selected = 0,
                (KeyCode::End, _) => picker.selected = picker.matches.len().saturating_sub(1),
                (KeyCode::Esc, _) => return,
                (KeyCode::Enter, _) => {
                    if let Some(listing) = picker.current().cloned() {
                        let at = picker.first_finding();
                        app.mode = Mode::Sessions(picker);
                        app.open_listing(&listing, at);
                        return;
                    }
                }
                (KeyCode::Backspace, _) => {
                    picker.filter.pop();
                    picker.refilter();
                }
                _ => push_filter(&mut picker, key),
            }
            Mode::Sessions(picker)
        }
    };
}

/// A key in the profile picker; `None` when the picker closed. Typing filters, Home / End
/// jump, Enter applies the selected target or, on the free-entry line, opens the
/// `provider api model` prompt with what was typed.
fn profiles_key(app: &mut App, mut picker: ProfilePicker, key: Key) -> Option<ProfilePicker> {
    let ctrl = key.mods.contains(KeyModifiers::CONTROL);
    if let Some(text) = &mut picker.input {
        match key.code {
            KeyCode::Esc => picker.input = None,
            KeyCode::Enter => {
                let target = parse_target(text);
                app.retarget(target);
                return None;
            }
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Char(c) if !ctrl => text.push(c),
            _ => {}
        }
        return Some(picker);
    }
    match (key.code, nav_keys(key)) {
        (_, Some(delta)) => picker.selected = step(picker.selected, delta, picker.matches.len()),
        (KeyCode::Home, _) => picker.selected = 0,
        (KeyCode::End, _) => picker.selected = picker.matches.len().saturating_sub(1),
        (KeyCode::Esc, _) => return None,
        (KeyCode::Enter, _) => match picker.current().map(|i| i.target.clone()) {
            Some(Some(target)) => {
                app.retarget(target);
                return None;
            }
            Some(None) => picker.input = Some(picker.filter.trim().to_owned()),
            None => {}
        },
        (KeyCode::Backspace, _) => picker.pop(),
        (KeyCode::Char(c), _) if !ctrl => picker.push(c),
        _ => {}
    }
    Some(picker)
}

fn push_filter(picker: &mut super::pickers::SessionPicker, key: Key) {
    if let KeyCode::Char(c) = key.code
        && !key.mods.contains(KeyModifiers::CONTROL)
    {
        picker.filter.push(c);
        picker.refilter();
    }
}

fn summary_key(app: &mut App, key: Key, sel: usize) -> Mode {
    let rules: Vec<&'static str> = app
        .insp
        .as_ref()
        .map(|i| i.counts_by_rule().into_keys().collect())
        .unwrap_or_default();
    match (key.code, nav(key)) {
        (_, Some(delta)) => Mode::Summary(step(sel, delta, rules.len())),
        (KeyCode::Enter, _) => {
            if let Some(rule) = rules.get(sel) {
                app.jump_to_rule(rule);
            }
            Mode::Normal
        }
        (KeyCode::Esc | KeyCode::Char('q' | 's'), _) => Mode::Normal,
        _ => Mode::Summary(sel),
    }
}

/// Movement keys inside overlays (`j` / `k` too, where typing does not filter).
fn nav(key: Key) -> Option<isize> {
    match key.code {
        KeyCode::Char('j') => Some(1),
        KeyCode::Char('k') => Some(-1),
        _ => nav_keys(key),
    }
}

/// Movement keys that leave letters free for typing.
fn nav_keys(key: Key) -> Option<isize> {
    let ctrl = key.mods.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Down | KeyCode::Tab => Some(1),
        KeyCode::Up | KeyCode::BackTab => Some(-1),
        KeyCode::PageDown => Some(10),
        KeyCode::PageUp => Some(-10),
        KeyCode::Char('n') if ctrl => Some(1),
        KeyCode::Char('p') if ctrl => Some(-1),
        _ => None,
    }
}

fn step(pos: usize, delta: isize, len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    pos.saturating_add_signed(delta).min(len - 1)
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

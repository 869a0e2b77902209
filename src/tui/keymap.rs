//! The keymap: a table from keys to actions for the main view and one per kind of overlay
//! (`overlay_table.rs`). Defaults live here; a user TOML file (`keys.toml` in
//! `$REPLAYLENS_CONFIG_DIR` or `~/.config/replaylens`) patches them: `[keys]` for the main
//! view, `[scroll]`, `[prompts]`, `[pickers]`, `[sessions]` and `[export]` for the overlays.
//! The help overlay and the status-bar hints are generated from the same tables.

use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::{Action, OverlayAction};
use super::theme::{SettingsFileError, SettingsProblem};

mod overlay_table;

pub use overlay_table::{OVERLAY_HELP, OverlayContext};

/// A key with its modifiers (shift folded into the character for letters and symbols).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    /// The key.
    pub code: KeyCode,
    /// Ctrl / Alt (Shift only for non-character keys).
    pub mods: KeyModifiers,
}

impl Key {
    /// Normalise a crossterm key event: `Shift+g` arrives as `G` with SHIFT; drop the SHIFT.
    pub fn from_event(ev: KeyEvent) -> Self {
        let mut mods = ev.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
        if matches!(ev.code, KeyCode::Char(_) | KeyCode::BackTab) {
            mods.remove(KeyModifiers::SHIFT);
        }
        Self { code: ev.code, mods }
    }

    /// Parse `j`, `G`, `ctrl-d`, `pageup`, `tab`, `enter`, `esc`, `up`, `f1`, `space`, …
    pub fn parse(s: &str) -> Option<Self> {
        let mut mods = KeyModifiers::NONE;
        let mut rest = s;
        loop {
            let lower = rest.to_ascii_lowercase();
            if let Some(r) = lower.strip_prefix("ctrl-") {
                mods |= KeyModifiers::CONTROL;
                rest = &rest[rest.len() - r.len()..];
            } else if let Some(r) = lower.strip_prefix("alt-") {
                mods |= KeyModifiers::ALT;
                rest = &rest[rest.len() - r.len()..];
            } else {
                break;
            }
        }
        let code = match rest.to_ascii_lowercase().as_str() {
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "pageup" => KeyCode::PageUp,
            "pagedown" => KeyCode::PageDown,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            "tab" => KeyCode::Tab,
            "backtab" => KeyCode::BackTab,
            "enter" => KeyCode::Enter,
            "esc" => KeyCode::Esc,
            "space" => KeyCode::Char(' '),
            "backspace" => KeyCode::Backspace,
            f if f.len() >= 2 && f.starts_with('f') && f[1..].parse::<u8>().is_ok() => KeyCode::F(f[1..].parse().ok()?),
            _ => {
                let mut chars = rest.chars();
                let c = chars.next()?;
                if chars.next().is_some() {
                    return None;
                }
                KeyCode::Char(c)
            }
        };
        Some(Self { code, mods })
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.mods.contains(KeyModifiers::CONTROL) {
            write!(f, "Ctrl-")?;
        }
        if self.mods.contains(KeyModifiers::ALT) {
            write!(f, "Alt-")?;
        }
        match self.code {
            KeyCode::Char(' ') => write!(f, "Space"),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::Up => write!(f, "↑"),
            KeyCode::Down => write!(f, "↓"),
            KeyCode::Left => write!(f, "←"),
            KeyCode::Right => write!(f, "→"),
            KeyCode::PageUp => write!(f, "PgUp"),
            KeyCode::PageDown => write!(f, "PgDn"),
            KeyCode::Enter => write!(f, "Enter"),
            KeyCode::Esc => write!(f, "Esc"),
            KeyCode::Tab => write!(f, "Tab"),
            KeyCode::BackTab => write!(f, "Shift-Tab"),
            KeyCode::F(n) => write!(f, "F{n}"),
            other => write!(f, "{other:?}"),
        }
    }
}

/// The default bindings, in help order.
pub const DEFAULTS: &[(&str, Action)] = &[
    ("j", Action::Down),
    ("down", Action::Down),
    ("k", Action::Up),
    ("up", Action::Up),
    ("g", Action::Top),
    ("home", Action::Top),
    ("G", Action::Bottom),
    ("end", Action::Bottom),
    ("ctrl-d", Action::HalfPageDown),
    ("ctrl-u", Action::HalfPageUp),
    ("pagedown", Action::PageDown),
    ("space", Action::PageDown),
    ("ctrl-f", Action::PageDown),
    ("pageup", Action::PageUp),
    ("ctrl-b", Action::PageUp),
    ("}", Action::NextTurn),
    ("{", Action::PrevTurn),
    ("]", Action::NextRewrite),
    ("[", Action::PrevRewrite),
    ("x", Action::NextFinding),
    ("X", Action::PrevFinding),
    ("b", Action::ToggleStage),
    ("tab", Action::FocusNext),
    ("backtab", Action::FocusNext),
    ("enter", Action::ToggleExpand),
    ("y", Action::Copy),
    ("Y", Action::CopyId),
    ("/", Action::Search),
    ("n", Action::SearchNext),
    ("N", Action::SearchPrev),
    ("f", Action::Filter),
    ("s", Action::Summary),
    ("!", Action::LoadProblems),
    ("p", Action::Profiles),
    ("v", Action::RuleSet),
    ("o", Action::Sessions),
    ("e", Action::Export),
    ("R", Action::Reduce),
    ("E", Action::Explain),
    ("d", Action::ToggleDetail),
    ("w", Action::TogglePayload),
    ("?", Action::Help),
    ("f1", Action::Help),
    ("esc", Action::Back),
    ("q", Action::Quit),
    ("ctrl-c", Action::Quit),
];

/// Actions shown as hints in the status bar, most useful first (a narrow bar drops them from
/// the right), with their short word; help and quit come last and are always kept.
const HINTS: &[(Action, &str)] = &[
    (Action::NextRewrite, "rewrite"),
    (Action::ToggleExpand, "expand"),
    (Action::FocusNext, "pane"),
    (Action::ToggleDetail, "detail"),
    (Action::Summary, "rules"),
    (Action::Export, "export"),
    (Action::Search, "search"),
    (Action::Sessions, "open"),
    (Action::Profiles, "profile"),
    (Action::Filter, "filter"),
    (Action::Help, "help"),
    (Action::Quit, "quit"),
];

/// One status-bar hint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    /// The first key bound to the action.
    pub key: String,
    /// A short word for the action.
    pub word: &'static str,
    /// Kept however narrow the bar (help and quit).
    pub keep: bool,
}

/// The key → action tables: the main view's and the overlays'.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    bindings: Vec<(Key, Action)>,
    index: HashMap<Key, Action>,
    overlay: Vec<(OverlayContext, Key, OverlayAction)>,
}

impl Default for Keymap {
    fn default() -> Self {
        Self::from_bindings(
            DEFAULTS
                .iter()
                .filter_map(|(k, a)| Key::parse(k).map(|k| (k, *a)))
                .collect(),
            overlay_table::overlay_defaults(),
        )
    }
}

type Table<A> = HashMap<toml::Spanned<String>, A>;

#[derive(Debug, serde::Deserialize)]
struct KeysFile {
    #[serde(default)]
    keys: Table<Action>,
    #[serde(default)]
    scroll: Table<OverlayAction>,
    #[serde(default)]
    prompts: Table<OverlayAction>,
    #[serde(default)]
    pickers: Table<OverlayAction>,
    #[serde(default)]
    sessions: Table<OverlayAction>,
    #[serde(default)]
    export: Table<OverlayAction>,
}

/// A file's entries, sorted by key, each key parsed (an unreadable key is an error at its span).
fn parse_entries<A: Copy>(table: Table<A>) -> Result<Vec<(Key, A)>, SettingsProblem> {
    let mut entries: Vec<(toml::Spanned<String>, A)> = table.into_iter().collect();
    entries.sort_by(|a, b| a.0.get_ref().cmp(b.0.get_ref()));
    entries
        .into_iter()
        .map(|(k, action)| {
            let key = Key::parse(k.get_ref()).ok_or_else(|| {
                SettingsProblem::at(
                    k.span(),
                    format!(
                        "cannot read key {:?} (keys look like \"x\", \"G\", \"ctrl-d\", \"alt-left\", \"f1\", \"esc\", \"pagedown\")",
                        k.get_ref()
                    ),
                )
            })?;
            Ok((key, action))
        })
        .collect()
}

impl Keymap {
    fn from_bindings(bindings: Vec<(Key, Action)>, overlay: Vec<(OverlayContext, Key, OverlayAction)>) -> Self {
        let index = bindings.iter().copied().collect();
        Self {
            bindings,
            index,
            overlay,
        }
    }

    /// The action bound to a key.
    pub fn action(&self, key: Key) -> Option<Action> {
        self.index.get(&key).copied().filter(|a| *a != Action::None)
    }

    /// Defaults patched by a keymap file (`[keys]` table of `"key" = "action"`, and the
    /// overlays' tables of `"key" = "overlay-action"`; `"none"` unbinds).
    pub fn with_overrides(text: &str) -> Result<Self, SettingsProblem> {
        let file: KeysFile = toml::from_str(text)?;
        let defaults = Self::default();
        let mut bindings = defaults.bindings;
        for (key, action) in parse_entries(file.keys)? {
            bindings.retain(|(b, _)| *b != key);
            if action != Action::None {
                bindings.push((key, action));
            }
        }
        let mut overlay = defaults.overlay;
        let tables = [
            (OverlayContext::Scroll, file.scroll),
            (OverlayContext::Prompt, file.prompts),
            (OverlayContext::Picker, file.pickers),
            (OverlayContext::Sessions, file.sessions),
            (OverlayContext::Export, file.export),
        ];
        for (context, table) in tables {
            for (key, action) in parse_entries(table)? {
                overlay.retain(|(c, b, _)| !(*c == context && *b == key));
                if action != OverlayAction::None {
                    overlay.push((context, key, action));
                }
            }
        }
        Ok(Self::from_bindings(bindings, overlay))
    }

    /// The default keymap patched by the user's file, if there is one. An error is a
    /// [`SettingsFileError`] naming the file.
    pub fn load_user() -> anyhow::Result<Self> {
        match config_dir().map(|d| d.join("keys.toml")) {
            Some(path) if path.is_file() => {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| SettingsFileError::unreadable("keymap", &path, format!("cannot read it: {e}")))?;
                Ok(Self::with_overrides(&text).map_err(|p| p.in_file("keymap", &path, &text))?)
            }
            _ => Ok(Self::default()),
        }
    }

    /// The keys bound to an action, in table order.
    pub fn keys_for(&self, action: Action) -> Vec<Key> {
        self.bindings
            .iter()
            .filter(|(_, a)| *a == action)
            .map(|(k, _)| *k)
            .collect()
    }

    /// Help rows: keys (joined) and description, for every bound action.
    pub fn help(&self) -> Vec<(String, &'static str)> {
        Action::ALL
            .iter()
            .filter_map(|(a, desc)| {
                let keys = self.keys_for(*a);
                (!keys.is_empty()).then(|| {
                    let keys: Vec<String> = keys.iter().map(ToString::to_string).collect();
                    (keys.join(" "), *desc)
                })
            })
            .collect()
    }

    /// The overlay action a key asks for in a table (or, unbound there, in its parent's).
    pub fn overlay_action(&self, context: OverlayContext, key: Key) -> Option<OverlayAction> {
        let own = self
            .overlay
            .iter()
            .find(|(c, k, _)| *c == context && *k == key)
            .map(|(_, _, a)| *a);
        own.or_else(|| context.parent().and_then(|p| self.overlay_action(p, key)))
            .filter(|a| *a != OverlayAction::None)
    }

    /// The keys bound to an overlay action in one table (not its parent's), in table order.
    pub fn overlay_keys_for(&self, context: OverlayContext, action: OverlayAction) -> Vec<Key> {
        self.overlay
            .iter()
            .filter(|(c, _, a)| *c == context && *a == action)
            .map(|(_, k, _)| *k)
            .collect()
    }

    /// The keys of an overlay action, joined for a hint (`Tab →`); `""` when unbound.
    pub fn overlay_keys_text(&self, context: OverlayContext, action: OverlayAction) -> String {
        let keys: Vec<String> = self
            .overlay_keys_for(context, action)
            .iter()
            .map(ToString::to_string)
            .collect();
        keys.join(" ")
    }

    /// The first key of an overlay action, for a title (`Enter jumps`); `"?"` when unbound.
    pub fn overlay_first_key(&self, context: OverlayContext, action: OverlayAction) -> String {
        self.overlay_keys_for(context, action)
            .first()
            .map_or_else(|| "?".to_owned(), ToString::to_string)
    }

    /// Help sections of the overlays: each table's heading and its rows (keys joined and
    /// description) for every bound action.
    pub fn overlay_help(&self) -> Vec<(&'static str, Vec<(String, &'static str)>)> {
        OverlayContext::ALL
            .iter()
            .map(|&context| {
                let rows = OVERLAY_HELP
                    .iter()
                    .filter(|(c, _, _)| *c == context)
                    .filter_map(|&(_, action, desc)| {
                        let keys = self.overlay_keys_text(context, action);
                        (!keys.is_empty()).then_some((keys, desc))
                    })
                    .collect();
                (context.heading(), rows)
            })
            .collect()
    }

    /// Status-bar hints: the first key of each hinted action and a short word, in order.
    pub fn hints(&self) -> Vec<Hint> {
        HINTS
            .iter()
            .filter_map(|&(a, word)| {
                let key = self.keys_for(a).into_iter().next()?;
                Some(Hint {
                    key: key.to_string(),
                    word,
                    keep: matches!(a, Action::Help | Action::Quit),
                })
            })
            .collect()
    }
}

/// `$REPLAYLENS_CONFIG_DIR`, else `~/.config/replaylens`.
pub fn config_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("REPLAYLENS_CONFIG_DIR") {
        return Some(PathBuf::from(dir));
    }
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("replaylens"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEvent;

    #[test]
    fn parses_and_normalises_keys() {
        let shifted = KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(Keymap::default().action(Key::from_event(shifted)), Some(Action::Bottom));
        let ctrl_d = KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL);
        assert_eq!(
            Keymap::default().action(Key::from_event(ctrl_d)),
            Some(Action::HalfPageDown)
        );
        assert_eq!(Key::parse("ctrl-d").unwrap().to_string(), "Ctrl-d");
        assert!(Key::parse("nonsense").is_none());
    }

    #[test]
    fn user_file_rebinds_and_unbinds() {
        let map = Keymap::with_overrides("[keys]\n\"x\" = \"next-rewrite\"\n\"q\" = \"none\"\n").unwrap();
        assert_eq!(map.action(Key::parse("x").unwrap()), Some(Action::NextRewrite));
        assert_eq!(map.action(Key::parse("q").unwrap()), None);
        assert!(map.help().iter().any(|(k, d)| k.contains('x') && *d == "next rewrite"));
        assert!(Keymap::with_overrides("[keys]\n\"x\" = \"fly\"\n").is_err());
    }

    #[test]
    fn help_and_hints_come_from_the_table() {
        let map = Keymap::default();
        let help = map.help();
        assert!(help.contains(&("] ".trim().to_string(), "next rewrite")));
        let hints = map.hints();
        assert_eq!((hints[0].key.as_str(), hints[0].word), ("]", "rewrite"));
        for (key, word) in [("Tab", "pane"), ("d", "detail"), ("s", "rules"), ("e", "export")] {
            assert!(hints.iter().any(|h| h.key == key && h.word == word), "{key} {word}");
        }
        assert!(help.iter().any(|(k, d)| k == "q Ctrl-c" && *d == "quit"));
        assert!(help.iter().any(|(k, d)| k == "Esc" && d.starts_with("back")));
        assert_eq!(map.action(Key::parse("esc").unwrap()), Some(Action::Back));
        assert_eq!(map.action(Key::parse("E").unwrap()), Some(Action::Explain));
    }

    #[test]
    fn overlay_tables_fall_back_to_their_parent_and_can_be_rebound() {
        let map = Keymap::default();
        let tab = Key::parse("tab").unwrap();
        assert_eq!(
            map.overlay_action(OverlayContext::Sessions, tab),
            Some(OverlayAction::NextSort)
        );
        assert_eq!(
            map.overlay_action(OverlayContext::Picker, tab),
            Some(OverlayAction::Down)
        );
        let home = Key::parse("home").unwrap();
        assert_eq!(
            map.overlay_action(OverlayContext::Sessions, home),
            Some(OverlayAction::Top),
            "from the pickers' table"
        );
        assert_eq!(
            map.overlay_action(OverlayContext::Picker, Key::parse("j").unwrap()),
            None
        );
        let help = map.overlay_help();
        assert!(help.iter().all(|(_, rows)| !rows.is_empty()));
        assert!(
            help.iter()
                .any(|(h, rows)| *h == "in the export dialog" && rows.contains(&("Tab →".to_owned(), "next format")))
        );
        let map = Keymap::with_overrides("[pickers]\n\"ctrl-j\" = \"down\"\n\"tab\" = \"none\"\n").unwrap();
        assert_eq!(
            map.overlay_action(OverlayContext::Picker, Key::parse("ctrl-j").unwrap()),
            Some(OverlayAction::Down)
        );
        assert_eq!(map.overlay_action(OverlayContext::Picker, tab), None);
        assert!(Keymap::with_overrides("[export]\n\"x\" = \"fly\"\n").is_err());
    }
}

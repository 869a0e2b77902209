//! The overlays' key tables: one per kind of overlay, with the help text of each action. A
//! table that binds a key to nothing hands it to its parent (the session picker's to the
//! pickers'), then, for a printable character, to the overlay's text field.

use super::Key;
use crate::tui::action::OverlayAction;

/// Which key table an overlay reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OverlayContext {
    /// The key help and the lists (rewrites per rule, load problems): they scroll.
    Scroll,
    /// A one-field prompt (search, explain, the profile picker's free entry).
    Prompt,
    /// The profile and session pickers: typing filters.
    Picker,
    /// The session picker's own keys (over the pickers').
    Sessions,
    /// The export dialog.
    Export,
}

impl OverlayContext {
    /// Every table, in help order.
    pub const ALL: [Self; 5] = [Self::Scroll, Self::Prompt, Self::Picker, Self::Sessions, Self::Export];

    /// The table asked when this one binds a key to nothing.
    pub fn parent(self) -> Option<Self> {
        match self {
            Self::Sessions => Some(Self::Picker),
            _ => None,
        }
    }

    /// The heading of the table's section in the key help.
    pub fn heading(self) -> &'static str {
        match self {
            Self::Scroll => "in this help and the lists",
            Self::Prompt => "in prompts (search, explain)",
            Self::Picker => "in pickers (profile, session)",
            Self::Sessions => "in the session picker",
            Self::Export => "in the export dialog",
        }
    }
}

use OverlayAction as A;
use OverlayContext as C;

/// The default overlay bindings, in help order within each table.
pub const OVERLAY_DEFAULTS: &[(OverlayContext, &str, OverlayAction)] = &[
    (C::Scroll, "j", A::Down),
    (C::Scroll, "down", A::Down),
    (C::Scroll, "tab", A::Down),
    (C::Scroll, "ctrl-n", A::Down),
    (C::Scroll, "k", A::Up),
    (C::Scroll, "up", A::Up),
    (C::Scroll, "backtab", A::Up),
    (C::Scroll, "ctrl-p", A::Up),
    (C::Scroll, "ctrl-d", A::HalfPageDown),
    (C::Scroll, "ctrl-u", A::HalfPageUp),
    (C::Scroll, "pagedown", A::PageDown),
    (C::Scroll, "space", A::PageDown),
    (C::Scroll, "ctrl-f", A::PageDown),
    (C::Scroll, "pageup", A::PageUp),
    (C::Scroll, "ctrl-b", A::PageUp),
    (C::Scroll, "g", A::Top),
    (C::Scroll, "home", A::Top),
    (C::Scroll, "G", A::Bottom),
    (C::Scroll, "end", A::Bottom),
    (C::Scroll, "enter", A::Confirm),
    (C::Scroll, "esc", A::Close),
    (C::Scroll, "q", A::Close),
    (C::Prompt, "enter", A::Confirm),
    (C::Prompt, "esc", A::Close),
    (C::Prompt, "backspace", A::DeleteBack),
    (C::Prompt, "ctrl-u", A::ClearText),
    (C::Picker, "down", A::Down),
    (C::Picker, "tab", A::Down),
    (C::Picker, "ctrl-n", A::Down),
    (C::Picker, "up", A::Up),
    (C::Picker, "backtab", A::Up),
    (C::Picker, "ctrl-p", A::Up),
    (C::Picker, "pagedown", A::PageDown),
    (C::Picker, "pageup", A::PageUp),
    (C::Picker, "home", A::Top),
    (C::Picker, "end", A::Bottom),
    (C::Picker, "enter", A::Confirm),
    (C::Picker, "esc", A::Close),
    (C::Picker, "backspace", A::DeleteBack),
    (C::Picker, "ctrl-u", A::ClearText),
    (C::Sessions, "tab", A::NextSort),
    (C::Sessions, "backtab", A::PrevSort),
    (C::Export, "tab", A::NextFormat),
    (C::Export, "right", A::NextFormat),
    (C::Export, "backtab", A::PrevFormat),
    (C::Export, "left", A::PrevFormat),
    (C::Export, "down", A::NextRedaction),
    (C::Export, "up", A::PrevRedaction),
    (C::Export, "backspace", A::DeleteBack),
    (C::Export, "ctrl-u", A::ClearText),
    (C::Export, "enter", A::Confirm),
    (C::Export, "esc", A::Close),
];

/// What each overlay action does in each table, in help order.
pub const OVERLAY_HELP: &[(OverlayContext, OverlayAction, &str)] = &[
    (C::Scroll, A::Down, "next line"),
    (C::Scroll, A::Up, "previous line"),
    (C::Scroll, A::HalfPageDown, "half page down"),
    (C::Scroll, A::HalfPageUp, "half page up"),
    (C::Scroll, A::PageDown, "page down"),
    (C::Scroll, A::PageUp, "page up"),
    (C::Scroll, A::Top, "first line"),
    (C::Scroll, A::Bottom, "last line"),
    (
        C::Scroll,
        A::Confirm,
        "rewrites per rule: jump to the rule; the help: close",
    ),
    (C::Scroll, A::Close, "close (so does the key that opened it)"),
    (C::Prompt, A::Confirm, "run the search / explain the pasted error"),
    (C::Prompt, A::Close, "close the prompt"),
    (
        C::Prompt,
        A::DeleteBack,
        "delete the last character (type or paste to add)",
    ),
    (C::Prompt, A::ClearText, "clear the text"),
    (C::Picker, A::Down, "next entry"),
    (C::Picker, A::Up, "previous entry"),
    (C::Picker, A::PageDown, "ten entries down"),
    (C::Picker, A::PageUp, "ten entries up"),
    (C::Picker, A::Top, "first entry"),
    (C::Picker, A::Bottom, "last entry (profiles: custom…)"),
    (C::Picker, A::Confirm, "choose (profiles: custom… takes what you typed)"),
    (C::Picker, A::Close, "close the picker"),
    (
        C::Picker,
        A::DeleteBack,
        "delete from the filter (/ starts typing, q closes before it)",
    ),
    (C::Picker, A::ClearText, "clear the filter"),
    (C::Sessions, A::NextSort, "sort: newest → findings → rewrites"),
    (C::Sessions, A::PrevSort, "sort the other way round"),
    (C::Export, A::NextFormat, "next format"),
    (C::Export, A::PrevFormat, "previous format"),
    (C::Export, A::NextRedaction, "next redaction level"),
    (C::Export, A::PrevRedaction, "previous redaction level"),
    (C::Export, A::DeleteBack, "delete from the path (type to edit it)"),
    (C::Export, A::ClearText, "clear the path"),
    (
        C::Export,
        A::Confirm,
        "write (an existing file: y or this again overwrites)",
    ),
    (C::Export, A::Close, "cancel"),
];

/// The default overlay bindings, parsed.
pub fn overlay_defaults() -> Vec<(OverlayContext, Key, OverlayAction)> {
    OVERLAY_DEFAULTS
        .iter()
        .filter_map(|(c, k, a)| Key::parse(k).map(|k| (*c, k, *a)))
        .collect()
}

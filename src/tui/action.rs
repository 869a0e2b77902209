//! What a key can ask for: plain data, named in kebab-case in the keymap file.

use serde::Deserialize;

/// An action of the main view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// Quit.
    Quit,
    /// Back out: leave the detail pane, else clear the search and filter (never quits).
    Back,
    /// Select the next row (or scroll the focused pane down).
    Down,
    /// Select the previous row (or scroll the focused pane up).
    Up,
    /// First row.
    Top,
    /// Last row.
    Bottom,
    /// Half a page down.
    HalfPageDown,
    /// Half a page up.
    HalfPageUp,
    /// A page down.
    PageDown,
    /// A page up.
    PageUp,
    /// The next row that starts a user turn.
    NextTurn,
    /// The previous row that starts a user turn.
    PrevTurn,
    /// Copy the selected message (or payload item) as JSON to the clipboard.
    Copy,
    /// Copy an id of the selected row (call ids, entry id, session id; again: the next).
    CopyId,
    /// Next rewritten row.
    NextRewrite,
    /// Previous rewritten row.
    PrevRewrite,
    /// Focus the other pane.
    FocusNext,
    /// Expand or collapse the selected message.
    ToggleExpand,
    /// Start a search.
    Search,
    /// Next search match.
    SearchNext,
    /// Previous search match.
    SearchPrev,
    /// Cycle the row filter: all, rewritten, one rule, …
    Filter,
    /// Show the keys.
    Help,
    /// Show rewrites per rule.
    Summary,
    /// List what the load skipped or warned about.
    LoadProblems,
    /// Choose the replay target.
    Profiles,
    /// Switch the OpenClaw rule set (newest, 2026.9.6, …).
    RuleSet,
    /// Open another session.
    Sessions,
    /// Export the comparison to a file.
    Export,
    /// Reduce the session to what reproduces the row's finding or rewrite, then open it.
    Reduce,
    /// Paste a provider's error text: jump to the message it names and explain it.
    Explain,
    /// Show or hide the detail pane.
    ToggleDetail,
    /// Switch the detail pane between the rewrites and the wire payload of the row.
    TogglePayload,
    /// Next row with a provider lint finding.
    NextFinding,
    /// Previous row with a provider lint finding.
    PrevFinding,
    /// Switch the findings shown (and `x`/`X`) between the replay payload and the stored
    /// payload (what the provider rejected before hygiene).
    ToggleStage,
    /// A key bound to nothing (used to unbind a default in the keymap file).
    None,
}

impl Action {
    /// Every action with its help text, in help order.
    pub const ALL: &'static [(Action, &'static str)] = &[
        (Action::Down, "next row / scroll down"),
        (Action::Up, "previous row / scroll up"),
        (Action::Top, "first row"),
        (Action::Bottom, "last row"),
        (Action::HalfPageDown, "half page down"),
        (Action::HalfPageUp, "half page up"),
        (Action::PageDown, "page down"),
        (Action::PageUp, "page up"),
        (Action::NextTurn, "next user turn"),
        (Action::PrevTurn, "previous user turn"),
        (Action::NextRewrite, "next rewrite"),
        (Action::PrevRewrite, "previous rewrite"),
        (Action::NextFinding, "next provider lint finding"),
        (Action::PrevFinding, "previous provider lint finding"),
        (
            Action::ToggleStage,
            "findings of the replay / the stored payload (before hygiene)",
        ),
        (Action::FocusNext, "switch pane (rows / detail)"),
        (Action::ToggleExpand, "expand / collapse message"),
        (Action::Copy, "copy the message (or payload item) as JSON"),
        (
            Action::CopyId,
            "copy an id of the row: call id, entry id, session id (again: next)",
        ),
        (Action::Search, "search the messages (text, full ids, JSON fields)"),
        (Action::SearchNext, "next match"),
        (Action::SearchPrev, "previous match"),
        (Action::Filter, "filter: all → rewritten → one rule"),
        (Action::Summary, "rewrites per rule (jump)"),
        (Action::LoadProblems, "load problems: skipped lines and rows, warnings"),
        (Action::Profiles, "replay target (profile)"),
        (
            Action::RuleSet,
            "OpenClaw rule set: next (newest → 2026.9.6 → … → 2026.6.9)",
        ),
        (Action::Sessions, "open a session"),
        (Action::Export, "export the comparison (md/html/json)"),
        (
            Action::Reduce,
            "reduce the session to the row's finding or rewrite, then open it",
        ),
        (
            Action::Explain,
            "explain a pasted provider error (jumps to its message)",
        ),
        (Action::ToggleDetail, "show / hide detail pane"),
        (Action::TogglePayload, "detail pane: rewrites ↔ wire payload and lint"),
        (Action::Back, "back: leave the detail pane, clear search and filter"),
        (Action::Help, "this help"),
        (Action::Quit, "quit"),
    ];
}

/// An action inside an overlay (the help, a list, a picker, a prompt, the export dialog):
/// plain data, named in kebab-case in the keymap file. What it does depends on the overlay;
/// the keymap's per-overlay tables say which keys ask for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OverlayAction {
    /// Close the overlay (in the profile picker's free entry: leave the entry).
    Close,
    /// Choose, run or write (Enter).
    Confirm,
    /// Next line or entry.
    Down,
    /// Previous line or entry.
    Up,
    /// Half a page down.
    HalfPageDown,
    /// Half a page up.
    HalfPageUp,
    /// A page down.
    PageDown,
    /// A page up.
    PageUp,
    /// First line or entry.
    Top,
    /// Last line or entry.
    Bottom,
    /// Delete the last character typed.
    DeleteBack,
    /// Clear what was typed.
    ClearText,
    /// The next sort order (session picker).
    NextSort,
    /// The previous sort order (session picker).
    PrevSort,
    /// The next format (export dialog).
    NextFormat,
    /// The previous format (export dialog).
    PrevFormat,
    /// The next redaction level (export dialog).
    NextRedaction,
    /// The previous redaction level (export dialog).
    PrevRedaction,
    /// A key bound to nothing (used to unbind a default in the keymap file).
    None,
}

//! Overlays as components: each one (the key help, rewrites per rule, load problems, the
//! profile and session pickers, the search and explain prompts, the export dialog) owns its
//! state, turns the input it is given into an [`OverlayEffect`] for the app, and draws itself
//! from its state. The app keeps the open overlay in [`Mode`] and calls into it; the keys come
//! from the keymap's overlay tables ([`OverlayContext`]), and only free text (what is typed
//! into a query, filter or path) reaches an overlay as characters.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use ratatui::layout::Rect;
use replaylens::load::discover::Listing;
use replaylens::policy::Target;

use super::action::{Action, OverlayAction};
use super::app::{App, RuleLookup};
use super::export_write::ExportRequest;
use super::inspection::Inspection;
use super::keymap::{Key, Keymap, OverlayContext};
use super::theme::Theme;

pub mod explain;
pub mod export;
pub mod help;
pub mod load_problems;
pub(crate) mod popup;
pub mod profiles;
pub mod search_input;
pub mod sessions;
pub mod summary;

pub use explain::ExplainPrompt;
pub use export::ExportDialog;
pub use help::HelpOverlay;
pub use load_problems::LoadProblems;
pub use profiles::ProfilePicker;
pub use search_input::SearchInput;
pub use sessions::SessionPicker;
pub use summary::Summary;

/// What is on top of the main view: nothing, or one overlay with its state.
#[derive(Debug, Clone)]
pub enum Mode {
    /// The main view.
    Normal,
    /// The key help overlay.
    Help(HelpOverlay),
    /// Rewrites per rule.
    Summary(Summary),
    /// What the load skipped or warned about.
    LoadProblems(LoadProblems),
    /// The profile picker.
    Profiles(ProfilePicker),
    /// The session picker.
    Sessions(SessionPicker),
    /// Typing a search query.
    SearchInput(SearchInput),
    /// The export dialog.
    Export(ExportDialog),
    /// The explain prompt and its answer.
    Explain(ExplainPrompt),
}

impl Mode {
    /// The open overlay.
    pub fn overlay(&self) -> Option<&dyn Overlay> {
        Some(match self {
            Self::Normal => return None,
            Self::Help(o) => o,
            Self::Summary(o) => o,
            Self::LoadProblems(o) => o,
            Self::Profiles(o) => o,
            Self::Sessions(o) => o,
            Self::SearchInput(o) => o,
            Self::Export(o) => o,
            Self::Explain(o) => o,
        })
    }

    /// The open overlay, to hand input to.
    pub fn overlay_mut(&mut self) -> Option<&mut dyn Overlay> {
        Some(match self {
            Self::Normal => return None,
            Self::Help(o) => o,
            Self::Summary(o) => o,
            Self::LoadProblems(o) => o,
            Self::Profiles(o) => o,
            Self::Sessions(o) => o,
            Self::SearchInput(o) => o,
            Self::Export(o) => o,
            Self::Explain(o) => o,
        })
    }
}

/// What an overlay reads of the app: the loaded replay, the tables, the screen.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    /// The loaded replay, if any.
    pub insp: Option<&'a Inspection>,
    /// The key tables (the help and the key hints are generated from them).
    pub keymap: &'a Keymap,
    /// Styles.
    pub theme: &'a Theme,
    /// Rule documentation lookup.
    pub rules: RuleLookup,
    /// The screen size of the last frame.
    pub screen: Rect,
}

impl<'a> Ctx<'a> {
    /// The context of an app.
    pub fn of(app: &'a App) -> Self {
        Self {
            insp: app.insp.as_ref(),
            keymap: &app.keymap,
            theme: &app.theme,
            rules: app.rules,
            screen: app.screen,
        }
    }
}

/// Input for an overlay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A key its table binds.
    Action(OverlayAction),
    /// A printable character no table binds (free text).
    Char(char),
    /// Pasted text (bracketed paste), or a line break typed in a burst of keys (a paste from
    /// a terminal without bracketed paste).
    Paste(String),
}

/// What the app must do after an overlay took its input.
#[derive(Debug, Clone)]
pub enum OverlayEffect {
    /// Nothing; the overlay stays open.
    None,
    /// Close the overlay.
    Close,
    /// The overlay stays open and asks the app for something.
    Request(Request),
    /// Close the overlay and ask the app for something.
    CloseWith(Request),
}

/// An app-level request from an overlay.
#[derive(Debug, Clone)]
pub enum Request {
    /// Run a search for this query.
    Search(String),
    /// Select the first row a rule touched.
    JumpToRule(&'static str),
    /// Replay for another target.
    Retarget(Target),
    /// Open a session from the session picker; with `at`, select that stored message.
    OpenListing(Listing, Option<usize>),
    /// Write an export.
    Export(ExportRequest),
    /// Select the row of a stored message (`None`: stay) and say something in the status bar.
    Point {
        /// The stored message to select.
        stored: Option<usize>,
        /// The status-bar message.
        status: String,
    },
}

/// An overlay component.
pub trait Overlay {
    /// The key table it reads now.
    fn context(&self) -> OverlayContext;

    /// The main-view action that opened it, if its keys close it too.
    fn opener(&self) -> Option<Action> {
        None
    }

    /// Whether a line break typed in a burst of keys goes into its text (a multi-line field).
    fn takes_line_breaks(&self) -> bool {
        false
    }

    /// Take one input.
    fn handle(&mut self, input: Input, ctx: &Ctx<'_>) -> OverlayEffect;

    /// Draw itself over the screen.
    fn draw(&self, frame: &mut Frame<'_>, screen: Rect, ctx: &Ctx<'_>);

    /// What the status bar shows on its left while it is open (a prompt's text), if anything.
    fn status_line(&self) -> Option<String> {
        None
    }
}

/// What a key means to an overlay: an action of its table, its opener's key (close), or a
/// printable character; `None` for a key it ignores. In a `burst` (keys that arrived together,
/// a paste), Enter is a line break for a multi-line field.
pub fn input_for(overlay: &dyn Overlay, keymap: &Keymap, key: Key, burst: bool) -> Option<Input> {
    if burst && key.code == KeyCode::Enter && overlay.takes_line_breaks() {
        return Some(Input::Paste("\n".into()));
    }
    if let Some(action) = keymap.overlay_action(overlay.context(), key) {
        return Some(Input::Action(action));
    }
    if overlay.opener().is_some() && keymap.action(key) == overlay.opener() {
        return Some(Input::Action(OverlayAction::Close));
    }
    match key.code {
        KeyCode::Char(c) if !key.mods.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) => Some(Input::Char(c)),
        _ => None,
    }
}

/// Hand input to the open overlay and carry out the effect it returns.
pub fn dispatch(app: &mut App, input: Input) {
    let mut mode = std::mem::replace(&mut app.mode, Mode::Normal);
    let Some(overlay) = mode.overlay_mut() else { return };
    let effect = overlay.handle(input, &Ctx::of(app));
    match effect {
        OverlayEffect::None => app.mode = mode,
        OverlayEffect::Close => {}
        OverlayEffect::Request(request) => {
            app.mode = mode;
            app.perform(request);
        }
        OverlayEffect::CloseWith(request) => app.perform(request),
    }
}

/// Draw the open overlay.
pub fn draw(app: &App, frame: &mut Frame<'_>, screen: Rect) {
    if let Some(overlay) = app.mode.overlay() {
        overlay.draw(frame, screen, &Ctx::of(app));
    }
}

/// How far a movement action moves in a list scrolled by `half` and `page` lines (`None` for
/// an action that does not move).
pub(crate) fn movement(action: OverlayAction, half: isize, page: isize) -> Option<isize> {
    Some(match action {
        OverlayAction::Down => 1,
        OverlayAction::Up => -1,
        OverlayAction::PageDown => page,
        OverlayAction::PageUp => -page,
        OverlayAction::HalfPageDown => half,
        OverlayAction::HalfPageUp => -half,
        OverlayAction::Top => isize::MIN,
        OverlayAction::Bottom => isize::MAX,
        _ => return None,
    })
}

/// Move a position by `delta` within `len` entries.
pub(crate) fn step(pos: usize, delta: isize, len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    pos.saturating_add_signed(delta).min(len - 1)
}

/// A pasted text for a one-line field: line breaks and tabs as spaces, surrounding space off.
pub(crate) fn one_line(text: &str) -> String {
    text.trim()
        .replace("\r\n", "\n")
        .chars()
        .map(|c| if c == '\n' || c == '\r' || c == '\t' { ' ' } else { c })
        .collect()
}

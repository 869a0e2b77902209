//! The inspector's single state and its update function. Rendering reads this state only;
//! I/O (loading a session) is requested through [`Effect`]s that the event loop carries out.

use replaylens::rule_set::RuleSet;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::time::Instant;

use ratatui::layout::Rect;
use replaylens::hygiene::RuleInfo;
use replaylens::policy::Target;
use replaylens::wire::WireStage;

use super::action::Action;
use super::export_write::ExportRequest;
use super::inspection::Inspection;
use super::keymap::Keymap;
use super::layout::Areas;
use super::overlay::{HelpOverlay, LoadProblems, SearchInput, Summary};
use super::pickers::SessionSource;
use super::row_view;
use super::rows::{Row, align};
use super::search::{Filter, Search};
use super::theme::Theme;
use super::wire_state::WireJob;

mod nav;
mod requests;

pub use super::overlay::Mode;
pub use nav::{noun_for, plural};

/// Looks up a rule's documentation by id (injectable so tests do not depend on rule text).
pub type RuleLookup = fn(&str) -> Option<&'static RuleInfo>;

/// The library's rule registry.
pub fn library_rules(id: &str) -> Option<&'static RuleInfo> {
    replaylens::hygiene::registry::by_id(id).map(|r| r.info())
}

/// Which pane has the focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    /// The aligned rows.
    Rows,
    /// The detail pane.
    Detail,
}

/// What the detail pane shows for the selected row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DetailView {
    /// The rewrites touching the row and both sides' JSON.
    Rewrites,
    /// The row's wire payload items and their provider lint findings.
    Payload,
}

/// A session to load in the background.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadRequest {
    /// The file.
    pub path: PathBuf,
    /// For a database: the session id.
    pub session: Option<String>,
    /// The target to replay for.
    pub target: Target,
    /// The OpenClaw rule set to replay with.
    pub rule_set: &'static RuleSet,
    /// Whether the release the session records picks the rule set instead (no `--openclaw`,
    /// and `v` not pressed yet).
    pub rule_set_from_session: bool,
    /// The user's OpenClaw configuration (set from the app's by [`App::request_load`]).
    pub config: Option<std::sync::Arc<replaylens::policy::config::OpenClawConfig>>,
}

/// Work the event loop must do for the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Load a session on a background thread.
    Load(LoadRequest),
    /// Read what was appended to the followed session on a background thread.
    Follow(super::live::LiveRead),
    /// Write an export (re-load, replay, render, write).
    Export(ExportRequest),
    /// Build and lint the wire payload of a projection on a background thread.
    Wire(WireJob),
    /// Put text on the clipboard of the terminal (OSC 52, so it works over SSH).
    Copy(String),
    /// Re-project the loaded transcript on a background thread.
    Reproject(super::reproject::Job),
    /// Reduce the session on a background thread, then open the result.
    Reduce(super::reduce_job::ReduceRequest),
}

/// A load in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loading {
    /// What is loading.
    pub label: String,
    /// Current stage.
    pub stage: String,
    /// When it started.
    pub started: Instant,
    /// Bytes of the file read so far.
    pub read: u64,
    /// The file's size (0 when unknown).
    pub total: u64,
}

/// The whole inspector state.
pub struct App {
    /// The loaded replay, once there is one.
    pub insp: Option<Inspection>,
    /// Aligned rows of `insp`.
    pub rows: Vec<Row>,
    /// Indices into `rows` that pass the filter.
    pub view: Vec<usize>,
    /// Selected position in `view`.
    pub selected: usize,
    /// First visible position in `view`.
    pub top: usize,
    /// Rows (by index into `rows`) shown expanded.
    pub expanded: HashSet<usize>,
    /// Focused pane.
    pub focus: Pane,
    /// Whether the detail pane is shown.
    pub show_detail: bool,
    /// What the detail pane shows.
    pub detail_view: DetailView,
    /// Whose lint findings the detail pane shows and `x`/`X` visit: the replay payload's
    /// (what OpenClaw sends) or the stored payload's (before hygiene).
    pub findings_stage: WireStage,
    /// An export running on its own thread, and where it is.
    pub exporting: Option<super::export_job::ExportStage>,
    /// A reduction running on its own thread: units left, of, and checks made.
    pub reducing: Option<(usize, usize, usize)>,
    /// The watch on the open session file (live follow).
    pub live: Option<super::live::Live>,
    /// A live re-read is running; the stored message the selection was on.
    pub live_reload: Option<Option<usize>>,
    /// Scroll offset of the detail pane.
    pub detail_scroll: u16,
    /// Lines of the selected (expanded) row scrolled past.
    pub row_scroll: usize,
    /// Row filter.
    pub filter: Filter,
    /// The last search.
    pub search: Option<Search>,
    /// The open overlay (its state, keys and drawing are its own), or the main view.
    pub mode: Mode,
    /// One-line message for the status bar.
    pub status: Option<String>,
    /// A load in progress.
    pub loading: Option<Loading>,
    /// Where the session picker looks.
    pub sessions: SessionSource,
    /// Key table.
    pub keymap: Keymap,
    /// Styles.
    pub theme: Theme,
    /// Rule documentation lookup.
    pub rules: RuleLookup,
    /// Screen size of the last frame.
    pub screen: Rect,
    /// Set when the app should exit.
    pub quit: bool,
    /// Effects for the event loop.
    pub effects: Vec<Effect>,
    /// The OpenClaw rule set replays use (`v` switches it).
    pub rule_set: &'static RuleSet,
    /// Whether the user chose the rule set (`--openclaw` or `v`); otherwise the release a
    /// session records picks it.
    pub rule_set_chosen: bool,
    /// The user's OpenClaw configuration every load replays under (`--config`, else where
    /// OpenClaw finds it); the header names it.
    pub config: Option<std::sync::Arc<replaylens::policy::config::OpenClawConfig>>,
    /// The stored message to select when the requested session is first shown.
    pub open_at: Option<usize>,
    /// Whether a session was opened from the session picker (else `o` lists the opened
    /// file's folder).
    pub picked: bool,
    /// The switch whose re-projection is running (the header shows a busy mark).
    pub reprojecting: Option<u64>,
    /// Switches so far (a late result of an older one is dropped).
    pub generation: u64,
    /// What `y`/`Y` last sent to the clipboard (what, text): printed when the inspector
    /// closes, since no terminal confirms OSC 52.
    pub last_copy: Option<(String, String)>,
    /// The row `Y` last copied an id of, and which of its ids comes next.
    pub copy_id_next: Option<(usize, usize)>,
    heights: HashMap<usize, usize>,
    heights_width: usize,
}

impl App {
    /// An empty app.
    pub fn new(keymap: Keymap, theme: Theme, sessions: SessionSource) -> Self {
        Self {
            insp: None,
            rows: Vec::new(),
            view: Vec::new(),
            selected: 0,
            top: 0,
            expanded: HashSet::new(),
            focus: Pane::Rows,
            show_detail: true,
            detail_view: DetailView::Rewrites,
            findings_stage: WireStage::Replay,
            exporting: None,
            reducing: None,
            live: None,
            live_reload: None,
            detail_scroll: 0,
            row_scroll: 0,
            filter: Filter::All,
            search: None,
            mode: Mode::Normal,
            status: None,
            loading: None,
            sessions,
            keymap,
            theme,
            rules: library_rules,
            screen: Rect::new(0, 0, 120, 40),
            quit: false,
            effects: Vec::new(),
            heights: HashMap::new(),
            heights_width: 0,
            rule_set: RuleSet::newest(),
            rule_set_chosen: false,
            config: None,
            open_at: None,
            picked: false,
            reprojecting: None,
            generation: 0,
            last_copy: None,
            copy_id_next: None,
        }
    }

    /// Show a replay (a newly loaded session): selection at the top, or on the message it
    /// was opened at.
    pub fn set_inspection(&mut self, insp: Inspection) {
        // The set in force (perhaps picked by the release the session records) is the one `v`
        // cycles from.
        self.rule_set = insp.options.rule_set;
        self.insp = Some(insp);
        // A re-projection of the previous session must not land on this one.
        self.reprojecting = None;
        self.filter = Filter::All;
        self.search = None;
        self.realign(None);
        self.select_open_at();
        self.request_wire();
    }

    /// Recompute rows and view; keep the selection on `anchor` (a stored index) if given.
    pub fn realign(&mut self, anchor: Option<usize>) {
        self.rows = self.insp.as_ref().map(align).unwrap_or_default();
        self.expanded.clear();
        self.heights.clear();
        self.rebuild_view();
        self.selected = 0;
        self.top = 0;
        self.detail_scroll = 0;
        self.row_scroll = 0;
        if let Some(s) = anchor
            && let Some(pos) = self.view.iter().position(|&r| {
                let row = &self.rows[r];
                row.stored.contains(&s) && row.replay.is_some()
            })
        {
            self.select(pos);
        }
    }

    /// Rebuild the filtered view.
    pub fn rebuild_view(&mut self) {
        let insp = self.insp.as_ref();
        self.view = (0..self.rows.len())
            .filter(|&i| self.filter.accepts(&self.rows[i], insp))
            .collect();
        self.selected = self.selected.min(self.view.len().saturating_sub(1));
        self.top = self.top.min(self.selected);
    }

    /// The selected row.
    pub fn selected_row(&self) -> Option<&Row> {
        self.view.get(self.selected).map(|&i| &self.rows[i])
    }

    /// The stored index the selection is on (for keeping it across a retarget).
    pub fn anchor(&self) -> Option<usize> {
        self.selected_row().and_then(|r| r.stored.first().copied())
    }

    /// Screen areas for the current size.
    pub fn areas(&self) -> Areas {
        Areas::new(self.screen, self.show_detail)
    }

    /// Record the terminal size (call before drawing).
    pub fn resize(&mut self, screen: Rect) {
        if screen != self.screen {
            self.screen = screen;
            self.ensure_visible();
        }
    }

    /// Height of a row (by index into `rows`) at the current width; cached per width.
    pub fn row_height(&mut self, row: usize) -> usize {
        let width = self.areas().side_width();
        if width != self.heights_width {
            self.heights.clear();
            self.heights_width = width;
        }
        if let Some(&h) = self.heights.get(&row) {
            return h;
        }
        let extent = self.extent(row);
        let h = match &self.insp {
            Some(insp) => row_view::layout(insp, &self.rows[row], width, extent, &self.theme).height(),
            None => 1,
        };
        if extent.is_expanded() {
            // An expanded row's budget follows the scroll: never cached.
            return h;
        }
        if self.heights.len() > 4096 {
            self.heights.clear();
        }
        self.heights.insert(row, h);
        h
    }

    /// Select a view position and scroll it into sight.
    pub fn select(&mut self, pos: usize) {
        if self.view.is_empty() {
            return;
        }
        let pos = pos.min(self.view.len() - 1);
        if pos != self.selected {
            self.detail_scroll = 0;
            self.row_scroll = 0;
        }
        self.selected = pos;
        self.ensure_visible();
    }

    /// Adjust `top` so the selected row is fully visible (when it fits).
    pub fn ensure_visible(&mut self) {
        if self.view.is_empty() {
            self.selected = 0;
            self.top = 0;
            return;
        }
        self.selected = self.selected.min(self.view.len() - 1);
        let vh = usize::from(self.areas().rows.height).max(1);
        if self.row_scroll > 0 {
            self.top = self.selected;
            return;
        }
        if self.selected < self.top {
            self.top = self.selected;
        }
        if self.selected >= self.top + vh {
            self.top = self.selected + 1 - vh;
        }
        let mut sum: usize = (self.top..=self.selected).map(|p| self.row_height(self.view[p])).sum();
        while sum > vh && self.top < self.selected {
            sum -= self.row_height(self.view[self.top]);
            self.top += 1;
        }
    }

    /// How many view positions forward fill `lines` screen lines from the selection.
    fn rows_in_lines(&mut self, lines: usize, forward: bool) -> usize {
        let mut used = 0;
        let mut n = 0;
        let mut pos = self.selected;
        loop {
            let next = if forward { pos + 1 } else { pos.wrapping_sub(1) };
            if next >= self.view.len() {
                break;
            }
            used += self.row_height(self.view[next]);
            if used > lines && n > 0 {
                break;
            }
            n += 1;
            pos = next;
        }
        n.max(1)
    }

    /// Lines a page of the detail pane scrolls (its inner height less one line of overlap).
    fn detail_page(&self) -> u16 {
        self.areas().detail.height.saturating_sub(3).max(1)
    }

    /// Apply a main-view action.
    pub fn apply(&mut self, action: Action) {
        self.status = None;
        let detail = self.focus == Pane::Detail;
        let page = usize::from(self.areas().rows.height).max(1);
        match action {
            Action::Quit => self.quit = true,
            Action::Back => self.back(),
            Action::None => {}
            Action::Down if detail => self.detail_scroll = self.detail_scroll.saturating_add(1),
            Action::Up if detail => self.detail_scroll = self.detail_scroll.saturating_sub(1),
            Action::HalfPageDown if detail => self.detail_scroll = self.detail_scroll.saturating_add(10),
            Action::HalfPageUp if detail => self.detail_scroll = self.detail_scroll.saturating_sub(10),
            // In the focused detail pane the paging keys scroll that pane, not the rows.
            Action::PageDown if detail => self.detail_scroll = self.detail_scroll.saturating_add(self.detail_page()),
            Action::PageUp if detail => self.detail_scroll = self.detail_scroll.saturating_sub(self.detail_page()),
            Action::Top if detail => self.detail_scroll = 0,
            Action::Bottom if detail => {
                let end = super::render::detail::scroll_extent(self).saturating_sub(usize::from(self.detail_page()));
                self.detail_scroll = u16::try_from(end).unwrap_or(u16::MAX);
            }
            Action::Down if self.scroll_within(true, 1) => {}
            Action::Up if self.scroll_within(false, 1) => {}
            Action::PageDown if self.scroll_within(true, page) => {}
            Action::PageUp if self.scroll_within(false, page) => {}
            Action::HalfPageDown if self.scroll_within(true, page / 2) => {}
            Action::HalfPageUp if self.scroll_within(false, page / 2) => {}
            Action::Down => self.select(self.selected + 1),
            Action::Up => self.select(self.selected.saturating_sub(1)),
            Action::Top => self.select(0),
            Action::Bottom => self.select(self.view.len().saturating_sub(1)),
            Action::HalfPageDown | Action::PageDown => {
                let lines = if action == Action::PageDown { page } else { page / 2 };
                let n = self.rows_in_lines(lines, true);
                self.select(self.selected + n);
            }
            Action::HalfPageUp | Action::PageUp => {
                let lines = if action == Action::PageUp { page } else { page / 2 };
                let n = self.rows_in_lines(lines, false);
                self.select(self.selected.saturating_sub(n));
            }
            Action::NextRewrite => self.jump_rewrite(true),
            Action::PrevRewrite => self.jump_rewrite(false),
            Action::Copy => self.copy_selected(),
            Action::NextTurn => self.jump_turn(true),
            Action::PrevTurn => self.jump_turn(false),
            Action::NextFinding => self.jump_finding(true),
            Action::PrevFinding => self.jump_finding(false),
            Action::ToggleStage => self.toggle_stage(),
            Action::TogglePayload => {
                self.detail_view = match self.detail_view {
                    DetailView::Rewrites => DetailView::Payload,
                    DetailView::Payload => DetailView::Rewrites,
                };
                self.detail_scroll = 0;
                if !self.show_detail {
                    self.show_detail = true;
                    self.ensure_visible();
                }
            }
            Action::FocusNext if self.focus == Pane::Rows && self.show_detail => self.focus = Pane::Detail,
            Action::FocusNext => self.focus_rows(),
            Action::ToggleExpand => {
                if let Some(&r) = self.view.get(self.selected) {
                    if !self.expanded.remove(&r) {
                        self.expanded.insert(r);
                    }
                    self.row_scroll = 0;
                    self.heights.remove(&r);
                    self.ensure_visible();
                }
            }
            Action::ToggleDetail => {
                self.show_detail = !self.show_detail;
                self.focus_rows();
                self.ensure_visible();
            }
            Action::Search => self.mode = Mode::SearchInput(SearchInput::default()),
            Action::SearchNext => self.search_step(true),
            Action::SearchPrev => self.search_step(false),
            Action::Filter => self.cycle_filter(),
            Action::Help => self.mode = Mode::Help(HelpOverlay::default()),
            Action::Summary => self.mode = Mode::Summary(Summary::default()),
            Action::LoadProblems => self.mode = Mode::LoadProblems(LoadProblems::default()),
            Action::Profiles => self.open_profiles(),
            Action::RuleSet => self.cycle_rule_set(),
            Action::Sessions => self.open_sessions(),
            Action::Export => self.open_export(),
            Action::Reduce => self.request_reduce(),
            Action::Explain => self.open_explain(),
            Action::CopyId => self.copy_id(),
        }
    }
}

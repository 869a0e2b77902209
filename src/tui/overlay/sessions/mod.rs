//! The session picker: sessions discovered in the default folders (or a given folder),
//! grouped by agent, fuzzy-filtered; with each session's counts from a background scan
//! (`scan_state.rs`), it can also be sorted by replay findings or rewrites.

use std::path::PathBuf;

use ratatui::Frame;
use ratatui::layout::Rect;
use replaylens::load::discover::{AGENTS, Listing, list_default, list_path, newest_first};

use super::popup::{FilterStep, filter_input};
use super::{Ctx, Input, Overlay, OverlayEffect, Request, movement, step};
use crate::tui::action::OverlayAction;
use crate::tui::keymap::OverlayContext;
use crate::tui::scan_state::{PickerScan, SortOrder};

mod draw;
pub mod label;

pub use label::{file_name_bonus, fuzzy_score};

/// Where the session picker looks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionSource {
    /// The default locations, falling back to the bundled samples.
    Default,
    /// A folder or database given on the command line.
    Path(PathBuf),
}

/// The bundled sample sessions: beside the crate at build time, else in the current directory.
pub fn sample_sessions_dir() -> Option<PathBuf> {
    [
        PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/sample-sessions")),
        PathBuf::from("sample-sessions"),
    ]
    .into_iter()
    .find(|p| p.is_dir())
}

impl SessionSource {
    /// List the sessions (the samples when the default locations hold none).
    pub fn list(&self) -> (Vec<Listing>, String) {
        match self {
            Self::Path(p) => match list_path(p) {
                Ok(l) => (l, p.display().to_string()),
                Err(e) => (Vec::new(), e.to_string()),
            },
            Self::Default => {
                let found = list_default();
                if !found.is_empty() {
                    return (found, "default locations".into());
                }
                match sample_sessions_dir() {
                    Some(dir) => (
                        list_path(&dir).unwrap_or_default(),
                        format!("bundled samples ({})", dir.display()),
                    ),
                    None => (Vec::new(), "no sessions found".into()),
                }
            }
        }
    }
}

/// The session picker: sessions grouped under agent headings (OpenClaw, pi, Claude Code,
/// Codex, then unreadable files), newest first within a group; with a filter, best match
/// first within a group and the best match overall selected. Sorted by a count, the groups
/// give way to one list under one heading, sessions without counts last.
#[derive(Debug, Clone)]
pub struct SessionPicker {
    /// Where the listings came from.
    pub origin: String,
    /// Every listing.
    pub listings: Vec<Listing>,
    /// The filter text.
    pub filter: String,
    /// Whether characters go into the filter (after `/`).
    pub typing: bool,
    /// Listings that match, in display order (grouped by agent); headings are not entries,
    /// so moving the selection skips them.
    pub matches: Vec<usize>,
    /// Selected position in `matches`.
    pub selected: usize,
    /// The order of the list.
    pub order: SortOrder,
    /// Each listing's counts, and the scan that fills them.
    pub scan: PickerScan,
}

/// One line of the session picker's list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PickerLine {
    /// An agent heading: its name ("unreadable" for files that did not load) and how many
    /// matching sessions follow.
    Heading {
        /// The heading text.
        title: &'static str,
        /// Matching sessions under it.
        count: usize,
    },
    /// A session: its position in `matches` and its index in `listings`.
    Session {
        /// Position in [`SessionPicker::matches`] (compare with `selected`).
        pos: usize,
        /// Index in [`SessionPicker::listings`].
        index: usize,
    },
}

/// The heading of listings whose agent is unknown (files that did not load).
pub const UNREADABLE_HEADING: &str = "unreadable";

/// The group a listing goes in: the agent's rank in [`AGENTS`], unknown last.
fn group_of(l: &Listing) -> usize {
    l.agent_kind()
        .and_then(|a| AGENTS.iter().position(|x| *x == a))
        .unwrap_or(AGENTS.len())
}

/// The heading of a group.
fn group_title(group: usize) -> &'static str {
    AGENTS.get(group).map_or(UNREADABLE_HEADING, |a| a.name())
}

impl SessionPicker {
    /// A picker over listings.
    pub fn new(listings: Vec<Listing>, origin: String) -> Self {
        let scan = PickerScan::new(&listings);
        let mut p = Self {
            origin,
            listings,
            filter: String::new(),
            typing: false,
            matches: Vec::new(),
            selected: 0,
            order: SortOrder::Newest,
            scan,
        };
        p.refilter();
        p
    }

    /// The text a listing is matched against.
    pub fn haystack(l: &Listing) -> String {
        format!(
            "{} {} {} {} {} {} {}",
            l.id,
            l.session_key.as_deref().unwrap_or(""),
            l.archive.as_deref().unwrap_or(""),
            l.agent.unwrap_or(""),
            l.cwd.as_deref().unwrap_or(""),
            l.path.display(),
            l.model.as_deref().unwrap_or("")
        )
    }

    /// Recompute matches after the filter changed: the best match is selected.
    pub fn refilter(&mut self) {
        let best = self.rebuild();
        self.selected = match best {
            Some(pos) if !self.filter.trim().is_empty() => pos,
            _ => self.selected.min(self.matches.len().saturating_sub(1)),
        };
    }

    /// Filter and sort into `matches`; the position of the best match.
    pub(crate) fn rebuild(&mut self) -> Option<usize> {
        let mut scored: Vec<(usize, i64, usize)> = self
            .listings
            .iter()
            .enumerate()
            .filter_map(|(i, l)| {
                fuzzy_score(&Self::haystack(l), &self.filter)
                    .map(|s| (group_of(l), s + file_name_bonus(&l.path, &self.filter), i))
            })
            .collect();
        let listings = &self.listings;
        let order = self.order;
        // With a filter, the group holding the best match comes first.
        let mut group_best: std::collections::HashMap<usize, i64> = std::collections::HashMap::new();
        for &(g, s, _) in &scored {
            let best = group_best.entry(g).or_insert(s);
            *best = (*best).max(s);
        }
        scored.sort_by(|a, b| {
            let first = match order {
                SortOrder::Newest => group_best[&b.0].cmp(&group_best[&a.0]).then(a.0.cmp(&b.0)),
                _ => order.compare(self.cell(a.2), self.cell(b.2)),
            };
            first
                .then(b.1.cmp(&a.1))
                .then_with(|| newest_first(&listings[a.2], &listings[b.2]))
                .then(a.2.cmp(&b.2))
        });
        let best = scored
            .iter()
            .enumerate()
            .max_by(|(pa, a), (pb, b)| a.1.cmp(&b.1).then(pb.cmp(pa)))
            .map(|(pos, _)| pos);
        self.matches = scored.into_iter().map(|(_, _, i)| i).collect();
        best
    }

    /// The selected listing.
    pub fn current(&self) -> Option<&Listing> {
        self.matches.get(self.selected).map(|&i| &self.listings[i])
    }

    /// The list as drawn: a heading before each agent's sessions, then the sessions; sorted
    /// by a count, one heading naming the order.
    pub fn lines(&self) -> Vec<PickerLine> {
        let mut out = Vec::with_capacity(self.matches.len() + AGENTS.len() + 1);
        let mut pos = 0;
        let grouped = self.order == SortOrder::Newest;
        while pos < self.matches.len() {
            let group = if grouped {
                group_of(&self.listings[self.matches[pos]])
            } else {
                0
            };
            let count = self.matches[pos..]
                .iter()
                .take_while(|&&i| !grouped || group_of(&self.listings[i]) == group)
                .count();
            out.push(PickerLine::Heading {
                title: if grouped {
                    group_title(group)
                } else {
                    self.order.label()
                },
                count,
            });
            out.extend((pos..pos + count).map(|p| PickerLine::Session {
                pos: p,
                index: self.matches[p],
            }));
            pos += count;
        }
        out
    }

    /// The index in [`Self::lines`] of the selected session (headings counted), for scrolling.
    pub fn selected_line(&self) -> usize {
        self.lines()
            .iter()
            .position(|l| matches!(l, PickerLine::Session { pos, .. } if *pos == self.selected))
            .unwrap_or(0)
    }
}

#[cfg(test)]
impl SessionPicker {
    /// The label of a session line on one line, laid out wide (the picker draws its counts
    /// between the two parts of [`label::label_parts`]).
    pub fn label(l: &Listing) -> String {
        let (head, tail) = label::label_parts(l, label::LabelLayout::WIDE);
        format!("{head} {tail}").trim_end().to_owned()
    }
}

impl Overlay for SessionPicker {
    fn context(&self) -> OverlayContext {
        OverlayContext::Sessions
    }

    /// Typing filters, the sort keys change the order, Enter opens the selected session (the
    /// picker stays open until it is shown).
    fn handle(&mut self, input: Input, _ctx: &Ctx<'_>) -> OverlayEffect {
        let delta = match filter_input(&mut self.filter, &mut self.typing, input) {
            FilterStep::Edited => {
                self.refilter();
                return OverlayEffect::None;
            }
            FilterStep::Taken => return OverlayEffect::None,
            FilterStep::Close | FilterStep::Other(Input::Action(OverlayAction::Close)) => {
                return OverlayEffect::Close;
            }
            FilterStep::Move(delta) => delta,
            FilterStep::Other(Input::Action(OverlayAction::Confirm)) => {
                return match self.current().cloned() {
                    Some(listing) => OverlayEffect::Request(Request::OpenListing(listing, self.first_finding())),
                    None => OverlayEffect::None,
                };
            }
            FilterStep::Other(Input::Action(OverlayAction::NextSort)) => {
                self.cycle_order(true);
                return OverlayEffect::None;
            }
            FilterStep::Other(Input::Action(OverlayAction::PrevSort)) => {
                self.cycle_order(false);
                return OverlayEffect::None;
            }
            // Lists move by entries, ten to a page (no half pages).
            FilterStep::Other(Input::Action(other)) => movement(other, 0, 10).unwrap_or(0),
            FilterStep::Other(_) => 0,
        };
        self.selected = step(self.selected, delta, self.matches.len());
        OverlayEffect::None
    }

    fn draw(&self, frame: &mut Frame<'_>, screen: Rect, ctx: &Ctx<'_>) {
        draw::draw(self, frame, screen, ctx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A listing for the picker's tests (also `label`'s).
    pub(super) fn listing(id: &str, agent: Option<&'static str>, updated: Option<&str>, cwd: Option<&str>) -> Listing {
        Listing {
            path: PathBuf::from(format!("/s/{id}.jsonl")),
            id: id.into(),
            format: None,
            agent,
            cwd: cwd.map(str::to_owned),
            updated: updated.map(str::to_owned),
            messages: 1,
            model: None,
            skipped: 0,
            session_key: None,
            archive: None,
            parent: None,
            error: agent.is_none().then(|| "unreadable".to_owned()),
        }
    }

    fn mixed() -> Vec<Listing> {
        vec![
            listing("codex-old", Some("Codex"), Some("2026-01-01T00:00:00Z"), Some("/w/api")),
            listing(
                "claude-new",
                Some("Claude Code"),
                Some("2026-03-01T00:00:00Z"),
                Some("/home/u/app"),
            ),
            listing("broken", None, None, None),
            listing("oc-old", Some("OpenClaw"), Some("2025-01-01T00:00:00Z"), None),
            listing("codex-new", Some("Codex"), Some("2026-02-01T00:00:00Z"), Some("/w/web")),
            listing("oc-undated", Some("OpenClaw"), None, None),
            listing("oc-new", Some("OpenClaw"), Some("2026-04-01T00:00:00Z"), None),
            listing("pi-one", Some("pi"), Some("2025-06-01T00:00:00Z"), None),
        ]
    }

    fn ids(p: &SessionPicker) -> Vec<&str> {
        p.matches.iter().map(|&i| p.listings[i].id.as_str()).collect()
    }

    fn headings(p: &SessionPicker) -> Vec<(&'static str, usize)> {
        p.lines()
            .into_iter()
            .filter_map(|l| match l {
                PickerLine::Heading { title, count } => Some((title, count)),
                PickerLine::Session { .. } => None,
            })
            .collect()
    }

    #[test]
    fn session_picker_groups_by_agent_newest_first() {
        let p = SessionPicker::new(mixed(), "test".into());
        assert_eq!(
            ids(&p),
            [
                "oc-new",
                "oc-old",
                "oc-undated",
                "pi-one",
                "claude-new",
                "codex-new",
                "codex-old",
                "broken"
            ]
        );
        assert_eq!(
            headings(&p),
            [
                ("OpenClaw", 3),
                ("pi", 1),
                ("Claude Code", 1),
                ("Codex", 2),
                (UNREADABLE_HEADING, 1)
            ]
        );
        assert_eq!(p.lines().len(), p.matches.len() + 5);
        assert_eq!(p.selected, 0);
        assert_eq!(p.selected_line(), 1, "the first heading comes before the first session");
    }

    #[test]
    fn session_picker_selection_skips_headings() {
        let mut p = SessionPicker::new(mixed(), "test".into());
        p.selected = 3;
        assert_eq!(p.current().unwrap().id, "pi-one");
        assert_eq!(p.selected_line(), 5, "OpenClaw heading, three sessions, pi heading");
        p.selected = 4;
        assert_eq!(p.current().unwrap().id, "claude-new");
        assert_eq!(p.selected_line(), 7);
        let lines = p.lines();
        assert!(matches!(lines[p.selected_line()], PickerLine::Session { pos: 4, .. }));
    }

    #[test]
    fn session_picker_filters_across_agents_by_agent_and_cwd() {
        let mut p = SessionPicker::new(mixed(), "test".into());
        p.filter = "codex".into();
        p.refilter();
        assert_eq!(ids(&p), ["codex-new", "codex-old"]);
        assert_eq!(headings(&p), [("Codex", 2)]);
        assert_eq!(p.selected_line(), 1);
        p.filter = "claude code".into();
        p.refilter();
        assert_eq!(p.current().unwrap().id, "claude-new");
        p.filter = "/w/web".into();
        p.refilter();
        assert_eq!(p.current().unwrap().id, "codex-new");
        p.filter = "zzzz".into();
        p.refilter();
        assert!(p.current().is_none() && p.lines().is_empty());
        assert_eq!(p.selected_line(), 0);
    }
}

//! The session picker: sessions discovered in the default folders (or a given folder),
//! grouped by agent, fuzzy-filtered; with each session's counts from a background scan
//! (`scan_state.rs`), it can also be sorted by replay findings or rewrites.

use std::path::PathBuf;

use replaylens::load::discover::{AGENTS, Listing, list_default, list_path, newest_first};
use replaylens::text::{escape_controls_single_line, truncate_chars};

use super::scan_state::{PickerScan, SortOrder};

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
    pub(super) fn rebuild(&mut self) -> Option<usize> {
        let mut scored: Vec<(usize, i64, usize)> = self
            .listings
            .iter()
            .enumerate()
            .filter_map(|(i, l)| fuzzy_score(&Self::haystack(l), &self.filter).map(|s| (group_of(l), s, i)))
            .collect();
        let listings = &self.listings;
        let order = self.order;
        scored.sort_by(|a, b| {
            let first = match order {
                SortOrder::Newest => a.0.cmp(&b.0),
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

    /// The label of a session line on one line (the picker draws its counts between the two
    /// parts of [`Self::label_parts`]).
    #[cfg(test)]
    pub fn label(l: &Listing) -> String {
        let (head, tail) = Self::label_parts(l);
        format!("{head} {tail}").trim_end().to_owned()
    }

    /// The label of a session line, in two parts: what it is (the file name, or a database
    /// window's session key) with its sub-agent, archive or unreadable mark, padded to the
    /// name column; then last update, message count, working directory and model. Every field
    /// has its control characters escaped; long names and folders are shortened in the middle
    /// and at the start.
    pub fn label_parts(l: &Listing) -> (String, String) {
        let e = |text: &str| escape_controls_single_line(text).into_owned();
        let base = if l.format == Some("openclaw-sqlite") {
            l.session_key.clone().unwrap_or_else(|| l.id.clone())
        } else {
            l.path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| l.id.clone())
        };
        let mut marks = String::new();
        if let Some(parent) = &l.parent {
            let short: String = parent.chars().take(8).collect();
            marks.push_str(&format!(" (sub-agent of {short})"));
        }
        if let Some(archive) = &l.archive {
            marks.push_str(&format!(" ({})", short_archive(archive)));
        }
        if l.error.is_some() {
            marks.push_str(" (unreadable)");
        }
        // The marks tell apart rows that share a name (a database's windows of one key), so
        // the name gives way to them: it is shortened in the middle first.
        let marks = e(&marks);
        let room = NAME_WIDTH.saturating_sub(marks.chars().count()).max(12);
        let name = format!("{}{marks}", shorten_middle(&e(&base), room));
        let name = if name.chars().count() > NAME_WIDTH {
            truncate_chars(&name, NAME_WIDTH - 1).into_owned()
        } else {
            name
        };
        let updated: String = l
            .updated
            .as_deref()
            .unwrap_or("")
            .chars()
            .take(16)
            .enumerate()
            .map(|(i, c)| if i == 10 && c == 'T' { ' ' } else { c })
            .collect();
        let tail = format!(
            "{:<16} {:>5} {:<4}  {:<CWD_WIDTH$} {}",
            e(&updated),
            l.messages,
            if l.messages == 1 { "msg" } else { "msgs" },
            shorten_start(&e(l.cwd.as_deref().unwrap_or("")), CWD_WIDTH),
            e(l.model.as_deref().unwrap_or("")),
        );
        (format!("{name:<NAME_WIDTH$}"), tail.trim_end().to_owned())
    }
}

/// An archive mark short enough to stay whole in the name column: a database's previous
/// window reads `previous window, started by reset` in the CLI and `previous window: reset`
/// here.
fn short_archive(archive: &str) -> String {
    match archive.strip_prefix("previous window, started by ") {
        Some(reason) => format!("previous window: {reason}"),
        None => archive.to_owned(),
    }
}

/// Width of the name column of the session picker.
const NAME_WIDTH: usize = 40;
/// Width of the working-directory column of the session picker.
const CWD_WIDTH: usize = 30;

/// At most `max` characters, keeping both ends: `rollout-2026-01-02T…-1111.jsonl`.
fn shorten_middle(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_owned();
    }
    let keep = max.saturating_sub(1);
    let head = keep / 2;
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(n - (keep - head)).collect();
    format!("{start}…{end}")
}

/// At most `max` characters, keeping the end: `…/work/my-app`.
fn shorten_start(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_owned();
    }
    let end: String = text.chars().skip(n - max.saturating_sub(1)).collect();
    format!("…{end}")
}

/// Subsequence match, case-insensitive; higher is better (consecutive and word-start hits).
pub fn fuzzy_score(haystack: &str, needle: &str) -> Option<i64> {
    let hay: Vec<char> = haystack.to_lowercase().chars().collect();
    let mut score = 0i64;
    let mut at = 0usize;
    let mut prev: Option<usize> = None;
    for n in needle.to_lowercase().chars().filter(|c| !c.is_whitespace()) {
        let found = (at..hay.len()).find(|&i| hay[i] == n)?;
        score += 1;
        if prev.is_some_and(|p| p + 1 == found) {
            score += 5;
        }
        if found == 0 || !hay[found - 1].is_alphanumeric() {
            score += 3;
        }
        score -= i64::try_from(found - at).unwrap_or(0).min(10);
        prev = Some(found);
        at = found + 1;
    }
    Some(score)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(id: &str, agent: Option<&'static str>, updated: Option<&str>, cwd: Option<&str>) -> Listing {
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

    #[test]
    fn session_label_escapes_and_marks() {
        let mut l = listing(
            "agent-x",
            Some("Claude Code"),
            Some("2026-01-02T03:04:05Z"),
            Some("/a/\u{1b}]0;x\u{7}b"),
        );
        l.parent = Some("0a1b2c3d-4e5f".into());
        let label = SessionPicker::label(&l);
        assert!(label.starts_with("agent-x.jsonl (sub-agent of 0a1b2c3d) "), "{label}");
        assert!(label.contains("2026-01-02 03:04"), "{label}");
        assert!(label.contains("/a/\\e]0;x\\x07b"), "{label}");
        assert!(!label.chars().any(char::is_control), "{label:?}");
    }

    #[test]
    fn session_label_shortens_long_names_and_folders() {
        let mut l = listing(
            "x",
            Some("Codex"),
            None,
            Some("/home/someone/projects/a/very/deep/tree/my-app"),
        );
        l.path = "/c/rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl".into();
        l.archive = Some("archived".into());
        let label = SessionPicker::label(&l);
        let name = &label[..label.find("  ").unwrap_or(label.len())];
        assert!(
            name.starts_with("rollout-2026-0") && name.contains('…') && name.ends_with("1111.jsonl (archived)"),
            "{label}"
        );
        assert!(name.chars().count() <= NAME_WIDTH, "{name}");
        assert!(label.ends_with("  …jects/a/very/deep/tree/my-app"), "{label}");
        assert_eq!(shorten_middle("abcdefghij", 5), "ab…ij");
        assert_eq!(shorten_start("abcdefghij", 5), "…ghij");
        assert_eq!(shorten_middle("abc", 5), "abc");
    }
}

//! The profile picker (families with a preset target, the session's own model, free entry)
//! and the session picker (fuzzy filter over discovered sessions).

use std::path::PathBuf;

use replaylens::load::discover::{Listing, list_default, list_path};
use replaylens::policy::{Family, Target, preset};

use super::app::{App, LoadRequest, Mode};

/// One entry of the profile picker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileItem {
    /// What the line shows.
    pub label: String,
    /// The target; `None` = free entry.
    pub target: Option<Target>,
}

/// The profile picker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfilePicker {
    /// Entries.
    pub items: Vec<ProfileItem>,
    /// Selected entry.
    pub selected: usize,
    /// Free-entry text (`provider api model`), when typing.
    pub input: Option<String>,
}

fn target_label(t: &Target) -> String {
    format!(
        "{} / {} / {}",
        t.provider.as_deref().unwrap_or("?"),
        t.api.as_deref().unwrap_or("?"),
        t.model.as_deref().unwrap_or("?")
    )
}

impl ProfilePicker {
    /// Entries for a session whose own model is `session_model`; `current` is preselected.
    pub fn new(session_model: &Target, current: &Target) -> Self {
        let mut items = vec![ProfileItem {
            label: format!("session model        {}", target_label(session_model)),
            target: Some(Target::default()),
        }];
        for &family in Family::all() {
            let t = preset(family);
            items.push(ProfileItem {
                label: format!("{:<20} {}", family.id(), target_label(&t)),
                target: Some(t),
            });
        }
        items.push(ProfileItem {
            label: "custom…              type provider api model".into(),
            target: None,
        });
        let selected = items
            .iter()
            .position(|i| i.target.as_ref() == Some(current))
            .unwrap_or(0);
        Self {
            items,
            selected,
            input: None,
        }
    }
}

/// Parse free entry: `provider api model`, `-` or missing = from the session.
pub fn parse_target(text: &str) -> Target {
    let mut parts = text.split_whitespace().map(|p| (p != "-").then(|| p.to_owned()));
    Target {
        provider: parts.next().flatten(),
        api: parts.next().flatten(),
        model: parts.next().flatten(),
    }
}

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

/// The session picker.
#[derive(Debug, Clone)]
pub struct SessionPicker {
    /// Where the listings came from.
    pub origin: String,
    /// Every listing.
    pub listings: Vec<Listing>,
    /// The filter text.
    pub filter: String,
    /// Listings that match, best first.
    pub matches: Vec<usize>,
    /// Selected position in `matches`.
    pub selected: usize,
}

impl SessionPicker {
    /// A picker over listings.
    pub fn new(listings: Vec<Listing>, origin: String) -> Self {
        let mut p = Self {
            origin,
            listings,
            filter: String::new(),
            matches: Vec::new(),
            selected: 0,
        };
        p.refilter();
        p
    }

    /// The text a listing is matched against.
    pub fn haystack(l: &Listing) -> String {
        format!(
            "{} {} {} {}",
            l.id,
            l.session_key.as_deref().unwrap_or(""),
            l.path.display(),
            l.model.as_deref().unwrap_or("")
        )
    }

    /// Recompute matches after the filter changed.
    pub fn refilter(&mut self) {
        let mut scored: Vec<(i64, usize)> = self
            .listings
            .iter()
            .enumerate()
            .filter_map(|(i, l)| fuzzy_score(&Self::haystack(l), &self.filter).map(|s| (s, i)))
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        self.matches = scored.into_iter().map(|(_, i)| i).collect();
        self.selected = self.selected.min(self.matches.len().saturating_sub(1));
    }

    /// The selected listing.
    pub fn current(&self) -> Option<&Listing> {
        self.matches.get(self.selected).map(|&i| &self.listings[i])
    }
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

impl App {
    /// Open the profile picker, the current target preselected.
    pub fn open_profiles(&mut self) {
        let Some(insp) = &self.insp else { return };
        let m = &insp.transcript.model;
        let session_model = Target {
            provider: m.provider.clone(),
            api: m.api.clone(),
            model: m.model.clone(),
        };
        self.mode = Mode::Profiles(ProfilePicker::new(&session_model, &insp.requested));
    }

    /// Open the session picker.
    pub fn open_sessions(&mut self) {
        let (listings, origin) = self.sessions.list();
        self.mode = Mode::Sessions(SessionPicker::new(listings, origin));
    }

    /// Load the selected listing.
    pub fn open_listing(&mut self, listing: &Listing) {
        if let Some(err) = &listing.error {
            self.status = Some(format!("{}: {err}", listing.path.display()));
            return;
        }
        let is_db = listing.format == Some("openclaw-sqlite");
        let target = self.insp.as_ref().map(|i| i.requested.clone()).unwrap_or_default();
        self.request_load(LoadRequest {
            path: listing.path.clone(),
            session: is_db.then(|| listing.id.clone()),
            target,
            rule_set: self.rule_set,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuzzy_prefers_consecutive_and_word_starts() {
        assert!(fuzzy_score("anthropic-tool-repair", "atr").is_some());
        assert!(fuzzy_score("anthropic", "xyz").is_none());
        assert!(fuzzy_score("gemini-signatures", "gem").unwrap() > fuzzy_score("a-g-e-m", "gem").unwrap());
    }

    #[test]
    fn free_entry_parses_three_parts() {
        let t = parse_target("openrouter openai-completions google/gemini-2.5-pro");
        assert_eq!(t.model.as_deref(), Some("google/gemini-2.5-pro"));
        assert_eq!(parse_target("- - m").provider, None);
    }

    #[test]
    fn picker_lists_every_family_and_preselects() {
        let p = ProfilePicker::new(&Target::default(), &preset(Family::Mistral));
        assert_eq!(p.items.len(), Family::all().len() + 2);
        assert!(p.items[p.selected].label.starts_with("mistral"));
    }
}

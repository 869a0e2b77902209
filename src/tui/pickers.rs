//! The profile picker (families with a preset target, the session's own model, free entry),
//! and opening either picker; the session picker itself is in `session_picker.rs`.

use replaylens::load::discover::Listing;
use replaylens::policy::{Family, Target, preset};

use super::app::{App, LoadRequest, Mode};
pub use super::session_picker::{PickerLine, SessionPicker, SessionSource};

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

    /// Open the session picker and ask for the scan that fills in its counts.
    pub fn open_sessions(&mut self) {
        let (listings, origin) = self.sessions.list();
        let mut picker = SessionPicker::new(listings, origin);
        picker.start_scan(self.rule_set);
        self.mode = Mode::Sessions(picker);
    }

    /// Load the selected listing; with `at`, select that stored message once it is shown.
    pub fn open_listing(&mut self, listing: &Listing, at: Option<usize>) {
        if let Some(err) = &listing.error {
            self.status = Some(format!("{}: {err}", listing.path.display()));
            return;
        }
        self.open_at = at;
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
    use crate::tui::session_picker::fuzzy_score;

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

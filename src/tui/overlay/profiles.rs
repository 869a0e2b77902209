//! The profile picker: the session's own model, every profile of the release's provider list
//! with the family it resolves to, and free entry (`provider api model`); typing filters.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use replaylens::policy::predicates::normalize_provider_id;
use replaylens::policy::providers::catalog;
use replaylens::policy::{Target, resolve};
use replaylens::text::escape_controls_single_line;

use super::popup::{FilterStep, filter_input, filter_line, item_line, popup};
use super::sessions::fuzzy_score;
use super::{Ctx, Input, Overlay, OverlayEffect, Request, movement, one_line, step};
use crate::tui::action::OverlayAction;
use crate::tui::keymap::OverlayContext;
use crate::tui::theme::Role;

/// One entry of the profile picker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileItem {
    /// What the line shows.
    pub label: String,
    /// The target; `None` = free entry.
    pub target: Option<Target>,
}

/// The profile picker: every entry, the typed filter (fuzzy, as in the session picker), the
/// entries that match it best first, and the free-entry line, always last.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfilePicker {
    /// Entries; the last one is free entry.
    pub items: Vec<ProfileItem>,
    /// The filter text.
    pub filter: String,
    /// Whether characters go into the filter (after `/`).
    pub typing: bool,
    /// Entries that match the filter (indices into `items`), best first; free entry last.
    pub matches: Vec<usize>,
    /// Selected position in `matches`.
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

/// What follows the provider on the profile of the session's own provider and API (the
/// picker's title says what it means).
pub const OWN_MARK: &str = " ●";

/// The label of the free-entry line: with a filter typed, it offers the filter as the entry.
pub fn free_entry_label(filter: &str) -> String {
    if filter.trim().is_empty() {
        "custom…  type provider api model".to_owned()
    } else {
        format!("custom…  use \"{}\" as provider api model (Enter edits)", filter.trim())
    }
}

impl ProfilePicker {
    /// Entries for a session whose own model is `session_model`, then every profile of the
    /// release's provider list (`replaylens providers`) as `provider  api  model  family`;
    /// `current` is preselected. Columns are as wide as their longest entry.
    pub fn new(session_model: &Target, current: &Target) -> Self {
        const SESSION: &str = "session model";
        let profiles = catalog().profiles();
        let wp = profiles
            .iter()
            .map(|p| p.provider.chars().count() + OWN_MARK.chars().count())
            .chain([SESSION.len()])
            .max()
            .unwrap_or(0);
        let wa = profiles.iter().map(|p| p.api.chars().count()).max().unwrap_or(0);
        let wm = profiles.iter().map(|p| p.model.chars().count()).max().unwrap_or(0);
        let mut items = vec![ProfileItem {
            label: format!("{SESSION:<wp$}  {}", target_label(session_model)),
            target: Some(Target::default()),
        }];
        let own_provider = session_model.provider.as_deref().map(normalize_provider_id);
        for p in &profiles {
            let target = p.target();
            let family = resolve(&target).family;
            let own = own_provider.as_deref() == Some(p.provider) && session_model.api.as_deref() == Some(p.api);
            let provider = if own {
                format!("{}{OWN_MARK}", p.provider)
            } else {
                p.provider.to_owned()
            };
            items.push(ProfileItem {
                label: format!("{provider:<wp$}  {:<wa$}  {:<wm$}  {}", p.api, p.model, family.id()),
                target: Some(target),
            });
        }
        items.push(ProfileItem {
            label: free_entry_label(""),
            target: None,
        });
        let selected = items
            .iter()
            .position(|i| i.target.as_ref() == Some(current))
            .unwrap_or(0);
        Self {
            matches: (0..items.len()).collect(),
            items,
            filter: String::new(),
            typing: false,
            selected,
            input: None,
        }
    }

    /// The selected entry.
    pub fn current(&self) -> Option<&ProfileItem> {
        self.matches.get(self.selected).map(|&i| &self.items[i])
    }

    /// Recompute the matches after the filter changed: best match first and selected; the
    /// free-entry line stays (alone when nothing else matches, offering the typed text).
    pub fn refilter(&mut self) {
        let free = self.items.len().saturating_sub(1);
        let mut scored: Vec<(i64, usize)> = (0..free)
            .filter_map(|i| profile_score(&self.items[i].label, &self.filter).map(|s| (s, i)))
            .collect();
        if !self.filter.trim().is_empty() {
            scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        }
        self.matches = scored.into_iter().map(|(_, i)| i).chain([free]).collect();
        self.items[free].label = free_entry_label(&self.filter);
        self.selected = 0;
    }
}

/// How well the filter matches an entry: the session picker's fuzzy score over the whole label
/// or, better, over one of its fields (provider, API, model, family), so `gemini` finds the
/// model `gemini-2.5-pro` rather than letters scattered over the line; the provider counts a
/// little more, so `google` puts the `google` provider before a model or family named so.
fn profile_score(label: &str, filter: &str) -> Option<i64> {
    let fields = label
        .split("  ")
        .flat_map(|part| part.split(" / "))
        .map(str::trim)
        .filter(|f| !f.is_empty());
    fields
        .enumerate()
        .filter_map(|(i, field)| fuzzy_score(field, filter).map(|s| if i == 0 { s + 2 } else { s }))
        .chain(fuzzy_score(label, filter))
        .max()
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

impl Overlay for ProfilePicker {
    fn context(&self) -> OverlayContext {
        if self.input.is_some() {
            OverlayContext::Prompt
        } else {
            OverlayContext::Picker
        }
    }

    /// Typing filters, Enter applies the selected target or, on the free-entry line, opens the
    /// `provider api model` prompt with what was typed.
    fn handle(&mut self, input: Input, _ctx: &Ctx<'_>) -> OverlayEffect {
        if let Some(text) = &mut self.input {
            match input {
                Input::Action(OverlayAction::Close) => self.input = None,
                Input::Action(OverlayAction::Confirm) => {
                    return OverlayEffect::CloseWith(Request::Retarget(parse_target(text)));
                }
                Input::Action(OverlayAction::DeleteBack) => {
                    text.pop();
                }
                Input::Action(OverlayAction::ClearText) => text.clear(),
                Input::Action(_) => {}
                Input::Char(c) => text.push(c),
                Input::Paste(pasted) => text.push_str(&one_line(&pasted)),
            }
            return OverlayEffect::None;
        }
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
                match self.current().map(|i| i.target.clone()) {
                    Some(Some(target)) => return OverlayEffect::CloseWith(Request::Retarget(target)),
                    Some(None) => self.input = Some(self.filter.trim().to_owned()),
                    None => {}
                }
                return OverlayEffect::None;
            }
            // Lists move by entries, ten to a page (no half pages).
            FilterStep::Other(Input::Action(other)) => movement(other, 0, 10).unwrap_or(0),
            FilterStep::Other(_) => 0,
        };
        self.selected = step(self.selected, delta, self.matches.len());
        OverlayEffect::None
    }

    /// The filter line, then the matching entries (free entry last), then the
    /// `provider api model` prompt when free entry is being typed.
    fn draw(&self, frame: &mut Frame<'_>, screen: Rect, ctx: &Ctx<'_>) {
        let t = ctx.theme;
        let count = format!(
            "   {} of {}",
            self.matches.len().saturating_sub(1),
            self.items.len().saturating_sub(1)
        );
        let mut lines = vec![filter_line(t, &self.filter, self.typing, count), Line::default()];
        lines.extend(
            self.matches
                .iter()
                .enumerate()
                .map(|(pos, &i)| item_line(t, pos == self.selected, &self.items[i].label)),
        );
        if let Some(input) = &self.input {
            lines.push(Line::default());
            lines.push(Line::from(vec![
                Span::styled("provider api model: ", t.style(Role::Title)),
                Span::styled(format!("{}▏", escape_controls_single_line(input)), t.style(Role::Text)),
            ]));
        }
        let focus = if self.input.is_some() {
            lines.len() - 1
        } else {
            self.selected + 2
        };
        let title = format!(
            " profile: replay target ({} session's · / filters · {} applies) ",
            OWN_MARK.trim(),
            ctx.keymap
                .overlay_first_key(OverlayContext::Picker, OverlayAction::Confirm)
        );
        popup(t, frame, screen, &title, lines, focus);
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
    fn picker_lists_the_release_profiles_and_preselects() {
        let profiles = catalog().profiles();
        let mistral = profiles.iter().find(|p| p.provider == "mistral").unwrap().target();
        let p = ProfilePicker::new(&Target::default(), &mistral);
        assert_eq!(p.items.len(), profiles.len() + 2);
        assert!(p.items[p.selected].label.starts_with("mistral "));
        assert!(
            p.items[p.selected].label.ends_with("  mistral"),
            "the family closes the line"
        );
    }

    #[test]
    fn the_picker_offers_every_api_of_a_provider_and_marks_the_sessions_own() {
        let session = Target::new(
            Some("Mistral"),
            Some("mistral-conversations"),
            Some("devstral-medium-2507"),
        );
        let p = ProfilePicker::new(&session, &Target::default());
        let mistral: Vec<&ProfileItem> = p.items.iter().filter(|i| i.label.starts_with("mistral ")).collect();
        let apis: Vec<&str> = mistral
            .iter()
            .filter_map(|i| i.target.as_ref()?.api.as_deref())
            .collect();
        assert_eq!(apis, ["mistral-conversations", "openai-completions"]);
        let own = format!("mistral{OWN_MARK} ");
        assert!(mistral[0].label.starts_with(&own), "{}", mistral[0].label);
        assert!(!mistral[1].label.contains(OWN_MARK), "{}", mistral[1].label);
        assert_eq!(p.items.iter().filter(|i| i.label.contains(OWN_MARK)).count(), 1);
    }
}

//! The key help: generated from the keymap, the main view's keys then a section per overlay
//! table; it scrolls.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::popup::{inner_width, popup, popup_height, wrap_words};
use super::{Ctx, Input, Overlay, OverlayEffect, movement, step};
use crate::tui::action::{Action, OverlayAction};
use crate::tui::keymap::{Keymap, OverlayContext};
use crate::tui::theme::{Role, Theme};

/// The key help; its state is the first line shown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HelpOverlay {
    /// The first line shown.
    pub top: usize,
}

/// Columns of the key column (right-aligned keys and two spaces).
const KEY_COLUMN: usize = 24;

/// The lines of the key help, `width` columns wide: a description longer than its column
/// continues under itself, the marker legend wraps between its entries.
pub fn help_text(keymap: &Keymap, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let room = width.saturating_sub(KEY_COLUMN);
    let row = |k: &str, d: &str| -> Vec<Line<'static>> {
        wrap_words(d, room)
            .into_iter()
            .enumerate()
            .map(|(n, part)| {
                let key = if n == 0 { k } else { "" };
                Line::from(vec![
                    Span::styled(format!("{key:>22}  "), theme.style(Role::HintKey)),
                    Span::styled(part, theme.style(Role::Text)),
                ])
            })
            .collect()
    };
    // No blank lines: the main view's keys fit at 40 rows (a smaller screen scrolls).
    let mut lines: Vec<Line<'static>> = keymap.help().iter().flat_map(|(k, d)| row(k, d)).collect();
    for (heading, rows) in keymap.overlay_help() {
        lines.push(Line::from(Span::styled(
            format!("{heading:>22}"),
            theme.style(Role::Title),
        )));
        lines.extend(rows.iter().flat_map(|(k, d)| row(k, d)));
    }
    let legend = [
        "~ modified",
        "- dropped",
        "+ inserted",
        "= merged",
        "> moved here",
        "< moved away",
    ];
    let mut line = String::from("markers:");
    for (n, entry) in legend.into_iter().enumerate() {
        let gap = if n == 0 { " " } else { "  " };
        if line.chars().count() + gap.len() + entry.chars().count() > width {
            lines.push(Line::from(Span::styled(
                std::mem::take(&mut line),
                theme.style(Role::Muted),
            )));
        } else {
            line.push_str(gap);
        }
        line.push_str(entry);
    }
    lines.push(Line::from(Span::styled(line, theme.style(Role::Muted))));
    lines
}

impl Overlay for HelpOverlay {
    fn context(&self) -> OverlayContext {
        OverlayContext::Scroll
    }

    fn opener(&self) -> Option<Action> {
        Some(Action::Help)
    }

    fn handle(&mut self, input: Input, ctx: &Ctx<'_>) -> OverlayEffect {
        let Input::Action(action) = input else {
            return OverlayEffect::None;
        };
        let n = help_text(ctx.keymap, ctx.theme, inner_width(ctx.screen)).len();
        let half = isize::try_from(ctx.screen.height / 2).unwrap_or(10);
        let delta = match action {
            OverlayAction::Close | OverlayAction::Confirm => return OverlayEffect::Close,
            other => movement(other, half, 2 * half).unwrap_or(0),
        };
        self.top = step(self.top, delta, n);
        OverlayEffect::None
    }

    fn draw(&self, frame: &mut Frame<'_>, screen: Rect, ctx: &Ctx<'_>) {
        let lines = help_text(ctx.keymap, ctx.theme, inner_width(screen));
        let total = lines.len();
        let top = self.top;
        let inner_h = usize::from(popup_height(screen, total).saturating_sub(2));
        let keys = |a| ctx.keymap.overlay_first_key(OverlayContext::Scroll, a);
        let title = if total > inner_h {
            // Scrolled to the end, the last line is a line of help; else it says how many follow.
            let room = inner_h.saturating_sub(1);
            let (first, last) = if top + room >= total {
                (total - inner_h, total)
            } else {
                (top, top + room)
            };
            format!(
                " keys {}–{last} of {total} ({}/{} scroll, {} closes) ",
                first + 1,
                keys(OverlayAction::Down),
                keys(OverlayAction::Up),
                keys(OverlayAction::Close)
            )
        } else {
            format!(" keys ({} closes) ", keys(OverlayAction::Close))
        };
        // The popup keeps a focus line in view: the last line of the window starting at `top`.
        let room = if total > inner_h {
            inner_h.saturating_sub(1)
        } else {
            inner_h
        };
        popup(ctx.theme, frame, screen, &title, lines, top + room.saturating_sub(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At any width the help is cut nowhere: every line fits, and every description and the
    /// marker legend read whole when the lines are joined again.
    #[test]
    fn help_lines_wrap_within_the_popup_and_keep_every_word() {
        let keymap = Keymap::default();
        let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        for width in [40, 58, 78, 108] {
            let lines = help_text(&keymap, &Theme::dark(), width);
            assert!(lines.iter().all(|l| l.width() <= width), "a line wider than {width}");
            let all: Vec<String> = lines
                .iter()
                .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
                .collect();
            let all = words(&all.join(" "));
            for (_, d) in keymap.help() {
                assert!(all.contains(&words(d)), "{d:?} at {width}");
            }
            assert!(all.contains("< moved away"), "the legend at {width}");
        }
    }
}

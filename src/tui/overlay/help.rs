//! The key help: generated from the keymap, the main view's keys then a section per overlay
//! table; it scrolls.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::popup::{popup, popup_height};
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

/// The lines of the key help.
pub fn help_text(keymap: &Keymap, theme: &Theme) -> Vec<Line<'static>> {
    let row = |k: &str, d: &str| {
        Line::from(vec![
            Span::styled(format!("{k:>22}  "), theme.style(Role::HintKey)),
            Span::styled(d.to_owned(), theme.style(Role::Text)),
        ])
    };
    // No blank lines: the main view's keys fit at 40 rows (a smaller screen scrolls).
    let mut lines: Vec<Line<'static>> = keymap.help().iter().map(|(k, d)| row(k, d)).collect();
    for (heading, rows) in keymap.overlay_help() {
        lines.push(Line::from(Span::styled(
            format!("{heading:>22}"),
            theme.style(Role::Title),
        )));
        lines.extend(rows.iter().map(|(k, d)| row(k, d)));
    }
    lines.push(Line::from(Span::styled(
        "markers: ~ modified  - dropped  + inserted  = merged  > moved here  < moved away",
        theme.style(Role::Muted),
    )));
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
        let n = help_text(ctx.keymap, ctx.theme).len();
        let half = isize::try_from(ctx.screen.height / 2).unwrap_or(10);
        let delta = match action {
            OverlayAction::Close | OverlayAction::Confirm => return OverlayEffect::Close,
            other => movement(other, half, 2 * half).unwrap_or(0),
        };
        self.top = step(self.top, delta, n);
        OverlayEffect::None
    }

    fn draw(&self, frame: &mut Frame<'_>, screen: Rect, ctx: &Ctx<'_>) {
        let lines = help_text(ctx.keymap, ctx.theme);
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

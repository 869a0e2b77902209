//! What the load skipped or warned about, one line each; it scrolls.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use replaylens::text::escape_controls_single_line;

use super::popup::popup;
use super::{Ctx, Input, Overlay, OverlayEffect, movement, step};
use crate::tui::action::{Action, OverlayAction};
use crate::tui::keymap::OverlayContext;
use crate::tui::theme::Role;

/// The load problems list; its state is the first line shown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadProblems {
    /// The first line shown.
    pub top: usize,
}

impl Overlay for LoadProblems {
    fn context(&self) -> OverlayContext {
        OverlayContext::Scroll
    }

    fn opener(&self) -> Option<Action> {
        Some(Action::LoadProblems)
    }

    fn handle(&mut self, input: Input, ctx: &Ctx<'_>) -> OverlayEffect {
        let Input::Action(action) = input else {
            return OverlayEffect::None;
        };
        let n = ctx.insp.map_or(0, |i| i.load_problems.len());
        let page = isize::try_from(ctx.screen.height / 2).unwrap_or(10);
        let delta = match action {
            OverlayAction::Close => return OverlayEffect::Close,
            other => movement(other, page, 10).unwrap_or(0),
        };
        self.top = step(self.top, delta, n);
        OverlayEffect::None
    }

    fn draw(&self, frame: &mut Frame<'_>, screen: Rect, ctx: &Ctx<'_>) {
        let Some(insp) = ctx.insp else { return };
        let t = ctx.theme;
        let mut lines: Vec<Line<'static>> = insp
            .load_problems
            .iter()
            .map(|p| {
                Line::from(Span::styled(
                    escape_controls_single_line(p).into_owned(),
                    t.style(Role::Text),
                ))
            })
            .collect();
        if lines.is_empty() {
            lines.push(Line::from(Span::styled(
                "the load skipped nothing",
                t.style(Role::Muted),
            )));
        }
        let close = ctx
            .keymap
            .overlay_first_key(OverlayContext::Scroll, OverlayAction::Close);
        let title = if insp.load_notes > 0 {
            format!(
                " load problems: {}, notes: {} ({close} closes) ",
                insp.load_problems.len() - insp.load_notes.min(insp.load_problems.len()),
                insp.load_notes
            )
        } else {
            format!(" load problems: {} ({close} closes) ", insp.load_problems.len())
        };
        popup(t, frame, screen, &title, lines, self.top);
    }
}

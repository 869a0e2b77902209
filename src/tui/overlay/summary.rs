//! Rewrites per rule: one line per rule with its count and summary; Enter jumps to the first
//! row the selected rule touched.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

use super::popup::{item_line, popup};
use super::{Ctx, Input, Overlay, OverlayEffect, Request, movement, step};
use crate::tui::action::{Action, OverlayAction};
use crate::tui::app::plural;
use crate::tui::keymap::OverlayContext;
use crate::tui::theme::Role;

/// Rewrites per rule; its state is the selected line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// The selected line.
    pub selected: usize,
}

/// The rules that rewrote something, in rule-id order.
fn rules(ctx: &Ctx<'_>) -> Vec<&'static str> {
    ctx.insp
        .map(|i| i.counts_by_rule().into_keys().collect())
        .unwrap_or_default()
}

impl Overlay for Summary {
    fn context(&self) -> OverlayContext {
        OverlayContext::Scroll
    }

    fn opener(&self) -> Option<Action> {
        Some(Action::Summary)
    }

    fn handle(&mut self, input: Input, ctx: &Ctx<'_>) -> OverlayEffect {
        let Input::Action(action) = input else {
            return OverlayEffect::None;
        };
        let rules = rules(ctx);
        let page = isize::try_from(ctx.screen.height / 2).unwrap_or(10);
        let delta = match action {
            OverlayAction::Close => return OverlayEffect::Close,
            OverlayAction::Confirm => {
                return match rules.get(self.selected) {
                    Some(rule) => OverlayEffect::CloseWith(Request::JumpToRule(rule)),
                    None => OverlayEffect::Close,
                };
            }
            other => movement(other, page, 10).unwrap_or(0),
        };
        self.selected = step(self.selected, delta, rules.len());
        OverlayEffect::None
    }

    fn draw(&self, frame: &mut Frame<'_>, screen: Rect, ctx: &Ctx<'_>) {
        let Some(insp) = ctx.insp else { return };
        let mut lines = Vec::new();
        let counts = insp.counts_by_rule();
        // The rule column is as wide as the longest id, so no id runs into its count.
        let w = counts.keys().map(|r| r.width()).max().unwrap_or(0).max(20);
        for (i, (rule, n)) in counts.into_iter().enumerate() {
            let summary = (ctx.rules)(rule).map_or("", |info| info.summary);
            lines.push(item_line(
                ctx.theme,
                i == self.selected,
                &format!("{rule:<w$} {n:>4}  {summary}"),
            ));
        }
        if lines.is_empty() {
            lines.push(Line::from(Span::styled(
                "no rewrites for this target",
                ctx.theme.style(Role::Placeholder),
            )));
        }
        let title = format!(
            " rewrites per rule ({} ran; {} jumps) ",
            plural(insp.rules_run.len(), "rule"),
            ctx.keymap
                .overlay_first_key(OverlayContext::Scroll, OverlayAction::Confirm)
        );
        popup(ctx.theme, frame, screen, &title, lines, self.selected);
    }
}

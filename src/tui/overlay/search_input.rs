//! The search prompt: the query is typed (or pasted) on the status bar; Enter runs it.

use ratatui::Frame;
use ratatui::layout::Rect;

use super::{Ctx, Input, Overlay, OverlayEffect, Request, one_line};
use crate::tui::action::OverlayAction;
use crate::tui::keymap::OverlayContext;

/// The search prompt; its state is the query typed so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchInput {
    /// The query.
    pub query: String,
}

impl Overlay for SearchInput {
    fn context(&self) -> OverlayContext {
        OverlayContext::Prompt
    }

    fn handle(&mut self, input: Input, _ctx: &Ctx<'_>) -> OverlayEffect {
        match input {
            Input::Action(OverlayAction::Close) => return OverlayEffect::Close,
            Input::Action(OverlayAction::Confirm) => {
                return OverlayEffect::CloseWith(Request::Search(std::mem::take(&mut self.query)));
            }
            Input::Action(OverlayAction::DeleteBack) => {
                self.query.pop();
            }
            Input::Action(OverlayAction::ClearText) => self.query.clear(),
            Input::Action(_) => {}
            Input::Char(c) => self.query.push(c),
            Input::Paste(text) => self.query.push_str(&one_line(&text)),
        }
        OverlayEffect::None
    }

    fn draw(&self, _frame: &mut Frame<'_>, _screen: Rect, _ctx: &Ctx<'_>) {}

    fn status_line(&self) -> Option<String> {
        Some(format!("/{}▏", self.query))
    }
}

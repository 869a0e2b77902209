//! The explain prompt (`E`): the user pastes a provider's error text (bracketed paste, or a
//! burst of keys whose line breaks stay in the text), Enter explains it with the library's
//! explain ([`crate::tui::explain`]): the inspector selects the stored message it names and
//! the prompt turns into the answer (what the error means, which message, which rule fixes
//! it). An error naming ids this session does not hold moves nothing.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use replaylens::text::escape_controls_single_line;

use super::popup::{inner_width, popup_at, popup_width, wrap_words};
use super::{Ctx, Input, Overlay, OverlayEffect, Request};
use crate::tui::action::OverlayAction;
use crate::tui::explain::{Explained, explain_error};
use crate::tui::keymap::OverlayContext;
use crate::tui::theme::{Role, Theme};

/// The explain prompt: the text pasted so far, then the answer.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExplainPrompt {
    /// The error text as pasted (line breaks kept).
    pub text: String,
    /// The answer, once Enter was pressed.
    pub answer: Option<Answer>,
    /// The first answer line in view (the answer scrolls like the help).
    pub top: usize,
}

/// What the explain prompt found.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The library's explanation, and the target it was made for.
    Explained(Explained),
    /// Why there is none (no session, no payload for this target, …).
    Failed(String),
}

impl Answer {
    /// The stored message to select: the first the error points at.
    pub fn stored(&self) -> Option<usize> {
        match self {
            Self::Explained(e) => e.explanation.stored.first().copied(),
            Self::Failed(_) => None,
        }
    }

    /// One line for the status bar.
    pub fn status(&self) -> String {
        let e = match self {
            Self::Failed(why) => return why.clone(),
            Self::Explained(e) => &e.explanation,
        };
        let fix = e.fixed_by.map(|r| format!("; rule {r} fixes it")).unwrap_or_default();
        match (e.stored.first(), e.provider) {
            (Some(s), _) => format!("the error points at stored #{s}{fix}"),
            (None, Some(_)) if !e.ids.is_empty() => {
                "the ids it names are not in this session; the selection stays".to_owned()
            }
            (None, Some(_)) => "no message of this session located; the selection stays".to_owned(),
            (None, None) => "error text not recognised; the selection stays".to_owned(),
        }
    }
}

impl Overlay for ExplainPrompt {
    fn context(&self) -> OverlayContext {
        // Typing goes into the text until the answer is shown; then the keys scroll it.
        if self.answer.is_some() {
            OverlayContext::Scroll
        } else {
            OverlayContext::Prompt
        }
    }

    fn takes_line_breaks(&self) -> bool {
        self.answer.is_none()
    }

    fn handle(&mut self, input: Input, ctx: &Ctx<'_>) -> OverlayEffect {
        if let Some(answer) = &self.answer {
            let n = answer_lines(ctx.theme, answer, inner_width(ctx.screen)).len();
            let half = isize::try_from(ctx.screen.height / 4).unwrap_or(5).max(1);
            match input {
                Input::Action(OverlayAction::Close | OverlayAction::Confirm) => return OverlayEffect::Close,
                Input::Action(other) => {
                    let delta = super::movement(other, half, 2 * half).unwrap_or(0);
                    self.top = super::step(self.top, delta, n);
                }
                Input::Char(_) | Input::Paste(_) => {}
            }
            return OverlayEffect::None;
        }
        match input {
            Input::Action(OverlayAction::Close) => return OverlayEffect::Close,
            Input::Action(OverlayAction::Confirm) => {
                if self.text.trim().is_empty() {
                    return OverlayEffect::None;
                }
                let answer = match ctx.insp {
                    Some(insp) => match explain_error(insp, &self.text) {
                        Ok(e) => Answer::Explained(e),
                        Err(why) => Answer::Failed(why),
                    },
                    None => Answer::Failed("no session loaded".into()),
                };
                let request = Request::Point {
                    stored: answer.stored(),
                    status: answer.status(),
                };
                self.answer = Some(answer);
                return OverlayEffect::Request(request);
            }
            Input::Action(OverlayAction::DeleteBack) => {
                self.text.pop();
            }
            Input::Action(OverlayAction::ClearText) => self.text.clear(),
            Input::Action(_) => {}
            Input::Char(c) => self.text.push(c),
            Input::Paste(text) => self.text.push_str(&text.replace("\r\n", "\n").replace('\r', "\n")),
        }
        OverlayEffect::None
    }

    fn draw(&self, frame: &mut Frame<'_>, screen: Rect, ctx: &Ctx<'_>) {
        let t = ctx.theme;
        let width = inner_width(screen);
        let key = |a| ctx.keymap.overlay_first_key(OverlayContext::Prompt, a);
        let scroll_key = |a| ctx.keymap.overlay_first_key(OverlayContext::Scroll, a);
        let (title, lines) = match &self.answer {
            None => {
                let mut lines = vec![Line::from(Span::styled(
                    "paste the provider's error text (line breaks are kept):",
                    t.style(Role::Muted),
                ))];
                let text = format!("{}▏", self.text);
                for line in text.split('\n') {
                    lines.extend(wrapped(t, Role::Text, &escape_controls_single_line(line), width));
                }
                let title = format!(
                    " explain a provider error ({} explains, {} closes) ",
                    key(OverlayAction::Confirm),
                    key(OverlayAction::Close)
                );
                (title, lines)
            }
            Some(answer) => (String::new(), answer_lines(t, answer, width)),
        };
        // At the foot of the screen, so the selected row stays in sight above it.
        let w = popup_width(screen, super::popup::POPUP_MAX_W);
        let h = u16::try_from(lines.len() + 2)
            .unwrap_or(u16::MAX)
            .min(screen.height.saturating_sub(2) / 2 + 2)
            .min(screen.height);
        let y = screen.y + screen.height.saturating_sub(h + 1);
        let area = Rect::new(screen.x + (screen.width - w) / 2, y, w, h);
        let total = lines.len();
        let inner_h = usize::from(h.saturating_sub(2));
        let (title, focus) = match &self.answer {
            None => (title, total.saturating_sub(1)),
            Some(_) if total <= inner_h => (format!(" explained ({} closes) ", scroll_key(OverlayAction::Close)), 0),
            Some(_) => {
                // As the help: the window starts at `top`; its last line says how many follow,
                // and at the end the last line is the answer's own.
                let room = inner_h.saturating_sub(1);
                let top = self.top.min(total - room);
                let last = if top + room >= total { total } else { top + room };
                let first = if top + room >= total { total - inner_h } else { top };
                (
                    format!(
                        " explained: lines {}–{last} of {total} ({}/{} scroll, {} closes) ",
                        first + 1,
                        scroll_key(OverlayAction::Down),
                        scroll_key(OverlayAction::Up),
                        scroll_key(OverlayAction::Close)
                    ),
                    top + room.saturating_sub(1),
                )
            }
        };
        popup_at(t, frame, area, &title, lines, focus);
    }
}

/// The answer's lines: the library's summary, then where, what fixes it, what it is and the
/// provider's message.
fn answer_lines(t: &Theme, answer: &Answer, width: usize) -> Vec<Line<'static>> {
    let e = match answer {
        Answer::Failed(why) => return wrapped(t, Role::Modified, &escape_controls_single_line(why), width),
        Answer::Explained(e) => e,
    };
    let (target, e) = (&e.target, &e.explanation);
    const LABEL: usize = 11;
    // The library's summary first (what it means, where, whether the projection avoids it),
    // then the details: on a small screen the popup cuts from the bottom.
    let mut lines = wrapped(t, Role::Text, &escape_controls_single_line(&e.summary), width);
    lines.push(Line::default());
    let mut field = |name: &str, value: &str| {
        let value = escape_controls_single_line(value);
        for (n, part) in wrap_words(&value, width.saturating_sub(LABEL)).into_iter().enumerate() {
            let label = if n == 0 { name } else { "" };
            lines.push(Line::from(vec![
                Span::styled(format!("{label:<LABEL$}"), t.style(Role::Title)),
                Span::styled(part, t.style(Role::Text)),
            ]));
        }
    };
    let at = if e.stored.is_empty() {
        "no message of this session".to_owned()
    } else {
        let list: Vec<String> = e.stored.iter().map(|s| format!("stored #{s}")).collect();
        format!("{} (selected)", list.join(", "))
    };
    field("points at", &at);
    field("target", target);
    match (e.fixed_by, e.stored.is_empty()) {
        (Some(rule), _) => field("fixed by", &format!("rule {rule}")),
        (None, false) => field("fixed by", "no hygiene rule"),
        (None, true) => {}
    }
    if let (Some(provider), Some(constraint)) = (e.provider, e.constraint) {
        field(
            "means",
            &format!("{provider} rejects the payload: constraint {constraint}"),
        );
    }
    if !e.ids.is_empty() {
        field("ids named", &e.ids.join(", "));
    }
    field("the error", &e.message);
    lines
}

/// Text in lines of at most `width` columns, one style.
fn wrapped(t: &Theme, role: Role, text: &str, width: usize) -> Vec<Line<'static>> {
    wrap_words(text, width)
        .into_iter()
        .map(|l| Line::from(Span::styled(l, t.style(role))))
        .collect()
}

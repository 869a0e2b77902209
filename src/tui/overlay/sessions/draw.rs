//! Drawing the session picker: the filter line, agent headings, and a line per session with
//! its counts; at 80 columns the name column narrows and dates lose their year.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use replaylens::text::escape_controls_single_line;

use super::label::{LabelLayout, label_parts};
use super::{PickerLine, SessionPicker};
use crate::tui::action::OverlayAction;
use crate::tui::keymap::OverlayContext;
use crate::tui::overlay::Ctx;
use crate::tui::overlay::popup::{SESSIONS_MAX_W, centred, filter_line, fit_spans, popup_at, popup_width};
use crate::tui::scan_state::{COUNTS_WIDTH, Cell};
use crate::tui::theme::Role;

/// Columns before the name: the selection marker and a space.
const BEFORE_NAME: usize = 2;
/// Columns between the name and the date: a space, the counts, the rejected mark, a gap.
const BETWEEN: usize = 1 + COUNTS_WIDTH + 2 + 2;

/// Draw the picker.
pub fn draw(p: &SessionPicker, frame: &mut Frame<'_>, screen: Rect, ctx: &Ctx<'_>) {
    let t = ctx.theme;
    let pending = p.scan.pending();
    let scanning = if pending > 0 {
        format!(" · counting ({pending} to go)")
    } else {
        String::new()
    };
    let count = format!(
        "   {} of {} · {}{scanning}",
        p.matches.len(),
        p.listings.len(),
        escape_controls_single_line(&p.origin)
    );
    let mut lines = vec![filter_line(t, &p.filter, p.typing, count), Line::default()];
    let width = usize::from(popup_width(screen, SESSIONS_MAX_W).saturating_sub(2));
    let layout = LabelLayout::for_width(width, BEFORE_NAME, BETWEEN);
    for line in p.lines() {
        lines.push(match line {
            PickerLine::Heading { title, count } => {
                Line::from(Span::styled(format!("{title} ({count})"), t.style(Role::Title)))
            }
            PickerLine::Session { pos, index } => session_line(ctx, p, pos == p.selected, index, width, layout),
        });
    }
    let title = format!(
        " open session · {} (/ filters · {}: {}) ",
        p.order.label(),
        ctx.keymap
            .overlay_first_key(OverlayContext::Sessions, OverlayAction::NextSort),
        p.order.cycle(true).verb()
    );
    let area = centred(screen, SESSIONS_MAX_W, lines.len());
    popup_at(t, frame, area, &title, lines, p.selected_line() + 2);
}

/// A session row: name; the counts (`…` while the scan is on it) and a `✗` when the
/// provider would reject the replay payload; last update, message count, working directory
/// and model. Cut to `width` columns.
fn session_line(
    ctx: &Ctx<'_>,
    p: &SessionPicker,
    selected: bool,
    index: usize,
    width: usize,
    layout: LabelLayout,
) -> Line<'static> {
    let t = ctx.theme;
    let base = if selected {
        t.style(Role::Text).patch(t.style(Role::Selection))
    } else {
        t.style(Role::Text)
    };
    let (head, tail) = label_parts(&p.listings[index], layout);
    let cell = p.cell(index);
    let (counts, rejected) = cell.text();
    let counts_style = if cell == Cell::Pending {
        base.patch(t.style(Role::Muted))
    } else {
        base
    };
    let mut spans = vec![
        Span::styled(format!("{} {head} ", if selected { "▶" } else { " " }), base),
        Span::styled(format!("{counts:<COUNTS_WIDTH$}"), counts_style),
        if rejected {
            Span::styled(" ✗", base.patch(t.style(Role::Error)))
        } else {
            Span::styled("  ", base)
        },
        Span::styled(format!("  {tail}"), base),
    ];
    while spans.last().is_some_and(|s| s.content.trim().is_empty()) {
        spans.pop();
    }
    if let Some(last) = spans.last_mut() {
        last.content = last.content.trim_end().to_owned().into();
    }
    Line::from(fit_spans(spans, width))
}

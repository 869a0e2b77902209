//! The aligned rows: gutter (selection and rewrite marker), stored side, separator, replay
//! side. Rows are laid out from the first visible one until the area is full.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::tui::app::{App, Pane};
use crate::tui::inspection::Inspection;
use crate::tui::layout::{GUTTER, SEPARATOR};
use crate::tui::row_view;
use crate::tui::theme::Role;

/// Draw the column titles.
pub fn draw_titles(app: &App, frame: &mut Frame<'_>, area: Rect) {
    let t = &app.theme;
    let w = app.areas().side_width();
    let (n, m) = app.insp.as_ref().map_or((0, 0), |i| (i.stored_len(), i.replay.len()));
    let border = if app.focus == Pane::Rows {
        Role::BorderFocus
    } else {
        Role::Border
    };
    let preview = app.insp.as_ref().is_some_and(|i| i.preview);
    let left = if preview {
        format!("stored (first {n}, reading…)")
    } else {
        format!("stored ({n})")
    };
    let pending = app.insp.as_ref().is_some_and(|i| i.pending);
    let right = if preview {
        "replay projection (once the file is read)".to_owned()
    } else if pending {
        "replay projection (computing…)".to_owned()
    } else {
        format!("replay projection ({m})")
    };
    let line = Line::from(vec![
        Span::styled(" ".repeat(usize::from(GUTTER)), t.style(border)),
        Span::styled(format!("{left:<w$}"), t.style(Role::Title)),
        Span::styled(" │ ", t.style(border)),
        Span::styled(right, t.style(Role::Title)),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}

/// Draw the visible rows.
pub fn draw(app: &App, insp: &Inspection, frame: &mut Frame<'_>, area: Rect) {
    let t = &app.theme;
    let w = app.areas().side_width();
    let w16 = u16::try_from(w).unwrap_or(u16::MAX);
    let mut y = area.y;
    let bottom = area.y + area.height;
    let mut pos = app.top;
    let matches = app.search.as_ref().map(|s| &s.matches);
    while y < bottom && pos < app.view.len() {
        let index = app.view[pos];
        let row = &app.rows[index];
        let lines = row_view::layout(insp, row, w, app.extent(index), t);
        let selected = pos == app.selected;
        // The selected row may be scrolled into (a long expanded message).
        let skip = if selected { app.row_scroll } else { 0 };
        let h = u16::try_from(lines.height().saturating_sub(skip).max(1))
            .unwrap_or(u16::MAX)
            .min(bottom - y);
        let matched = matches.is_some_and(|m| m.binary_search(&index).is_ok());
        let flagged = row.replay.is_some_and(|r| insp.wire.has_finding(r));
        for dy in 0..h {
            let line_y = y + dy;
            let at = skip + usize::from(dy);
            let sel = if selected && dy == 0 {
                "▶"
            } else if matched && dy == 0 {
                "*"
            } else {
                " "
            };
            let gutter = Line::from(vec![
                Span::styled(sel, t.style(Role::Title)),
                Span::styled(row.kind.marker(), t.style(Role::Gutter)),
            ]);
            frame.render_widget(Paragraph::new(gutter), Rect::new(area.x, line_y, GUTTER, 1));
            let left_x = area.x + GUTTER;
            let mark = |l: &Line<'static>| match app.search.as_ref().filter(|_| matched) {
                Some(s) => crate::tui::search::highlight(l.clone(), &s.query, t.style(Role::SearchMatch)),
                None => l.clone(),
            };
            if let Some(l) = lines.left.get(at) {
                frame.render_widget(Paragraph::new(mark(l)), Rect::new(left_x, line_y, w16, 1));
            }
            let sep_x = left_x + w16;
            let separator = if flagged && dy == 0 {
                Span::styled(" ✗ ", t.style(Role::Error))
            } else {
                Span::styled(" │ ", t.style(Role::Border))
            };
            frame.render_widget(Paragraph::new(separator), Rect::new(sep_x, line_y, SEPARATOR, 1));
            let right_x = sep_x + SEPARATOR;
            let right_w = (area.x + area.width).saturating_sub(right_x);
            if let Some(l) = lines.right.get(at) {
                frame.render_widget(Paragraph::new(mark(l)), Rect::new(right_x, line_y, right_w, 1));
            }
        }
        if selected {
            highlight(frame, Rect::new(area.x, y, area.width, h), t.style(Role::Selection));
        }
        y += h;
        pos += 1;
    }
}

/// Mark the selected row: its background where no highlight set one (and its foreground
/// there too, when the theme gives one: a theme whose selection is light must not keep light
/// text on it), plus its modifiers.
fn highlight(frame: &mut Frame<'_>, rect: Rect, sel: Style) {
    let buf = frame.buffer_mut();
    for y in rect.top()..rect.bottom() {
        for x in rect.left()..rect.right() {
            if let Some(cell) = buf.cell_mut((x, y)) {
                if let Some(bg) = sel.bg
                    && cell.bg == Color::Reset
                {
                    cell.bg = bg;
                    if let Some(fg) = sel.fg {
                        cell.fg = fg;
                    }
                }
                cell.modifier |= sel.add_modifier;
            }
        }
    }
}

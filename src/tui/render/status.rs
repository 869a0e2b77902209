//! The status bar: mode or message on the left, key hints from the keymap on the right.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use replaylens::text::escape_controls_single_line;

use crate::tui::app::{App, Mode, Pane};
use crate::tui::theme::Role;

/// Draw the status bar.
pub fn draw(app: &App, frame: &mut Frame<'_>, area: Rect) {
    let t = &app.theme;
    let bar = t.style(Role::StatusBar);
    let mut spans = Vec::new();
    let left = match &app.mode {
        Mode::SearchInput(q) => format!("/{q}▏"),
        _ => {
            let pos = if app.view.is_empty() {
                "0/0".to_owned()
            } else {
                format!("{}/{}", app.selected + 1, app.view.len())
            };
            let pane = if app.focus == Pane::Detail { " detail" } else { "" };
            let pending = app.insp.as_ref().is_some_and(|i| i.pending);
            match (&app.loading, &app.status) {
                (Some(l), _) if pending => {
                    let secs = l.started.elapsed().as_secs_f32();
                    format!(
                        "{pos}{pane}  {} computing the projection… {secs:.1}s",
                        super::overlays::spinner(secs)
                    )
                }
                (_, status) => match status {
                    Some(s) => format!("{pos}{pane}  {s}"),
                    None => format!("{pos}{pane}"),
                },
            }
        }
    };
    spans.push(Span::styled(format!(" {} ", escape_controls_single_line(&left)), bar));
    let hints: Vec<Span<'static>> = app
        .keymap
        .hints()
        .into_iter()
        .flat_map(|(k, w)| {
            [
                Span::styled(format!(" {k}"), t.style(Role::HintKey)),
                Span::styled(format!(" {w} "), bar),
            ]
        })
        .collect();
    let used: usize = spans.iter().map(Span::width).sum();
    let hints_w: usize = hints.iter().map(Span::width).sum();
    let room = usize::from(area.width).saturating_sub(used);
    if hints_w <= room {
        spans.push(Span::styled(" ".repeat(room - hints_w), bar));
        spans.extend(hints);
    } else {
        spans.push(Span::styled(" ".repeat(room), bar));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)).style(bar), area);
}

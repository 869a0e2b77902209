//! The loading box: a spinner, the stage and the bytes read so far.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use replaylens::text::escape_controls_single_line;

use crate::tui::app::App;
use crate::tui::overlay::popup::fit_spans;
use crate::tui::theme::Role;

/// Draw the loading box (while nothing of the session is on screen yet).
pub fn draw(app: &App, frame: &mut Frame<'_>, screen: Rect) {
    if let Some(loading) = &app.loading {
        // Once the stored side is on screen, the status bar carries the progress instead.
        if app.insp.as_ref().is_some_and(|i| i.pending) {
            return;
        }
        let secs = loading.started.elapsed().as_secs_f32();
        let mut lines = vec![Line::from(vec![
            Span::styled(format!("{} ", spinner(secs)), app.theme.style(Role::Title)),
            Span::styled(
                format!(
                    "{} {} … {secs:.1}s",
                    loading.stage,
                    escape_controls_single_line(&loading.label)
                ),
                app.theme.style(Role::Text),
            ),
        ])];
        let w = screen.width.min(100);
        if loading.total > 0 {
            lines.push(progress_bar(
                loading.read,
                loading.total,
                usize::from(w.saturating_sub(2)),
                &app.theme,
            ));
        }
        let lines: Vec<Line<'static>> = lines
            .into_iter()
            .map(|l| Line::from(fit_spans(l.spans, usize::from(w.saturating_sub(2)))))
            .collect();
        let h = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX).min(screen.height);
        let area = Rect::new(screen.x + (screen.width - w) / 2, screen.y + screen.height / 2, w, h);
        frame.render_widget(Clear, area);
        frame.render_widget(
            Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" loading ")),
            area,
        );
    }
}

/// The spinner frame for a time since the start.
pub fn spinner(secs: f32) -> &'static str {
    const FRAMES: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let frame_no = (secs * 10.0) as usize % FRAMES.len();
    FRAMES[frame_no]
}

/// `███████░░░░░  45.2 MB of 101.1 MB (44%)` in `width` columns.
fn progress_bar(read: u64, total: u64, width: usize, theme: &crate::tui::theme::Theme) -> Line<'static> {
    let read = read.min(total);
    let label = format!(
        " {} of {} ({}%)",
        replaylens::openclaw::image::ops::human_bytes(usize::try_from(read).unwrap_or(usize::MAX)),
        replaylens::openclaw::image::ops::human_bytes(usize::try_from(total).unwrap_or(usize::MAX)),
        read * 100 / total.max(1)
    );
    let bar_w = width.saturating_sub(label.chars().count()).max(1);
    #[allow(clippy::cast_possible_truncation)]
    let filled = ((u128::from(read) * bar_w as u128) / u128::from(total.max(1))) as usize;
    Line::from(vec![
        Span::styled("█".repeat(filled), theme.style(Role::Title)),
        Span::styled("░".repeat(bar_w - filled), theme.style(Role::Muted)),
        Span::styled(label, theme.style(Role::Text)),
    ])
}

//! The status bar: mode or message on the left, key hints from the keymap on the right. When
//! the bar is too narrow, hints are dropped from the right (`…` marks the gap; help and quit
//! stay), then the message is cut with `…`.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use replaylens::text::escape_controls_single_line;
use unicode_width::UnicodeWidthStr;

use super::loading::spinner;
use crate::tui::app::{App, Pane};
use crate::tui::keymap::Hint;
use crate::tui::overlay::popup::fit_spans;
use crate::tui::theme::{Role, Theme};

/// Draw the status bar.
pub fn draw(app: &App, frame: &mut Frame<'_>, area: Rect) {
    let t = &app.theme;
    let bar = t.style(Role::StatusBar);
    let left = match app.mode.overlay().and_then(|o| o.status_line()) {
        Some(line) => line,
        None => {
            let pos = if app.view.is_empty() {
                "0/0".to_owned()
            } else {
                format!("{}/{}", app.selected + 1, app.view.len())
            };
            let pane = if app.focus == Pane::Detail { " detail" } else { "" };
            let pending = app.insp.as_ref().is_some_and(|i| i.pending);
            let preview = app.insp.as_ref().is_some_and(|i| i.preview);
            match (&app.loading, &app.status) {
                (Some(l), _) if preview => {
                    let secs = l.started.elapsed().as_secs_f32();
                    format!(
                        "{pos}{pane}  {} reading {} · the first messages, in file order; the active branch follows",
                        spinner(secs),
                        read_so_far(l.read, l.total)
                    )
                }
                (Some(l), _) if pending => {
                    let secs = l.started.elapsed().as_secs_f32();
                    format!("{pos}{pane}  {} computing the projection… {secs:.1}s", spinner(secs))
                }
                (_, status) => match status {
                    Some(s) => format!("{pos}{pane}  {s}"),
                    None => format!("{pos}{pane}"),
                },
            }
        }
    };
    let left = format!(" {} ", escape_controls_single_line(&left));
    let line = Line::from(bar_spans(&left, &app.keymap.hints(), usize::from(area.width), t));
    frame.render_widget(Paragraph::new(line).style(bar), area);
}

/// The bar's spans in `width` columns: the message, padding, then as many hints as fit.
fn bar_spans(left: &str, hints: &[Hint], width: usize, t: &Theme) -> Vec<Span<'static>> {
    let bar = t.style(Role::StatusBar);
    let key = t.style(Role::HintKey);
    let hint_spans = |h: &Hint| {
        [
            Span::styled(format!(" {}", h.key), key),
            Span::styled(format!(" {} ", h.word), bar),
        ]
    };
    let hint_w = |h: &Hint| h.key.width() + h.word.width() + 3;
    let kept_w: usize = hints.iter().filter(|h| h.keep).map(hint_w).sum();
    let all_w: usize = hints.iter().map(hint_w).sum();
    let left_w = left.width();
    let mut shown: Vec<&Hint> = hints.iter().collect();
    let mut gap = false;
    if left_w + all_w > width {
        // Drop hints from the right (keeping help and quit), leaving room for the `…` mark.
        gap = true;
        let mut room = width.saturating_sub(left_w + kept_w + GAP.width());
        shown = hints
            .iter()
            .filter(|h| {
                if h.keep {
                    return true;
                }
                let w = hint_w(h);
                let fits = w <= room;
                room = if fits { room - w } else { 0 };
                fits
            })
            .collect();
    }
    let mut right: Vec<Span<'static>> = Vec::new();
    for h in &shown {
        if gap && h.keep && !right.iter().any(|s: &Span<'_>| s.content == GAP) {
            right.push(Span::styled(GAP, bar));
        }
        right.extend(hint_spans(h));
    }
    let mut right_w: usize = right.iter().map(Span::width).sum();
    if right_w > width {
        right.clear();
        right_w = 0;
    }
    let room = width - right_w;
    let mut spans = fit_spans(vec![Span::styled(left.to_owned(), bar)], room);
    let used: usize = spans.iter().map(Span::width).sum();
    spans.push(Span::styled(" ".repeat(room.saturating_sub(used)), bar));
    spans.extend(right);
    spans
}

/// How much of the file is read: `37% (37.0 of 100.1 MB)`.
fn read_so_far(read: u64, total: u64) -> String {
    if total == 0 {
        return "…".to_owned();
    }
    let mb = |n: u64| n as f64 / 1e6;
    let pct = (read.min(total) * 100) / total;
    format!("{pct}% ({:.1} of {:.1} MB)", mb(read), mb(total))
}

/// Marks hints dropped for lack of room.
const GAP: &str = " …";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::keymap::Keymap;

    fn shown(left: &str, width: usize) -> String {
        let spans = bar_spans(left, &Keymap::default().hints(), width, &Theme::plain());
        let text: String = spans.iter().map(|s| s.content.as_ref()).collect();
        assert!(text.width() <= width, "{text:?} is wider than {width}");
        text
    }

    #[test]
    fn every_hint_fits_a_wide_bar() {
        let s = shown(" 1/30 ", 130);
        for hint in [
            "] rewrite",
            "Tab pane",
            "d detail",
            "s rules",
            "e export",
            "/ search",
            "o open",
            "q quit",
        ] {
            assert!(s.contains(hint), "{hint} missing: {s}");
        }
        assert!(!s.contains('…'), "{s}");
    }

    #[test]
    fn a_narrow_bar_drops_hints_from_the_right_and_keeps_help_and_quit() {
        let s = shown(" 1/30 ", 80);
        assert!(s.contains("] rewrite") && s.contains(" … ? help  q quit"), "{s}");
        assert!(!s.contains("f filter"), "{s}");
        let long = format!(" 1/30  {} ", "a long message ".repeat(10));
        let s = shown(&long, 60);
        assert!(s.ends_with("? help  q quit ") && s.contains('…'), "{s}");
        assert!(s.starts_with(" 1/30  a long"), "{s}");
        let tiny = shown(" 1/30 ", 12);
        assert!(!tiny.contains("quit"), "{tiny}");
    }

    #[test]
    fn the_read_progress_names_percent_and_megabytes() {
        assert_eq!(read_so_far(37_000_000, 100_100_000), "36% (37.0 of 100.1 MB)");
        assert_eq!(read_so_far(5, 0), "…");
    }
}

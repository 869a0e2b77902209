//! The detail pane for the selected row: each rewrite touching it (rule id, action, detail,
//! the rule's summary and explanation), then the raw JSON of both sides, side by side.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use replaylens::model::Origin;
use replaylens::text::{escape_controls, escape_controls_single_line};
use unicode_width::UnicodeWidthStr;

use super::json::{fold_map, highlight, pretty_folded, syntax_theme};
use crate::tui::app::{App, DetailView, Pane};
use crate::tui::inspection::Inspection;
use crate::tui::theme::Role;

/// Draw the detail pane.
pub fn draw(app: &App, insp: &Inspection, frame: &mut Frame<'_>, area: Rect) {
    let t = &app.theme;
    let border = if app.focus == Pane::Detail {
        Role::BorderFocus
    } else {
        Role::Border
    };
    let title = match app.detail_view {
        DetailView::Rewrites => " detail ",
        DetailView::Payload => " wire payload (w: rewrites) ",
    };
    let block = Block::default()
        .borders(Borders::TOP)
        .border_style(t.style(border))
        .title(Span::styled(title, t.style(Role::Title)));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if app.detail_view == DetailView::Payload {
        super::payload::draw(app, insp, frame, inner);
        return;
    }
    let Some(row) = app.selected_row() else { return };

    let mut text: Vec<Line<'static>> = Vec::new();
    if row.rewrites.is_empty() {
        text.push(Line::from(Span::styled(
            "no rewrite touches this row",
            t.style(Role::Placeholder),
        )));
    }
    for &i in &row.rewrites {
        let Some(r) = insp.rewrites.get(i) else { continue };
        text.push(Line::from(vec![
            Span::styled(format!("‹{}›", r.rule), t.style(Role::RuleTag)),
            Span::styled(format!(" {} ", r.action_label()), t.style(Role::Modified)),
            Span::styled(escape_controls_single_line(&r.detail).into_owned(), t.style(Role::Text)),
        ]));
        match (app.rules)(r.rule) {
            Some(info) => {
                text.push(Line::from(vec![
                    Span::styled("  ", t.style(Role::Text)),
                    Span::styled(info.summary.to_owned(), t.style(Role::Header)),
                    Span::styled(format!("  ({})", info.reference), t.style(Role::Muted)),
                ]));
                for l in escape_controls(info.explanation).lines() {
                    text.push(Line::from(Span::styled(format!("  {l}"), t.style(Role::Muted))));
                }
            }
            None => text.push(Line::from(Span::styled(
                "  (this build has no description of this rule)",
                t.style(Role::Placeholder),
            ))),
        }
    }
    let rewrites_h = u16::try_from(text.len()).unwrap_or(u16::MAX);
    let scroll = app.detail_scroll;
    let para = Paragraph::new(text).wrap(Wrap { trim: false }).scroll((scroll, 0));
    let top_h = rewrites_h
        .saturating_sub(scroll)
        .min(inner.height / 2)
        .max(1)
        .min(inner.height);
    frame.render_widget(para, Rect::new(inner.x, inner.y, inner.width, top_h));

    let json_area = Rect::new(inner.x, inner.y + top_h, inner.width, inner.height - top_h);
    if json_area.height == 0 {
        return;
    }
    let mut left: Vec<String> = Vec::new();
    for &s in &row.stored {
        if row.stored.len() > 1 {
            left.push(format!("// stored #{s}"));
        }
        if let Some(m) = insp.stored(s) {
            left.extend(pretty_folded(&fold_map(m.as_map())));
        }
    }
    let right: Vec<String> = row
        .replay
        .and_then(|j| insp.replayed(j))
        .map(|m| pretty_folded(&fold_map(m.as_map())))
        .unwrap_or_default();
    let half = usize::from(json_area.width.saturating_sub(3) / 2);
    let syntax = syntax_theme(t.syntax_theme.as_deref());
    let plain = t.style(Role::Text);
    let json_scroll = usize::from(scroll.saturating_sub(rewrites_h));
    let stored_title = match row.stored.first().and_then(|&s| insp.transcript.messages.get(s)) {
        Some(m) if m.origin == Origin::Mapped => match m.location {
            Some(at) => format!("stored JSON (mapped from {at})"),
            None => "stored JSON (mapped)".to_owned(),
        },
        _ => "stored JSON".to_owned(),
    };
    let mut lines = vec![Line::from(vec![
        Span::styled(format!("{:<half$}", fit(&stored_title, half)), t.style(Role::Title)),
        Span::styled(" │ ", t.style(Role::Border)),
        Span::styled("replay JSON", t.style(Role::Title)),
    ])];
    let n = left.len().max(right.len());
    for i in (json_scroll..n).take(usize::from(json_area.height).saturating_sub(1)) {
        let mut spans = Vec::new();
        let l = left.get(i).map_or("", String::as_str);
        let l = fit(l, half);
        let pad = half.saturating_sub(l.width());
        spans.extend(highlight(&l, syntax, plain).spans);
        spans.push(Span::styled(" ".repeat(pad), plain));
        spans.push(Span::styled(" │ ", t.style(Role::Border)));
        let r = fit(right.get(i).map_or("", String::as_str), half);
        spans.extend(highlight(&r, syntax, plain).spans);
        lines.push(Line::from(spans));
    }
    frame.render_widget(Paragraph::new(lines), json_area);
}

/// Cut a line to `width` columns at a grapheme-cluster boundary, marking the cut.
fn fit(s: &str, width: usize) -> String {
    if s.width() <= width {
        return s.to_owned();
    }
    let mut out = String::new();
    let mut w = 0;
    for g in unicode_segmentation::UnicodeSegmentation::graphemes(s, true) {
        let gw = g.width();
        if w + gw + 1 > width {
            break;
        }
        out.push_str(g);
        w += gw;
    }
    out.push('…');
    out
}

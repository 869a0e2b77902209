//! The detail pane for the selected row: each rewrite touching it (rule id, action, detail,
//! the rule's summary and whole explanation, wrapped), then the raw JSON of both sides, side by
//! side.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use replaylens::model::Origin;
use replaylens::text::{escape_controls, escape_controls_single_line};
use unicode_width::UnicodeWidthStr;

use super::json::{fold_map, highlight, pretty_folded, syntax_theme};
use crate::tui::app::{App, DetailView, Pane, noun_for};
use crate::tui::describe::Seg;
use crate::tui::inspection::Inspection;
use crate::tui::rows::Row;
use crate::tui::theme::Role;
use crate::tui::wrap::wrap_segs;

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

    let text = rewrite_lines(app, insp, row, usize::from(inner.width));
    let rewrites_h = u16::try_from(text.len()).unwrap_or(u16::MAX);
    let scroll = app.detail_scroll;
    // The rewrites take what they need: up to two thirds of the pane, so the JSON comparison
    // stays in view, or the whole pane once it is focused (and scrolls); the JSON gets the rest.
    let cap = if app.focus == Pane::Detail {
        inner.height
    } else {
        (inner.height * 2 / 3).max(1)
    };
    let top_h = rewrites_h.saturating_sub(scroll).min(cap);
    let mut shown: Vec<Line<'static>> = text.into_iter().skip(usize::from(scroll)).collect();
    let left = shown.len().saturating_sub(usize::from(top_h));
    if left > 0 {
        // More than the pane holds: the last line says so, and how to read on.
        shown.truncate(usize::from(top_h.saturating_sub(1)));
        let how = if app.focus == Pane::Detail {
            "↓ scrolls"
        } else {
            "Tab, then ↓ scrolls"
        };
        shown.push(Line::from(Span::styled(
            format!("… {} more {} ({how})", left + 1, noun_for(left + 1, "line")),
            t.style(Role::Placeholder),
        )));
    }
    frame.render_widget(Paragraph::new(shown), Rect::new(inner.x, inner.y, inner.width, top_h));

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

/// The rewrites touching a row, each with its rule's summary, reference and whole
/// explanation, wrapped to `width` columns.
fn rewrite_lines(app: &App, insp: &Inspection, row: &Row, width: usize) -> Vec<Line<'static>> {
    let t = &app.theme;
    // Each entry: the style of its indent, if indented (wrapped lines keep the indent), and
    // its segments.
    let mut text: Vec<(Option<Role>, Vec<Seg>)> = Vec::new();
    // What the provider would reject on this row comes first: `x` lands here.
    let findings: Vec<_> = row
        .replay
        .map(|j| insp.wire.findings_for(j).collect())
        .unwrap_or_default();
    for f in &findings {
        text.push((
            None,
            vec![
                Seg::new("✗ ", Role::Error),
                Seg::new(f.constraint, Role::Error),
                Seg::new(format!(" ({})", escape_controls_single_line(&f.path)), Role::Muted),
            ],
        ));
        text.push((
            Some(Role::Text),
            vec![Seg::new(
                escape_controls_single_line(&f.message).into_owned(),
                Role::Text,
            )],
        ));
        text.push((Some(Role::Muted), vec![Seg::new(f.fix_note(), Role::Muted)]));
    }
    if row.rewrites.is_empty() && findings.is_empty() {
        text.push((None, vec![Seg::new("no rewrite touches this row", Role::Placeholder)]));
    } else if row.rewrites.is_empty() {
        text.push((
            None,
            vec![Seg::new(
                "no rewrite touches this row (w: its payload items)",
                Role::Placeholder,
            )],
        ));
    }
    for &i in &row.rewrites {
        let Some(r) = insp.rewrites.get(i) else { continue };
        text.push((
            None,
            vec![
                Seg::new(format!("‹{}›", r.rule), Role::RuleTag),
                Seg::new(format!(" {} ", r.action_label()), Role::Modified),
                Seg::new(escape_controls_single_line(&r.detail).into_owned(), Role::Text),
            ],
        ));
        match (app.rules)(r.rule) {
            Some(info) => {
                text.push((
                    Some(Role::Text),
                    vec![
                        Seg::new(info.summary, Role::Header),
                        Seg::new(format!("  ({})", info.reference), Role::Muted),
                    ],
                ));
                for l in escape_controls(info.explanation).lines() {
                    text.push((Some(Role::Muted), vec![Seg::new(l, Role::Muted)]));
                }
            }
            None => text.push((
                Some(Role::Placeholder),
                vec![Seg::new(
                    "(this build has no description of this rule)",
                    Role::Placeholder,
                )],
            )),
        }
    }
    let mut out = Vec::new();
    for (indent, segs) in text {
        let Some(indent) = indent else {
            out.extend(wrap_segs(&segs, width, t));
            continue;
        };
        for mut line in wrap_segs(&segs, width.saturating_sub(INDENT.len()).max(1), t) {
            line.spans.insert(0, Span::styled(INDENT, t.style(indent)));
            out.push(line);
        }
    }
    out
}

/// The indent of a rule's summary and explanation under its rewrite.
const INDENT: &str = "  ";

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

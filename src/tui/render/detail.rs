//! The detail pane for the selected row: each rewrite touching it (rule id, action, detail,
//! the rule's summary and whole explanation, wrapped), then the structural diff of both sides'
//! JSON.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use replaylens::text::{escape_controls, escape_controls_single_line};
use replaylens::wire::WireStage;

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
    let title = match (app.detail_view, app.findings_stage) {
        (DetailView::Rewrites, WireStage::Replay) => " detail ",
        (DetailView::Rewrites, WireStage::Stored) => " detail · findings before hygiene (b: replay) ",
        (DetailView::Payload, _) => " wire payload (w: rewrites) ",
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
    // The structural diff of the row's JSON, scrolled with the pane.
    let json_scroll = usize::from(scroll.saturating_sub(rewrites_h));
    let lines: Vec<Line<'static>> = super::row_diff::lines(insp, row, usize::from(json_area.width), t)
        .into_iter()
        .skip(json_scroll)
        .take(usize::from(json_area.height))
        .collect();
    frame.render_widget(Paragraph::new(lines), json_area);
}

/// The rewrites touching a row, each with its rule's summary, reference and whole
/// explanation, wrapped to `width` columns.
/// How many lines the focused detail pane can scroll through (its rewrites, or the wire
/// payload unwrapped), for `G`/`End`.
pub fn scroll_extent(app: &App) -> usize {
    let Some(insp) = &app.insp else { return 0 };
    let width = usize::from(app.areas().detail.width.saturating_sub(2));
    match (app.detail_view, app.selected_row()) {
        (DetailView::Payload, _) => super::payload::lines(app, insp).len(),
        (DetailView::Rewrites, Some(row)) => rewrite_lines(app, insp, row, width).len(),
        (DetailView::Rewrites, None) => 0,
    }
}

fn rewrite_lines(app: &App, insp: &Inspection, row: &Row, width: usize) -> Vec<Line<'static>> {
    let t = &app.theme;
    // Each entry: the style of its indent, if indented (wrapped lines keep the indent), and
    // its segments.
    let mut text: Vec<(Option<Role>, Vec<Seg>)> = Vec::new();
    // What the provider would reject on this row comes first: `x` lands here. With `b`, what
    // it rejected before hygiene (the stored payload) and the rule that fixes it.
    let stage = app.findings_stage;
    let findings = insp.wire.findings_on(stage, row.replay, &row.stored);
    if stage == WireStage::Stored {
        let what = if findings.is_empty() {
            "no finding on the stored payload for this row (b: back to the replay)"
        } else {
            "the stored payload, before hygiene, would be rejected here:"
        };
        text.push((None, vec![Seg::new(what, Role::Header)]));
    }
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
    if row.rewrites.is_empty() && findings.is_empty() && stage == WireStage::Replay {
        text.push((None, vec![Seg::new("no rewrite touches this row", Role::Placeholder)]));
    } else if row.rewrites.is_empty() && stage == WireStage::Replay {
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

//! The detail pane's payload view: the selected row's items of the wire payload, highlighted,
//! under the provider lint findings that point at them.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use replaylens::text::escape_controls_single_line;

use super::json::{fold, highlight, pretty_folded, syntax_theme};
use crate::tui::app::App;
use crate::tui::inspection::Inspection;
use crate::tui::theme::Role;

/// The lines of the payload view for the selected row (before scrolling).
pub fn lines(app: &App, insp: &Inspection) -> Vec<Line<'static>> {
    let t = &app.theme;
    let wire = &insp.wire;
    let muted = |s: String| Line::from(Span::styled(s, t.style(Role::Placeholder)));
    if wire.pending {
        return vec![muted(
            "building the payload and checking it against the provider's constraints…".to_string(),
        )];
    }
    let Some(api) = wire.api else {
        let why = wire.unsupported.clone().unwrap_or_else(|| "no payload yet".to_string());
        return vec![muted(escape_controls_single_line(&why).into_owned())];
    };
    let Some(row) = app.selected_row() else {
        return Vec::new();
    };
    let Some(replay) = row.replay else {
        return vec![muted(
            "this stored message is not in the replay, so it is not in the payload".to_string(),
        )];
    };
    let mut out = Vec::new();
    for f in wire.findings_for(replay) {
        out.push(Line::from(vec![
            Span::styled("✗ ", t.style(Role::Error)),
            Span::styled(f.constraint.to_string(), t.style(Role::RuleTag)),
            Span::styled(
                format!("  {}", escape_controls_single_line(&f.path)),
                t.style(Role::Muted),
            ),
        ]));
        out.push(Line::from(Span::styled(
            format!("  {}", escape_controls_single_line(&f.message)),
            t.style(Role::Text),
        )));
        let fix = format!("  {}", f.fix_note());
        out.push(Line::from(Span::styled(fix, t.style(Role::Muted))));
    }
    let items = wire.items_of_replay.get(replay).map(Vec::as_slice).unwrap_or_default();
    if items.is_empty() {
        out.push(muted(format!(
            "replay #{replay} adds no item of its own to the {} payload",
            api.id()
        )));
    }
    let syntax = syntax_theme(t.syntax_theme.as_deref());
    let plain = t.style(Role::Text);
    let key = api.conversation_key();
    for &n in items {
        let Some(item) = wire.items.get(n) else { continue };
        let shared = if item.source.len() > 1 {
            let from = replaylens::text::index_list(&item.source, "#");
            format!("  (merged from replay {from})")
        } else {
            String::new()
        };
        // The provider counts the system prompt OpenClaw sends first (OpenAI Chat, Mistral).
        let provider_n = n + api.system_messages();
        let counted = if provider_n == n {
            String::new()
        } else {
            format!("  (the provider's {key}[{provider_n}]: the system prompt comes first)")
        };
        out.push(Line::from(Span::styled(
            format!("{key}[{n}]{shared}{counted}"),
            t.style(Role::Title),
        )));
        for l in pretty_folded(&fold(&item.value)) {
            out.push(highlight(&l, syntax, plain));
        }
    }
    out
}

/// Draw the payload view into the detail pane's inner area.
pub fn draw(app: &App, insp: &Inspection, frame: &mut Frame<'_>, area: Rect) {
    let para = Paragraph::new(lines(app, insp))
        .wrap(Wrap { trim: false })
        .scroll((app.detail_scroll, 0));
    frame.render_widget(para, area);
}

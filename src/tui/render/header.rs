//! The two header lines: session and target; counts and rewrites per rule.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use replaylens::text::escape_controls_single_line;

use crate::tui::app::App;
use crate::tui::inspection::Inspection;
use crate::tui::search::Filter;
use crate::tui::theme::Role;

/// Draw the header.
pub fn draw(app: &App, insp: &Inspection, frame: &mut Frame<'_>, area: Rect) {
    let t = &app.theme;
    let key = |s: &str| Span::styled(s.to_owned(), t.style(Role::HeaderKey));
    let val = |s: String| Span::styled(escape_controls_single_line(&s).into_owned(), t.style(Role::Header));
    let target = &insp.resolved.target;
    let first = Line::from(vec![
        Span::styled("replaylens ", t.style(Role::Title)),
        val(insp.session.id.clone()),
        key("  "),
        val(insp.session.format.clone()),
        key("  target "),
        val(format!(
            "{} / {} / {}",
            target.provider_str(),
            target.api_str(),
            target.model_str()
        )),
    ]);
    let mut second = vec![
        key("openclaw "),
        val(insp.options.rule_set.name.to_owned()),
        key(" · family "),
        val(insp.resolved.family.id().to_owned()),
        key(" · stored "),
        val(insp.stored_len().to_string()),
        key(" → replay "),
    ];
    if insp.pending {
        second.push(key("… (computing)"));
    } else {
        second.extend([
            val(insp.replay.len().to_string()),
            key(" · "),
            val(format!("{} rewrites", insp.rewrites.len())),
            key(" · "),
        ]);
        let wire = &insp.wire;
        let (text, role) = match wire.findings.len() {
            _ if wire.pending => ("payload …".to_string(), Role::Muted),
            _ if wire.api.is_none() => ("no payload".to_string(), Role::Muted),
            0 => ("payload accepted".to_string(), Role::Header),
            n => (format!("payload would be rejected ({n}, x)"), Role::Error),
        };
        second.push(Span::styled(text, t.style(role)));
    }
    let notes = insp.load_notes;
    let problems = insp.load_problems.len().saturating_sub(notes);
    if problems + notes > 0 {
        let text = match (problems, notes) {
            (p, 0) => format!("⚠ {p} load problems (!)"),
            (0, 1) => "1 load note (!)".to_owned(),
            (0, n) => format!("{n} load notes (!)"),
            (p, n) => format!("⚠ {p} load problems, {n} notes (!)"),
        };
        let role = if problems > 0 { Role::Error } else { Role::Muted };
        second.push(key(" · "));
        second.push(Span::styled(text, t.style(role)));
    }
    if app.filter != Filter::All {
        second.push(key(" · filter "));
        second.push(Span::styled(app.filter.label(), t.style(Role::Modified)));
    }
    for (rule, n) in insp.counts_by_rule() {
        second.push(key(" "));
        second.push(Span::styled(format!("{rule}×{n}"), t.style(Role::RuleTag)));
    }
    frame.render_widget(Paragraph::new(vec![first, Line::from(second)]), area);
}

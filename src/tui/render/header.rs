//! The two header lines: session and target; counts and rewrites per rule. A line that does
//! not fit ends with `…`.
//!
//! When some parts of the target were given and others were not, each part not given carries
//! a mark: `*` for the requested provider's default, `°` for a part inherited from the session;
//! a short legend follows. A missing part shows as `?`.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use replaylens::policy::PartOrigin;
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
    let mut first = vec![
        Span::styled("replaylens ", t.style(Role::Title)),
        val(insp.session.id.clone()),
        key("  "),
        val(insp.session.format.clone()),
        key("  target "),
        val(target_text(insp)),
    ];
    for w in &insp.target_origin.warnings {
        first.push(Span::styled(
            format!("  ⚠ {}", escape_controls_single_line(w)),
            t.style(Role::Error),
        ));
    }
    if let Some(legend) = legend(insp) {
        first.push(Span::styled(format!("  {legend}"), t.style(Role::Muted)));
    }
    let mut second = vec![
        key("openclaw "),
        val(insp.options.rule_set.name.to_owned()),
        key(" · family "),
        val(insp.resolved.family.id().to_owned()),
        key(" · stored "),
        val(insp.stored_len().to_string()),
        key(" → replay "),
    ];
    if insp.preview {
        second.push(key("… (reading the file)"));
    } else if insp.pending {
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
    let width = usize::from(area.width);
    frame.render_widget(Paragraph::new(vec![fit(first, width), fit(second, width)]), area);
}

/// The mark of a part not given, when some part was given.
fn mark(insp: &Inspection, origin: PartOrigin) -> &'static str {
    match origin {
        _ if !insp.target_origin.is_mixed() => "",
        PartOrigin::ProviderDefault => "*",
        PartOrigin::Session => "°",
        PartOrigin::Given | PartOrigin::Missing => "",
    }
}

/// `provider / api / model`, each part marked with its origin, `?` when missing.
fn target_text(insp: &Inspection) -> String {
    let (target, origin) = (&insp.resolved.target, &insp.target_origin);
    let part = |value: &Option<String>, o: PartOrigin| format!("{}{}", value.as_deref().unwrap_or("?"), mark(insp, o));
    format!(
        "{} / {} / {}",
        part(&target.provider, origin.provider),
        part(&target.api, origin.api),
        part(&target.model, origin.model)
    )
}

/// What the marks used mean: `*mistral default`, `°session`.
fn legend(insp: &Inspection) -> Option<String> {
    let o = &insp.target_origin;
    let used = |origin: PartOrigin| {
        [o.provider, o.api, o.model]
            .iter()
            .any(|&p| p == origin && !mark(insp, p).is_empty())
    };
    let mut parts = Vec::new();
    if used(PartOrigin::ProviderDefault) {
        let provider = escape_controls_single_line(insp.resolved.target.provider_str());
        parts.push(format!("*{provider} default"));
    }
    if used(PartOrigin::Session) {
        parts.push("°session".to_owned());
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// The spans cut to `width` columns at a grapheme boundary, ending with `…` when they do not
/// fit.
fn fit(spans: Vec<Span<'static>>, width: usize) -> Line<'static> {
    Line::from(super::overlays::fit_spans(spans, width))
}

//! The two header lines: session, target and configuration; counts and rewrites per rule. A line that does
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
use replaylens::policy::config::OpenClawConfig;
use replaylens::text::escape_controls_single_line;
use unicode_width::UnicodeWidthStr;

use crate::tui::app::App;
use crate::tui::inspection::Inspection;
use crate::tui::search::Filter;
use crate::tui::theme::Role;

/// One part of a header line and how readily it gives way: parts with a higher `rank` are
/// left out first when the line does not fit.
struct Part {
    rank: u8,
    spans: Vec<Span<'static>>,
}

/// The ranks, most important first (issue 30: verdict, target, rule set, counts, load
/// problems; the session id last; the per-rule tally is cut rather than kept whole).
const VERDICT: u8 = 0;
const TARGET: u8 = 1;
const RULE_SET: u8 = 2;
const COUNTS: u8 = 3;
const LOAD_PROBLEMS: u8 = 4;
const SESSION: u8 = 5;
const FAMILY: u8 = 6;
const PER_RULE: u8 = 7;

/// Draw the header.
pub fn draw(app: &App, insp: &Inspection, frame: &mut Frame<'_>, area: Rect) {
    let t = &app.theme;
    let key = |s: &str| Span::styled(s.to_owned(), t.style(Role::HeaderKey));
    let val = |s: String| Span::styled(escape_controls_single_line(&s).into_owned(), t.style(Role::Header));
    let mut target = vec![key("target "), val(target_text(insp))];
    for w in &insp.target_origin.warnings {
        target.push(Span::styled(
            format!("  ⚠ {}", escape_controls_single_line(w)),
            t.style(Role::Error),
        ));
    }
    if let Some(legend) = legend(insp) {
        target.push(Span::styled(format!("  {legend}"), t.style(Role::Muted)));
    }
    let mut first = vec![
        Part {
            rank: SESSION,
            spans: vec![
                Span::styled(
                    escape_controls_single_line(&insp.session.id).into_owned(),
                    t.style(Role::Title),
                ),
                key("  "),
                val(insp.session.format.clone()),
            ],
        },
        Part {
            rank: TARGET,
            spans: target,
        },
    ];
    // The configuration replayed under: its path, never its content, or "no configuration"
    // (as the exports name it), so that a replay without one says so.
    first.push(Part {
        rank: FAMILY,
        spans: vec![
            key("config "),
            val(OpenClawConfig::describe(insp.options.config.as_deref())),
        ],
    });
    let wire = &insp.wire;
    let (verdict, role) = match wire.findings.len() {
        // Another load (a profile or rule-set switch) is running: what is shown is the old
        // projection, and the header says so at once.
        _ if app.reprojecting.is_some() => ("⟳ re-projecting…".to_owned(), Role::Modified),
        _ if app.loading.is_some() => (
            format!("⟳ {}…", app.loading.as_ref().map_or("loading", |l| l.stage.as_str())),
            Role::Modified,
        ),
        _ if insp.preview => ("reading the file…".to_owned(), Role::Muted),
        _ if insp.pending => ("computing the projection…".to_owned(), Role::Muted),
        // OpenClaw sends nothing, whatever the payload's lint would say.
        _ if insp.resolved.no_route.is_some() => ("⊘ OpenClaw has no route for this target".to_owned(), Role::Error),
        _ if insp.refusal.is_some() => ("⊘ OpenClaw refuses to send this".to_owned(), Role::Error),
        _ if wire.pending => ("payload …".to_owned(), Role::Muted),
        _ if wire.api.is_none() => ("no payload".to_owned(), Role::Muted),
        0 if insp.replay.is_empty() => ("nothing to send".to_owned(), Role::Muted),
        0 => ("✓ payload accepted".to_owned(), Role::Header),
        n => (format!("✗ payload would be rejected ({n}, x)"), Role::Error),
    };
    let mut second = vec![
        Part {
            rank: VERDICT,
            spans: vec![Span::styled(verdict, t.style(role))],
        },
        Part {
            rank: RULE_SET,
            spans: vec![key("openclaw "), val(insp.options.rule_set.name.to_owned())],
        },
    ];
    // An export running on its own thread: a busy mark with its progress, right after the
    // verdict (the verdict stays: the export does not change it).
    // Live follow: `● live`, or what happened to the file instead of a stale view passing for
    // a live one (`● live: file deleted`), kept at every width.
    if let Some(live) = &app.live {
        let part = match live.event() {
            None => Part {
                rank: RULE_SET,
                spans: vec![Span::styled("● live".to_owned(), t.style(Role::Muted))],
            },
            Some(event) => Part {
                rank: VERDICT,
                spans: vec![Span::styled(
                    format!("● live: {}", escape_controls_single_line(event)),
                    t.style(Role::Modified),
                )],
            },
        };
        second.insert(1, part);
    }
    if let Some((left, of, checks)) = app.reducing {
        second.insert(
            1,
            Part {
                rank: VERDICT,
                spans: vec![Span::styled(
                    format!("⟳ reduce {left}/{of} ({checks} checks)"),
                    t.style(Role::Modified),
                )],
            },
        );
    }
    if let Some(stage) = app.exporting {
        second.insert(
            1,
            Part {
                rank: VERDICT,
                spans: vec![Span::styled(
                    format!("⟳ export {}", stage.describe()),
                    t.style(Role::Modified),
                )],
            },
        );
    }
    let mut counts = vec![key("stored "), val(insp.stored_len().to_string())];
    if !insp.preview && !insp.pending {
        counts.extend([
            key(" → replay "),
            val(insp.replay.len().to_string()),
            key(", "),
            val(plural(insp.rewrites.len(), "rewrite")),
        ]);
    }
    second.push(Part {
        rank: COUNTS,
        spans: counts,
    });
    let notes = insp.load_notes;
    let problems = insp.load_problems.len().saturating_sub(notes);
    if problems + notes > 0 {
        let text = match (problems, notes) {
            (p, 0) => format!("⚠ {} (!)", plural(p, "load problem")),
            (0, n) => format!("{} (!)", plural(n, "load note")),
            (p, n) => format!("⚠ {}, {} (!)", plural(p, "load problem"), plural(n, "note")),
        };
        let role = if problems > 0 { Role::Error } else { Role::Muted };
        second.push(Part {
            rank: LOAD_PROBLEMS,
            spans: vec![Span::styled(text, t.style(role))],
        });
    }
    if app.filter != Filter::All {
        second.push(Part {
            rank: COUNTS,
            spans: vec![
                key("filter "),
                Span::styled(app.filter.label(), t.style(Role::Modified)),
            ],
        });
    }
    second.push(Part {
        rank: FAMILY,
        spans: vec![key("family "), val(insp.resolved.family.id().to_owned())],
    });
    let mut per_rule = Vec::new();
    for (rule, n) in insp.counts_by_rule() {
        if !per_rule.is_empty() {
            per_rule.push(key(" "));
        }
        per_rule.push(Span::styled(format!("{rule}×{n}"), t.style(Role::RuleTag)));
    }
    if !per_rule.is_empty() {
        second.push(Part {
            rank: PER_RULE,
            spans: per_rule,
        });
    }
    let width = usize::from(area.width);
    let lines = vec![
        fit_parts(first, "  ", width, t.style(Role::HeaderKey)),
        fit_parts(second, " · ", width, t.style(Role::HeaderKey)),
    ];
    frame.render_widget(Paragraph::new(lines), area);
}

/// `1 rewrite`, `3 rewrites`.
fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The parts joined by `separator`. While the line is too wide without the per-rule tally,
/// the most readily given-up part is left out; the tally (always last) is cut with `…`, and so
/// is whatever still does not fit.
fn fit_parts(mut parts: Vec<Part>, separator: &str, width: usize, style: ratatui::style::Style) -> Line<'static> {
    let joined = |parts: &[&Part]| -> Vec<Span<'static>> {
        let mut spans = Vec::new();
        for (i, p) in parts.iter().enumerate() {
            if i > 0 {
                spans.push(Span::styled(separator.to_owned(), style));
            }
            spans.extend(p.spans.iter().cloned());
        }
        spans
    };
    loop {
        let kept: Vec<&Part> = parts.iter().filter(|p| p.rank != PER_RULE).collect();
        if joined(&kept).iter().map(|s| s.content.width()).sum::<usize>() <= width {
            break;
        }
        // The line's most important part stays (cut if it must be).
        let first = parts.iter().map(|p| p.rank).min().unwrap_or(VERDICT);
        let Some((at, _)) = parts
            .iter()
            .enumerate()
            .filter(|(_, p)| p.rank != PER_RULE && p.rank != first)
            .max_by_key(|(i, p)| (p.rank, *i))
        else {
            break;
        };
        parts.remove(at);
    }
    fit(joined(&parts.iter().collect::<Vec<_>>()), width)
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
    Line::from(crate::tui::overlay::popup::fit_spans(spans, width))
}

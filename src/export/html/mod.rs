//! Self-contained HTML export: one file, inline CSS, no script, no network, every transcript
//! string escaped. The verdict and the command that reproduces the report come first, then
//! each change as a diff of its changed paths (side by side on wide screens) with its rules
//! and reasons, the provider lint, the session, and the rules' explanations; an index by
//! rule and by message sits in a sidebar (wide screens) or a header (narrow ones). Light and
//! dark themes follow the system; printing drops the index and backgrounds and opens what
//! is folded.

mod budget;
mod css;
mod diff;
mod nav;
mod out;
mod rows;

use std::fmt::Write;

use html_escape::encode_text as esc;

use super::view::View;
use crate::alignment::json::thousands;

/// The Content-Security-Policy: inline styles and nothing else.
const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'";

/// Provider lint findings listed before the rest fold.
const LINT_ROWS: usize = 12;

/// Render a view as one self-contained HTML document: every message in range (`all_rows`;
/// unchanged ones folded) or only the changed ones with `context` unchanged ones around each,
/// terminal controls escaped as in [`crate::text::escape_controls`]. It is written to `dest`
/// piece by piece as it is rendered: the document (as large as both sides of every message)
/// is never held whole. A document over `max_chars` characters (0: no limit) is measured
/// first, then written cut to what fits, saying at its top and where the changes stop what
/// was left out and how to get it.
pub fn render_to(
    view: &View,
    all_rows: bool,
    context: usize,
    max_chars: usize,
    dest: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let plan = rows::Plan::new(view, all_rows, context);
    let (plan, cut) = if max_chars == 0 {
        (plan, None)
    } else {
        budget::fit(view, plan, context, max_chars)
    };
    let mut out = out::Out::new(dest);
    write_document(&mut out, view, &plan, cut.as_ref(), false);
    out.finish()
}

/// The whole document into `out`; with `mark_rows`, the lengths at each row boundary of the
/// Changes section ([`out::Out::start_marks`]).
fn write_document(
    out: &mut out::Out<'_>,
    view: &View,
    plan: &rows::Plan,
    cut: Option<&budget::Cut>,
    mark_rows: bool,
) -> Vec<usize> {
    let title = format!("replaylens: {}", view.session_id);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"color-scheme\" content=\"light dark\">\
         <title>{}</title><style>{}</style></head><body>\n<div class=\"page\">\n",
        esc(&title),
        css::STYLE
    );
    nav::index(out, view, plan, cut.is_some());
    let _ = writeln!(
        out,
        "<main>\n<header id=\"top\"><h1>replaylens export</h1><p class=\"sub\">session <code>{}</code> · {} · replaylens {}</p></header>",
        esc(&view.session_id),
        esc(view.format),
        esc(view.version)
    );
    let extra: Vec<_> = cut.map(budget::Cut::verdict_item).into_iter().collect();
    out.push_str(&super::verdict::html(view, &extra));
    if mark_rows {
        out.start_marks();
    }
    rows::Changes::new(view, plan).write(out);
    let marks = if mark_rows { out.take_marks() } else { Vec::new() };
    if let Some(cut) = cut {
        cut.write(out, view);
    }
    write_lint(out, view, cut.map(budget::Cut::lint_rows));
    out.row_done();
    write_session(out, view);
    nav::rules_section(out, view, plan);
    out.push_str("</main>\n</div>\n</body></html>\n");
    marks
}

/// The session card: what was replayed, how, and what was redacted.
fn write_session(out: &mut String, view: &View) {
    let hidden = view.hidden.sentence().map(|h| ("not in the stored transcript", h));
    let meta = [
        ("session", format!("{} ({})", view.session_id, view.format)),
        ("file", view.path.clone()),
        ("target", view.target_line()),
        ("configuration", view.configuration.clone()),
        ("family", format!("{} ({})", view.family.1, view.family.0)),
        ("OpenClaw rule set", view.openclaw.to_owned()),
        (
            "counts",
            format!(
                "stored {} → replay {}, {} rewrites",
                thousands(view.stored_len()),
                thousands(view.replay_len()),
                thousands(view.rewrites.len())
            ),
        ),
        ("redaction", view.redaction_line()),
        ("replaylens", view.version.to_owned()),
    ]
    .into_iter()
    .chain(hidden);
    out.push_str("<section id=\"session\" class=\"card\">\n<h2>Session</h2>\n<dl class=\"meta\">\n");
    for (k, v) in meta {
        let _ = writeln!(out, "<dt>{}</dt><dd>{}</dd>", esc(k), esc(&v));
    }
    let policy = serde_json::to_string_pretty(&view.policy).unwrap_or_default();
    let _ = writeln!(
        out,
        "</dl>\n<details class=\"policy\"><summary>Policy flags</summary><pre>{}</pre></details>\n</section>",
        esc(&policy)
    );
}

/// The provider lint section: the verdict per payload and one table row per finding, the
/// replay's first (at most `limit`, in a cut report).
fn write_lint(out: &mut out::Out<'_>, view: &View, limit: Option<usize>) {
    out.push_str("<section id=\"lint\">\n<h2>Provider lint</h2>\n");
    let Some(lint) = &view.lint else {
        out.push_str(
            "<p class=\"empty\">No payload: replaylens has no wire converter for this target's API.</p>\n</section>\n",
        );
        return;
    };
    let verdict = if lint.replay.is_empty() { "ok" } else { "bad" };
    let _ = writeln!(
        out,
        "<p><code>{}</code> payload: <strong class=\"{verdict}\">{}</strong> (stored transcript as is: {} findings; replay: {}).</p>",
        esc(lint.api),
        esc(lint.verdict),
        thousands(lint.stored.len()),
        thousands(lint.replay.len())
    );
    let findings: Vec<_> = lint.findings().collect();
    if findings.is_empty() {
        out.push_str("</section>\n");
        return;
    }
    let table = |out: &mut out::Out<'_>, findings: &[&crate::lint::Finding]| {
        out.push_str(
            "<table class=\"lint\"><colgroup><col class=\"c-stage\"><col class=\"c-where\"><col class=\"c-constraint\">\
             <col><col class=\"c-stored\"><col class=\"c-fix\"></colgroup>\n<thead><tr><th>payload</th><th>where</th>\
             <th>constraint</th><th>provider's error</th><th>stored</th><th>hygiene</th></tr></thead><tbody>\n",
        );
        for f in findings {
            let stored = crate::text::index_list(&f.stored, "s");
            let _ = writeln!(
                out,
                "<tr class=\"{}\"><td>{}</td><td><code>{}</code></td><td><span class=\"tag\">{}</span></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(f.stage.as_str()),
                esc(f.stage.as_str()),
                esc(&f.path),
                esc(f.constraint),
                esc(&f.message),
                esc(&stored),
                esc(&f.fix_note())
            );
            out.row_done();
        }
        out.push_str("</tbody></table>\n");
    };
    let listed = findings.len().min(limit.unwrap_or(usize::MAX));
    let shown = listed.min(LINT_ROWS);
    table(out, &findings[..shown]);
    if shown < listed {
        let _ = writeln!(
            out,
            "<details class=\"more-lint\"><summary>{} more findings</summary>",
            thousands(listed - shown)
        );
        table(out, &findings[shown..listed]);
        out.push_str("</details>\n");
    }
    if listed < findings.len() {
        let _ = writeln!(
            out,
            "<p class=\"gap\">… {} more findings left out for length: <code>replaylens lint --stage both</code> lists them all.</p>",
            thousands(findings.len() - listed)
        );
    }
    out.push_str("</section>\n");
}

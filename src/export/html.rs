//! Self-contained HTML export: inline CSS, no script, no network; side by side like the
//! inspector, every transcript string escaped.

use std::fmt::Write;

use html_escape::{encode_double_quoted_attribute as attr, encode_text as esc};
use similar::{ChangeTag, TextDiff};

use super::view::View;
use crate::diff::{Row, RowKind};
use crate::hygiene::rules;

const STYLE: &str = r#"
:root { --bg:#16181d; --fg:#d8dee9; --muted:#8a93a5; --removed:#4a1d24; --removed-fg:#ff9aa5; --added:#173a26;
  --added-fg:#8fe3a8; --modified:#3d3514; --modified-fg:#f3d97a; --tag:#2b3350; --tag-fg:#b7c4ff; --line:#2a2e38; }
body { background:var(--bg); color:var(--fg); font:14px/1.45 system-ui, sans-serif; margin:0 auto; padding:1.5rem; max-width:1600px; }
h1, h2 { font-weight:600; } a { color:var(--tag-fg); }
table.meta td { padding:.1rem .8rem .1rem 0; vertical-align:top; } table.meta td:first-child { color:var(--muted); }
table.rows { border-collapse:collapse; width:100%; table-layout:fixed; }
table.rows td, table.rows th { border-top:1px solid var(--line); padding:.35rem .5rem; vertical-align:top; }
td.gutter { width:2.2rem; text-align:center; font-weight:700; color:var(--muted); }
td.idx { width:4.5rem; color:var(--muted); font-family:ui-monospace, monospace; }
pre { margin:0; white-space:pre-wrap; word-break:break-word; font:12px/1.4 ui-monospace, monospace; }
tr.dropped td.stored, tr.movedFrom td.stored { background:var(--removed); }
tr.inserted td.replay, tr.moved td.replay { background:var(--added); }
tr.modified td.replay, tr.merged td.replay { background:var(--modified); }
del { background:var(--removed); color:var(--removed-fg); text-decoration:line-through; }
ins { background:var(--added); color:var(--added-fg); text-decoration:none; }
.tag { display:inline-block; background:var(--tag); color:var(--tag-fg); border-radius:3px; padding:0 .4rem; margin:.1rem .3rem .1rem 0;
  font:12px ui-monospace, monospace; }
.detail { color:var(--muted); font-size:12px; }
.empty { color:var(--muted); font-style:italic; }
pre.command { background:var(--line); padding:.5rem .7rem; border-radius:4px; }
"#;

/// The provider lint section: verdict and one table row per finding.
fn write_lint(out: &mut String, view: &View) {
    let _ = writeln!(out, "<h2 id=\"lint\">Provider lint</h2>");
    let Some(lint) = &view.lint else {
        let _ = writeln!(
            out,
            "<p class=\"empty\">No payload: replaylens has no wire converter for this target's API.</p>"
        );
        return;
    };
    let _ = writeln!(
        out,
        "<p><code>{}</code> payload: <strong>{}</strong> (stored transcript as is: {} findings; replay: {}).</p>",
        esc(lint.api),
        esc(lint.verdict),
        lint.stored.len(),
        lint.replay.len()
    );
    let findings: Vec<_> = lint.findings().collect();
    if findings.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "<table class=\"rows\"><thead><tr><th>payload</th><th>where</th><th>constraint</th><th>provider's error</th><th>stored</th><th>hygiene</th></tr></thead><tbody>"
    );
    for f in findings {
        let stored = f.stored.iter().map(|s| format!("s{s}")).collect::<Vec<_>>().join("+");
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td><code>{}</code></td><td><span class=\"tag\">{}</span></td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(f.stage.as_str()),
            esc(&f.path),
            esc(f.constraint),
            esc(&f.message),
            esc(&stored),
            esc(&f.fix_note())
        );
    }
    let _ = writeln!(out, "</tbody></table>");
}

/// Render a view as one self-contained HTML document.
pub fn render(view: &View, all_rows: bool, context: usize) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let title = format!("replaylens: {}", view.session_id);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head><body>\n",
        esc(&title)
    );
    let _ = writeln!(out, "<h1>replaylens export</h1>");
    out.push_str(&super::verdict::html(view));
    let _ = writeln!(out, "<table class=\"meta\">");
    let meta = [
        ("replaylens", view.version.to_owned()),
        ("OpenClaw rule set", view.openclaw.to_owned()),
        ("session", format!("{} ({})", view.session_id, view.format)),
        ("target", view.target_line()),
        ("family", format!("{} ({})", view.family.1, view.family.0)),
        (
            "counts",
            format!(
                "stored {} → replay {}, {} rewrites",
                view.stored.len(),
                view.replay.len(),
                view.rewrites.len()
            ),
        ),
        ("redaction", view.redaction_line()),
    ];
    for (k, v) in meta {
        let _ = writeln!(out, "<tr><td>{}</td><td>{}</td></tr>", esc(k), esc(&v));
    }
    let _ = writeln!(out, "</table>");
    let policy = serde_json::to_string_pretty(&view.policy).unwrap_or_default();
    let _ = writeln!(
        out,
        "<details><summary>Policy flags</summary><pre>{}</pre></details>",
        esc(&policy)
    );

    let _ = writeln!(out, "<h2 id=\"rules\">Rewrites by rule</h2>");
    let per_rule = view.per_rule();
    if per_rule.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"empty\">No rewrites: the replay equals the stored transcript.</p>"
        );
    }
    let selected = view.selected_rows(all_rows, context);
    // Anchors only to rewrites on the rows shown.
    let mut on_rows = vec![false; view.rewrites.len()];
    for &i in &selected {
        view.rows[i].rewrites.iter().for_each(|&k| on_rows[k] = true);
    }
    let _ = writeln!(out, "<ul class=\"toc\">");
    for (rule, n) in &per_rule {
        let info = rules::by_id(rule).map(|r| r.info());
        let _ = write!(
            out,
            "<li><span class=\"tag\" title=\"{}\">{}</span> {n} × {} <details><summary>why</summary><p>{}</p><p class=\"detail\">{}</p></details> ",
            attr(info.map_or("", |i| i.explanation)),
            esc(rule),
            esc(info.map_or("", |i| i.summary)),
            esc(info.map_or("", |i| i.explanation)),
            esc(info.map_or("", |i| i.reference)),
        );
        let anchors: Vec<String> = view
            .rewrites
            .iter()
            .enumerate()
            .filter(|(i, rw)| rw.rule == *rule && on_rows[*i])
            .map(|(i, _)| format!("<a href=\"#rw-{i}\">#{i}</a>"))
            .collect();
        let _ = writeln!(out, "{}</li>", anchors.join(" "));
    }
    let _ = writeln!(out, "</ul>");
    write_lint(&mut out, view);

    let _ = writeln!(
        out,
        "<h2>Stored ↔ replay</h2>\n<table class=\"rows\"><thead><tr><th></th><th>stored</th><th>stored message</th>\
         <th>replay</th><th>replayed message</th></tr></thead><tbody>"
    );
    for i in selected {
        write_row(&mut out, view, &view.rows[i]);
    }
    let _ = writeln!(out, "</tbody></table>\n</body></html>");
    out
}

fn kind_class(kind: RowKind) -> (&'static str, &'static str) {
    match kind {
        RowKind::Same => ("same", ""),
        RowKind::Modified => ("modified", "~"),
        RowKind::Dropped => ("dropped", "−"),
        RowKind::Inserted => ("inserted", "+"),
        RowKind::Merged => ("merged", "&amp;"),
        RowKind::Moved => ("moved", "&gt;"),
        RowKind::MovedFrom => ("movedFrom", "&lt;"),
    }
}

fn write_row(out: &mut String, view: &View, row: &Row) {
    let (class, marker) = kind_class(row.kind);
    let left_idx: Vec<String> = row.stored.iter().map(|s| format!("s{s}")).collect();
    let right_idx = row.replay.map_or_else(|| "—".to_owned(), |r| format!("r{r}"));
    let old = view.stored_text(row);
    let new = view.replay_text(row);
    let (left, right) = match row.kind {
        RowKind::Modified | RowKind::Merged => highlighted(&old, &new),
        RowKind::Dropped => (
            format!("<pre>{}</pre>", esc(&old)),
            "<p class=\"empty\">not sent</p>".to_owned(),
        ),
        RowKind::MovedFrom => {
            let to = row.moved_to.map_or_else(String::new, |r| format!(" as r{r}"));
            (
                format!("<pre>{}</pre>", esc(&old)),
                format!("<p class=\"empty\">moved: sent later{to}</p>"),
            )
        }
        RowKind::Inserted => (
            "<p class=\"empty\">synthesized</p>".to_owned(),
            format!("<pre>{}</pre>", esc(&new)),
        ),
        RowKind::Moved => (
            "<p class=\"empty\">stored later; moved here</p>".to_owned(),
            format!("<pre>{}</pre>", esc(&new)),
        ),
        RowKind::Same => (format!("<pre>{}</pre>", esc(&old)), format!("<pre>{}</pre>", esc(&new))),
    };
    let mut tags = String::new();
    for &i in &row.rewrites {
        let rw = &view.rewrites[i];
        let explanation = rules::by_id(rw.rule).map_or("", |r| r.info().explanation);
        let _ = write!(
            tags,
            "<div id=\"rw-{i}\"><span class=\"tag\" title=\"{}\">{}</span><span class=\"detail\">{}: {}</span></div>",
            attr(explanation),
            esc(rw.rule),
            esc(&rw.action_label()),
            esc(&rw.detail)
        );
    }
    let _ = writeln!(
        out,
        "<tr class=\"{class}\"><td class=\"gutter\">{marker}</td><td class=\"idx\">{}</td><td class=\"stored\">{left}</td>\
         <td class=\"idx\">{}</td><td class=\"replay\">{tags}{right}</td></tr>",
        esc(&left_idx.join("+")),
        esc(&right_idx)
    );
}

/// Line-level highlight: removed lines marked on the left, added lines on the right.
fn highlighted(old: &str, new: &str) -> (String, String) {
    let mut left = String::from("<pre>");
    let mut right = String::from("<pre>");
    for change in TextDiff::from_lines(old, new).iter_all_changes() {
        let text = esc(change.value()).into_owned();
        match change.tag() {
            ChangeTag::Equal => {
                left.push_str(&text);
                right.push_str(&text);
            }
            ChangeTag::Delete => {
                let _ = write!(left, "<del>{text}</del>");
            }
            ChangeTag::Insert => {
                let _ = write!(right, "<ins>{text}</ins>");
            }
        }
    }
    left.push_str("</pre>");
    right.push_str("</pre>");
    (left, right)
}

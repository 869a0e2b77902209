//! Finding one's way: the index (a sidebar on wide screens, a header on narrow ones) by
//! section, by rule and by changed message, and the Rules section at the end that every rule
//! tag links to.

use std::fmt::Write;

use html_escape::{encode_double_quoted_attribute as attr, encode_text as esc};

use super::out::Out;
use super::rows::{Plan, kind, row_label};
use crate::alignment::json::thousands;
use crate::export::markdown::syntax::rule_anchor;
use crate::export::view::View;
use crate::hygiene::registry;

/// The rows shown as cards that each rule touched, in rule order.
fn rows_by_rule(view: &View, plan: &Plan) -> Vec<(&'static str, usize, Vec<usize>)> {
    view.verdict
        .per_rule
        .iter()
        .map(|&(rule, n)| {
            let rows = plan
                .changes()
                .filter(|&i| view.rows[i].rewrites.iter().any(|&k| view.rewrites[k].rule == rule))
                .collect();
            (rule, n, rows)
        })
        .collect()
}

/// The index (`left_out`: the report was cut to its budget).
pub(super) fn index(out: &mut Out<'_>, view: &View, plan: &Plan, left_out: bool) {
    out.push_str(
        "<nav class=\"index\" aria-label=\"Index\">\n<p class=\"brand\"><a href=\"#top\">replaylens</a></p>\n\
         <ul class=\"sections\"><li><a href=\"#verdict\">Verdict</a></li><li><a href=\"#changes\">Changes</a></li>",
    );
    if left_out {
        out.push_str("<li><a href=\"#left-out\">Left out</a></li>");
    }
    out.push_str("<li><a href=\"#lint\">Provider lint</a></li><li><a href=\"#session\">Session</a></li>");
    if !view.verdict.per_rule.is_empty() {
        out.push_str("<li><a href=\"#rules\">Rules</a></li>");
    }
    out.push_str("</ul>\n");
    if !view.verdict.per_rule.is_empty() {
        out.push_str("<h2>By rule</h2>\n<ul class=\"by-rule\">\n");
        for (rule, n, _) in rows_by_rule(view, plan) {
            let summary = registry::by_id(rule).map_or("", |r| r.info().summary);
            let _ = writeln!(
                out,
                "<li><a href=\"#{}\" title=\"{}\"><code>{}</code> <span class=\"n\">{}</span></a></li>",
                rule_anchor(rule),
                attr(summary),
                esc(rule),
                thousands(n)
            );
        }
        out.push_str("</ul>\n");
    }
    let changes: Vec<usize> = plan.changes().collect();
    if !changes.is_empty() {
        let _ = writeln!(
            out,
            "<h2>By message <span class=\"n\">{}</span></h2>\n<ol class=\"by-msg\">",
            thousands(changes.len())
        );
        for i in changes {
            let row = &view.rows[i];
            let (class, marker, words) = kind(row.kind);
            let mut names: Vec<&str> = row.rewrites.iter().map(|&k| view.rewrites[k].rule).collect();
            names.dedup();
            let _ = writeln!(
                out,
                "<li><a href=\"#row-{i}\" class=\"k-{class}\" title=\"{words}: {}\"><span class=\"mk\">{}</span>{}</a></li>",
                attr(&names.join(", ")),
                esc(marker),
                esc(&row_label(row))
            );
            out.row_done();
        }
        out.push_str("</ol>\n");
    }
    out.push_str("</nav>\n");
}

/// The Rules section: every rule the replay used, once, with its explanation and the
/// messages it changed.
pub(super) fn rules_section(out: &mut Out<'_>, view: &View, plan: &Plan) {
    if view.verdict.per_rule.is_empty() {
        return;
    }
    out.push_str("<section id=\"rules\">\n<h2>Rules</h2>\n");
    for (rule, n, rows) in rows_by_rule(view, plan) {
        let _ = writeln!(
            out,
            "<section class=\"rule\" id=\"{}\">\n<h3><code>{}</code> <span class=\"n\">{} rewrite{}</span></h3>",
            rule_anchor(rule),
            esc(rule),
            thousands(n),
            if n == 1 { "" } else { "s" }
        );
        if let Some(info) = registry::by_id(rule).map(|r| r.info()) {
            let _ = writeln!(
                out,
                "<p class=\"summary\">{}</p>\n<p>{}</p>\n<p class=\"ref\">Applies to: {}. Reference: {}.</p>",
                esc(info.summary),
                esc(info.explanation),
                esc(info.families),
                esc(info.reference)
            );
        }
        if !rows.is_empty() {
            out.push_str("<p class=\"touched\">Changed here:");
            for &i in &rows {
                let _ = write!(out, " <a href=\"#row-{i}\">{}</a>", esc(&row_label(&view.rows[i])));
                out.row_done();
            }
            out.push_str("</p>\n");
        }
        out.push_str("</section>\n");
    }
    out.push_str("</section>\n");
}

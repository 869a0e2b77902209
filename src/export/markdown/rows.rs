//! One change of a Markdown report: a heading naming the stored and replay messages, the
//! rewrites with their rule (linked to the Rules appendix) and reason, and a `diff` block of
//! the changed paths only.

use std::fmt::Write;

use super::syntax::{code, fenced, inline, rule_link};
use crate::alignment::json::row::Heading;
use crate::alignment::json::thousands;
use crate::alignment::{Row, RowKind};
use crate::export::view::View;

/// Diff blocks longer than this many lines are folded in `<details>`.
const FOLD_LINES: usize = 40;

/// Longest rewrite detail shown, in characters.
const DETAIL_CHARS: usize = 600;

/// `s12`, `s22+s23`, `new`.
pub fn stored_label(indices: &[usize]) -> String {
    if indices.is_empty() {
        "new".into()
    } else {
        crate::text::index_list(indices, "s")
    }
}

fn kind_label(kind: RowKind) -> &'static str {
    match kind {
        RowKind::Same => "unchanged",
        RowKind::Modified => "modified",
        RowKind::Dropped => "dropped",
        RowKind::Inserted => "inserted",
        RowKind::Merged => "merged",
        RowKind::Moved => "moved here",
        RowKind::MovedFrom => "moved away",
    }
}

/// The Markdown of one row, ending with a blank line.
pub fn block(view: &View, row: &Row) -> String {
    let mut out = String::new();
    let right = row.replay.map_or_else(|| "—".to_owned(), |r| format!("r{r}"));
    let _ = writeln!(
        out,
        "### {} → {}: {} ({})\n",
        stored_label(&row.stored),
        right,
        kind_label(row.kind),
        inline(&view.row_role(row))
    );
    for &i in &row.rewrites {
        let rw = view.rewrite(i);
        let _ = writeln!(
            out,
            "- {} {}: {}",
            rule_link(rw.rule),
            rw.action_label(),
            inline(&clip(&rw.detail, DETAIL_CHARS))
        );
    }
    if let (Some(to), Some(from)) = (row.moved_to, row.stored.first()) {
        let _ = writeln!(
            out,
            "- moved: sent as r{to} instead, where the {} change shows it",
            code(&format!("s{from} → r{to}"))
        );
    }
    if !row.rewrites.is_empty() || row.moved_to.is_some() {
        out.push('\n');
    }
    let lines = diff_lines(view, row);
    if lines.is_empty() {
        return out;
    }
    let count = lines.lines().count();
    let block = fenced("diff", &lines);
    if count > FOLD_LINES {
        let _ = writeln!(
            out,
            "<details><summary>{count} lines</summary>\n\n{block}\n\n</details>\n"
        );
    } else {
        let _ = writeln!(out, "{block}\n");
    }
    out
}

/// The `diff` block body of a row (empty for a moved-away marker): the shared sections of
/// [`crate::alignment::json::row`], headings as `@@ … @@` except where the row heading already says
/// it (dropped, synthesized).
fn diff_lines(view: &View, row: &Row) -> String {
    view.with_sections(row, |sections| {
        let mut out = String::new();
        for section in sections {
            match section.heading {
                Heading::MovedHere { .. } | Heading::Merged { .. } | Heading::MergedIn { .. } => {
                    out.push_str(&section.to_text());
                }
                _ => {
                    for l in &section.lines {
                        out.push_str(&l.to_text());
                        out.push('\n');
                    }
                }
            }
        }
        out
    })
}

/// A text cut to `max` characters, saying how long it was.
fn clip(text: &str, max: usize) -> String {
    let chars = text.chars().count();
    if chars <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max).collect();
    format!("{cut}… ({} chars)", thousands(chars))
}

/// The line standing for rows not shown between two shown ones (ends with a blank line).
pub fn gap(unchanged: usize, other_rules: usize, left_out: usize) -> String {
    let total = unchanged + other_rules + left_out;
    if total == 0 {
        return String::new();
    }
    let noun = if total == 1 { "message" } else { "messages" };
    if other_rules == 0 && left_out == 0 {
        return format!("*… {} unchanged {noun} …*\n\n", thousands(total));
    }
    let mut parts = Vec::new();
    if unchanged > 0 {
        parts.push(format!("{} unchanged", thousands(unchanged)));
    }
    if other_rules > 0 {
        parts.push(format!(
            "{} changed by other rules or outside the filter",
            thousands(other_rules)
        ));
    }
    if left_out > 0 {
        parts.push(format!("{} changed, left out for length", thousands(left_out)));
    }
    format!("*… {} {noun} not shown: {} …*\n\n", thousands(total), parts.join(", "))
}

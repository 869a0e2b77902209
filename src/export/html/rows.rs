//! The Changes section: one card per changed message (its rules with their reasons, then a
//! diff of the changed paths only), unchanged messages compact, and each run of unchanged
//! messages folded into one line that opens to show them.

use std::fmt::Write;

use html_escape::{encode_double_quoted_attribute as attr, encode_text as esc};

use super::diff::Lines;
use super::out::Out;
use crate::alignment::json::row::Heading;
use crate::alignment::json::{Sign, thousands};
use crate::alignment::{Row, RowKind};
use crate::export::markdown::syntax::rule_anchor;
use crate::export::view::View;
use crate::hygiene::registry;

/// Rewrite reasons longer than this many characters show their start, the rest folded.
const DETAIL_CHARS: usize = 600;

/// How a row appears in the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Show {
    /// A change in focus: a card.
    Change,
    /// An unchanged message next to a change (`--context`): compact, always shown.
    Context,
    /// An unchanged message folded into its run's line, shown when opened.
    Folded,
    /// An unchanged message left out (`--only-changed`), counted in its run's line.
    Omitted,
    /// Changed by rules outside the filter: counted in its run's line.
    Other,
    /// Outside `--messages`: not mentioned.
    Outside,
}

/// How every row appears.
pub(super) struct Plan {
    pub show: Vec<Show>,
}

impl Plan {
    /// `all_rows`: unchanged messages are folded in (else only counted); `context`: unchanged
    /// messages shown around each change.
    pub fn new(view: &View, all_rows: bool, context: usize) -> Self {
        let range = view.rows_in_range();
        let changed = view.changed_rows();
        let near = view.selected_rows(false, context);
        let show = (0..view.rows.len())
            .map(|i| {
                if changed.binary_search(&i).is_ok() {
                    Show::Change
                } else if near.binary_search(&i).is_ok() {
                    Show::Context
                } else if !range[i] {
                    Show::Outside
                } else if view.rows[i].is_rewritten() {
                    Show::Other
                } else if all_rows {
                    Show::Folded
                } else {
                    Show::Omitted
                }
            })
            .collect();
        Self { show }
    }

    /// The rows shown as change cards.
    pub fn changes(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.show.len()).filter(|&i| self.show[i] == Show::Change)
    }
}

/// `s12`, `s22+s23`, `new`.
fn stored_label(indices: &[usize]) -> String {
    if indices.is_empty() {
        "new".into()
    } else {
        crate::text::index_list(indices, "s")
    }
}

/// `s2 → r2`, `s11 → —`, `new → r10`.
pub(super) fn row_label(row: &Row) -> String {
    let right = row.replay.map_or_else(|| "—".to_owned(), |r| format!("r{r}"));
    format!("{} → {right}", stored_label(&row.stored))
}

/// The CSS class, a one-character marker and the words for a kind of row.
pub(super) fn kind(kind: RowKind) -> (&'static str, &'static str, &'static str) {
    match kind {
        RowKind::Same => ("same", "=", "unchanged"),
        RowKind::Modified => ("modified", "~", "modified"),
        RowKind::Dropped => ("dropped", "−", "dropped"),
        RowKind::Inserted => ("inserted", "+", "inserted"),
        RowKind::Merged => ("merged", "&", "merged"),
        RowKind::Moved => ("moved", "↳", "moved here"),
        RowKind::MovedFrom => ("movedFrom", "↱", "moved away"),
    }
}

/// The Changes section of one report.
pub(super) struct Changes<'a> {
    view: &'a View<'a>,
    plan: &'a Plan,
    /// The row of each replay message.
    row_of_replay: Vec<Option<usize>>,
    /// Rewrites whose anchor (`rw-N`) is written: a move shows on two rows, anchored once.
    anchored: Vec<bool>,
}

impl<'a> Changes<'a> {
    pub fn new(view: &'a View<'a>, plan: &'a Plan) -> Self {
        let mut row_of_replay = vec![None; view.replay_len()];
        for (i, row) in view.rows.iter().enumerate() {
            if let Some(r) = row.replay {
                row_of_replay[r] = Some(i);
            }
        }
        Self {
            view,
            plan,
            row_of_replay,
            anchored: vec![false; view.rewrites.len()],
        }
    }

    /// The whole section.
    pub fn write(mut self, out: &mut Out<'_>) {
        let view = self.view;
        out.push_str("<section id=\"changes\">\n<h2>Changes</h2>\n");
        if view.verdict.per_rule.is_empty() {
            out.push_str("<p class=\"empty\">No changes: the replay equals the stored transcript.</p>\n");
        }
        let mut run: Vec<usize> = Vec::new();
        for i in 0..view.rows.len() {
            match self.plan.show[i] {
                Show::Change => {
                    self.gap(out, &run);
                    run.clear();
                    self.change(out, i);
                    out.row_done();
                }
                Show::Context => {
                    self.gap(out, &run);
                    run.clear();
                    self.unchanged(out, i);
                    out.row_done();
                }
                Show::Outside => {}
                Show::Folded | Show::Omitted | Show::Other => run.push(i),
            }
        }
        self.gap(out, &run);
        out.push_str("</section>\n");
    }

    /// The line standing for a run of rows not shown as cards; the unchanged ones of a full
    /// report open from it.
    fn gap(&self, out: &mut Out<'_>, run: &[usize]) {
        let count = |f: &dyn Fn(Show) -> bool| run.iter().filter(|&&i| f(self.plan.show[i])).count();
        let unchanged = count(&|s| matches!(s, Show::Folded | Show::Omitted));
        let other = count(&|s| s == Show::Other);
        let total = unchanged + other;
        if total == 0 {
            return;
        }
        let noun = if total == 1 { "message" } else { "messages" };
        let text = if other == 0 {
            format!("… {} unchanged {noun} …", thousands(total))
        } else if unchanged == 0 {
            format!(
                "… {} {noun} changed by other rules or outside the filter, not shown …",
                thousands(total)
            )
        } else {
            format!(
                "… {} {noun}: {} unchanged, {} changed by other rules or outside the filter (not shown) …",
                thousands(total),
                thousands(unchanged),
                thousands(other)
            )
        };
        let folded: Vec<usize> = run
            .iter()
            .copied()
            .filter(|&i| self.plan.show[i] == Show::Folded)
            .collect();
        if folded.is_empty() {
            let _ = writeln!(out, "<p class=\"gap\">{}</p>", esc(&text));
            return;
        }
        let _ = writeln!(
            out,
            "<details class=\"gap\"><summary>{}</summary>\n<div class=\"folded\">",
            esc(&text)
        );
        for i in folded {
            self.unchanged(out, i);
            out.row_done();
        }
        out.push_str("</div></details>\n");
    }

    /// An unchanged message, compact: its label and one line per field.
    fn unchanged(&self, out: &mut String, i: usize) {
        let view = self.view;
        let row = &view.rows[i];
        let _ = writeln!(
            out,
            "<div class=\"same\" id=\"row-{i}\"><div class=\"mh\"><span class=\"ids\">{}</span> <span class=\"role\">{}</span></div>",
            esc(&row_label(row)),
            esc(&view.row_role(row))
        );
        let message = row
            .replay
            .map(|r| view.replayed(r))
            .or_else(|| row.stored.first().map(|&s| view.stored(s)));
        if let Some(m) = &message {
            Lines::listing(m, Sign::Context).write(out, None);
        }
        out.push_str("</div>\n");
    }

    /// A changed message: what happened, the rules and their reasons, the diff.
    fn change(&mut self, out: &mut String, i: usize) {
        let view = self.view;
        let row = &view.rows[i];
        let (class, _, words) = kind(row.kind);
        let ids = if row.kind == RowKind::Merged {
            let sources: String = row.stored.iter().map(|s| format!("<span>s{s}</span>")).collect();
            let right = row.replay.map_or_else(String::new, |r| format!("r{r}"));
            format!("<span class=\"srcs\">{sources}</span> → {right}")
        } else {
            esc(&row_label(row)).into_owned()
        };
        let _ = writeln!(
            out,
            "<article class=\"change {class}\" id=\"row-{i}\">\n<h3><span class=\"kind\">{words}</span> \
             <span class=\"ids\">{ids}</span> <span class=\"role\">{}</span></h3>",
            esc(&view.row_role(row))
        );
        self.reasons(out, row);
        self.body(out, row);
        out.push_str("</article>\n");
    }

    /// Each rewrite of the row: its rule (linked to the Rules section), action and reason.
    fn reasons(&mut self, out: &mut String, row: &Row) {
        if row.rewrites.is_empty() {
            return;
        }
        out.push_str("<ul class=\"why\">\n");
        for &k in &row.rewrites {
            let rw = self.view.rewrite(k);
            let id = if self.anchored[k] {
                String::new()
            } else {
                self.anchored[k] = true;
                format!(" id=\"rw-{k}\"")
            };
            let summary = registry::by_id(rw.rule).map_or("", |r| r.info().summary);
            let _ = write!(
                out,
                "<li{id}><a class=\"tag\" href=\"#{}\" title=\"{}\">{}</a> <span class=\"act\">{}</span> ",
                rule_anchor(rw.rule),
                attr(summary),
                esc(rw.rule),
                esc(&rw.action_label())
            );
            let chars = rw.detail.chars().count();
            if chars <= DETAIL_CHARS {
                out.push_str(&with_code(&rw.detail));
            } else {
                let cut = rw
                    .detail
                    .char_indices()
                    .nth(DETAIL_CHARS)
                    .map_or(rw.detail.len(), |(b, _)| b);
                let _ = write!(
                    out,
                    "{}<details class=\"more\"><summary>… {} more chars</summary>{}</details>",
                    esc(&rw.detail[..cut]),
                    thousands(chars - DETAIL_CHARS),
                    esc(&rw.detail[cut..])
                );
            }
            out.push_str("</li>\n");
        }
        out.push_str("</ul>\n");
    }

    fn link(&self, replay: usize) -> String {
        match self.row_of_replay.get(replay).copied().flatten() {
            Some(j) if self.plan.show[j] != Show::Outside => format!("<a href=\"#row-{j}\">r{replay}</a>"),
            _ => format!("r{replay}"),
        }
    }

    fn body(&self, out: &mut String, row: &Row) {
        let view = self.view;
        view.with_sections(row, |sections| {
            let mut said_not_sent = false;
            for section in sections {
                let heading = section.heading.clone();
                let sides = section.sides;
                match &heading {
                    Heading::MovedAway { to, .. } => {
                        let to = to.map_or_else(String::new, |r| format!(" as {}", self.link(r)));
                        let _ = writeln!(
                            out,
                            "<p class=\"note\">Stored here, sent later{to}: that card shows its diff.</p>"
                        );
                        continue;
                    }
                    Heading::NotSent { .. } if !said_not_sent => {
                        said_not_sent = true;
                        out.push_str("<p class=\"note\">Not sent to the provider.</p>\n");
                    }
                    Heading::Synthesized => {
                        out.push_str("<p class=\"note\">Synthesized: not in the stored transcript.</p>\n");
                    }
                    Heading::MovedHere { from, .. } => {
                        let from = view
                            .rows
                            .iter()
                            .position(|o| o.kind == RowKind::MovedFrom && o.moved_to == row.replay)
                            .filter(|&j| self.plan.show[j] != Show::Outside)
                            .map_or_else(|| format!("s{from}"), |j| format!("<a href=\"#row-{j}\">s{from}</a>"));
                        let _ = writeln!(
                            out,
                            "<p class=\"note\">Stored later ({from}), sent here: moved back to where it belongs.</p>"
                        );
                    }
                    Heading::Merged { stored, replay } => {
                        let _ = writeln!(
                            out,
                            "<p class=\"sub\">{} → r{replay}, compared with s{}:</p>",
                            stored_label(stored),
                            stored.first().copied().unwrap_or_default()
                        );
                    }
                    Heading::MergedIn { stored, first } => {
                        let _ = writeln!(
                            out,
                            "<p class=\"sub\">s{stored} merged in: its fields that differ from s{first}:</p>"
                        );
                    }
                    Heading::NotSent { .. } | Heading::Plain => {}
                }
                let Some(lines) = Lines::section(section) else { continue };
                let labels = sides.map(|(s, r)| (format!("stored s{s}"), format!("replay r{r}")));
                lines.write(out, labels.as_ref().map(|(l, r)| (l.as_str(), r.as_str())));
            }
        });
    }
}

/// Text as HTML, its `` `quoted` `` parts as code (an unpaired backtick stays as it is).
fn with_code(text: &str) -> String {
    let mut parts: Vec<String> = text.split('`').map(str::to_owned).collect();
    if parts.len().is_multiple_of(2) {
        let last = parts.pop().unwrap_or_default();
        if let Some(before) = parts.last_mut() {
            before.push('`');
            before.push_str(&last);
        }
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if i % 2 == 1 {
                format!("<code>{}</code>", esc(p))
            } else {
                esc(p).into_owned()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::with_code;

    #[test]
    fn quoted_parts_become_code_and_stay_escaped() {
        assert_eq!(with_code("removed `details`"), "removed <code>details</code>");
        assert_eq!(with_code("a `<b>` c `d"), "a <code>&lt;b&gt;</code> c `d");
        assert_eq!(with_code("no quotes"), "no quotes");
    }
}

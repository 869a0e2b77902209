//! The HTML report's size budget (`--max-chars`, by default
//! [`crate::export::DEFAULT_HTML_MAX_CHARS`]). A report over it is measured once, row by row,
//! then written with what fits: one example per rule first, then the changes in message
//! order (as the Markdown report chooses them), the unchanged messages around them
//! (`--context`), then the folded runs of unchanged messages while they fit. The changes left
//! out are not drawn; the verdict says the report was cut, and a "Left out" section where the
//! changes stop counts what is missing by rule and gives the commands that show it.

use std::fmt::Write;

use html_escape::encode_text as esc;

use super::out::Out;
use super::rows::{Plan, Show};
use crate::alignment::json::thousands;
use crate::export::command::{command_line, with_flag};
use crate::export::focus::format_range;
use crate::export::markdown::syntax::rule_anchor;
use crate::export::markdown::{LeftOut, left_out};
use crate::export::verdict::{Item, Span};
use crate::export::view::View;

/// Provider lint findings listed in a cut report: at most this many, and no more than take a
/// quarter of the budget (about 400 characters a row), but at least `LINT_ROWS_MIN`.
const LINT_ROWS_WHEN_CUT: usize = 1_000;
const LINT_ROW_SHARE: usize = 4 * 400;
const LINT_ROWS_MIN: usize = 20;

/// Characters a shown change adds outside its card: its line in the index and its link in
/// the Rules section (an estimate; the document is measured again before it is written).
const INDEX_CHARS: usize = 320;

/// Characters kept free for estimates that were short.
const SLACK: usize = 1_024;

/// Measurements before giving up on shrinking further (each drops what was over).
const ROUNDS: usize = 8;

/// What a cut report leaves out.
pub(super) struct Cut {
    left: LeftOut,
    /// Unchanged messages the report would show (folded or as context) that are only
    /// counted.
    unchanged: usize,
}

impl Cut {
    /// Provider lint findings listed.
    pub fn lint_rows(&self) -> usize {
        (self.left.max_chars / LINT_ROW_SHARE).clamp(LINT_ROWS_MIN, LINT_ROWS_WHEN_CUT)
    }

    /// The verdict's line about the cut.
    pub fn verdict_item(&self) -> Item {
        let l = &self.left;
        let mut text = format!(
            "cut to {} characters: {} of {} changed messages shown",
            thousands(l.max_chars),
            thousands(l.shown),
            thousands(l.changed)
        );
        if self.unchanged > 0 {
            let _ = write!(
                text,
                ", {} unchanged messages counted, not shown",
                thousands(self.unchanged)
            );
        }
        text.push_str("; see Left out after the changes");
        Item {
            label: "This report".into(),
            body: vec![Span::Text(text)],
            sub: Vec::new(),
        }
    }

    /// The Left out section: what is missing, by rule, and the commands that show it.
    pub fn write(&self, out: &mut String, view: &View) {
        let l = &self.left;
        let _ = write!(
            out,
            "<section id=\"left-out\" class=\"card left-out\">\n<h2>Left out</h2>\n<p>This report stops at {} characters \
             (<code>--max-chars</code>): it shows {} of {} changed messages, one example per rule first, then in message \
             order",
            thousands(l.max_chars),
            thousands(l.shown),
            thousands(l.changed)
        );
        if self.unchanged > 0 {
            let _ = write!(
                out,
                "; {} unchanged messages are counted, not shown",
                thousands(self.unchanged)
            );
        }
        out.push_str(".</p>\n");
        if l.per_rule.iter().any(|r| r.2 > 0) {
            out.push_str(
                "<p>Rewrites left out, by rule:</p>\n<table class=\"left-out\"><thead><tr><th>rule</th><th>shown</th>\
                 <th>left out</th></tr></thead><tbody>\n",
            );
            for (rule, shown, left) in &l.per_rule {
                let _ = writeln!(
                    out,
                    "<tr><td><a class=\"tag\" href=\"#{}\">{}</a></td><td>{}</td><td>{}</td></tr>",
                    rule_anchor(rule),
                    esc(rule),
                    thousands(*shown),
                    thousands(*left)
                );
            }
            out.push_str("</tbody></table>\n");
        }
        let args = &view.command;
        let mut how = format!(
            "# the whole report, however long\n{}\n",
            command_line(&with_flag(args, "--max-chars", Some("0")))
        );
        if let Some((rule, _, _)) = l.per_rule.iter().filter(|r| r.2 > 0).max_by_key(|r| r.2) {
            let _ = writeln!(
                how,
                "# only the changes of one rule\n{}",
                command_line(&with_flag(args, "--only-rule", Some(rule)))
            );
        }
        if let Some(range) = l.range {
            let _ = writeln!(
                how,
                "# a range of stored messages (here: where the first changes left out are)\n{}",
                command_line(&with_flag(args, "--messages", Some(&format_range(range))))
            );
        }
        let _ = writeln!(
            out,
            "<p>To see the rest:</p>\n<pre class=\"command\">{}</pre>\n</section>",
            esc(how.trim_end())
        );
    }
}

/// What a report keeps, in the order it is dropped from the end when too long.
struct Unit {
    rows: Vec<usize>,
    chars: usize,
}

/// The plan of a report within `max_chars` characters, and what it leaves out (`None`: the
/// whole report fits).
pub(super) fn fit(view: &View, plan: Plan, context: usize, max_chars: usize) -> (Plan, Option<Cut>) {
    let (total, marks) = measure(view, &plan, None, true);
    if total <= max_chars {
        return (plan, None);
    }
    let drawn: Vec<usize> = (0..plan.show.len())
        .filter(|&i| matches!(plan.show[i], Show::Change | Show::Context | Show::Folded))
        .collect();
    // The Changes section marks a boundary after each card and each folded message, in
    // message order; should that ever change, spread the section evenly instead.
    let cost: Vec<usize> = if marks.len() == drawn.len() + 2 {
        marks.windows(2).map(|w| w[1] - w[0]).collect()
    } else {
        let whole = marks.last().copied().unwrap_or(0) - marks.first().copied().unwrap_or(0);
        vec![whole / drawn.len().max(1); drawn.len()]
    };
    let mut chars = vec![0; plan.show.len()];
    for (k, &i) in drawn.iter().enumerate() {
        chars[i] = cost[k];
    }

    // Units in order of priority: one change per rule, the other changes in message order,
    // the unchanged messages around the changes kept, the folded runs.
    let changed: Vec<usize> = plan.changes().collect();
    let mut first: Vec<usize> = Vec::new();
    for (rule, _) in &view.verdict.per_rule {
        if let Some(&i) = changed
            .iter()
            .find(|&&i| view.rows[i].rewrites.iter().any(|&k| view.rewrites[k].rule == *rule))
            && !first.contains(&i)
        {
            first.push(i);
        }
    }
    let examples = first.len();
    let mut order = first.clone();
    order.extend(changed.iter().copied().filter(|i| !first.contains(i)));
    let change_chars = |i: usize| chars[i] + INDEX_CHARS + 64 * view.rows[i].rewrites.len();

    let empty = Plan {
        show: plan.show.iter().map(|&s| hidden(s)).collect(),
    };
    let worst = Cut {
        left: left_out(view, &[], max_chars, true),
        unchanged: plan.show.len(),
    };
    let (fixed, _) = measure(view, &empty, Some(&worst), false);
    let mut room = max_chars.saturating_sub(fixed + SLACK);
    let mut units: Vec<Unit> = Vec::new();
    let mut all_changes = true;
    for (n, &i) in order.iter().enumerate() {
        if change_chars(i) <= room {
            room -= change_chars(i);
            units.push(Unit {
                rows: vec![i],
                chars: change_chars(i),
            });
        } else if n >= examples {
            all_changes = false;
            break;
        } else {
            all_changes = false;
        }
    }
    let mut kept_changes: Vec<usize> = units.iter().map(|u| u.rows[0]).collect();
    kept_changes.sort_unstable();
    for i in (0..plan.show.len()).filter(|&i| plan.show[i] == Show::Context) {
        let near = kept_changes.iter().any(|&c| c.abs_diff(i) <= context);
        if near && chars[i] <= room {
            room -= chars[i];
            units.push(Unit {
                rows: vec![i],
                chars: chars[i],
            });
        }
    }
    if all_changes {
        for run in folded_runs(&plan) {
            let size: usize = run.iter().map(|&i| chars[i]).sum();
            if size > room {
                break;
            }
            room -= size;
            units.push(Unit { rows: run, chars: size });
        }
    }

    // Measure what was chosen; drop from the end while it is too long.
    let mut rounds = 0;
    loop {
        let (cut_plan, cut) = apply(view, &plan, &units, max_chars);
        let (len, _) = measure(view, &cut_plan, Some(&cut), false);
        rounds += 1;
        if len <= max_chars || units.is_empty() || rounds >= ROUNDS {
            return (cut_plan, Some(cut));
        }
        let mut over = len - max_chars + SLACK;
        while over > 0 {
            let Some(unit) = units.pop() else { break };
            over = over.saturating_sub(unit.chars.max(1));
        }
    }
}

/// How a row that is not kept appears: a change is not drawn, an unchanged message counted.
fn hidden(show: Show) -> Show {
    match show {
        Show::Change => Show::Outside,
        Show::Context | Show::Folded => Show::Omitted,
        other => other,
    }
}

/// The plan keeping `units`, and what it leaves out.
fn apply(view: &View, plan: &Plan, units: &[Unit], max_chars: usize) -> (Plan, Cut) {
    let mut keep = vec![false; plan.show.len()];
    units.iter().flat_map(|u| &u.rows).for_each(|&i| keep[i] = true);
    let show: Vec<Show> = plan
        .show
        .iter()
        .enumerate()
        .map(|(i, &s)| if keep[i] { s } else { hidden(s) })
        .collect();
    let kept: Vec<usize> = plan.changes().filter(|&i| keep[i]).collect();
    let unchanged = (0..show.len())
        .filter(|&i| matches!(plan.show[i], Show::Context | Show::Folded) && !keep[i])
        .count();
    let cut = Cut {
        left: left_out(view, &kept, max_chars, false),
        unchanged,
    };
    (Plan { show }, cut)
}

/// Runs of folded messages (each opens from one line), in message order.
fn folded_runs(plan: &Plan) -> Vec<Vec<usize>> {
    let mut runs: Vec<Vec<usize>> = Vec::new();
    let mut run: Vec<usize> = Vec::new();
    for (i, &s) in plan.show.iter().enumerate() {
        match s {
            Show::Folded => run.push(i),
            Show::Change | Show::Context if !run.is_empty() => runs.push(std::mem::take(&mut run)),
            _ => {}
        }
    }
    if !run.is_empty() {
        runs.push(run);
    }
    runs
}

/// The length of the document in characters, and with `mark_rows` the lengths at the row
/// boundaries of its Changes section; nothing is kept.
fn measure(view: &View, plan: &Plan, cut: Option<&Cut>, mark_rows: bool) -> (usize, Vec<usize>) {
    let mut sink = std::io::sink();
    let mut out = Out::new(&mut sink);
    let marks = super::write_document(&mut out, view, plan, cut, mark_rows);
    (out.chars(), marks)
}

//! GitHub-flavoured Markdown export, made to paste into an issue: the verdict and the command
//! that reproduces the report first, the rewrites by rule, the provider lint, then each
//! change as a `diff` of the changed paths, a Rules appendix, and, when the report had to be
//! cut to its character budget, what was left out and how to get it.
//!
//! The budget never cuts a block: whole changes are kept or left out, so fences, tables and
//! `<details>` stay balanced.

mod rows;
pub mod syntax;

use std::cell::{Ref, RefCell};
use std::collections::BTreeMap;
use std::fmt::Write;

use syntax::{chars, code, fenced, inline, rule_anchor, rule_link};

use super::command::{command_line, with_flag};
use super::focus::format_range;
use super::verdict::{self, Item, Span};
use super::view::View;
use crate::alignment::json::thousands;
use crate::hygiene::registry;

/// Provider lint findings listed when a report is cut to its budget.
const LINT_ROWS_WHEN_CUT: usize = 20;

/// Explanations in a shortened Rules appendix, in characters.
const SHORT_EXPLANATION_CHARS: usize = 320;

/// A cut report shortens the Rules appendix when the whole one would take more than this
/// share (1/n) of the budget.
const APPENDIX_SHARE: usize = 4;

/// Characters reserved for one gap line (`*… 12 unchanged messages …*`).
const GAP_CHARS: usize = 160;

/// Render a view as Markdown, at most `max_chars` characters (0: no limit) unless the parts
/// that are always kept (verdict, tables, appendix) are longer on their own.
pub fn render(view: &View, context: usize, max_chars: usize) -> String {
    let shown = view.selected_rows(false, context);
    let blocks = Blocks::new(view);
    // The whole report is built only when its rows could fit: on a large session the blocks
    // alone pass the budget long before the last row, and a cut report renders only the
    // rows it considers.
    let mut total = 0;
    let could_fit = max_chars == 0
        || shown.iter().all(|&i| {
            total += blocks.chars(i);
            total <= max_chars
        });
    if could_fit {
        let full = Report {
            view,
            blocks: &blocks,
            short_rules: false,
        }
        .assemble(&shown, None);
        if max_chars == 0 || chars(&full) <= max_chars {
            return full;
        }
    }
    cut(view, &shown, &blocks, context, max_chars)
}

/// The Markdown block of each row, rendered when a report first needs it and kept.
struct Blocks<'a> {
    view: &'a View<'a>,
    rendered: RefCell<BTreeMap<usize, String>>,
}

impl<'a> Blocks<'a> {
    fn new(view: &'a View<'a>) -> Self {
        Self {
            view,
            rendered: RefCell::new(BTreeMap::new()),
        }
    }

    /// The block of row `i`.
    fn get(&self, i: usize) -> Ref<'_, str> {
        if !self.rendered.borrow().contains_key(&i) {
            let block = safe(rows::block(self.view, &self.view.rows[i]));
            self.rendered.borrow_mut().insert(i, block);
        }
        Ref::map(self.rendered.borrow(), |r| r[&i].as_str())
    }

    /// The length of the block of row `i`, in characters.
    fn chars(&self, i: usize) -> usize {
        chars(&self.get(i))
    }
}

/// Text with terminal controls escaped, as the final document will be (so lengths are exact).
fn safe(text: String) -> String {
    crate::text::escape_controls(&text).into_owned()
}

/// What a cut report leaves out (the HTML report's budget counts it the same way).
#[derive(Debug, Clone)]
pub(in crate::export) struct LeftOut {
    /// The character budget.
    pub max_chars: usize,
    /// Changed messages in focus, and how many are shown.
    pub changed: usize,
    pub shown: usize,
    /// Per rule: rewrites shown, rewrites left out.
    pub per_rule: Vec<(&'static str, usize, usize)>,
    /// A `--messages` range holding the first changes left out.
    pub range: Option<(usize, usize)>,
}

struct Report<'a> {
    view: &'a View<'a>,
    blocks: &'a Blocks<'a>,
    /// Rules appendix: the start of each explanation only (cut reports whose appendix would
    /// take too much of the budget).
    short_rules: bool,
}

impl Report<'_> {
    /// The whole document with these rows (in message order) kept.
    fn assemble(&self, kept: &[usize], left_out: Option<&LeftOut>) -> String {
        let view = self.view;
        let mut out = format!("# replaylens export: {}\n\n", inline(&view.session_id));
        let extra: Vec<Item> = left_out
            .map(|l| Item {
                label: "This report".into(),
                body: vec![Span::Text(format!(
                    "cut to {} characters: {} of {} changed messages shown; see Left out at the end",
                    thousands(l.max_chars),
                    thousands(l.shown),
                    thousands(l.changed)
                ))],
                sub: Vec::new(),
            })
            .into_iter()
            .collect();
        out.push_str(&verdict::markdown(view, &extra));
        write_rules_table(&mut out, view);
        write_session(&mut out, view);
        write_lint(&mut out, view, left_out.map(|_| LINT_ROWS_WHEN_CUT));
        out.push_str("## Changes\n\n");
        if view.verdict.per_rule.is_empty() {
            out.push_str("No changes.\n\n");
        }
        self.write_changes(&mut out, kept);
        write_appendix(&mut out, view, self.short_rules);
        if let Some(l) = left_out {
            write_left_out(&mut out, view, l);
        }
        safe(out)
    }

    fn write_changes(&self, out: &mut String, kept: &[usize]) {
        let view = self.view;
        let range = view.rows_in_range();
        let in_focus = view.changed_rows();
        let mut previous: Option<usize> = None;
        let write_gap = |out: &mut String, from: usize, to: usize| {
            let (mut unchanged, mut other, mut left) = (0, 0, 0);
            for k in (from..to).filter(|&k| range[k]) {
                if in_focus.binary_search(&k).is_ok() {
                    left += 1;
                } else if view.rows[k].is_rewritten() {
                    other += 1;
                } else {
                    unchanged += 1;
                }
            }
            out.push_str(&rows::gap(unchanged, other, left));
        };
        for &i in kept {
            write_gap(out, previous.map_or(0, |p| p + 1), i);
            out.push_str(&self.blocks.get(i));
            previous = Some(i);
        }
        if !kept.is_empty() || !in_focus.is_empty() {
            write_gap(out, previous.map_or(0, |p| p + 1), view.rows.len());
        }
    }
}

fn write_rules_table(out: &mut String, view: &View) {
    let per_rule = &view.verdict.per_rule;
    let _ = writeln!(out, "## Rewrites by rule\n");
    if per_rule.is_empty() {
        let _ = writeln!(out, "No rewrites: the replay equals the stored transcript.\n");
        return;
    }
    let _ = writeln!(out, "| rule | rewrites | what it does |\n|---|---:|---|");
    for (rule, n) in per_rule {
        let summary = registry::by_id(rule).map_or("", |r| r.info().summary);
        let _ = writeln!(out, "| {} | {} | {} |", rule_link(rule), thousands(*n), inline(summary));
    }
    out.push('\n');
}

fn write_session(out: &mut String, view: &View) {
    let _ = writeln!(out, "## Session\n\n| | |\n|---|---|");
    let _ = writeln!(out, "| replaylens | {} |", view.version);
    let _ = writeln!(out, "| session | {} ({}) |", code(&view.session_id), view.format);
    let _ = writeln!(out, "| target | {} |", code(&view.target_line()));
    let _ = writeln!(out, "| configuration | {} |", code(&view.configuration));
    if let Some(hidden) = view.hidden.sentence() {
        let _ = writeln!(out, "| not in the stored transcript | {} |", inline(&hidden));
    }
    let _ = writeln!(out, "| family | {} ({}) |", inline(view.family.1), code(view.family.0));
    let _ = writeln!(out, "| OpenClaw rule set | {} |", code(view.openclaw));
    let _ = writeln!(out, "| redaction | {} |", inline(&view.redaction_line()));
    let policy = serde_json::to_string_pretty(&view.policy).unwrap_or_default();
    let _ = writeln!(
        out,
        "\n<details><summary>Policy flags</summary>\n\n{}\n\n</details>\n",
        fenced("json", &policy)
    );
}

fn write_lint(out: &mut String, view: &View, limit: Option<usize>) {
    let _ = writeln!(out, "## Provider lint\n");
    let Some(lint) = &view.lint else {
        let _ = writeln!(
            out,
            "No payload: replaylens has no wire converter for this target's API.\n"
        );
        return;
    };
    let _ = writeln!(
        out,
        "{} payload: **{}** (stored transcript as is: {} findings; replay: {}).\n",
        code(lint.api),
        lint.verdict,
        thousands(lint.stored.len()),
        thousands(lint.replay.len())
    );
    let findings: Vec<_> = lint.findings().collect();
    if findings.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "| payload | where | constraint | provider's error | stored | hygiene |\n|---|---|---|---|---|---|"
    );
    let shown = limit.unwrap_or(usize::MAX).min(findings.len());
    for f in &findings[..shown] {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            f.stage.as_str(),
            code(&f.path),
            code(f.constraint),
            inline(&f.message),
            rows::stored_label(&f.stored),
            inline(&f.fix_note())
        );
    }
    out.push('\n');
    if shown < findings.len() {
        let _ = writeln!(
            out,
            "*… {} more findings left out for length: `--format html` or `replaylens lint --stage both` lists them all.*\n",
            thousands(findings.len() - shown)
        );
    }
}

/// Every rule the replay used, once, with its explanation (`short`: its first sentences).
fn write_appendix(out: &mut String, view: &View, short: bool) {
    if view.verdict.per_rule.is_empty() {
        return;
    }
    let _ = writeln!(out, "## Rules\n");
    for (rule, _) in &view.verdict.per_rule {
        let _ = writeln!(out, "### <a id=\"{}\"></a>{}\n", rule_anchor(rule), code(rule));
        let Some(info) = registry::by_id(rule).map(|r| r.info()) else {
            continue;
        };
        let explanation = if short {
            let start = first_sentences(info.explanation, SHORT_EXPLANATION_CHARS);
            format!("{} (all of it: `replaylens rules {rule}`)", inline(&start))
        } else {
            inline(info.explanation)
        };
        let _ = writeln!(
            out,
            "**{}.** {}\n\n*Applies to: {}. Reference: {}.*\n",
            inline(info.summary.trim_end_matches('.')),
            explanation,
            inline(info.families),
            inline(info.reference)
        );
    }
}

/// The sentences of a text that fit in `max` characters (at least the first, cut if need be).
fn first_sentences(text: &str, max: usize) -> String {
    let mut end = 0;
    for (i, _) in text.match_indices(". ") {
        if text[..=i].chars().count() > max {
            break;
        }
        end = i + 1;
    }
    if end == 0 {
        let cut: String = text.chars().take(max).collect();
        return if cut.len() < text.len() {
            format!("{cut}…")
        } else {
            cut
        };
    }
    format!("{} …", &text[..end])
}

fn write_left_out(out: &mut String, view: &View, l: &LeftOut) {
    let _ = writeln!(
        out,
        "## Left out\n\nThis report stops at {} characters (`--max-chars`): it shows {} of {} changed messages, one \
         example per rule first, then in message order. Rewrites left out, by rule:\n",
        thousands(l.max_chars),
        thousands(l.shown),
        thousands(l.changed)
    );
    let _ = writeln!(out, "| rule | shown | left out |\n|---|---:|---:|");
    for (rule, shown, left) in &l.per_rule {
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            rule_link(rule),
            thousands(*shown),
            thousands(*left)
        );
    }
    let args = &view.command;
    let md = |flag: &str, value: Option<&str>| command_line(&with_flag(args, flag, value));
    let mut how = format!(
        "# everything, side by side, in one HTML file\n{}\n",
        command_line(&with_flag(
            &with_flag(args, "--max-chars", Some("0")),
            "--format",
            Some("html")
        ))
    );
    if let Some((rule, _, _)) = l.per_rule.iter().filter(|r| r.2 > 0).max_by_key(|r| r.2) {
        let _ = writeln!(how, "# only the changes of one rule\n{}", md("--only-rule", Some(rule)));
    }
    if let Some(range) = l.range {
        let _ = writeln!(
            how,
            "# a range of stored messages (here: where the first changes left out are)\n{}",
            md("--messages", Some(&format_range(range)))
        );
    }
    let _ = writeln!(
        how,
        "# the whole Markdown report, however long\n{}",
        md("--max-chars", Some("0"))
    );
    let _ = writeln!(out, "\nTo see the rest:\n\n{}\n", fenced("sh", &how));
}

/// The rows of a cut report: one example per rule first, then the rest in message order, as
/// many as fit; then the document, shortened further if an estimate was off.
fn cut(view: &View, shown: &[usize], blocks: &Blocks<'_>, context: usize, max_chars: usize) -> String {
    let mut whole_appendix = String::new();
    write_appendix(&mut whole_appendix, view, false);
    let report = Report {
        view,
        blocks,
        short_rules: chars(&whole_appendix) > max_chars / APPENDIX_SHARE,
    };
    let changed = view.changed_rows();
    let is_changed = |i: &usize| changed.binary_search(i).is_ok();
    let worst = left_out(view, &[], max_chars, true);
    let fixed = chars(&report.assemble(&[], Some(&worst)));
    let mut budget = max_chars.saturating_sub(fixed + 64);
    let mut priority: Vec<usize> = Vec::new();
    for (rule, _) in &view.verdict.per_rule {
        if let Some(&i) = changed
            .iter()
            .find(|&&i| view.rows[i].rewrites.iter().any(|&k| view.rewrites[k].rule == *rule))
            && !priority.contains(&i)
        {
            priority.push(i);
        }
    }
    let examples = priority.len();
    let first = priority.clone();
    priority.extend(changed.iter().copied().filter(|i| !first.contains(i)));
    let cost = |i: usize| blocks.chars(i) + GAP_CHARS;
    let mut kept: Vec<usize> = Vec::new();
    let mut next = priority.len();
    for (n, &i) in priority.iter().enumerate() {
        if cost(i) <= budget {
            budget -= cost(i);
            kept.push(i);
        } else if n >= examples {
            next = n;
            break;
        }
    }
    // Unchanged context rows (`--context`) of the kept changes, while they fit.
    let unchanged: Vec<usize> = shown.iter().copied().filter(|i| !is_changed(i)).collect();
    for i in unchanged {
        if kept.iter().any(|&c| c.abs_diff(i) <= context) && cost(i) <= budget {
            budget -= cost(i);
            kept.push(i);
        }
    }
    // The estimates above are generous: measure, fill what is left, and measure again; drop
    // the last rows kept if the document is still too long.
    let mut grew = true;
    loop {
        let mut in_order = kept.clone();
        in_order.sort_unstable();
        let l = left_out(view, &in_order, max_chars, false);
        let text = report.assemble(&in_order, Some(&l));
        let len = chars(&text);
        if len > max_chars && !kept.is_empty() {
            kept.pop();
            grew = false;
            continue;
        }
        let mut room = max_chars.saturating_sub(len + 64);
        let before = kept.len();
        while grew && next < priority.len() && cost(priority[next]) <= room {
            room -= cost(priority[next]);
            kept.push(priority[next]);
            next += 1;
        }
        if kept.len() == before {
            return text;
        }
    }
}

/// What is left out when `kept` rows are shown; `worst` gives an upper bound of its length
/// (every count at its maximum).
pub(in crate::export) fn left_out(view: &View, kept: &[usize], max_chars: usize, worst: bool) -> LeftOut {
    let changed = view.changed_rows();
    let focus = view.rewrites_in_focus();
    let mut shown_rewrites = vec![false; view.rewrites.len()];
    for &i in kept {
        view.rows[i].rewrites.iter().for_each(|&k| shown_rewrites[k] = true);
    }
    let mut per_rule: Vec<(&'static str, usize, usize)> = Vec::new();
    for &k in &focus {
        let rule = view.rewrites[k].rule;
        let entry = match per_rule.iter_mut().find(|(r, _, _)| *r == rule) {
            Some(e) => e,
            None => {
                per_rule.push((rule, 0, 0));
                per_rule.last_mut().expect("just pushed")
            }
        };
        if worst {
            entry.1 += 1;
            entry.2 += 1;
        } else if shown_rewrites[k] {
            entry.1 += 1;
        } else {
            entry.2 += 1;
        }
    }
    let position = |i: usize| {
        view.rows[..=i]
            .iter()
            .rev()
            .find_map(|r| r.stored.iter().copied().max())
    };
    let mut is_kept = vec![false; view.rows.len()];
    kept.iter().for_each(|&i| is_kept[i] = true);
    let missing: Vec<usize> = changed.iter().copied().filter(|&i| !is_kept[i]).collect();
    let range = if worst {
        Some((view.stored_len(), view.stored_len()))
    } else {
        let take = kept.iter().filter(|i| changed.binary_search(i).is_ok()).count().max(1);
        let first = missing.first().and_then(|&i| position(i));
        let last = missing.iter().take(take).filter_map(|&i| position(i)).max();
        first.zip(last).map(|(a, b)| (a, b.max(a)))
    };
    LeftOut {
        max_chars,
        changed: changed.len(),
        shown: if worst {
            changed.len()
        } else {
            changed.len() - missing.len()
        },
        per_rule,
        range,
    }
}

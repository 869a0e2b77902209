//! GitHub-flavoured Markdown export: made to paste into an issue.

use std::fmt::Write;

use similar::{ChangeTag, TextDiff};

use super::view::View;
use crate::diff::{Row, RowKind};
use crate::hygiene::rules;

/// Diff blocks longer than this many lines are folded in `<details>`.
const FOLD_LINES: usize = 40;

/// Render a view as Markdown.
pub fn render(view: &View, context: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# replaylens export: {}\n", inline(&view.session_id));
    let _ = writeln!(out, "| | |\n|---|---|");
    let _ = writeln!(out, "| replaylens | {} |", view.version);
    let _ = writeln!(out, "| OpenClaw rule set | {} |", code(view.openclaw));
    let _ = writeln!(out, "| session | {} ({}) |", code(&view.session_id), view.format);
    let _ = writeln!(out, "| target | {} |", code(&view.target_line()));
    let _ = writeln!(out, "| family | {} ({}) |", inline(view.family.1), code(view.family.0));
    let _ = writeln!(
        out,
        "| counts | stored {} → replay {}, {} rewrites |",
        view.stored.len(),
        view.replay.len(),
        view.rewrites.len()
    );
    let _ = writeln!(out, "| redaction | {} |", view.redaction_line());
    let policy = serde_json::to_string_pretty(&view.policy).unwrap_or_default();
    let _ = writeln!(
        out,
        "\n<details><summary>Policy flags</summary>\n\n{}\n</details>\n",
        fenced("json", &policy)
    );

    let _ = writeln!(out, "## Rewrites by rule\n");
    let per_rule = view.per_rule();
    if per_rule.is_empty() {
        let _ = writeln!(out, "No rewrites: the replay equals the stored transcript.\n");
    } else {
        let _ = writeln!(out, "| rule | count | what it does |\n|---|---:|---|");
        for (rule, n) in per_rule {
            let summary = rules::by_id(rule).map_or("", |r| r.info().summary);
            let _ = writeln!(out, "| {} | {n} | {} |", code(rule), inline(summary));
        }
        out.push('\n');
    }

    write_lint(&mut out, view);

    let _ = writeln!(out, "## Changes\n");
    let mut previous: Option<usize> = None;
    for i in view.selected_rows(false, context) {
        if previous.is_some_and(|p| p + 1 != i) {
            let _ = writeln!(out, "*…*\n");
        }
        previous = Some(i);
        write_row(&mut out, view, &view.rows[i]);
    }
    out
}

fn write_lint(out: &mut String, view: &View) {
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
        lint.stored.len(),
        lint.replay.len()
    );
    let findings: Vec<_> = lint.findings().collect();
    if findings.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "| payload | where | constraint | provider's error | stored | hygiene |\n|---|---|---|---|---|---|"
    );
    for f in findings {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            f.stage.as_str(),
            code(&f.path),
            code(f.constraint),
            inline(&f.message),
            side(&f.stored, 's'),
            inline(&f.fix_note())
        );
    }
    out.push('\n');
}

fn side(indices: &[usize], prefix: char) -> String {
    if indices.is_empty() {
        "new".into()
    } else {
        indices
            .iter()
            .map(|i| format!("{prefix}{i}"))
            .collect::<Vec<_>>()
            .join("+")
    }
}

fn write_row(out: &mut String, view: &View, row: &Row) {
    let label = match row.kind {
        RowKind::Same => "unchanged",
        RowKind::Modified => "modified",
        RowKind::Dropped => "dropped",
        RowKind::Inserted => "inserted",
        RowKind::Merged => "merged",
        RowKind::Moved => "moved here",
        RowKind::MovedFrom => "moved away",
    };
    let role = row
        .replay
        .map(|r| &view.replay[r].1)
        .or_else(|| row.stored.first().map(|&s| &view.stored[s]))
        .and_then(|m| m.get("role"))
        .and_then(|r| r.as_str())
        .unwrap_or("?");
    let right = row.replay.map_or_else(|| "—".to_owned(), |r| format!("r{r}"));
    let _ = writeln!(
        out,
        "### {} → {}: {} ({})\n",
        side(&row.stored, 's'),
        right,
        label,
        inline(role)
    );
    for &i in &row.rewrites {
        let rw = &view.rewrites[i];
        let _ = writeln!(
            out,
            "- <a id=\"rw-{i}\"></a>{} {}: {}",
            code(rw.rule),
            rw.action_label(),
            inline(&rw.detail)
        );
    }
    if let Some(to) = row.moved_to {
        let _ = writeln!(out, "- sent later, as r{to}");
    }
    if !row.rewrites.is_empty() || row.moved_to.is_some() {
        out.push('\n');
    }
    let old = if row.kind == RowKind::Moved || row.kind == RowKind::Inserted {
        String::new()
    } else {
        view.stored_text(row)
    };
    let new = if row.kind == RowKind::MovedFrom {
        String::new()
    } else {
        view.replay_text(row)
    };
    let old = if row.kind == RowKind::Moved {
        view.stored_text(row)
    } else {
        old
    };
    let diff = diff_lines(&old, &new);
    let lines = diff.lines().count();
    let block = fenced("diff", &diff);
    if lines > FOLD_LINES {
        let _ = writeln!(
            out,
            "<details><summary>{lines} lines</summary>\n\n{block}\n</details>\n"
        );
    } else {
        let _ = writeln!(out, "{block}\n");
    }
}

/// A unified-style line diff with ` `, `-`, `+` prefixes.
fn diff_lines(old: &str, new: &str) -> String {
    let mut out = String::new();
    for change in TextDiff::from_lines(old, new).iter_all_changes() {
        let sign = match change.tag() {
            ChangeTag::Equal => ' ',
            ChangeTag::Delete => '-',
            ChangeTag::Insert => '+',
        };
        out.push(sign);
        out.push_str(change.value().trim_end_matches('\n'));
        out.push('\n');
    }
    out
}

/// A fenced code block whose fence is longer than any backtick run inside.
fn fenced(lang: &str, body: &str) -> String {
    let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let body = body.trim_end_matches('\n');
    format!("{fence}{lang}\n{body}\n{fence}")
}

/// Inline code that cannot be broken out of: backticks chosen longer than any run inside.
fn code(text: &str) -> String {
    let one_line = text.replace(['\n', '\r'], " ").replace('|', "\\|");
    let longest = one_line.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let ticks = "`".repeat(longest + 1);
    let pad = if one_line.starts_with('`') || one_line.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{one_line}{pad}{ticks}")
}

/// Plain inline text with Markdown and HTML metacharacters escaped.
fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push_str(&crate::text::escape_controls_single_line(&c.to_string())),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_and_code_spans_cannot_be_escaped() {
        assert_eq!(fenced("diff", "a ``` b"), "````diff\na ``` b\n````");
        assert_eq!(code("x`y"), "``x`y``");
        assert_eq!(code("a|b"), "`a\\|b`");
        assert_eq!(inline("<script>*x*</script>"), "&lt;script&gt;\\*x\\*&lt;/script&gt;");
    }

    #[test]
    fn line_diff_prefixes() {
        assert_eq!(diff_lines("a\nb\n", "a\nc\n"), " a\n-b\n+c\n");
    }
}

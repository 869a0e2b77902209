//! The verdict at the top of every report: messages stored and sent, the rewrites by rule,
//! whether the stored transcript would be rejected and whether the replay is accepted (with
//! the provider's error text), then the command that reproduces the report.

use std::fmt::Write;

use html_escape::encode_text as esc;

use super::lint_section::LintView;
use super::markdown::syntax::{code, fenced, inline};
use super::view::View;
use crate::alignment::json::thousands;
use crate::alignment::{Row, RowKind};
use crate::hygiene::Rewrite;
use crate::lint::Finding;

/// Findings quoted in the verdict, per payload.
const QUOTED_FINDINGS: usize = 2;

/// Longest provider error text quoted in the verdict, in characters.
const QUOTE_CHARS: usize = 300;

/// Messages and rewrites in numbers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verdict {
    /// Stored messages.
    pub stored: usize,
    /// Replay messages (sent).
    pub sent: usize,
    /// Stored messages not sent.
    pub dropped: usize,
    /// Synthesized messages.
    pub inserted: usize,
    /// Messages sent changed.
    pub modified: usize,
    /// Messages sent at another position.
    pub moved: usize,
    /// Stored messages merged, and the replay messages they became.
    pub merged: (usize, usize),
    /// Rewrites in all.
    pub rewrites: usize,
    /// Rewrites per rule, in order of first appearance.
    pub per_rule: Vec<(&'static str, usize)>,
}

impl Verdict {
    /// Count a replay's rows and rewrites.
    pub fn of(rows: &[Row], stored: usize, sent: usize, rewrites: &[Rewrite]) -> Self {
        let mut v = Self {
            stored,
            sent,
            rewrites: rewrites.len(),
            ..Self::default()
        };
        for row in rows {
            match row.kind {
                RowKind::Same | RowKind::MovedFrom => {}
                RowKind::Modified => v.modified += 1,
                RowKind::Dropped => v.dropped += 1,
                RowKind::Inserted => v.inserted += 1,
                RowKind::Moved => v.moved += 1,
                RowKind::Merged => {
                    v.merged.0 += row.stored.len();
                    v.merged.1 += 1;
                }
            }
        }
        for rw in rewrites {
            match v.per_rule.iter_mut().find(|(r, _)| *r == rw.rule) {
                Some((_, n)) => *n += 1,
                None => v.per_rule.push((rw.rule, 1)),
            }
        }
        v
    }

    /// `30 stored, 22 sent (7 dropped, 4 merged into 2, 1 moved, 8 modified, 1 inserted)`.
    pub fn messages_line(&self) -> String {
        let mut parts = Vec::new();
        for (n, what) in [
            (self.dropped, "dropped"),
            (self.moved, "moved"),
            (self.modified, "modified"),
            (self.inserted, "inserted"),
        ] {
            if n > 0 {
                parts.push(format!("{} {what}", thousands(n)));
            }
        }
        if self.merged.1 > 0 {
            parts.insert(
                usize::from(self.dropped > 0),
                format!("{} merged into {}", thousands(self.merged.0), thousands(self.merged.1)),
            );
        }
        let head = format!("{} stored, {} sent", thousands(self.stored), thousands(self.sent));
        if parts.is_empty() {
            format!("{head}, all unchanged")
        } else {
            format!("{head} ({})", parts.join(", "))
        }
    }
}

/// A bit of verdict text: renderers escape and style it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Span {
    /// Plain text.
    Text(String),
    /// Code: ids, paths.
    Code(String),
    /// Emphasised text: the verdict words.
    Strong(String),
}

/// One verdict bullet: a label, its text, and sub-bullets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// `Messages`, `Rewrites`, …
    pub label: String,
    /// The text.
    pub body: Vec<Span>,
    /// Sub-bullets (quoted findings).
    pub sub: Vec<Vec<Span>>,
}

fn text(s: impl Into<String>) -> Span {
    Span::Text(s.into())
}

/// The verdict bullets of a view.
pub fn items(view: &View) -> Vec<Item> {
    let v = &view.verdict;
    let mut out = vec![Item {
        label: "Messages".into(),
        body: vec![text(v.messages_line())],
        sub: Vec::new(),
    }];
    let mut rewrites = Vec::new();
    if v.per_rule.is_empty() {
        rewrites.push(text("none: the replay equals the stored transcript"));
    } else {
        let rules = if v.per_rule.len() == 1 { "rule" } else { "rules" };
        rewrites.push(text(format!(
            "{} by {} {rules}: ",
            thousands(v.rewrites),
            v.per_rule.len()
        )));
        for (i, (rule, n)) in v.per_rule.iter().enumerate() {
            if i > 0 {
                rewrites.push(text(", "));
            }
            rewrites.push(Span::Code((*rule).to_owned()));
            rewrites.push(text(format!(" {}", thousands(*n))));
        }
    }
    out.push(Item {
        label: "Rewrites".into(),
        body: rewrites,
        sub: Vec::new(),
    });
    if let Some(no_route) = view.no_route() {
        out.push(Item {
            label: "No route".into(),
            body: vec![
                Span::Strong("OpenClaw sends nothing".into()),
                text(format!(": {no_route}")),
            ],
            sub: Vec::new(),
        });
    }
    if let Some(assumption) = view.assumption() {
        out.push(Item {
            label: "Plugin".into(),
            body: vec![text(assumption)],
            sub: Vec::new(),
        });
    }
    if let Some(refusal) = view.refusal() {
        out.push(Item {
            label: "OpenClaw refuses".into(),
            body: vec![
                Span::Strong("this replay is not sent at all".into()),
                text(format!(": {refusal}")),
            ],
            sub: Vec::new(),
        });
    }
    match &view.lint {
        None => out.push(Item {
            label: "Provider check".into(),
            body: vec![text("not done: replaylens has no wire converter for this target's API")],
            sub: Vec::new(),
        }),
        Some(lint) => {
            out.push(lint_item(
                "Stored transcript as is",
                lint,
                &lint.stored,
                "would be rejected",
            ));
            if view.replay_len() == 0 && lint.replay.is_empty() {
                out.push(Item {
                    label: "Replay".into(),
                    body: vec![text("nothing to send: the replay holds no message")],
                    sub: Vec::new(),
                });
            } else {
                out.push(lint_item("Replay", lint, &lint.replay, "would still be rejected"));
            }
        }
    }
    if let Some(releases) = &view.releases {
        out.push(Item {
            label: "OpenClaw releases".into(),
            body: vec![text(releases.clone())],
            sub: Vec::new(),
        });
    }
    if let Some(filter) = view.focus.describe() {
        out.push(Item {
            label: "Filter".into(),
            body: vec![text(format!("this report shows only {filter}"))],
            sub: Vec::new(),
        });
    }
    out
}

fn lint_item(label: &str, lint: &LintView, findings: &[Finding], rejected: &str) -> Item {
    if findings.is_empty() {
        return Item {
            label: label.into(),
            body: vec![
                Span::Strong("accepted".into()),
                text(" by "),
                Span::Code(lint.api.into()),
                text(" (no finding)"),
            ],
            sub: Vec::new(),
        };
    }
    let n = findings.len();
    let mut sub: Vec<Vec<Span>> = findings
        .iter()
        .take(QUOTED_FINDINGS)
        .map(|f| {
            let whence = if f.stored.is_empty() {
                String::new()
            } else {
                format!(" (stored {})", crate::text::index_list(&f.stored, "s"))
            };
            vec![
                Span::Code(f.path.clone()),
                text(format!("{whence}: ")),
                text(quote(&f.message)),
            ]
        })
        .collect();
    if n > QUOTED_FINDINGS {
        sub.push(vec![text(format!(
            "and {} more (see Provider lint)",
            thousands(n - QUOTED_FINDINGS)
        ))]);
    }
    Item {
        label: label.into(),
        body: vec![
            Span::Strong(rejected.into()),
            text(" by "),
            Span::Code(lint.api.into()),
            text(format!(", {} finding{}:", thousands(n), if n == 1 { "" } else { "s" })),
        ],
        sub,
    }
}

/// A provider error quoted on one line, elided past [`QUOTE_CHARS`].
fn quote(message: &str) -> String {
    let one_line = message.split_whitespace().collect::<Vec<_>>().join(" ");
    let chars = one_line.chars().count();
    if chars <= QUOTE_CHARS {
        return format!("“{one_line}”");
    }
    let cut: String = one_line.chars().take(QUOTE_CHARS).collect();
    format!("“{cut}…” ({} chars)", thousands(chars))
}

fn md_spans(spans: &[Span]) -> String {
    spans
        .iter()
        .map(|s| match s {
            Span::Text(t) => inline(t),
            Span::Code(c) => code(c),
            Span::Strong(t) => format!("**{}**", inline(t)),
        })
        .collect()
}

/// The verdict as Markdown: a `## Verdict` section (with `extra` bullets at its end) and the
/// reproduce command.
pub fn markdown(view: &View, extra: &[Item]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## Verdict\n\n{} ({}), OpenClaw rule set {}:\n",
        code(&view.target_line()),
        inline(view.family.1),
        code(view.openclaw)
    );
    for item in items(view).iter().chain(extra) {
        let _ = writeln!(out, "- **{}:** {}", inline(&item.label), md_spans(&item.body));
        for sub in &item.sub {
            let _ = writeln!(out, "  - {}", md_spans(sub));
        }
    }
    let _ = writeln!(
        out,
        "\nReproduce this report:\n\n{}\n",
        fenced("sh", &view.command_line())
    );
    out
}

/// Verdict text as HTML: the verdict words coloured by outcome, rule ids linked to the Rules
/// section when `rules` holds them.
fn html_spans(spans: &[Span], rules: &[(&'static str, usize)]) -> String {
    spans
        .iter()
        .map(|s| match s {
            Span::Text(t) => esc(t).into_owned(),
            Span::Code(c) if rules.iter().any(|(r, _)| r == c) => format!(
                "<a href=\"#{}\"><code>{}</code></a>",
                super::markdown::syntax::rule_anchor(c),
                esc(c)
            ),
            Span::Code(c) => format!("<code>{}</code>", esc(c)),
            Span::Strong(t) => {
                let outcome = if t.contains("rejected") { "bad" } else { "ok" };
                format!("<strong class=\"{outcome}\">{}</strong>", esc(t))
            }
        })
        .collect()
}

/// The verdict as an HTML summary card (with `extra` items at its end), ending with the
/// reproduce command.
pub fn html(view: &View, extra: &[Item]) -> String {
    let mut out = String::from("<section id=\"verdict\" class=\"card verdict\">\n");
    let _ = writeln!(
        out,
        "<h2>Verdict</h2>\n<p class=\"target\"><code>{}</code> ({}), OpenClaw rule set <code>{}</code></p>\n<dl>",
        esc(&view.target_line()),
        esc(view.family.1),
        esc(view.openclaw)
    );
    let rules = &view.verdict.per_rule;
    for item in items(view).iter().chain(extra) {
        let _ = write!(
            out,
            "<dt>{}</dt><dd>{}",
            esc(&item.label),
            html_spans(&item.body, if item.label == "Rewrites" { rules } else { &[] })
        );
        if !item.sub.is_empty() {
            out.push_str("<ul>");
            for sub in &item.sub {
                let _ = write!(out, "<li>{}</li>", html_spans(sub, &[]));
            }
            out.push_str("</ul>");
        }
        out.push_str("</dd>\n");
    }
    let _ = writeln!(
        out,
        "</dl>\n<p class=\"repro\">Reproduce this report:</p>\n<pre class=\"command\">{}</pre>\n</section>",
        esc(&view.command_line())
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_line_names_every_kind() {
        let v = Verdict {
            stored: 30,
            sent: 22,
            dropped: 7,
            merged: (4, 2),
            moved: 1,
            modified: 8,
            inserted: 1,
            ..Verdict::default()
        };
        assert_eq!(
            v.messages_line(),
            "30 stored, 22 sent (7 dropped, 4 merged into 2, 1 moved, 8 modified, 1 inserted)"
        );
        let quiet = Verdict {
            stored: 3,
            sent: 3,
            ..Verdict::default()
        };
        assert_eq!(quiet.messages_line(), "3 stored, 3 sent, all unchanged");
        assert!(quote(&"x".repeat(400)).ends_with("(400 chars)"));
    }
}

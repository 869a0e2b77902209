//! The data every export format renders: a redacted, owned copy of one replay, aligned
//! row by row.

use std::collections::BTreeMap;

use crate::model::json::Value;

use super::ExportOptions;
use super::focus::Focus;
use super::redact::{Redaction, Redactor};
use super::verdict::Verdict;
use crate::diff::{Row, RowKind, align};
use crate::hygiene::Rewrite;
use crate::lint::{Finding, lint};
use crate::model::Session;
use crate::replay::Replay;
use crate::wire::{WireStage, payload_of};

/// One replay, ready to render: every transcript string already redacted.
#[derive(Debug, Clone)]
pub struct View {
    /// replaylens version.
    pub version: &'static str,
    /// The OpenClaw rule set replayed (`--openclaw`).
    pub openclaw: &'static str,
    /// Session id (redacted).
    pub session_id: String,
    /// Session format name.
    pub format: &'static str,
    /// Session path (redacted).
    pub path: String,
    /// Target provider / API / model (redacted).
    pub target: [Option<String>; 3],
    /// Family id and label.
    pub family: (&'static str, &'static str),
    /// Resolved policy flags as JSON.
    pub policy: Value,
    /// Stored messages (redacted), by stored index.
    pub stored: Vec<Value>,
    /// Stored entry ids (redacted), by stored index.
    pub entry_ids: Vec<Option<String>>,
    /// Replay messages (redacted) and their provenance.
    pub replay: Vec<(Vec<usize>, Value)>,
    /// Rewrites with redacted details.
    pub rewrites: Vec<Rewrite>,
    /// Rows aligned by provenance.
    pub rows: Vec<Row>,
    /// Redaction level.
    pub redaction: Redaction,
    /// What was redacted, by kind.
    pub redacted: BTreeMap<&'static str, usize>,
    /// Provider lint of the stored and replay payloads (`None` when the API has no converter).
    pub lint: Option<LintView>,
    /// Messages and rewrites in numbers, for the verdict at the top of a report.
    pub verdict: Verdict,
    /// The rows the report is about.
    pub focus: Focus,
    /// The arguments of the `replaylens` command that reproduces this report.
    pub command: Vec<String>,
}

/// Provider lint findings of both payloads, messages redacted.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LintView {
    /// The API checked.
    pub api: &'static str,
    /// `accepted` or `would be rejected` (the replay payload).
    pub verdict: &'static str,
    /// Findings on the stored transcript converted as is.
    pub stored: Vec<Finding>,
    /// Findings on the replay payload.
    pub replay: Vec<Finding>,
}

impl LintView {
    /// Every finding, the replay's first (what would still be rejected), then the stored ones.
    pub fn findings(&self) -> impl Iterator<Item = &Finding> {
        self.replay.iter().chain(&self.stored)
    }

    /// Lint both payloads of the replay, one payload in memory at a time (each is as large as
    /// the transcript), before the view copies the messages.
    fn lint_payloads(replay: &Replay<'_>) -> Option<UnredactedLint> {
        let (api, stored) = {
            let payload = payload_of(replay, WireStage::Stored).ok()?;
            (payload.payload.api.id(), lint(&payload))
        };
        let replay = lint(&payload_of(replay, WireStage::Replay).ok()?);
        Some(UnredactedLint { api, stored, replay })
    }
}

/// The findings of both payloads before their texts are redacted.
struct UnredactedLint {
    api: &'static str,
    stored: Vec<Finding>,
    replay: Vec<Finding>,
}

impl UnredactedLint {
    /// Redact the findings' texts (the replay's first, as the report lists them).
    fn redact(self, r: &mut Redactor) -> LintView {
        let mut redact = |findings: Vec<Finding>| -> Vec<Finding> {
            findings
                .into_iter()
                .map(|f| Finding {
                    message: r.text(&f.message),
                    path: r.text(&f.path),
                    ..f
                })
                .collect()
        };
        let replay = redact(self.replay);
        LintView {
            api: self.api,
            verdict: if replay.is_empty() {
                "accepted"
            } else {
                "would be rejected"
            },
            stored: redact(self.stored),
            replay,
        }
    }
}

impl View {
    /// Build the view of a replay, redacting and focusing as asked.
    pub fn build(session: &Session, replay: &Replay<'_>, options: &ExportOptions) -> Self {
        let redaction = options.redaction;
        let lint = LintView::lint_payloads(replay);
        let mut r = Redactor::new(redaction);
        let mut text = |s: &str| r.text(s);
        let session_id = text(&session.id);
        let path = text(&session.path.display().to_string());
        let t = &replay.resolved.target;
        let target = [
            t.provider.as_deref().map(&mut text),
            t.api.as_deref().map(&mut text),
            t.model.as_deref().map(&mut text),
        ];
        let entry_ids = replay
            .transcript
            .messages
            .iter()
            .map(|m| m.entry_id.as_deref().map(&mut text))
            .collect();
        let stored_messages = &replay.transcript.messages;
        let mut stored: Vec<Value> = Vec::with_capacity(stored_messages.len());
        let mut tallies = Vec::with_capacity(stored_messages.len());
        for m in stored_messages {
            let mut v = Value::Object(m.message.as_map().clone());
            tallies.push(r.message_tally(&mut v));
            stored.push(v);
        }
        let mut replayed = Vec::with_capacity(replay.projection.messages.len());
        for m in &replay.projection.messages {
            // A message the rules left as stored takes the stored side's redaction (the same
            // placeholders, counted again) instead of a second redacted copy.
            if let [source] = m.source[..]
                && let Some(original) = stored_messages.get(source)
                && m.message.as_map().shares_storage(original.message.as_map())
            {
                r.count_again(&tallies[source]);
                replayed.push((m.source.clone(), stored[source].clone()));
                continue;
            }
            let mut v = Value::Object(m.message.as_map().clone());
            r.message(&mut v);
            replayed.push((m.source.clone(), v));
        }
        drop(tallies);
        let rewrites: Vec<Rewrite> = replay
            .projection
            .rewrites
            .iter()
            .map(|rw| Rewrite {
                detail: r.text(&rw.detail).into(),
                ..rw.clone()
            })
            .collect();
        let rows = align(&replay.transcript.messages, &replay.projection);
        let lint = lint.map(|l| l.redact(&mut r));
        let verdict = Verdict::of(&rows, stored.len(), replayed.len(), &rewrites);
        let command = super::command::export_args(
            &super::command::Reproduce {
                path: &path,
                database_session: session.db_window.is_some().then_some(session_id.as_str()),
                target: &target,
                replay: &replay.options,
            },
            options,
        );
        Self {
            version: env!("CARGO_PKG_VERSION"),
            openclaw: replay.options.rule_set.name,
            session_id,
            format: session.format.as_str(),
            path,
            target,
            family: (replay.resolved.family.id(), replay.resolved.family.label()),
            policy: crate::model::json::to_value(&replay.resolved.policy).unwrap_or(Value::Null),
            stored,
            entry_ids,
            replay: replayed,
            rewrites,
            rows,
            redaction,
            redacted: r.counts().clone(),
            lint,
            verdict,
            focus: Focus {
                only_rules: options.only_rules.clone(),
                messages: options.messages,
            },
            command,
        }
    }

    /// The target as `provider / api / model`.
    pub fn target_line(&self) -> String {
        self.target
            .iter()
            .map(|p| p.as_deref().unwrap_or("?"))
            .collect::<Vec<_>>()
            .join(" / ")
    }

    /// The redaction level and what was redacted, by kind and count.
    pub fn redaction_line(&self) -> String {
        let level = match self.redaction {
            Redaction::None => return "none".into(),
            Redaction::Secrets => "secrets",
            Redaction::AllText => "all text",
        };
        let counts: Vec<String> = self.redacted.iter().map(|(k, n)| format!("{k}: {n}")).collect();
        if counts.is_empty() {
            format!("{level} (nothing found)")
        } else {
            format!("{level}: {}", counts.join(", "))
        }
    }

    /// The role of a row's message: the replay side's, else its first stored message's.
    pub fn row_role(&self, row: &Row) -> &str {
        row.replay
            .map(|r| &self.replay[r].1)
            .or_else(|| row.stored.first().map(|&s| &self.stored[s]))
            .and_then(|m| m.get("role"))
            .and_then(Value::as_str)
            .unwrap_or("?")
    }

    /// Rewrite counts per rule, in pipeline order of first appearance.
    pub fn per_rule(&self) -> Vec<(&'static str, usize)> {
        let mut out: Vec<(&'static str, usize)> = Vec::new();
        for rw in &self.rewrites {
            match out.iter_mut().find(|(r, _)| *r == rw.rule) {
                Some((_, n)) => *n += 1,
                None => out.push((rw.rule, 1)),
            }
        }
        out
    }

    /// Whether each row lies in the `--messages` range: one of its stored messages does, or,
    /// for an inserted row, the stored message before it.
    pub fn rows_in_range(&self) -> Vec<bool> {
        let mut before: Option<usize> = None;
        self.rows
            .iter()
            .map(|row| match row.stored.first() {
                Some(_) => {
                    // A moved message's row stands where it lands, not where it was stored.
                    if row.kind != RowKind::Moved {
                        before = row.stored.iter().copied().max().or(before);
                    }
                    row.stored.iter().any(|&s| self.focus.has_stored(s))
                }
                None => self.focus.messages.is_none() || before.is_some_and(|s| self.focus.has_stored(s)),
            })
            .collect()
    }

    /// Whether a row touched by a rewrite is in focus: in range, and touched by a focused rule.
    fn changed_in_focus(&self, row: &Row, in_range: bool) -> bool {
        in_range
            && row.is_rewritten()
            && (self.focus.only_rules.is_empty()
                || row.rewrites.iter().any(|&i| self.focus.has_rule(self.rewrites[i].rule)))
    }

    /// Indices of the changed rows in focus.
    pub fn changed_rows(&self) -> Vec<usize> {
        let range = self.rows_in_range();
        (0..self.rows.len())
            .filter(|&i| self.changed_in_focus(&self.rows[i], range[i]))
            .collect()
    }

    /// Indices of the rows to show: changed rows in focus plus `context` unchanged rows (in
    /// range) around each, or, with `all`, every row in range but those only other rules
    /// touched.
    pub fn selected_rows(&self, all: bool, context: usize) -> Vec<usize> {
        let range = self.rows_in_range();
        let unchanged = |i: usize| range[i] && !self.rows[i].is_rewritten();
        let mut keep = vec![false; self.rows.len()];
        for (i, row) in self.rows.iter().enumerate() {
            if self.changed_in_focus(row, range[i]) {
                keep[i] = true;
                let lo = i.saturating_sub(context);
                let hi = (i + context).min(self.rows.len().saturating_sub(1));
                (lo..=hi).filter(|&k| unchanged(k)).for_each(|k| keep[k] = true);
            } else if all && unchanged(i) {
                keep[i] = true;
            }
        }
        keep.iter().enumerate().filter(|(_, k)| **k).map(|(i, _)| i).collect()
    }

    /// Indices of the rewrites in focus: by a focused rule, on a row in range.
    pub fn rewrites_in_focus(&self) -> Vec<usize> {
        let range = self.rows_in_range();
        let mut ids: Vec<usize> = if self.focus.messages.is_none() {
            (0..self.rewrites.len()).collect()
        } else {
            self.rows
                .iter()
                .zip(&range)
                .filter(|(_, r)| **r)
                .flat_map(|(row, _)| row.rewrites.iter().copied())
                .collect()
        };
        ids.sort_unstable();
        ids.dedup();
        ids.retain(|&i| self.focus.has_rule(self.rewrites[i].rule));
        ids
    }

    /// The command line that reproduces this report, shell-quoted.
    pub fn command_line(&self) -> String {
        super::command::command_line(&self.command)
    }

    /// The stored side of a row as pretty JSON (merged rows: one document per message).
    pub fn stored_text(&self, row: &Row) -> String {
        row.stored
            .iter()
            .map(|&s| pretty(&self.stored[s]))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The replay side of a row as pretty JSON (empty when there is none).
    pub fn replay_text(&self, row: &Row) -> String {
        row.replay.map(|r| pretty(&self.replay[r].1)).unwrap_or_default()
    }
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

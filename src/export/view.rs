//! The data every export format renders: one replay aligned row by row, its strings
//! redacted as they are read.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::BTreeMap;

use crate::alignment::json::Options;
use crate::alignment::json::row::{RowValues, Section, sections};
use crate::model::json::{Map, Value};

use super::ExportOptions;
use super::focus::Focus;
use super::lint_section::{LintFindings, LintView};
use super::redact::{Redaction, Redactor, Tally};
use super::stored_file::{ReadBack, StoredFileError};
use super::verdict::Verdict;
use crate::alignment::{ReplaySide, Row, RowKind, align, align_sides};
use crate::hygiene::Rewrite;
use crate::model::Session;
use crate::replay::Replay;

/// One replay, ready to render. Messages, entry ids and rewrite details are read from the
/// replay when a renderer asks for them, redacted then: building the view redacts every
/// string once to count what it redacts and to give each redacted value its placeholder, so
/// a message redacted again for rendering comes out the same, and no redacted copy of the
/// transcript is held.
#[derive(Debug)]
pub struct View<'r> {
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
    /// The OpenClaw configuration replayed under: its path (redacted), or `no configuration`.
    /// Nothing it holds is ever shown (keys, headers, tokens).
    pub configuration: String,
    /// Target provider / API / model (redacted).
    pub target: [Option<String>; 3],
    /// Messages of the file the stored transcript leaves out, by reason.
    pub hidden: crate::model::Hidden,
    /// Family id and label.
    pub family: (&'static str, &'static str),
    /// Resolved policy flags as JSON.
    pub policy: Value,
    /// The rewrites as the rules recorded them (details not redacted: read them through
    /// [`View::rewrite`]).
    pub rewrites: &'r [Rewrite],
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
    /// The verdict per OpenClaw release range, when the caller computed it.
    pub releases: Option<String>,
    /// The rows the report is about.
    pub focus: Focus,
    /// The arguments of the `replaylens` command that reproduces this report.
    pub command: Vec<String>,
    replay: &'r Replay<'r>,
    /// Where stored messages (and replay messages left as stored) are read back from, when
    /// the replay does not hold them.
    read_back: Option<&'r ReadBack>,
    /// The first stored message that could not be read back.
    failure: RefCell<Option<StoredFileError>>,
    /// The redactor after the counting pass: every placeholder is assigned.
    redactor: RefCell<Redactor>,
}

impl<'r> View<'r> {
    /// "OpenClaw … has no route for …" when the release cannot send to the target at all.
    pub fn no_route(&self) -> Option<&str> {
        self.replay.resolved.no_route.as_deref()
    }

    /// "assumes the ClawHub plugin … is installed; without it: …" when the policy rests on it.
    pub fn assumption(&self) -> Option<String> {
        self.replay.resolved.assumption()
    }

    /// Why OpenClaw refuses to send this replay at all (`invalid_replay_transcript`), if it does.
    pub fn refusal(&self) -> Option<&str> {
        self.replay.projection.refusal.as_deref()
    }

    /// Build the view of a replay that holds both sides, redacting and focusing as asked.
    pub fn build(session: &Session, replay: &'r Replay<'r>, options: &ExportOptions) -> Self {
        let lint = LintFindings::of_replay(replay);
        let view = Self::assemble(session, replay, options, lint, None);
        view.expect("a replay holding both sides reads nothing back")
    }

    /// Build the view of a replay whose stored messages are read back from the session file
    /// ([`ReadBack`]), with the lint findings computed before it (the replay alone cannot give
    /// the stored payload).
    pub fn build_reading_back(
        session: &Session,
        replay: &'r Replay<'r>,
        options: &ExportOptions,
        lint: Option<LintFindings>,
        read_back: &'r ReadBack,
    ) -> Result<Self, StoredFileError> {
        Self::assemble(session, replay, options, lint, Some(read_back))
    }

    fn assemble(
        session: &Session,
        replay: &'r Replay<'r>,
        options: &ExportOptions,
        lint: Option<LintFindings>,
        read_back: Option<&'r ReadBack>,
    ) -> Result<Self, StoredFileError> {
        let redaction = options.redaction;
        let mut r = Redactor::new(redaction);
        let mut text = |s: &str| r.text(s);
        let session_id = text(&session.id);
        // A redacted report names the session (and the configuration) by its base name: the
        // absolute path carries the user name and project folders of the machine that wrote it.
        let shown = |p: &std::path::Path| match redaction {
            Redaction::None => p.display().to_string(),
            _ => base_name(p),
        };
        let path = text(&shown(&session.path));
        let configuration = match replay.options.config.as_deref() {
            Some(c) => text(&shown(&c.path)),
            None => crate::policy::config::OpenClawConfig::describe(None),
        };
        let t = &replay.resolved.target;
        let target = [
            t.provider.as_deref().map(&mut text),
            t.api.as_deref().map(&mut text),
            t.model.as_deref().map(&mut text),
        ];
        if redaction != Redaction::None {
            count_redactions(&mut r, replay, read_back)?;
        }
        let rows = match read_back {
            None => align(&replay.transcript.messages, &replay.projection),
            Some(read_back) => {
                let sides: Vec<ReplaySide<'_>> = (replay.projection.messages.iter().enumerate())
                    .map(|(i, m)| ReplaySide {
                        source: &m.source,
                        changed: read_back.is_changed(i),
                    })
                    .collect();
                align_sides(replay.transcript.messages.len(), &sides, &replay.projection.rewrites)
            }
        };
        let lint = lint.map(|l| l.redact(&mut r));
        let rewrites = &replay.projection.rewrites;
        let verdict = Verdict::of(
            &rows,
            replay.transcript.messages.len(),
            replay.projection.messages.len(),
            rewrites,
        );
        let shared = (options.shared_session.as_deref()).map(|p| base_name(std::path::Path::new(p)));
        let command = super::command::export_args(
            &super::command::Reproduce {
                // The shared copy travels beside the report: named by its base name.
                path: shared.as_deref().unwrap_or(&path),
                // The shared copy is a file of its own, not a database with several sessions.
                database_session: (session.db_window.is_some() && options.shared_session.is_none())
                    .then_some(session_id.as_str()),
                target: &target,
                replay: &replay.options,
                config: replay.options.config.is_some().then_some(configuration.as_str()),
            },
            options,
        );
        Ok(Self {
            version: env!("CARGO_PKG_VERSION"),
            openclaw: replay.options.rule_set.name,
            session_id,
            format: session.format.as_str(),
            path,
            configuration,
            target,
            hidden: replay.transcript.hidden,
            family: (replay.resolved.family.id(), replay.resolved.family.label()),
            policy: crate::model::json::to_value(&replay.resolved.policy).unwrap_or(Value::Null),
            rewrites,
            rows,
            redaction,
            redacted: r.counts().clone(),
            lint,
            verdict,
            releases: options.releases.clone(),
            focus: Focus {
                only_rules: options.only_rules.clone(),
                messages: options.messages,
            },
            command,
            replay,
            read_back,
            failure: RefCell::new(None),
            redactor: RefCell::new(r),
        })
    }

    /// The first stored message that could not be read back while rendering (the session
    /// file changed meanwhile); the document is then incomplete.
    pub fn read_back_failure(&self) -> Option<String> {
        self.failure.borrow().as_ref().map(ToString::to_string)
    }

    /// Stored message `i` as stored (not redacted), read back when the replay does not hold it.
    fn stored_map(&self, i: usize) -> Cow<'r, Map> {
        let stored = &self.replay.transcript.messages[i];
        match self.read_back {
            Some(read_back) if read_back.reads(stored) => match read_back.message(stored) {
                Ok(m) => Cow::Owned(m.as_map().clone()),
                Err(e) => {
                    self.failure.borrow_mut().get_or_insert(e);
                    Cow::Owned(Map::new())
                }
            },
            _ => Cow::Borrowed(stored.message.as_map()),
        }
    }

    /// Replay message `r` as sent (not redacted), read back when it is its stored message.
    fn replay_map(&self, r: usize) -> Cow<'r, Map> {
        let m = &self.replay.projection.messages[r];
        match (self.read_back, m.source.as_slice()) {
            (Some(read_back), [s]) if read_back.is_same(r) => self.stored_map(*s),
            _ => Cow::Borrowed(m.message.as_map()),
        }
    }

    /// Number of stored messages.
    pub fn stored_len(&self) -> usize {
        self.replay.transcript.messages.len()
    }

    /// Number of replay messages.
    pub fn replay_len(&self) -> usize {
        self.replay.projection.messages.len()
    }

    /// Stored message `i`, redacted.
    pub fn stored(&self, i: usize) -> Value {
        self.redacted_message(self.stored_map(i))
    }

    /// The entry id of stored message `i`, redacted.
    pub fn entry_id(&self, i: usize) -> Option<Cow<'r, str>> {
        let id = self.replay.transcript.messages[i].entry_id.as_deref()?;
        Some(self.redacted_text(id))
    }

    /// Replay message `r`, redacted.
    pub fn replayed(&self, r: usize) -> Value {
        self.redacted_message(self.replay_map(r))
    }

    /// The JSON comparison of `row` as the reports show it (values redacted as the view
    /// says), handed to `f`: the sections of [`crate::alignment::json::row::sections`].
    pub fn with_sections<T>(&self, row: &crate::alignment::Row, f: impl FnOnce(Vec<Section<'_>>) -> T) -> T {
        let stored: Vec<(usize, Value)> = row.stored.iter().map(|&s| (s, self.stored(s))).collect();
        let stored: Vec<(usize, &Value)> = stored.iter().map(|(s, v)| (*s, v)).collect();
        let replayed = row.replay.map(|r| (r, self.replayed(r)));
        let values = RowValues {
            kind: row.kind,
            stored: &stored,
            replay: replayed.as_ref().map(|(r, v)| (*r, v)),
            moved_to: row.moved_to,
        };
        f(sections(values, &Options::default()))
    }

    /// The stored indices replay message `r` came from.
    pub fn replay_source(&self, r: usize) -> &'r [usize] {
        &self.replay.projection.messages[r].source
    }

    /// Rewrite `k`, its detail redacted.
    pub fn rewrite(&self, k: usize) -> Cow<'r, Rewrite> {
        let rw = &self.rewrites[k];
        match self.redacted_text(&rw.detail) {
            Cow::Borrowed(_) => Cow::Borrowed(rw),
            Cow::Owned(detail) => Cow::Owned(Rewrite {
                detail: detail.into(),
                ..rw.clone()
            }),
        }
    }

    /// A string of the replay, redacted (as it is when nothing is redacted).
    fn redacted_text<'a>(&self, text: &'a str) -> Cow<'a, str> {
        match self.redaction {
            Redaction::None => Cow::Borrowed(text),
            _ => Cow::Owned(self.redactor.borrow_mut().text(text)),
        }
    }

    fn redacted_message(&self, message: Cow<'_, Map>) -> Value {
        let mut v = Value::Object(message.into_owned());
        self.redactor.borrow_mut().message(&mut v);
        v
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

    /// The role of a row's message (redacted): the replay side's, else its first stored
    /// message's.
    pub fn row_role(&self, row: &Row) -> String {
        let message = row
            .replay
            .map(|r| self.replay_map(r))
            .or_else(|| row.stored.first().map(|&s| self.stored_map(s)));
        let Some(role) = message.as_deref().and_then(|m| m.get("role")).and_then(Value::as_str) else {
            return "?".to_owned();
        };
        self.redacted_text(role).into_owned()
    }

    /// Rewrite counts per rule, in pipeline order of first appearance.
    pub fn per_rule(&self) -> Vec<(&'static str, usize)> {
        let mut out: Vec<(&'static str, usize)> = Vec::new();
        for rw in self.rewrites {
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
    /// touched. The rows of the messages the verdict names (the lint findings) are always
    /// shown, with at least one row of context around each.
    pub fn selected_rows(&self, all: bool, context: usize) -> Vec<usize> {
        let range = self.rows_in_range();
        let unchanged = |i: usize| range[i] && !self.rows[i].is_rewritten();
        let mut keep = vec![false; self.rows.len()];
        let named = self.rows_named_by_findings();
        for (i, row) in self.rows.iter().enumerate() {
            if named[i] {
                keep[i] = true;
                let lo = i.saturating_sub(context.max(1));
                let hi = (i + context.max(1)).min(self.rows.len().saturating_sub(1));
                (lo..=hi).filter(|&k| unchanged(k)).for_each(|k| keep[k] = true);
            }
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

    /// For each row, whether a lint finding of either payload (what the verdict names) points
    /// at its replay message or its stored messages.
    fn rows_named_by_findings(&self) -> Vec<bool> {
        let Some(lint) = &self.lint else {
            return vec![false; self.rows.len()];
        };
        // Sets first: a large session has tens of thousands of rows and of findings.
        let replay: std::collections::HashSet<usize> = lint.findings().flat_map(|f| f.replay.iter().copied()).collect();
        let stored: std::collections::HashSet<usize> = lint.findings().flat_map(|f| f.stored.iter().copied()).collect();
        self.rows
            .iter()
            .map(|row| row.replay.is_some_and(|j| replay.contains(&j)) || row.stored.iter().any(|s| stored.contains(s)))
            .collect()
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
            .map(|&s| pretty(&self.stored(s)))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The replay side of a row as pretty JSON (empty when there is none).
    pub fn replay_text(&self, row: &Row) -> String {
        row.replay.map(|r| pretty(&self.replayed(r))).unwrap_or_default()
    }
}

/// Redact every stored and replay message and every rewrite detail once, in the order a
/// report lists them, to count what is redacted and assign each value its placeholder. A
/// replay message the rules left as stored is counted again without a second redaction.
fn count_redactions(
    r: &mut Redactor,
    replay: &Replay<'_>,
    read_back: Option<&ReadBack>,
) -> Result<(), StoredFileError> {
    let stored_messages = &replay.transcript.messages;
    for m in stored_messages {
        if let Some(id) = m.entry_id.as_deref() {
            r.text(id);
        }
    }
    let mut tallies: Vec<Tally> = Vec::with_capacity(stored_messages.len());
    for m in stored_messages {
        let mut value = match read_back {
            Some(read_back) if read_back.reads(m) => Value::Object(read_back.message(m)?.as_map().clone()),
            _ => Value::Object(m.message.as_map().clone()),
        };
        tallies.push(r.message_tally(&mut value));
    }
    for (i, m) in replay.projection.messages.iter().enumerate() {
        if let [source] = m.source[..]
            && let Some(original) = stored_messages.get(source)
            && (read_back.is_some_and(|rb| rb.is_same(i))
                || m.message.as_map().shares_storage(original.message.as_map()))
        {
            r.count_again(&tallies[source]);
            continue;
        }
        r.message(&mut Value::Object(m.message.as_map().clone()));
    }
    for rw in &replay.projection.rewrites {
        r.text(&rw.detail);
    }
    Ok(())
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// The last component of `path` (the whole path when it has none), as text.
fn base_name(path: &std::path::Path) -> String {
    path.file_name()
        .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

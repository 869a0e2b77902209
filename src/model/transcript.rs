//! The stored transcript a replay starts from: the active branch of a session, with the
//! latest compaction applied (pi's and OpenClaw's `buildSessionContext`; `docs/internals.md`).

use std::borrow::Cow;
use std::collections::HashSet;

use crate::model::json::{Str, Value};
use serde::Serialize;

use super::coverage::{Hidden, ModelSource, branch_model, is_excluded, is_message_entry, is_transcript_only};
use super::diagnostic::{Diagnostic, Location};
use super::entry::{Entry, EntryKind};
use super::message::Message;
use super::projected::{branch_summary, compaction_summary, custom_message, loaded_message, retained_message};
use super::session::Session;

/// Which kind of stored item a transcript message came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Origin {
    /// A `message` entry (or an element of a bare message array).
    Message,
    /// A `custom_message` entry, presented as a `custom` role message.
    CustomMessage,
    /// A `branch_summary` entry, presented as a `branchSummary` message.
    BranchSummary,
    /// The latest `compaction` entry, presented as a `compactionSummary` message.
    CompactionSummary,
    /// A message mapped from another agent's stored lines (Claude Code, Codex).
    Mapped,
}

/// One message of the stored transcript.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredMessage<'s> {
    /// The id of the entry it came from.
    pub entry_id: Option<Str>,
    /// Where that entry was read.
    pub location: Option<Location>,
    /// What kind of entry it came from.
    pub origin: Origin,
    /// The message, borrowed from the session when stored as a message.
    pub message: Cow<'s, Message>,
}

/// A provider / API / model triple; each part optional.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct ModelRef {
    /// Provider id (e.g. `anthropic`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// Model API (e.g. `anthropic-messages`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api: Option<String>,
    /// Model id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

impl ModelRef {
    /// True when no part is known.
    pub fn is_empty(&self) -> bool {
        self.provider.is_none() && self.api.is_none() && self.model.is_none()
    }
}

/// A model selection recorded on the branch, with the number of transcript messages
/// that precede it (so later rules can tell which turns came before a model switch).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelEvent {
    /// Number of transcript messages emitted before this selection.
    pub before_message: usize,
    /// The selected model.
    pub model: ModelRef,
    /// `model_change` or `model-snapshot`.
    pub source: &'static str,
}

/// The compaction that was applied to the branch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AppliedCompaction {
    /// Id of the `compaction` (or `reset`) entry.
    pub entry_id: Option<Str>,
    /// `compaction` or `reset`.
    pub kind: &'static str,
    /// `firstKeptEntryId`, when set.
    pub first_kept_entry_id: Option<Str>,
    /// Number of branch entries left out because they precede the cut.
    pub entries_cut: usize,
}

/// The stored transcript: what a replay starts from.
#[derive(Debug, Clone, Default)]
pub struct Transcript<'s> {
    /// The messages, in order.
    pub messages: Vec<StoredMessage<'s>>,
    /// The leaf entry the branch was walked from.
    pub leaf_id: Option<String>,
    /// Number of entries on the active branch (root to leaf).
    pub branch_len: usize,
    /// The compaction (or reset) that was applied, if any.
    pub compaction: Option<AppliedCompaction>,
    /// The session's latest model: the default replay target.
    pub model: ModelRef,
    /// Where [`Transcript::model`] was read; `None` when the session names no model.
    pub model_source: Option<ModelSource>,
    /// Messages of the file the stored transcript leaves out, and mirrors it holds.
    pub hidden: Hidden,
    /// Every model selection on the branch, in order.
    pub model_events: Vec<ModelEvent>,
    /// The latest thinking level on the branch (or in the header).
    pub thinking_level: Option<String>,
    /// Problems found while walking the branch (dangling parents, cycles, missing cut).
    pub diagnostics: Vec<Diagnostic>,
}

impl<'s> Transcript<'s> {
    /// The messages, and the rest of the transcript (which borrows nothing) with none.
    pub fn into_parts(self) -> (Vec<StoredMessage<'s>>, Transcript<'static>) {
        let Transcript {
            messages,
            leaf_id,
            branch_len,
            compaction,
            model,
            model_source,
            hidden,
            model_events,
            thinking_level,
            diagnostics,
        } = self;
        let rest = Transcript {
            messages: Vec::new(),
            leaf_id,
            branch_len,
            compaction,
            model,
            model_source,
            hidden,
            model_events,
            thinking_level,
            diagnostics,
        };
        (messages, rest)
    }
}

impl Session {
    /// Build the stored transcript of the active branch.
    pub fn transcript(&self) -> Transcript<'_> {
        if let Some(mapped) = &self.mapped {
            return mapped.transcript();
        }
        if self.entries.is_empty() && !self.bare_messages.is_empty() {
            return self.bare_transcript();
        }
        let mut t = Transcript::default();
        let path = self.active_path(&mut t);
        t.branch_len = path.len();
        t.messages.reserve_exact(path.len() + 1);
        t.thinking_level = self
            .header
            .as_ref()
            .and_then(|h| h.get("thinkingLevel"))
            .and_then(Value::as_str)
            .map(str::to_owned);

        let cut = path
            .iter()
            .rposition(|e| matches!(e.kind(), EntryKind::Compaction | EntryKind::Reset));
        let mut keep_from = 0;
        if let Some(ci) = cut {
            let c = path[ci];
            let first_kept = c.first_kept_entry_id.clone();
            let is_compaction = c.kind() == EntryKind::Compaction;
            keep_from = match &first_kept {
                Some(fk) => match path[..ci].iter().position(|e| e.id.as_deref() == Some(fk)) {
                    Some(i) => i,
                    None => {
                        t.diagnostics.push(Diagnostic::warning(
                            &self.path,
                            Some(c.location),
                            format!("{} names firstKeptEntryId {fk}, which is not on the active branch; nothing before it is kept", c.type_str().unwrap_or("entry")),
                        ));
                        ci
                    }
                },
                None => ci,
            };
            if is_compaction {
                t.messages.push(StoredMessage {
                    entry_id: c.id.clone(),
                    location: Some(c.location),
                    origin: Origin::CompactionSummary,
                    message: Cow::Owned(compaction_summary(c)),
                });
            }
            t.compaction = Some(AppliedCompaction {
                entry_id: c.id.clone(),
                kind: if is_compaction { "compaction" } else { "reset" },
                first_kept_entry_id: first_kept,
                entries_cut: keep_from,
            });
        }

        // Kept from before a reset: only user and assistant turns and the tool results paired
        // with them (`selectResetKeptEntries`), as stored (excludeFromContext included).
        let reset_kept = cut
            .filter(|ci| path[*ci].kind() == EntryKind::Reset)
            .map(|ci| reset_kept(&path[keep_from..ci], keep_from));
        for (i, entry) in path.iter().enumerate() {
            self.track_settings(entry, &mut t);
            let emitted = match cut {
                Some(ci) if i >= keep_from && i < ci => reset_kept.as_ref().is_none_or(|kept| kept.contains(&i)),
                Some(ci) => i > ci,
                None => true,
            };
            if emitted && reset_kept.as_ref().is_some_and(|kept| kept.contains(&i)) {
                if let Some(m) = entry.message_value().and_then(Message::from_value_ref) {
                    t.messages.push(StoredMessage {
                        entry_id: entry.id.clone(),
                        location: Some(entry.location),
                        origin: Origin::Message,
                        message: retained_message(loaded_message(m, self.migrated_below_v3())),
                    });
                }
                continue;
            }
            if emitted && let Some(mut m) = self.entry_message(entry, &mut t.diagnostics) {
                if cut.is_some_and(|ci| i < ci) {
                    m.message = retained_message(m.message);
                }
                t.messages.push(m);
            }
        }
        t.hidden = self.hidden(&path, cut.map(|ci| (keep_from, ci)), reset_kept.as_ref(), &t);
        let (model, source) = self.latest_model(&t, branch_model(&path));
        t.model = model;
        t.model_source = source;
        t
    }

    /// What the file holds that `t` (built from `path`, cut at `cut`; `reset_kept`: the path
    /// indices a reset kept from its window) leaves out.
    fn hidden(
        &self,
        path: &[&Entry],
        cut: Option<(usize, usize)>,
        reset_kept: Option<&HashSet<usize>>,
        t: &Transcript<'_>,
    ) -> Hidden {
        let on_path: HashSet<*const Entry> = path.iter().map(|e| *e as *const Entry).collect();
        let mut h = Hidden::default();
        for e in self.entries.iter().filter(|e| is_message_entry(e)) {
            h.file_messages += 1;
            if e.id.is_none() {
                h.without_id += 1;
            } else if !on_path.contains(&(e as *const Entry)) {
                h.other_branches += 1;
            }
        }
        for (i, e) in path.iter().enumerate().filter(|(_, e)| is_message_entry(e)) {
            if cut.is_some_and(|(keep_from, ci)| i < keep_from || i == ci) {
                h.before_compaction += 1;
            } else if let Some(kept) = reset_kept
                && cut.is_some_and(|(_, ci)| i < ci)
            {
                // The reset's window: what it kept is stored as it is (excluded or not).
                if !kept.contains(&i) {
                    h.dropped_by_reset += 1;
                }
            } else if is_excluded(e) {
                h.excluded += 1;
            }
        }
        h.mirrors = t.messages.iter().filter(|m| is_transcript_only(&m.message)).count();
        h
    }

    fn bare_transcript(&self) -> Transcript<'_> {
        let mut t = Transcript::default();
        for m in &self.bare_messages {
            if let Some(msg) = Message::from_value_ref(&m.raw) {
                t.messages.push(StoredMessage {
                    entry_id: None,
                    location: Some(Location::Index(m.index)),
                    origin: Origin::Message,
                    message: Cow::Borrowed(msg),
                });
            }
        }
        t.branch_len = t.messages.len();
        t.hidden = Hidden {
            file_messages: self.bare_messages.len(),
            mirrors: t.messages.iter().filter(|m| is_transcript_only(&m.message)).count(),
            ..Hidden::default()
        };
        let latest = t
            .messages
            .iter()
            .rev()
            .map(|m| &m.message)
            .find(|m| m.is_assistant() && !is_transcript_only(m) && (m.provider().is_some() || m.model().is_some()))
            .map(|m| {
                let model = ModelRef {
                    provider: m.provider().map(str::to_owned),
                    api: m.api().map(str::to_owned),
                    model: m.model().map(str::to_owned),
                };
                (model, ModelSource::Assistant)
            });
        let (model, source) = self.latest_model(&t, latest);
        t.model = model;
        t.model_source = source;
        t
    }

    fn track_settings(&self, entry: &Entry, t: &mut Transcript<'_>) {
        let event = match entry.kind() {
            EntryKind::ModelChange => Some(ModelEvent {
                before_message: t.messages.len(),
                model: ModelRef {
                    provider: entry.str_field("provider").map(str::to_owned),
                    api: entry
                        .str_field("modelApi")
                        .or_else(|| entry.str_field("api"))
                        .map(str::to_owned),
                    model: entry
                        .str_field("modelId")
                        .or_else(|| entry.str_field("model"))
                        .map(str::to_owned),
                },
                source: "model_change",
            }),
            EntryKind::Custom if entry.custom_type() == Some("model-snapshot") => {
                let data = entry.raw.get("data");
                let field = |k: &str| data.and_then(|d| d.get(k)).and_then(Value::as_str).map(str::to_owned);
                Some(ModelEvent {
                    before_message: t.messages.len(),
                    model: ModelRef {
                        provider: field("provider"),
                        api: field("modelApi"),
                        model: field("modelId"),
                    },
                    source: "model-snapshot",
                })
            }
            EntryKind::ThinkingLevelChange => {
                if let Some(level) = entry.str_field("thinkingLevel") {
                    t.thinking_level = Some(level.to_owned());
                }
                None
            }
            _ => None,
        };
        t.model_events.extend(event);
    }

    /// Whether OpenClaw's codec migrates this file from before version 3 (`hookMessage` →
    /// `custom`): a header older than 3, or no header at all, in a file or in a database's
    /// rows alike (the session manager hydrates both through `migrateToCurrentVersion`).
    fn migrated_below_v3(&self) -> bool {
        match &self.header {
            Some(_) => self.version.is_some_and(|v| v < 3),
            None => true,
        }
    }

    fn entry_message<'s>(&'s self, entry: &'s Entry, diags: &mut Vec<Diagnostic>) -> Option<StoredMessage<'s>> {
        let (origin, message) = match entry.kind() {
            EntryKind::Message => match entry.message_value() {
                Some(v) => match Message::from_value_ref(v) {
                    // `projectSessionEntryMessage`: a message marked excludeFromContext is not
                    // part of the context (counted in `Transcript::hidden`).
                    Some(m) if m.get("excludeFromContext").and_then(Value::as_bool) == Some(true) => return None,
                    Some(m) => (Origin::Message, loaded_message(m, self.migrated_below_v3())),
                    None => {
                        diags.push(Diagnostic::warning(
                            &self.path,
                            Some(entry.location),
                            "message entry holds no message object; it is not part of the transcript",
                        ));
                        return None;
                    }
                },
                None => {
                    diags.push(Diagnostic::warning(
                        &self.path,
                        Some(entry.location),
                        "message entry has no `message` field; it is not part of the transcript",
                    ));
                    return None;
                }
            },
            EntryKind::CustomMessage => (Origin::CustomMessage, Cow::Owned(custom_message(entry))),
            EntryKind::BranchSummary => (Origin::BranchSummary, Cow::Owned(branch_summary(entry))),
            _ => return None,
        };
        Some(StoredMessage {
            entry_id: entry.id.clone(),
            location: Some(entry.location),
            origin,
            message,
        })
    }

    /// The session's own target: the branch's latest model (`branch`, as `buildSessionContext`
    /// picks it), else the header's, else the SQLite session window's. A `model_change` names no
    /// API: the latest `model-snapshot` on the branch naming the same provider and model fills
    /// it in (OpenClaw's `appendModelSnapshot` records the API it resolved for that model),
    /// else the API of the latest assistant turn on the same provider.
    fn latest_model(
        &self,
        t: &Transcript<'_>,
        branch: Option<(ModelRef, ModelSource)>,
    ) -> (ModelRef, Option<ModelSource>) {
        if let Some((mut model, source)) = branch.filter(|(m, _)| m.provider.is_some() || m.model.is_some()) {
            if model.api.is_none() {
                model.api = t
                    .model_events
                    .iter()
                    .rev()
                    .find(|e| {
                        e.source == "model-snapshot"
                            && e.model.api.is_some()
                            && e.model.provider == model.provider
                            && e.model.model == model.model
                    })
                    .and_then(|e| e.model.api.clone());
            }
            if model.api.is_none() {
                model.api = t
                    .messages
                    .iter()
                    .rev()
                    .map(|m| &m.message)
                    .find(|m| m.is_assistant() && m.api().is_some() && m.provider() == model.provider.as_deref())
                    .and_then(|m| m.api().map(str::to_owned));
            }
            return (model, Some(source));
        }
        let header = self.header.as_ref();
        let hfield = |k: &str| header.and_then(|h| h.get(k)).and_then(Value::as_str).map(str::to_owned);
        let model = ModelRef {
            provider: hfield("provider"),
            api: hfield("modelApi"),
            model: hfield("modelId"),
        };
        if !model.is_empty() {
            return (model, Some(ModelSource::Header));
        }
        if let Some(w) = &self.db_window {
            let model = ModelRef {
                provider: w.model_provider.clone(),
                api: None,
                model: w.model.clone(),
            };
            if !model.is_empty() {
                return (model, Some(ModelSource::Database));
            }
        }
        (ModelRef::default(), None)
    }
}

/// Indices (offset by `offset`) of the entries of `slice` a reset keeps: `message` entries of
/// user and assistant turns, and tool results answering a tool call of an earlier turn of the
/// slice that no earlier result answered (`classifyToolUseResultPairing`'s paired results).
fn reset_kept(slice: &[&Entry], offset: usize) -> HashSet<usize> {
    let mut kept = HashSet::new();
    let mut open: Vec<String> = Vec::new();
    for (i, e) in slice.iter().enumerate() {
        if e.kind() != EntryKind::Message {
            continue;
        }
        let Some(m) = e.message_value().and_then(Message::from_value_ref) else {
            continue;
        };
        if m.is_user() {
            kept.insert(offset + i);
        } else if m.is_assistant() {
            kept.insert(offset + i);
            open.extend(m.tool_calls().filter_map(|b| b.tool_call_id().map(str::to_owned)));
        } else if m.is_tool_result()
            && let Some(at) = m.tool_call_id().and_then(|id| open.iter().position(|o| o == id))
        {
            open.remove(at);
            kept.insert(offset + i);
        }
    }
    kept
}

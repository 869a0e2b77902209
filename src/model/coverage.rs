//! What the stored transcript leaves out of the file, and where the session's own target came
//! from: the two facts a reader needs beside the active branch's messages.
//!
//! The target follows OpenClaw's `buildSessionContext` (`packages/agent-core/src/harness/
//! session/session.ts`): walking the active branch from the root, every `model_change` and every
//! assistant turn sets the model, and the last one wins. Transcript-only rows (delivery mirrors,
//! gateway-injected replies: `isTranscriptOnlyOpenClawAssistantMessage`) are skipped: they were
//! never a model call, and OpenClaw's session-store derivation (`extractTranscriptUsageSnapshot`)
//! skips them the same way, so a session holding only mirrors names no model of its own.

use serde::Serialize;

use crate::model::json::Value;

use super::entry::{Entry, EntryKind};
use super::message::Message;
use super::transcript::ModelRef;

/// Where the session's own target (its latest model) was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModelSource {
    /// The last `model_change` on the active branch (it names no API).
    ModelChange,
    /// The last assistant turn on the active branch that was a model call.
    Assistant,
    /// The session header's `provider` / `modelId`.
    Header,
    /// The SQLite store's session window (`session_windows.model_provider`, `model`).
    Database,
    /// Another agent's file, mapped (Claude Code, Codex).
    Mapped,
}

impl ModelSource {
    /// The JSON id, e.g. `model-change`.
    pub fn id(self) -> &'static str {
        match self {
            Self::ModelChange => "model-change",
            Self::Assistant => "assistant",
            Self::Header => "header",
            Self::Database => "database",
            Self::Mapped => "mapped",
        }
    }
}

/// Messages the file holds that the stored transcript does not, by reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Hidden {
    /// Message-bearing entries in the file (`message`, `custom_message`, `branch_summary`).
    pub file_messages: usize,
    /// Of those, on branches other than the active one.
    pub other_branches: usize,
    /// On the active branch but before the latest compaction (or reset) keeps.
    pub before_compaction: usize,
    /// In the window a reset keeps, but not kept by it: OpenClaw's `selectResetKeptEntries`
    /// (`buildSessionContext`) keeps only user and assistant turns and the tool results paired
    /// with them, so custom messages, summaries and unpaired results there are dropped.
    pub dropped_by_reset: usize,
    /// Marked `excludeFromContext` (OpenClaw leaves them out of the model context).
    pub excluded: usize,
    /// Without an id, so on no branch.
    pub without_id: usize,
    /// Transcript-only rows (delivery mirrors, gateway-injected replies) that are in the stored
    /// transcript but never sent: the replay drops them.
    pub mirrors: usize,
}

impl Hidden {
    /// Messages of the file the stored transcript leaves out.
    pub fn left_out(&self) -> usize {
        self.other_branches + self.before_compaction + self.dropped_by_reset + self.excluded + self.without_id
    }

    /// True when nothing is left out and no mirror is on the branch.
    pub fn is_nothing(&self) -> bool {
        self.left_out() == 0 && self.mirrors == 0
    }

    /// One sentence, e.g. `the file holds 554 messages; 534 are not on the active branch: 520 on
    /// other branches, 14 before the compaction`; `None` when nothing is hidden.
    pub fn sentence(&self) -> Option<String> {
        if self.is_nothing() {
            return None;
        }
        let mut why = Vec::new();
        for (n, what) in [
            (self.other_branches, "on other branches"),
            (self.before_compaction, "before the compaction"),
            (
                self.dropped_by_reset,
                "dropped by the reset (neither a user or assistant turn nor a paired tool result)",
            ),
            (self.excluded, "marked excludeFromContext"),
            (self.without_id, "without an id (on no branch)"),
        ] {
            if n > 0 {
                why.push(format!("{n} {what}"));
            }
        }
        let mut s = format!("the file holds {} messages", self.file_messages);
        if self.left_out() > 0 {
            let verb = if self.left_out() == 1 { "is" } else { "are" };
            s.push_str(&format!(
                "; {} {verb} not in the stored transcript: {}",
                self.left_out(),
                why.join(", ")
            ));
        }
        if self.mirrors > 0 {
            let (noun, verb) = if self.mirrors == 1 {
                ("row", "is")
            } else {
                ("rows", "are")
            };
            s.push_str(&format!(
                "; {} transcript-only {noun} (delivery mirror, gateway-injected) {verb} stored but never sent",
                self.mirrors
            ));
        }
        Some(s)
    }
}

/// Whether an entry carries a message into the context (when on the branch).
pub(crate) fn is_message_entry(e: &Entry) -> bool {
    matches!(
        e.kind(),
        EntryKind::Message | EntryKind::CustomMessage | EntryKind::BranchSummary
    )
}

/// Whether a `message` entry's message is marked `excludeFromContext: true`
/// (OpenClaw's `projectSessionEntryMessage` leaves it out).
pub(crate) fn is_excluded(e: &Entry) -> bool {
    e.kind() == EntryKind::Message
        && e.message_value()
            .and_then(|m| m.get("excludeFromContext"))
            .and_then(Value::as_bool)
            == Some(true)
}

/// `isTranscriptOnlyOpenClawAssistantMessage`: an assistant row OpenClaw wrote to the
/// transcript without a model call (`provider: "openclaw"` with model `delivery-mirror` or
/// `gateway-injected`, or an `openclawDeliveryMirror` marker of a known kind).
///
/// This is the shared predicate of 2026.9.6 (`src/shared/transcript-only-openclaw-assistant.ts`),
/// whose marker kinds include `cron-direct-delivery-context`; the replay chain's check, which the
/// `transcript-only-assistant` rule reproduces, does not count that kind (the history
/// differential holds both), so the two are kept apart on purpose.
pub fn is_transcript_only(m: &Message) -> bool {
    if !m.is_assistant() {
        return false;
    }
    if m.provider() == Some("openclaw") && matches!(m.model(), Some("delivery-mirror" | "gateway-injected")) {
        return true;
    }
    let kind = m
        .get("openclawDeliveryMirror")
        .filter(|v| v.is_object())
        .and_then(|v| v.get("kind"))
        .and_then(Value::as_str);
    matches!(
        kind,
        Some(
            "channel-final" | "channel-final-suppressed" | "message-tool-source-reply" | "cron-direct-delivery-context"
        )
    )
}

/// The model the active branch selects last, as `buildSessionContext` walks it; `None` when
/// no `model_change` or model-call assistant turn is on the branch.
pub(crate) fn branch_model(path: &[&Entry]) -> Option<(ModelRef, ModelSource)> {
    let mut found = None;
    for e in path {
        match e.kind() {
            EntryKind::ModelChange => {
                let model = ModelRef {
                    provider: e.str_field("provider").map(str::to_owned),
                    api: None,
                    model: e.str_field("modelId").map(str::to_owned),
                };
                found = Some((model, ModelSource::ModelChange));
            }
            EntryKind::Message => {
                let Some(m) = e.message_value().and_then(Message::from_value_ref) else {
                    continue;
                };
                if !m.is_assistant() || is_transcript_only(m) {
                    continue;
                }
                let model = ModelRef {
                    provider: m.provider().map(str::to_owned),
                    api: m.api().map(str::to_owned),
                    model: m.model().map(str::to_owned),
                };
                found = Some((model, ModelSource::Assistant));
            }
            _ => {}
        }
    }
    found
}

//! The messages a session's entries become in the stored transcript, as OpenClaw's session
//! codec builds them: summaries and custom messages from their entries
//! (`projectSessionEntryMessage`, `packages/agent-core/src/harness/session/session.ts`), the
//! normalization `normalizeLoadedFileEntry` applies to every loaded message
//! (`src/agents/sessions/session-manager-codec.ts`) and the checkpoint strip of messages kept
//! from before a compaction (`iterateSessionContextMessages`).

use std::borrow::Cow;

use crate::json;
use crate::model::json::{Map, Value};

use super::entry::Entry;
use super::message::Message;
use super::time::iso_to_ms;

/// `providerReplay` types bound to the content they were recorded with
/// (`isCompactionReplayCheckpoint`).
const CHECKPOINT_TYPES: &[&str] = &[
    "anthropic-compaction",
    "openai-responses-compaction",
    "openai-responses-retained-compaction",
];

fn has_checkpoint(m: &Message) -> bool {
    m.get("providerReplay")
        .and_then(|r| r.get("type"))
        .and_then(Value::as_str)
        .is_some_and(|t| CHECKPOINT_TYPES.contains(&t))
}

/// A stored message as OpenClaw's codec loads it (`normalizeLoadedFileEntry`): the string
/// content of an assistant turn or tool result becomes one text block (and a compaction
/// checkpoint recorded for the old content is dropped), and a tool result's single content
/// object becomes a one-block array. Anything else is borrowed unchanged.
/// In a file migrated from before version 3, a `hookMessage` becomes a `custom` message with
/// `customType` `hook` unless it names one (`migrateSessionFileEntryToCurrentVersion`).
pub(crate) fn loaded_message(m: &Message, below_v3: bool) -> Cow<'_, Message> {
    if below_v3 && m.role().as_str() == "hookMessage" {
        let mut owned = m.clone();
        owned.set("role", json!("custom"));
        let named = owned
            .get("customType")
            .is_some_and(|t| !matches!(t, Value::Null | Value::Bool(false)) && t != &json!("") && t != &json!(0));
        if !named {
            owned.set("customType", json!("hook"));
        }
        return Cow::Owned(owned);
    }
    let assistant_or_result = m.is_assistant() || m.is_tool_result();
    match m.content() {
        Some(Value::String(text)) if assistant_or_result => {
            let mut owned = m.clone();
            owned.set_content(vec![json!({"type": "text", "text": text.as_str()})]);
            if has_checkpoint(&owned) {
                owned.remove("providerReplay");
            }
            Cow::Owned(owned)
        }
        Some(block @ Value::Object(_)) if m.is_tool_result() => {
            let mut owned = m.clone();
            owned.set_content(vec![block.clone()]);
            Cow::Owned(owned)
        }
        _ => Cow::Borrowed(m),
    }
}

/// A stored message in the form OpenClaw's codec loads it ([`loaded_message`] for a file at
/// version 3): what the stored transcript holds for a `message` entry of the active branch.
pub fn as_loaded(m: Message) -> Message {
    match loaded_message(&m, false) {
        Cow::Borrowed(_) => m,
        Cow::Owned(owned) => owned,
    }
}

/// A message kept from before the latest compaction: an assistant turn loses a compaction
/// checkpoint (`stripCompactionReplayCheckpoint`), which is bound to the history it ended.
pub(crate) fn retained_message(m: Cow<'_, Message>) -> Cow<'_, Message> {
    if !m.is_assistant() || !has_checkpoint(&m) {
        return m;
    }
    let mut owned = m.into_owned();
    owned.remove("providerReplay");
    Cow::Owned(owned)
}

fn entry_ms(entry: &Entry) -> Value {
    match entry.timestamp().and_then(iso_to_ms) {
        Some(ms) => json!(ms as i64),
        None => entry.raw.get("timestamp").cloned().unwrap_or(Value::Null),
    }
}

fn copy_fields(out: &mut Map, entry: &Entry, keys: &[&str]) {
    for k in keys {
        if let Some(v) = entry.raw.get(*k) {
            out.insert((*k).to_owned().into(), v.clone());
        }
    }
}

/// `{role:"compactionSummary", summary, tokensBefore, timestamp}` as pi builds it.
pub(crate) fn compaction_summary(entry: &Entry) -> Message {
    let mut m = Map::new();
    m.insert("role".into(), json!("compactionSummary"));
    copy_fields(&mut m, entry, &["summary", "tokensBefore"]);
    m.insert("timestamp".into(), entry_ms(entry));
    Message::from_map(m)
}

/// `{role:"branchSummary", summary, fromId, timestamp}` as pi builds it.
pub(crate) fn branch_summary(entry: &Entry) -> Message {
    let mut m = Map::new();
    m.insert("role".into(), json!("branchSummary"));
    copy_fields(&mut m, entry, &["summary", "fromId"]);
    m.insert("timestamp".into(), entry_ms(entry));
    Message::from_map(m)
}

/// `{role:"custom", customType, content, display, details, timestamp}` as pi builds it.
pub(crate) fn custom_message(entry: &Entry) -> Message {
    let mut m = Map::new();
    m.insert("role".into(), json!("custom"));
    copy_fields(&mut m, entry, &["customType", "content", "display", "details"]);
    m.insert("timestamp".into(), entry_ms(entry));
    Message::from_map(m)
}

//! Session entries: one JSONL line (or one `transcript_events` row), kept as stored.

use crate::model::json::{Str, Value};

use super::diagnostic::Location;

/// The `type` of a session entry (OpenClaw's `session-manager-types.ts`). Unknown types are kept as `Other`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind<'a> {
    /// `session`: the header line.
    Session,
    /// `message`: carries an `AgentMessage`.
    Message,
    /// `custom_message`: extension message that enters the model context.
    CustomMessage,
    /// `custom`: extension state (e.g. `model-snapshot`), never sent.
    Custom,
    /// `compaction`: summary plus the entries kept from `firstKeptEntryId`.
    Compaction,
    /// `reset` (OpenClaw): starts a fresh history window.
    Reset,
    /// `branch_summary`: summary of an abandoned branch.
    BranchSummary,
    /// `model_change`: sets provider and model.
    ModelChange,
    /// `thinking_level_change`
    ThinkingLevelChange,
    /// `label`
    Label,
    /// `session_info`
    SessionInfo,
    /// `leaf` (OpenClaw control): records where the leaf moved.
    Leaf,
    /// Any other type, preserved as an opaque entry.
    Other(&'a str),
    /// No string `type`.
    Untyped,
}

impl<'a> EntryKind<'a> {
    /// Parse an entry `type`.
    pub fn from_type(t: &'a str) -> Self {
        match t {
            "session" => Self::Session,
            "message" => Self::Message,
            "custom_message" => Self::CustomMessage,
            "custom" => Self::Custom,
            "compaction" => Self::Compaction,
            "reset" => Self::Reset,
            "branch_summary" => Self::BranchSummary,
            "model_change" => Self::ModelChange,
            "thinking_level_change" => Self::ThinkingLevelChange,
            "label" => Self::Label,
            "session_info" => Self::SessionInfo,
            "leaf" => Self::Leaf,
            other => Self::Other(other),
        }
    }
}

/// One entry of a session, exactly as stored, plus its resolved place in the entry tree.
///
/// `raw` is never modified. For v1 files (no ids) the loader assigns `id` and `parent_id`
/// as pi's v1→v2 migration does, and records that in `assigned_id`, so serializing `raw`
/// still gives back the original line. The one exception is a load that keeps only what the
/// stored transcript is built from ([`crate::load::Keep::Transcript`]): a `message` entry
/// then holds only its message ([`Entry::message_only`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Where the entry was read from.
    pub location: Location,
    /// The entry JSON as stored.
    pub raw: Value,
    /// The entry id (stored, or assigned for v1 files).
    pub id: Option<Str>,
    /// The parent id (stored, or assigned for v1 files); `None` for a root.
    pub parent_id: Option<Str>,
    /// True when `id`/`parent_id` were assigned by the v1 upgrade rather than stored.
    pub assigned_id: bool,
    /// True when `raw` is the entry's `message` alone: a `message` entry loaded for its
    /// transcript only, whose other fields (ids aside, read above) the transcript never reads.
    pub message_only: bool,
    /// For `compaction`/`reset` entries: `firstKeptEntryId`, stored or mapped from a v1
    /// `firstKeptEntryIndex`.
    pub first_kept_entry_id: Option<Str>,
}

impl Entry {
    /// Build an entry from a stored value, reading `id` and `parentId`.
    pub fn from_stored(location: Location, raw: Value) -> Self {
        let id = raw.get("id").and_then(Value::as_str).map(Str::from);
        let parent_id = raw.get("parentId").and_then(Value::as_str).map(Str::from);
        let first_kept_entry_id = raw.get("firstKeptEntryId").and_then(Value::as_str).map(Str::from);
        Self {
            location,
            raw,
            id,
            parent_id,
            assigned_id: false,
            message_only: false,
            first_kept_entry_id,
        }
    }

    /// Keep only what the stored transcript reads of a `message` entry: its message (`id`
    /// and `parentId` are already read into the entry). An entry appended with `appendMode`,
    /// without a `parentId` field or without a `message` object, is kept whole. A load for one replay or one listing
    /// uses it to hold less (see [`crate::load::Keep::Transcript`]).
    pub fn keep_message_only(&mut self) {
        // Without a `parentId` field the entry is kept whole too: where it hangs depends on
        // the field being absent (`crate::model::leaf_controls`).
        if self.message_only
            || self.kind() != EntryKind::Message
            || self.raw.get("appendMode").is_some()
            || self.raw.get("parentId").is_none()
        {
            return;
        }
        if let Some(message) = self.raw.as_object_mut().and_then(|o| o.get_mut("message"))
            && message.is_object()
        {
            self.raw = message.take();
            self.message_only = true;
        }
    }

    /// The `message` of a `message` entry.
    pub fn message_value(&self) -> Option<&Value> {
        if self.message_only {
            Some(&self.raw)
        } else {
            self.raw.get("message")
        }
    }

    /// The entry `type` string.
    pub fn type_str(&self) -> Option<&str> {
        if self.message_only {
            return Some("message");
        }
        self.raw.get("type").and_then(Value::as_str)
    }

    /// The entry kind.
    pub fn kind(&self) -> EntryKind<'_> {
        self.type_str().map_or(EntryKind::Untyped, EntryKind::from_type)
    }

    /// A string field of the entry.
    pub fn str_field(&self, key: &str) -> Option<&str> {
        if self.message_only {
            return None;
        }
        self.raw.get(key).and_then(Value::as_str)
    }

    /// The entry's ISO `timestamp`, when present.
    pub fn timestamp(&self) -> Option<&str> {
        self.str_field("timestamp")
    }

    /// Whether the entry was appended with `appendMode:"side"`: it joins the tree but does
    /// not move the session's leaf.
    pub fn is_side_append(&self) -> bool {
        self.str_field("appendMode") == Some("side")
    }

    /// For `custom` entries, the `customType`.
    pub fn custom_type(&self) -> Option<&str> {
        self.str_field("customType")
    }
}

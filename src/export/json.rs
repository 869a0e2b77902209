//! The `replay --format json` contract (reference README §3.1).

use crate::json;
use crate::model::json::{Map, Value};
use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::hygiene::ReplayMessage;
use crate::model::{Origin, Session, StoredMessage};
use crate::replay::Replay;

/// The `stored` array, serialized straight from the transcript (nothing copied).
pub struct StoredArray<'a, 's>(pub &'a [StoredMessage<'s>]);

impl Serialize for StoredArray<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().enumerate().map(|(index, m)| StoredItem { index, m }))
    }
}

/// One element of the `stored` array.
struct StoredItem<'a, 's> {
    index: usize,
    m: &'a StoredMessage<'s>,
}

impl Serialize for StoredItem<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("index", &self.index)?;
        if let Some(id) = &self.m.entry_id {
            map.serialize_entry("entryId", id)?;
        }
        if self.m.origin == Origin::Mapped {
            // Another agent's session: the line the message was mapped from.
            map.serialize_entry("mappedFrom", &self.m.location)?;
        }
        map.serialize_entry("message", self.m.message.as_ref())?;
        map.end()
    }
}

/// The `stored` array.
pub fn stored_array<'a, 's>(messages: &'a [StoredMessage<'s>]) -> StoredArray<'a, 's> {
    StoredArray(messages)
}

/// A `replay` (or `history`) array: `{index, source, message}` per message.
struct ReplayItems<'a, 's>(&'a [ReplayMessage<'s>]);

impl Serialize for ReplayItems<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().enumerate().map(|(index, m)| ReplayItem { index, m }))
    }
}

struct ReplayItem<'a, 's> {
    index: usize,
    m: &'a ReplayMessage<'s>,
}

impl Serialize for ReplayItem<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("index", &self.index)?;
        map.serialize_entry("source", &self.m.source)?;
        map.serialize_entry("message", self.m.message.as_ref())?;
        map.end()
    }
}

/// The whole replay document (reference README §3.1), serialized straight from the session
/// and the projection, so it can be streamed to its output without a copy in memory.
pub struct ReplayDocument<'a, 's> {
    session: &'a Session,
    replay: &'a Replay<'s>,
}

/// The whole replay document.
pub fn replay_document<'a, 's>(session: &'a Session, replay: &'a Replay<'s>) -> ReplayDocument<'a, 's> {
    ReplayDocument { session, replay }
}

impl Serialize for ReplayDocument<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (session, replay) = (self.session, self.replay);
        let r = &replay.resolved;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry(
            "session",
            &json!({"path": session.path.display().to_string(), "format": session.format.as_str(), "id": session.id}),
        )?;
        map.serialize_entry("openclaw", replay.options.rule_set.name)?;
        map.serialize_entry("target", &r.target)?;
        map.serialize_entry("family", r.family.id())?;
        map.serialize_entry("policy", &r.policy)?;
        map.serialize_entry("stored", &StoredArray(&replay.transcript.messages))?;
        map.serialize_entry("replay", &ReplayItems(&replay.projection.messages))?;
        map.serialize_entry("rewrites", &replay.projection.rewrites)?;
        if let Some(refusal) = &replay.projection.refusal {
            map.serialize_entry("refusal", refusal)?;
        }
        // The history stage, only when a stream-stage step changed it.
        if let Some(history) = &replay.projection.history {
            map.serialize_entry("history", &ReplayItems(history))?;
        }
        map.end()
    }
}

/// The replay document built from an export [`super::View`] (redacted strings; the
/// `rewrites` of the focus only).
pub fn view_document(view: &super::View) -> Value {
    let stored: Vec<Value> = view
        .stored
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let mut v = Map::new();
            v.insert("index".into(), json!(i));
            if let Some(id) = &view.entry_ids[i] {
                v.insert("entryId".into(), json!(id));
            }
            v.insert("message".into(), m.clone());
            Value::Object(v)
        })
        .collect();
    let replay: Vec<Value> = view
        .replay
        .iter()
        .enumerate()
        .map(|(i, (source, m))| json!({"index": i, "source": source, "message": m}))
        .collect();
    let [provider, api, model] = &view.target;
    let mut target = Map::new();
    for (k, v) in [("provider", provider), ("api", api), ("model", model)] {
        if let Some(v) = v {
            target.insert(k.into(), json!(v));
        }
    }
    json!({
        "session": {"path": view.path, "format": view.format, "id": view.session_id},
        "openclaw": view.openclaw,
        "target": target,
        "family": view.family.0,
        "policy": view.policy,
        "stored": stored,
        "replay": replay,
        "rewrites": view.rewrites_in_focus().into_iter().map(|i| &view.rewrites[i]).collect::<Vec<_>>(),
        "lint": view.lint,
    })
}

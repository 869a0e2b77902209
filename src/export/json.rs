//! The `replay --format json` contract (reference README §3.1).

use serde_json::{Map, Value, json};

use crate::hygiene::ReplayMessage;
use crate::model::{Session, StoredMessage};
use crate::replay::Replay;

/// One element of the `stored` array.
pub fn stored_entry(index: usize, m: &StoredMessage<'_>) -> Value {
    let mut v = Map::new();
    v.insert("index".into(), json!(index));
    if let Some(id) = &m.entry_id {
        v.insert("entryId".into(), json!(id));
    }
    v.insert(
        "message".into(),
        serde_json::to_value(m.message.as_ref()).unwrap_or(Value::Null),
    );
    Value::Object(v)
}

/// The `stored` array.
pub fn stored_array(messages: &[StoredMessage<'_>]) -> Value {
    Value::Array(messages.iter().enumerate().map(|(i, m)| stored_entry(i, m)).collect())
}

/// The whole replay document.
pub fn replay_document(session: &Session, replay: &Replay<'_>) -> Value {
    let r = &replay.resolved;
    let items = |messages: &[ReplayMessage<'_>]| -> Vec<Value> {
        messages
            .iter()
            .enumerate()
            .map(|(i, m)| json!({"index": i, "source": m.source, "message": m.message.as_ref()}))
            .collect()
    };
    let mut doc = json!({
        "session": {"path": session.path.display().to_string(), "format": session.format.as_str(), "id": session.id},
        "openclaw": replay.options.rule_set.name,
        "target": r.target,
        "family": r.family.id(),
        "policy": r.policy,
        "stored": stored_array(&replay.transcript.messages),
        "replay": items(&replay.projection.messages),
        "rewrites": replay.projection.rewrites,
    });
    if let (Some(refusal), Some(obj)) = (&replay.projection.refusal, doc.as_object_mut()) {
        obj.insert("refusal".into(), Value::from(refusal.as_str()));
    }
    // The history stage, only when a stream-stage step changed it.
    if let (Some(history), Some(obj)) = (&replay.projection.history, doc.as_object_mut()) {
        obj.insert("history".into(), Value::Array(items(history)));
    }
    doc
}

/// The replay document built from an export [`super::View`] (redacted strings).
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
        "rewrites": view.rewrites,
    })
}

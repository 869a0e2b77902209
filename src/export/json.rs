//! The `replay --format json` contract (`docs/internals.md`).

use crate::json;
use crate::model::json::{Map, Value};
use serde::ser::{Error as _, Serialize, SerializeMap, Serializer};
use std::cell::RefCell;

use crate::hygiene::{Projection, ReplayMessage};
use crate::model::{Origin, StoredMessage};
use crate::replay::PreparedReplay;

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
        serializer.collect_seq(self.0.iter().enumerate().map(|(index, m)| Item {
            index,
            entry_id: None,
            source: Some(&m.source),
            message: m.message.as_ref(),
        }))
    }
}

/// The whole replay document (`docs/internals.md`), written while the replay runs so
/// that each side is held only as long as it is needed: the header and the `stored` array
/// are written from the prepared replay, then the rules run over the stored messages
/// (consuming them) and `replay`, `rewrites`, `refusal` and `history` follow, then the
/// `extra` fields. Nothing of the document is built in memory.
pub struct ReplayDocument {
    prepared: RefCell<Option<PreparedReplay>>,
    extra: Vec<(&'static str, Value)>,
    projection: RefCell<Option<Projection<'static>>>,
}

/// The replay document of a prepared replay, with `extra` fields after the contract's.
pub fn replay_document(prepared: PreparedReplay, extra: Vec<(&'static str, Value)>) -> ReplayDocument {
    ReplayDocument {
        prepared: RefCell::new(Some(prepared)),
        extra,
        projection: RefCell::new(None),
    }
}

impl ReplayDocument {
    /// The projection, once the document has been written.
    pub fn into_projection(self) -> Option<Projection<'static>> {
        self.projection.into_inner()
    }
}

impl Serialize for ReplayDocument {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let prepared = self
            .prepared
            .borrow_mut()
            .take()
            .ok_or_else(|| S::Error::custom("a replay document is written once"))?;
        let (session, r) = (&prepared.session, &prepared.resolved);
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry(
            "session",
            &json!({"path": session.path.display().to_string(), "format": session.format.as_str(), "id": session.id}),
        )?;
        map.serialize_entry("openclaw", prepared.options.rule_set.name)?;
        // The configuration replayed under, by path only (`null`: none): never its content.
        let configuration = (prepared.options.config.as_deref()).map(|c| c.path.display().to_string());
        map.serialize_entry("configuration", &configuration)?;
        map.serialize_entry("target", &r.target)?;
        map.serialize_entry("family", r.family.id())?;
        map.serialize_entry("policy", &r.policy)?;
        map.serialize_entry("owner", &r.owner.describe())?;
        if let Some(assumption) = r.assumption() {
            map.serialize_entry("assumption", &assumption)?;
        }
        if let Some(no_route) = &r.no_route {
            map.serialize_entry("noRoute", no_route)?;
        }
        map.serialize_entry("stored", &StoredArray(&prepared.transcript.messages))?;
        let projection = prepared.run();
        map.serialize_entry("replay", &ReplayItems(&projection.messages))?;
        map.serialize_entry("rewrites", &projection.rewrites)?;
        if let Some(refusal) = &projection.refusal {
            map.serialize_entry("refusal", refusal)?;
        }
        // The history stage, only when a stream-stage step changed it.
        if let Some(history) = &projection.history {
            map.serialize_entry("history", &ReplayItems(history))?;
        }
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        *self.projection.borrow_mut() = Some(projection);
        map.end()
    }
}

/// The replay document built from an export [`super::View`] (redacted strings; the
/// `rewrites` of the focus only), followed by the `export` metadata; serialized straight
/// from the view, nothing copied.
pub struct ViewDocument<'v> {
    view: &'v super::View<'v>,
    export: Value,
}

/// The replay document of an export view, with its `export` metadata.
pub fn view_document<'v>(view: &'v super::View<'v>, export: Value) -> ViewDocument<'v> {
    ViewDocument { view, export }
}

impl Serialize for ViewDocument<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let view = self.view;
        let [provider, api, model] = &view.target;
        let mut target = Map::new();
        for (k, v) in [("provider", provider), ("api", api), ("model", model)] {
            if let Some(v) = v {
                target.insert(k.into(), json!(v));
            }
        }
        let mut map = serializer.serialize_map(None)?;
        let mut session = json!({"path": view.path, "format": view.format, "id": view.session_id});
        if let Some(note) = view.hidden.sentence() {
            // What the file holds beyond the stored transcript (other branches, before the
            // compaction, mirrors), as `show --format json` says it.
            session["hidden"] = crate::model::json::to_value(&view.hidden).unwrap_or(Value::Null);
            session["hiddenNote"] = json!(note);
        }
        map.serialize_entry("session", &session)?;
        map.serialize_entry("openclaw", view.openclaw)?;
        if let Some(releases) = &view.releases {
            map.serialize_entry("releases", releases)?;
        }
        map.serialize_entry("target", &target)?;
        map.serialize_entry("family", view.family.0)?;
        map.serialize_entry("policy", &view.policy)?;
        map.serialize_entry("stored", &ViewStored(view))?;
        map.serialize_entry("replay", &ViewReplay(view))?;
        map.serialize_entry("rewrites", &ViewRewrites(view))?;
        map.serialize_entry("lint", &view.lint)?;
        map.serialize_entry("export", &self.export)?;
        map.end()
    }
}

/// The view's `stored` array: `{index, entryId?, message}` per message, each redacted as it
/// is written.
struct ViewStored<'v>(&'v super::View<'v>);

impl Serialize for ViewStored<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let view = self.0;
        serializer.collect_seq((0..view.stored_len()).map(|index| Item {
            index,
            entry_id: view.entry_id(index),
            source: None,
            message: view.stored(index),
        }))
    }
}

/// The view's `replay` array: `{index, source, message}` per message, each redacted as it
/// is written.
struct ViewReplay<'v>(&'v super::View<'v>);

impl Serialize for ViewReplay<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let view = self.0;
        serializer.collect_seq((0..view.replay_len()).map(|index| Item {
            index,
            entry_id: None,
            source: Some(view.replay_source(index)),
            message: view.replayed(index),
        }))
    }
}

/// The view's `rewrites` in focus, details redacted as they are written.
struct ViewRewrites<'v>(&'v super::View<'v>);

impl Serialize for ViewRewrites<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let view = self.0;
        serializer.collect_seq(view.rewrites_in_focus().into_iter().map(|k| view.rewrite(k)))
    }
}

/// One element of a `replay` or `history` array, or of an export view's `stored` or `replay` array:
/// `{index, entryId?, source?, message}`.
struct Item<'v, M> {
    index: usize,
    entry_id: Option<std::borrow::Cow<'v, str>>,
    source: Option<&'v [usize]>,
    message: M,
}

impl<M: Serialize> Serialize for Item<'_, M> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("index", &self.index)?;
        if let Some(id) = &self.entry_id {
            map.serialize_entry("entryId", id)?;
        }
        if let Some(source) = self.source {
            map.serialize_entry("source", source)?;
        }
        map.serialize_entry("message", &self.message)?;
        map.end()
    }
}

//! The tool ids of a payload message (Anthropic `tool_use` ids, `tool_result` ids, OpenAI
//! `tool_calls` ids, …), as a list in block
//! order and as a set for membership tests: a turn may hold tens of thousands of calls, so a
//! check asks the set, never scans the list once per block.

use std::collections::HashSet;

use crate::lint::shape::{blocks, kind};
use crate::model::json::Value;

/// The `field` values of the `block_kind` blocks of a message, in block order.
pub(crate) fn ids_of<'a>(message: &'a Value, block_kind: &str, field: &str) -> Vec<&'a str> {
    blocks(message)
        .iter()
        .filter(|b| kind(b) == Some(block_kind))
        .filter_map(|b| b.get(field).and_then(Value::as_str))
        .collect()
}

/// The ids of one message, for asking whether an id is among them.
#[derive(Debug, Default)]
pub(crate) struct IdSet<'a>(HashSet<&'a str>);

impl<'a> IdSet<'a> {
    /// The `field` values of the `block_kind` blocks of `message` (none without a message).
    pub(crate) fn of(message: Option<&'a Value>, block_kind: &str, field: &str) -> Self {
        Self(
            message
                .map(|m| ids_of(m, block_kind, field))
                .unwrap_or_default()
                .into_iter()
                .collect(),
        )
    }

    /// These ids.
    pub(crate) fn from_ids(ids: impl IntoIterator<Item = &'a str>) -> Self {
        Self(ids.into_iter().collect())
    }

    /// Whether `id` is among the ids.
    pub(crate) fn contains(&self, id: &str) -> bool {
        crate::openclaw::work::examined(1);
        self.0.contains(id)
    }
}

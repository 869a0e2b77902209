//! The tool ids of a payload message (`tool_use` ids, `tool_result` ids), as a list in block
//! order and as a set for membership tests: a turn may hold tens of thousands of calls, so a
//! check asks the set, never scans the list once per block.

use std::collections::HashSet;

use crate::lint::shape::{blocks, kind};
use crate::model::json::Value;

/// The `field` values of the `block_kind` blocks of a message, in block order.
pub(super) fn ids_of<'a>(message: &'a Value, block_kind: &str, field: &str) -> Vec<&'a str> {
    blocks(message)
        .iter()
        .filter(|b| kind(b) == Some(block_kind))
        .filter_map(|b| b.get(field).and_then(Value::as_str))
        .collect()
}

/// The ids of one message, for asking whether an id is among them.
#[derive(Debug, Default)]
pub(super) struct IdSet<'a>(HashSet<&'a str>);

impl<'a> IdSet<'a> {
    /// The `field` values of the `block_kind` blocks of `message` (none without a message).
    pub(super) fn of(message: Option<&'a Value>, block_kind: &str, field: &str) -> Self {
        Self(
            message
                .map(|m| ids_of(m, block_kind, field))
                .unwrap_or_default()
                .into_iter()
                .collect(),
        )
    }

    /// Whether `id` is among the ids.
    pub(super) fn contains(&self, id: &str) -> bool {
        #[cfg(test)]
        IDS_EXAMINED.with(|c| c.set(c.get() + 1));
        self.0.contains(id)
    }
}

#[cfg(test)]
thread_local! {
    /// Ids looked at to answer `contains` on this thread: one per question for a set (a list
    /// would look at every id before the match). Tests read it to prove the checks linear.
    pub(crate) static IDS_EXAMINED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

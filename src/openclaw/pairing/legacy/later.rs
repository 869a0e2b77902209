//! The tool results of the transcript indexed by id, so that 2026.7's
//! `collectLaterMatchingToolResults` (the first not yet placed result after a turn's span for
//! each of its calls) is answered by a lookup instead of a scan from the span to the end of the
//! transcript per tool-call turn: that scan made a transcript of n tool-call turns take n²/2
//! steps (one call id reused by 40,000 turns: 31 s, where the newest planner took 0.2 s).
//!
//! The answer is the one of the scan: for a call, the earliest tool result at or after the span
//! whose id (JavaScript-trimmed, as `extractToolResultId` reads it) is the call's id, or, in a
//! turn of one call, the earliest result without an id that legacy adoption gives that call's
//! id (`normalizeLegacyToolResultId`: its trimmed `toolName` is missing, blank or the call's).

use std::collections::HashMap;

use crate::model::Message;
use crate::openclaw::work::examined;

use super::super::classify::Call;
use super::ids::{opt_str, result_id};

/// Input indices of the tool results, ascending, by what makes them candidates for a call.
pub(super) struct LaterResults<'m> {
    /// Results with an id, by that id.
    by_id: HashMap<&'m str, Vec<usize>>,
    /// Results without an id.
    idless: Vec<usize>,
    /// Results without an id or a (trimmed, non-empty) `toolName`.
    idless_unnamed: Vec<usize>,
    /// Results without an id, by their trimmed `toolName`.
    idless_by_name: HashMap<&'m str, Vec<usize>>,
}

/// The first index in the ascending `list` at or after `from`.
fn first_from(list: Option<&Vec<usize>>, from: usize) -> Option<usize> {
    let list = list?;
    examined(1);
    list.get(list.partition_point(|&i| i < from)).copied()
}

impl<'m> LaterResults<'m> {
    /// Index every tool result of `messages`.
    pub(super) fn new(messages: &[&'m Message]) -> Self {
        let mut index = Self {
            by_id: HashMap::new(),
            idless: Vec::new(),
            idless_unnamed: Vec::new(),
            idless_by_name: HashMap::new(),
        };
        for (i, m) in messages.iter().enumerate() {
            let m: &'m Message = m;
            if !m.is_tool_result() {
                continue;
            }
            examined(1);
            if let Some(id) = result_id(m) {
                index.by_id.entry(id).or_default().push(i);
                continue;
            }
            index.idless.push(i);
            match opt_str(m.tool_name()) {
                Some(name) => index.idless_by_name.entry(name).or_default().push(i),
                None => index.idless_unnamed.push(i),
            }
        }
        index
    }

    /// The first result at or after `from` that the scan would take for `call` of the turn
    /// with `calls` (whether its id is already placed is the caller's question).
    pub(super) fn first_for(&self, call: &Call<'_>, calls: &[Call<'_>], from: usize) -> Option<usize> {
        let by_id = first_from(self.by_id.get(call.id), from);
        // Adoption writes the call's id, which the scan then reads trimmed: it answers the call
        // only when that id is trimmed already.
        let adoptable = calls.len() == 1 && opt_str(Some(call.id)) == Some(call.id);
        if !adoptable {
            return by_id;
        }
        let adopted = match opt_str(call.name) {
            Some(name) => min(
                first_from(Some(&self.idless_unnamed), from),
                first_from(self.idless_by_name.get(name), from),
            ),
            None => first_from(Some(&self.idless), from),
        };
        min(by_id, adopted)
    }
}

/// The smaller of two optional indices.
fn min(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

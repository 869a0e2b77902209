//! OpenClaw 2026.7.35's tool-result pairing repair (`repairToolUseResultPairing`, called through
//! `sanitizeToolUseResultPairing`) as an alternative planner: it produces the same kind of
//! [`Plan`] as [`super::classify::plan`], for exactly the messages 7.35 outputs.
//!
//! The 7.35 algorithm, which this file simulates step by step:
//!
//! - A tool result before the first assistant turn with tool calls is dropped as an orphan.
//! - Each assistant turn with tool calls (a `toolCall`/`toolUse`/`functionCall` block with a
//!   non-empty string `id`; a call with an empty id is no call at all, so its turn is kept as
//!   it is) opens a span up to the next such turn; text-only assistant turns and other
//!   messages in the span form its remainder, which ends up after the results.
//! - In the span, a result without an id adopts the id of the turn's only call (legacy
//!   adoption, `isError: true`); a result whose (trimmed) id was already placed anywhere
//!   earlier in the output is pushed as a duplicate (it replaces that earlier result when
//!   the earlier one is synthetic and it is real, else it is dropped); a result for a call of
//!   the turn is the span result for that id (the first one wins, except that a real result
//!   replaces a synthetic one); every other result is an orphan and dropped.
//! - A turn that stopped with `error`/`aborted` is dropped with its span results under the
//!   `drop` policy (kept with them under `preserve`, nothing synthesized).
//! - Otherwise, for a call without a span result, the first later result (anywhere after
//!   the span) with its id, not yet placed, is moved up (`collectLaterMatchingToolResults`;
//!   legacy adoption applies there too, against this turn's calls); a call with neither gets
//!   a synthetic result: `details: {openclawSyntheticMissingToolResult: true}` without the
//!   newer `reason`, `toolName` the call's raw name or `unknown`.
//! - Every result goes through `pushToolResult`: an id already in the output is a duplicate,
//!   which replaces an earlier synthetic result when it is real and is dropped otherwise. So a
//!   repeated call id gets only one result in the whole transcript.
//! - When nothing set 7.35's `changed`/`moved` flags, the input is returned as it is: a
//!   reordering of the results inside one span with nothing else changed is not applied.
//!
//! Because legacy adoption runs once per turn that looks at a result without an id, 7.35 can
//! output one such input message several times (adopted by different turns); the first copy is
//! [`Item::Kept`], every further copy an [`Item::Copy`] owned by the turn that adopted it, naming the original.
//!
//! Shared helpers are reused where 7.35 behaves identically (`tool_calls`, `is_synthetic_result`,
//! `describe`, the id field order); id extraction, legacy adoption and name normalisation are
//! written here because 7.35 trims with JavaScript's `trim()` (which strips U+FEFF but not
//! U+0085, unlike `str::trim`). Synthetic results take the owning turn's `timestamp` (omitted
//! when it has none) instead of 7.35's `Date.now()`, so output is deterministic.
//!
//! Verified against the real 7.35 `sanitizeToolUseResultPairing` (Node 24) on 30,000 random
//! transcripts (see `randomized_cases_from_env`) with the `drop` policy, 10,000 with the
//! default `preserve` policy: identical output apart from synthetic timestamps.

mod ids;
mod later;
mod output;

use std::collections::{HashMap, HashSet};

use crate::json;
use crate::model::json::Value;

use crate::model::{Message, StopReason};
use crate::openclaw::synthetic::{ABORTED_TEXT, SYNTHETIC_MARKER, is_synthetic_result};

use super::classify::{Call, ErroredPolicy, Item, Options, Plan, tool_calls};
use super::results::describe;
use ids::{adopt_legacy, normalized_name, opt_str, result_id, result_label, role_name};
use later::LaterResults;

/// Where an output entry was placed, for the `moved` details.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// An assistant turn or a message outside any span, in its own position.
    Plain,
    /// A span result of the turn at `frame`, placed in call order.
    Local { frame: usize },
    /// A result moved up to its call from after a later tool-call turn.
    Later,
    /// A result from a later span that replaced an earlier synthetic result in place.
    Replacement,
    /// A non-result message of the span of the turn at `frame`, placed after its results.
    Remainder { frame: usize },
}

/// One entry of 7.35's `out` array.
#[derive(Debug, Clone)]
struct Entry {
    /// The input index, or `None` for a synthesized missing result.
    index: Option<usize>,
    /// The assistant turn a result answers (for other messages, their own index).
    owner: usize,
    /// The message as 7.35 outputs it.
    msg: Message,
    /// Why the message differs from its input (legacy adoption, name normalisation), or the
    /// detail of a synthesized result.
    note: Option<String>,
    /// The call a result answers, for detail lines.
    call: String,
    place: Place,
}

struct Pass<'a, 'm> {
    messages: &'a [&'m Message],
    opts: &'a Options<'a>,
    out: Vec<Entry>,
    /// `seenToolResultIds` with `toolResultPositions`: the output position of each placed id.
    positions: HashMap<String, usize>,
    /// 7.35's `changed || moved`.
    changed: bool,
    /// The latest reason each input index was dropped (used when it ends up nowhere).
    reasons: HashMap<usize, String>,
    /// The tool results by id, for `collectLaterMatchingToolResults`.
    later: LaterResults<'m>,
}

/// Run 7.35's pairing repair; `None` when its output equals the input.
pub fn plan_legacy(messages: &[&Message], opts: &Options<'_>) -> Option<Plan> {
    let opts = *opts;
    let mut pass = Pass {
        messages,
        opts: &opts,
        out: Vec::new(),
        positions: HashMap::new(),
        changed: false,
        reasons: HashMap::new(),
        later: LaterResults::new(messages),
    };
    pass.run();
    if !pass.changed {
        return None;
    }
    pass.into_plan()
}

impl<'a, 'm> Pass<'a, 'm> {
    fn plain(&mut self, index: usize, place: Place) {
        self.out.push(Entry {
            index: Some(index),
            owner: index,
            msg: self.messages[index].clone(),
            note: None,
            call: String::new(),
            place,
        });
    }

    fn drop_input(&mut self, index: usize, why: String) {
        self.changed = true;
        self.reasons.insert(index, why);
    }

    /// `pushToolResult`.
    fn push_result(&mut self, mut entry: Entry) {
        let id = result_id(&entry.msg).map(str::to_owned);
        if let Some(id) = id {
            if let Some(&pos) = self.positions.get(&id) {
                self.changed = true;
                let existing = &self.out[pos];
                if is_synthetic_result(&existing.msg) && !is_synthetic_result(&entry.msg) {
                    if let Some(old) = existing.index {
                        self.reasons.insert(
                            old,
                            format!(
                                "dropped synthetic result for {}: a later real result for the call replaces it",
                                existing.call
                            ),
                        );
                    }
                    entry.owner = existing.owner;
                    entry.call = existing.call.clone();
                    if entry.place != Place::Later {
                        entry.place = Place::Replacement;
                    }
                    self.out[pos] = entry;
                    return;
                }
                if let Some(index) = entry.index {
                    self.reasons.insert(
                        index,
                        format!(
                            "dropped duplicate result {}: a result with this id already precedes it",
                            result_label(&entry.msg)
                        ),
                    );
                }
                return;
            }
            self.positions.insert(id, self.out.len());
        }
        self.out.push(entry);
    }

    /// A result as 7.35 stores it after `normalizeLegacyToolResultId` (done by the caller) and
    /// `normalizeToolResultName` with `name` as the fallback.
    fn result_entry(
        &self,
        index: usize,
        adopted: Option<&Message>,
        id: &str,
        name: Option<&str>,
        owner: usize,
        place: Place,
    ) -> Entry {
        let original = self.messages[index];
        let base = adopted.unwrap_or(original);
        let mut notes = Vec::new();
        if adopted.is_some() {
            notes.push(format!(
                "adopted id {} of the only tool call of its turn and set isError:true (legacy result without an id)",
                describe(base.str_field("toolCallId").unwrap_or_default(), None)
            ));
        }
        let mut msg = base.clone();
        if let Some(name) = normalized_name(base, name) {
            notes.push(match base.tool_name() {
                Some(raw) if opt_str(Some(raw)).is_some() => format!("trimmed toolName {raw:?} to `{name}`"),
                Some(_) => format!("set blank toolName to `{name}`"),
                None => format!("set missing toolName to `{name}` from its call"),
            });
            msg.set("toolName", Value::String(name.into()));
        }
        let note = (msg != *original).then(|| notes.join("; "));
        Entry {
            index: Some(index),
            owner,
            msg,
            note,
            call: describe(id, name),
            place,
        }
    }

    fn run(&mut self) {
        let messages = self.messages;
        let n = messages.len();
        let mut i = 0;
        while i < n {
            let m = messages[i];
            if !m.is_assistant() {
                if m.is_tool_result() {
                    let why = format!(
                        "dropped orphan result {}: no assistant tool call precedes it",
                        result_label(m)
                    );
                    self.drop_input(i, why);
                } else {
                    self.plain(i, Place::Plain);
                }
                i += 1;
                continue;
            }
            let calls = tool_calls(m);
            if calls.is_empty() {
                self.plain(i, Place::Plain);
                i += 1;
                continue;
            }
            let j = self.frame(i, &calls);
            i = j;
        }
    }

    /// One assistant turn with tool calls at `start`; returns the index after its span.
    fn frame(&mut self, start: usize, calls: &[Call<'m>]) -> usize {
        let messages = self.messages;
        let n = messages.len();
        let ids: HashSet<&str> = calls.iter().map(|c| c.id).collect();
        let mut names: HashMap<&str, &str> = HashMap::new();
        for c in calls {
            if let Some(name) = c.name {
                names.insert(c.id, name);
            }
        }
        let name_of = |id: &str| names.get(id).copied();
        let mut span: HashMap<String, Entry> = HashMap::new();
        let mut remainder = Vec::new();
        let mut j = start + 1;
        while j < n {
            let next = messages[j];
            if next.is_assistant() {
                if !tool_calls(next).is_empty() {
                    break;
                }
                remainder.push(j);
                j += 1;
                continue;
            }
            if !next.is_tool_result() {
                remainder.push(j);
                j += 1;
                continue;
            }
            let adopted = adopt_legacy(next, calls);
            let id = result_id(adopted.as_ref().unwrap_or(next)).map(str::to_owned);
            match id {
                Some(id) if self.positions.contains_key(&id) => {
                    let entry = self.result_entry(j, adopted.as_ref(), &id, name_of(&id), start, Place::Replacement);
                    self.push_result(entry);
                }
                Some(id) if ids.contains(id.as_str()) => {
                    let entry = self.result_entry(
                        j,
                        adopted.as_ref(),
                        &id,
                        name_of(&id),
                        start,
                        Place::Local { frame: start },
                    );
                    if entry.note.is_some() {
                        self.changed = true;
                    }
                    match span.get(&id) {
                        None => {
                            span.insert(id, entry);
                        }
                        Some(existing) if is_synthetic_result(&existing.msg) && !is_synthetic_result(&entry.msg) => {
                            let why = format!(
                                "dropped synthetic result for {}: a real result for the call follows",
                                existing.call
                            );
                            if let Some(old) = existing.index {
                                self.drop_input(old, why);
                            }
                            span.insert(id, entry);
                        }
                        Some(existing) => {
                            let why = format!(
                                "dropped duplicate result for {}: the call already has an earlier result",
                                existing.call
                            );
                            self.drop_input(j, why);
                        }
                    }
                }
                Some(_) => {
                    let why = format!(
                        "dropped orphan result {}: no tool call of its assistant turn has this id",
                        result_label(next)
                    );
                    self.drop_input(j, why);
                }
                None => {
                    let why = if calls.len() == 1 {
                        "dropped result without a tool-call id: its toolName conflicts with the name of the only \
                         tool call of its assistant turn"
                            .to_owned()
                    } else {
                        format!(
                            "dropped result without a tool-call id: its assistant turn has {} tool calls, so the \
                             result cannot be assigned",
                            calls.len()
                        )
                    };
                    self.drop_input(j, why);
                }
            }
            j += 1;
        }

        let assistant = messages[start];
        let failed = match assistant.stop_reason() {
            Some(StopReason::Error) => Some("error"),
            Some(StopReason::Aborted) => Some("aborted"),
            _ => None,
        };
        if let Some(reason) = failed {
            match self.opts.errored {
                ErroredPolicy::Preserve => {
                    self.plain(start, Place::Plain);
                    for c in calls {
                        if let Some(e) = span.get(c.id) {
                            self.push_result(e.clone());
                        }
                    }
                }
                ErroredPolicy::Drop => {
                    let list: Vec<String> = calls.iter().map(|c| describe(c.id, c.name)).collect();
                    self.drop_input(
                        start,
                        format!(
                            "dropped failed assistant turn (stopReason `{reason}`) with tool calls {}: failed tool-call turns are not replayed",
                            crate::text::join_folded(&list)
                        ),
                    );
                    let mut dropped: Vec<&Entry> = span.values().collect();
                    dropped.sort_by_key(|e| e.index);
                    let whys: Vec<(usize, String)> = dropped
                        .iter()
                        .filter_map(|e| {
                            Some((
                                e.index?,
                                format!(
                                    "dropped result for {}: its assistant turn failed (stopReason `{reason}`) and is not replayed",
                                    e.call
                                ),
                            ))
                        })
                        .collect();
                    for (index, why) in whys {
                        self.drop_input(index, why);
                    }
                }
            }
            for &r in &remainder {
                self.plain(r, Place::Remainder { frame: start });
            }
            return j;
        }

        self.plain(start, Place::Plain);
        if !span.is_empty() && !remainder.is_empty() {
            self.changed = true;
        }
        let mut later = self.collect_later(j, calls, &span, &names, start);
        for c in calls {
            if let Some(e) = span.get(c.id) {
                self.push_result(e.clone());
            } else if let Some(e) = later.remove(c.id) {
                self.changed = true;
                self.push_result(e);
            } else {
                self.changed = true;
                let e = self.missing(start, c);
                self.push_result(e);
            }
        }
        for &r in &remainder {
            self.plain(r, Place::Remainder { frame: start });
        }
        j
    }

    /// `collectLaterMatchingToolResults`: from `from` to the end, the first not yet placed
    /// result for each call id of the turn (legacy adoption against this turn's calls), for
    /// the calls without a span result (the only ones it is asked for), looked up in
    /// [`LaterResults`].
    fn collect_later(
        &self,
        from: usize,
        calls: &[Call<'m>],
        span: &HashMap<String, Entry>,
        names: &HashMap<&str, &str>,
        owner: usize,
    ) -> HashMap<String, Entry> {
        let mut found: HashMap<String, Entry> = HashMap::new();
        for c in calls {
            if span.contains_key(c.id) || found.contains_key(c.id) || self.positions.contains_key(c.id) {
                continue;
            }
            let Some(index) = self.later.first_for(c, calls, from) else {
                continue;
            };
            let adopted = adopt_legacy(self.messages[index], calls);
            let entry = self.result_entry(
                index,
                adopted.as_ref(),
                c.id,
                names.get(c.id).copied(),
                owner,
                Place::Later,
            );
            found.insert(c.id.to_owned(), entry);
        }
        found
    }

    /// `makeMissingToolResult` (the timestamp is the owning turn's, not the clock's).
    fn missing(&self, owner: usize, call: &Call<'_>) -> Entry {
        let name = call.name.unwrap_or("unknown");
        let mut v = json!({
            "role": "toolResult",
            "toolCallId": call.id,
            "toolName": name,
            "content": [{"type": "text", "text": self.opts.missing_text}],
            "details": {SYNTHETIC_MARKER: true},
            "isError": true,
        });
        if let Some(ts) = self.messages[owner].get("timestamp") {
            v["timestamp"] = ts.clone();
        }
        let mut detail = format!("synthesized missing result for {}", describe(call.id, Some(name)));
        if self.opts.missing_text == ABORTED_TEXT {
            detail.push_str(" with the OpenAI Responses placeholder `aborted`");
        }
        Entry {
            index: None,
            owner,
            msg: Message::from_value(v).unwrap_or_default(),
            note: Some(detail),
            call: describe(call.id, call.name),
            place: Place::Plain,
        }
    }
}

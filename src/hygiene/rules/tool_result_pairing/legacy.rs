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
//! [`Item::Kept`], every further copy an [`Item::Synthetic`] owned by the turn that adopted it.
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

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};

use crate::hygiene::rules::synthetic::{ABORTED_TEXT, SYNTHETIC_MARKER, is_synthetic_result};
use crate::model::{Message, StopReason};

use super::classify::{Call, ErroredPolicy, Item, Options, Plan, tool_calls};
use super::results::{RESULT_ID_FIELDS, describe};
use crate::hygiene::rules::assistant_text::js_trim;

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
            msg.set("toolName", Value::String(name));
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
                            list.join(", ")
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
        let mut later = self.collect_later(j, calls, &ids, &names, start);
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
    /// result for each call id of the turn (legacy adoption against this turn's calls).
    fn collect_later(
        &self,
        from: usize,
        calls: &[Call<'m>],
        ids: &HashSet<&str>,
        names: &HashMap<&str, &str>,
        owner: usize,
    ) -> HashMap<String, Entry> {
        let mut found: HashMap<String, Entry> = HashMap::new();
        for index in from..self.messages.len() {
            let candidate = self.messages[index];
            if !candidate.is_tool_result() {
                continue;
            }
            let adopted = adopt_legacy(candidate, calls);
            let Some(id) = result_id(adopted.as_ref().unwrap_or(candidate)) else {
                continue;
            };
            if !ids.contains(id) || self.positions.contains_key(id) || found.contains_key(id) {
                continue;
            }
            let id = id.to_owned();
            let entry = self.result_entry(
                index,
                adopted.as_ref(),
                &id,
                names.get(id.as_str()).copied(),
                owner,
                Place::Later,
            );
            found.insert(id, entry);
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

    /// Turn the output entries into a [`Plan`]; `None` when the output equals the input.
    fn into_plan(self) -> Option<Plan> {
        let messages = self.messages;
        let n = messages.len();
        let mut used = vec![false; n];
        // First appearance of each input index: kept; further appearances are copies.
        let first: Vec<bool> = self
            .out
            .iter()
            .map(|e| match e.index {
                Some(i) if !used[i] => {
                    used[i] = true;
                    true
                }
                _ => false,
            })
            .collect();
        let kept: Vec<Option<usize>> = self
            .out
            .iter()
            .zip(&first)
            .map(|(e, &f)| if f { e.index } else { None })
            .collect();
        let mut items = Vec::with_capacity(self.out.len());
        for (pos, e) in self.out.iter().enumerate() {
            let Some(index) = kept[pos] else {
                let detail = match e.index {
                    None => e.note.clone().unwrap_or_default(),
                    Some(_) => format!(
                        "copied legacy result without an id as the result for {}: OpenClaw 2026.7.35 lets every \
                         single-call turn adopt it",
                        e.call
                    ),
                };
                items.push(Item::Synthetic {
                    owner: e.owner,
                    message: e.msg.clone(),
                    detail,
                });
                continue;
            };
            let change = (e.msg != *messages[index])
                .then(|| (e.msg.clone(), e.note.clone().unwrap_or_else(|| "normalized".to_owned())));
            let moved = match e.place {
                Place::Plain => None,
                Place::Later | Place::Replacement => {
                    kept[pos + 1..].iter().any(|k| k.is_some_and(|k| k < index)).then(|| {
                        format!(
                            "moved result for {} back to its call: it had been displaced past a later tool-call turn",
                            e.call
                        )
                    })
                }
                Place::Local { frame } => (pos + 1..self.out.len())
                    .find(|&p| self.out[p].place == (Place::Local { frame }) && kept[p].is_some_and(|k| k < index))
                    .map(|p| {
                        format!(
                            "moved result for {} ahead of the result for {}: results follow their calls in order",
                            e.call, self.out[p].call
                        )
                    }),
                Place::Remainder { frame } => {
                    let after: Vec<&str> = (0..pos)
                        .filter(|&p| {
                            self.out[p].place == (Place::Local { frame }) && kept[p].is_some_and(|k| k > index)
                        })
                        .map(|p| self.out[p].call.as_str())
                        .collect();
                    (!after.is_empty()).then(|| {
                        format!(
                            "moved {} message after the results for {}: results must directly follow their tool calls",
                            role_name(messages[index]),
                            after.join(", ")
                        )
                    })
                }
            };
            items.push(Item::Kept { index, change, moved });
        }
        let dropped: Vec<(usize, String)> = (0..n)
            .filter(|&i| !used[i])
            .map(|i| {
                let why = self
                    .reasons
                    .get(&i)
                    .cloned()
                    .unwrap_or_else(|| "dropped by OpenClaw 2026.7.35's pairing repair".to_owned());
                (i, why)
            })
            .collect();
        let identical = dropped.is_empty()
            && items.len() == n
            && items
                .iter()
                .enumerate()
                .all(|(i, it)| matches!(it, Item::Kept { index, change: None, moved: None } if *index == i));
        (!identical).then_some(Plan { items, dropped })
    }
}

/// JavaScript `normalizeOptionalString` for a string field: trimmed (JS `trim()`), non-empty.
fn opt_str(s: Option<&str>) -> Option<&str> {
    s.map(js_trim).filter(|s| !s.is_empty())
}

/// `extractToolResultId`: the first id field that is a string non-empty after JS `trim()`.
fn result_id(m: &Message) -> Option<&str> {
    RESULT_ID_FIELDS.iter().find_map(|f| opt_str(m.str_field(f)))
}

/// `for x (read)` / `without a tool-call id`, for a result in a detail line.
fn result_label(m: &Message) -> String {
    match result_id(m) {
        Some(id) => format!("for {}", describe(id, m.tool_name())),
        None => "without a tool-call id".to_owned(),
    }
}

/// `normalizeLegacyToolResultId`: a result without an id, in a turn with exactly one call whose
/// name does not conflict, gets that call's id and `isError: true`; `None` when it does not apply.
fn adopt_legacy(m: &Message, calls: &[Call<'_>]) -> Option<Message> {
    if result_id(m).is_some() {
        return None;
    }
    let [call] = calls else { return None };
    if let (Some(r), Some(c)) = (opt_str(m.tool_name()), opt_str(call.name))
        && r != c
    {
        return None;
    }
    let mut next = m.clone();
    next.set("toolCallId", Value::from(call.id));
    next.set("isError", Value::Bool(true));
    Some(next)
}

/// `normalizeToolResultName`: the new `toolName` when it changes (trimmed name, else the
/// trimmed fallback, else `unknown` when `toolName` is a string).
fn normalized_name(m: &Message, fallback: Option<&str>) -> Option<String> {
    let raw = m.tool_name();
    if let Some(name) = opt_str(raw) {
        return (raw != Some(name)).then(|| name.to_owned());
    }
    if let Some(name) = opt_str(fallback) {
        return Some(name.to_owned());
    }
    raw.map(|_| "unknown".to_owned())
}

fn role_name(m: &Message) -> &str {
    match m.role().as_str() {
        "" => "role-less",
        r => r,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::hygiene::rules::synthetic::LEGACY_MISSING_TOOL_RESULT_TEXT;

    fn opts(responses: bool) -> Options<'static> {
        Options {
            errored: ErroredPolicy::Drop,
            missing_text: if responses {
                ABORTED_TEXT
            } else {
                LEGACY_MISSING_TOOL_RESULT_TEXT
            },
        }
    }

    /// Apply a plan the way the rule does (each input message taken at most once).
    fn apply(input: &[Message], plan: Option<Plan>) -> Vec<Message> {
        let Some(plan) = plan else { return input.to_vec() };
        let mut taken = vec![false; input.len()];
        for (index, _) in &plan.dropped {
            assert!(!std::mem::replace(&mut taken[*index], true), "dropped twice: {index}");
        }
        plan.items
            .into_iter()
            .map(|item| match item {
                Item::Kept { index, change, .. } => {
                    assert!(!std::mem::replace(&mut taken[index], true), "kept twice: {index}");
                    change.map_or_else(|| input[index].clone(), |(m, _)| m)
                }
                Item::Synthetic { message, .. } => message,
            })
            .collect()
    }

    fn run_with(input: Value, responses: bool) -> (Value, Option<Plan>) {
        run_with_opts(input, &opts(responses))
    }

    fn run_with_opts(input: Value, opts: &Options<'_>) -> (Value, Option<Plan>) {
        let list: Vec<Message> = input
            .as_array()
            .expect("array")
            .iter()
            .map(|m| Message::from_value(m.clone()).expect("object"))
            .collect();
        let view: Vec<&Message> = list.iter().collect();
        let plan = plan_legacy(&view, opts);
        let out = apply(&list, plan.clone());
        (serde_json::to_value(out).unwrap(), plan)
    }

    // Every expected transcript below is what the real OpenClaw 2026.7.35
    // `sanitizeToolUseResultPairing(messages, {erroredAssistantResultPolicy: "drop"})` (plus
    // `missingToolResultText: "aborted"` for Responses) returned for the same input, run with
    // Node 24 against oracle/releases/2026.7.35; only the synthetic results' `timestamp` differs
    // (7.35 writes `Date.now()`, the planner the owning assistant's timestamp).

    const TS: i64 = 1000;

    fn tc(id: &str, name: &str) -> Value {
        json!({"type": "toolCall", "id": id, "name": name, "arguments": {}})
    }

    fn asst(calls: Value) -> Value {
        json!({"role": "assistant", "content": calls, "stopReason": "toolUse", "timestamp": TS})
    }

    fn failed(calls: Value, reason: &str) -> Value {
        json!({"role": "assistant", "content": calls, "stopReason": reason, "timestamp": TS})
    }

    fn res(id: &str, name: &str, text: &str) -> Value {
        json!({"role": "toolResult", "toolCallId": id, "toolName": name,
               "content": [{"type": "text", "text": text}], "isError": false})
    }

    fn no_id(text: &str) -> Value {
        json!({"role": "toolResult", "content": [{"type": "text", "text": text}], "isError": false})
    }

    fn user(text: &str) -> Value {
        json!({"role": "user", "content": text})
    }

    /// A result marked synthetic by an earlier repair.
    fn marked(id: &str, name: &str) -> Value {
        json!({"role": "toolResult", "toolCallId": id, "toolName": name,
               "content": [{"type": "text", "text": "aborted"}], "isError": true,
               "details": {"openclawSyntheticMissingToolResult": true}})
    }

    /// A synthetic result as 7.35 writes it: no `reason` in details, the raw call name.
    fn syn(id: &str, name: &str, text: &str) -> Value {
        json!({"role": "toolResult", "toolCallId": id, "toolName": name,
               "content": [{"type": "text", "text": text}],
               "details": {"openclawSyntheticMissingToolResult": true},
               "isError": true, "timestamp": TS})
    }

    fn run(input: Value) -> (Value, Plan) {
        let (out, plan) = run_with(input, false);
        (out, plan.expect("7.35 changes this transcript"))
    }

    fn dropped(plan: &Plan) -> Vec<usize> {
        plan.dropped.iter().map(|(i, _)| *i).collect()
    }

    fn moved(plan: &Plan) -> Vec<usize> {
        plan.items
            .iter()
            .filter_map(|it| match it {
                Item::Kept {
                    index, moved: Some(_), ..
                } => Some(*index),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn results_in_the_span_follow_their_calls_and_the_remainder_goes_after() {
        let input = json!([
            asst(json!([tc("a", "read"), tc("b", "exec")])),
            user("u"),
            res("b", "exec", "B"),
            res("a", "read", "A")
        ]);
        let (out, plan) = run(input);
        assert_eq!(
            out,
            json!([
                asst(json!([tc("a", "read"), tc("b", "exec")])),
                res("a", "read", "A"),
                res("b", "exec", "B"),
                user("u")
            ])
        );
        assert!(plan.dropped.is_empty());
        assert_eq!(moved(&plan), vec![3, 1]);
    }

    #[test]
    fn reordering_inside_one_span_alone_is_not_applied() {
        // 7.35 sets neither `changed` nor `moved` for it and returns the input array.
        let input = json!([
            asst(json!([tc("a", "read"), tc("b", "exec")])),
            res("b", "exec", "B"),
            res("a", "read", "A")
        ]);
        assert_eq!(run_with(input.clone(), false), (input, None));
        // With any other change in the transcript, the reordered output is returned.
        let input = json!([
            asst(json!([tc("a", "read"), tc("b", "exec")])),
            res("b", "exec", "B"),
            res("a", " read ", "A")
        ]);
        let (out, plan) = run(input);
        assert_eq!(
            out,
            json!([
                asst(json!([tc("a", "read"), tc("b", "exec")])),
                res("a", "read", "A"),
                res("b", "exec", "B")
            ])
        );
        assert_eq!(moved(&plan), vec![2]);
    }

    #[test]
    fn a_displaced_later_result_moves_up_to_its_call() {
        let input = json!([
            asst(json!([tc("a", "read")])),
            user("u"),
            asst(json!([tc("b", "exec")])),
            res("b", "exec", "B"),
            res("a", "read", "A")
        ]);
        let (out, plan) = run(input);
        assert_eq!(
            out,
            json!([
                asst(json!([tc("a", "read")])),
                res("a", "read", "A"),
                user("u"),
                asst(json!([tc("b", "exec")])),
                res("b", "exec", "B")
            ])
        );
        assert!(plan.dropped.is_empty());
        assert_eq!(moved(&plan), vec![4]);
    }

    #[test]
    fn missing_results_are_synthesized_with_either_text() {
        let calls = json!([
            tc("a", "read"),
            tc("b", " exec "),
            {"type": "toolCall", "id": "c", "arguments": {}}
        ]);
        let input = json!([asst(calls.clone()), res("a", "read", "A")]);
        for (responses, text) in [(false, LEGACY_MISSING_TOOL_RESULT_TEXT), (true, ABORTED_TEXT)] {
            let (out, plan) = run_with(input.clone(), responses);
            assert_eq!(
                out,
                json!([
                    asst(calls.clone()),
                    res("a", "read", "A"),
                    syn("b", " exec ", text),
                    syn("c", "unknown", text)
                ])
            );
            let plan = plan.unwrap();
            assert!(matches!(&plan.items[2], Item::Synthetic { owner: 0, .. }));
        }
    }

    #[test]
    fn duplicates_are_dropped_and_the_first_result_wins() {
        let input = json!([
            asst(json!([tc("a", "read")])),
            res("a", "read", "first"),
            res("a", "read", "second"),
            asst(json!([tc("b", "exec")])),
            res("b", "exec", "B"),
            res("a", "read", "third")
        ]);
        let (out, plan) = run(input);
        assert_eq!(
            out,
            json!([
                asst(json!([tc("a", "read")])),
                res("a", "read", "first"),
                asst(json!([tc("b", "exec")])),
                res("b", "exec", "B")
            ])
        );
        assert_eq!(dropped(&plan), vec![2, 5]);
    }

    #[test]
    fn a_repeated_call_id_gets_no_second_result() {
        let input = json!([
            asst(json!([tc("a", "read")])),
            res("a", "read", "A1"),
            asst(json!([tc("a", "read")])),
            res("a", "read", "A2")
        ]);
        let (out, plan) = run(input);
        assert_eq!(
            out,
            json!([
                asst(json!([tc("a", "read")])),
                res("a", "read", "A1"),
                asst(json!([tc("a", "read")]))
            ])
        );
        assert_eq!(dropped(&plan), vec![3]);
    }

    #[test]
    fn orphans_before_any_call_and_unknown_ids_are_dropped() {
        let input = json!([
            user("u"),
            res("a", "read", "early"),
            asst(json!([tc("a", "read")])),
            res("a", "read", "A"),
            res("zzz", "read", "Z"),
            {"role": "toolResult", "content": [{"type": "text", "text": "N"}], "isError": false}
        ]);
        let (out, plan) = run(input);
        assert_eq!(
            out,
            json!([user("u"), asst(json!([tc("a", "read")])), res("a", "read", "A")])
        );
        // The result without an id adopts `a`, which already has a result: a duplicate.
        assert_eq!(dropped(&plan), vec![1, 4, 5]);
        assert!(plan.dropped[0].1.contains("no assistant tool call precedes it"));
    }

    #[test]
    fn errored_and_aborted_turns_are_dropped_with_their_results() {
        let input = json!([
            user("u"),
            failed(json!([tc("a", "read")]), "error"),
            res("a", "read", "A"),
            user("v"),
            failed(json!([tc("b", "exec")]), "aborted"),
            res("b", "exec", "B"),
            res("zzz", "x", "Z")
        ]);
        let (out, plan) = run(input);
        assert_eq!(out, json!([user("u"), user("v")]));
        assert_eq!(dropped(&plan), vec![1, 2, 4, 5, 6]);
        assert!(plan.dropped[0].1.contains("stopReason `error`"));
    }

    #[test]
    fn a_call_with_an_empty_id_is_no_call() {
        // The block stays; the turn's only call is `a`, so a result without an id adopts it.
        let calls = json!([tc("a", "read"), tc("", "exec")]);
        let (out, _) = run(json!([asst(calls.clone()), no_id("N")]));
        assert_eq!(
            out,
            json!([
                asst(calls),
                {"role": "toolResult", "content": [{"type": "text", "text": "N"}], "isError": true,
                 "toolCallId": "a", "toolName": "read"}
            ])
        );
        // A turn whose only call has an empty id opens no span: its result is an orphan.
        let only = json!([tc("", "exec")]);
        let (out, plan) = run(json!([asst(only.clone()), res("", "exec", "E"), user("u")]));
        assert_eq!(out, json!([asst(only), user("u")]));
        assert_eq!(dropped(&plan), vec![1]);
    }

    #[test]
    fn a_synthetic_result_is_replaced_by_a_real_one_found_later() {
        let input = json!([
            asst(json!([tc("a", "read")])),
            marked("a", "read"),
            user("u"),
            asst(json!([tc("b", "exec")])),
            res("b", "exec", "B"),
            res("a", "read", "A")
        ]);
        let (out, plan) = run(input);
        assert_eq!(
            out,
            json!([
                asst(json!([tc("a", "read")])),
                res("a", "read", "A"),
                user("u"),
                asst(json!([tc("b", "exec")])),
                res("b", "exec", "B")
            ])
        );
        assert_eq!(dropped(&plan), vec![1]);
        assert_eq!(moved(&plan), vec![5]);
        // Within one span too.
        let (out, plan) = run(json!([
            asst(json!([tc("a", "read")])),
            marked("a", "read"),
            res("a", "read", "A")
        ]));
        assert_eq!(out, json!([asst(json!([tc("a", "read")])), res("a", "read", "A")]));
        assert_eq!(dropped(&plan), vec![1]);
    }

    #[test]
    fn legacy_result_ids_are_adopted_unless_the_names_conflict() {
        let named = |name: &str| {
            json!({"role": "toolResult", "content": [{"type": "text", "text": "N"}], "isError": false,
                   "toolName": name})
        };
        let (out, plan) = run(json!([asst(json!([tc("a", "read")])), named("read")]));
        assert_eq!(
            out,
            json!([
                asst(json!([tc("a", "read")])),
                {"role": "toolResult", "content": [{"type": "text", "text": "N"}], "isError": true,
                 "toolName": "read", "toolCallId": "a"}
            ])
        );
        assert!(matches!(
            &plan.items[1],
            Item::Kept {
                index: 1,
                change: Some(_),
                ..
            }
        ));
        let (out, plan) = run(json!([asst(json!([tc("a", "read")])), named("exec")]));
        assert_eq!(
            out,
            json!([
                asst(json!([tc("a", "read")])),
                syn("a", "read", LEGACY_MISSING_TOOL_RESULT_TEXT)
            ])
        );
        assert_eq!(dropped(&plan), vec![1]);
    }

    #[test]
    fn a_legacy_result_is_copied_to_every_single_call_turn_that_adopts_it() {
        let input = json!([
            asst(json!([tc("a", "read")])),
            user("u"),
            asst(json!([tc("b", "exec")])),
            no_id("N")
        ]);
        let (out, plan) = run(input);
        let adopted = |id: &str, name: &str| {
            json!({"role": "toolResult", "content": [{"type": "text", "text": "N"}], "isError": true,
                   "toolCallId": id, "toolName": name})
        };
        assert_eq!(
            out,
            json!([
                asst(json!([tc("a", "read")])),
                adopted("a", "read"),
                user("u"),
                asst(json!([tc("b", "exec")])),
                adopted("b", "exec")
            ])
        );
        assert!(matches!(&plan.items[1], Item::Kept { index: 3, .. }));
        assert!(matches!(&plan.items[4], Item::Synthetic { owner: 2, .. }));
    }

    #[test]
    fn a_padded_call_id_never_pairs() {
        let (out, plan) = run(json!([asst(json!([tc(" a ", "read")])), res(" a ", "read", "A")]));
        assert_eq!(
            out,
            json!([
                asst(json!([tc(" a ", "read")])),
                syn(" a ", "read", LEGACY_MISSING_TOOL_RESULT_TEXT)
            ])
        );
        assert_eq!(dropped(&plan), vec![1]);
    }

    /// Read `{"messages": [...], "responses": bool}` lines from `LEGACY_PAIRING_CASES` and write
    /// the planner's output, one JSON array a line, to `LEGACY_PAIRING_OUT` (compared with the
    /// real 7.35 `sanitizeToolUseResultPairing` outside the test, see the module docs).
    #[test]
    #[ignore]
    fn randomized_cases_from_env() {
        let (Ok(input), Ok(output)) = (
            std::env::var("LEGACY_PAIRING_CASES"),
            std::env::var("LEGACY_PAIRING_OUT"),
        ) else {
            panic!("set LEGACY_PAIRING_CASES and LEGACY_PAIRING_OUT");
        };
        // `LEGACY_PAIRING_PRESERVE=1`: the upstream default erroredAssistantResultPolicy instead.
        let preserve = std::env::var("LEGACY_PAIRING_PRESERVE").is_ok_and(|v| v == "1");
        let text = std::fs::read_to_string(input).unwrap();
        let mut lines = Vec::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let case: Value = serde_json::from_str(line).unwrap();
            let responses = case["responses"].as_bool().unwrap_or(false);
            let mut options = opts(responses);
            if preserve {
                options.errored = ErroredPolicy::Preserve;
            }
            let (out, _) = run_with_opts(case["messages"].clone(), &options);
            lines.push(serde_json::to_string(&out).unwrap());
        }
        std::fs::write(output, lines.join("\n") + "\n").unwrap();
    }
}

//! The classification core of `tool-result-pairing` (OpenClaw's `sanitizeToolUseResultPairing`, newest: by occurrence):
//! frames, local claiming, displacement and assembly over plain messages. It only decides;
//! the rule turns the resulting [`Plan`] into working messages and recorded rewrites.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::model::{Message, StopReason};
use crate::openclaw::synthetic::{ABORTED_TEXT, is_synthetic_result, synthetic_result};

use super::order;
use super::results::{adopt, describe, finalize, match_key, result_label, synthetic_tool_name};

pub use super::results::{RESULT_ID_FIELDS, primary_result_id};

/// `erroredAssistantResultPolicy`: what happens to frames whose assistant failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErroredPolicy {
    /// Keep the failed assistant and its results, but synthesize nothing for it (upstream default).
    Preserve,
    /// Omit the failed assistant and every result assigned to it (every replay caller).
    Drop,
}

/// Options of one pairing pass.
#[derive(Debug, Clone, Copy)]
pub struct Options<'t> {
    /// What happens to failed frames.
    pub errored: ErroredPolicy,
    /// The text of synthesized missing results.
    pub missing_text: &'t str,
}

/// One tool-call occurrence: a canonical tool-call block with a non-empty string `id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Call<'m> {
    /// The call id, not trimmed (ambiguity A3).
    pub id: &'m str,
    /// The call name, when it is a string.
    pub name: Option<&'m str>,
    /// Index of the block in the message's content array.
    pub block: usize,
}

/// The tool-call occurrences of an assistant message, in content order (none for other roles).
pub fn tool_calls(m: &Message) -> Vec<Call<'_>> {
    if !m.is_assistant() {
        return Vec::new();
    }
    m.blocks()
        .enumerate()
        .filter(|(_, b)| b.kind().is_canonical_tool_call())
        .filter_map(|(block, b)| {
            let id = b.tool_call_id().filter(|id| !id.is_empty())?;
            Some(Call {
                id,
                name: b.tool_call_name(),
                block,
            })
        })
        .collect()
}

/// The tool calls that pairing gives a real (non-synthetic) result, as
/// `(message index, content index)`: OpenClaw's `collectCompletedToolCallBlocks`, the full
/// classification (local claiming, then displacement) without assembling the output.
pub fn completed_calls(messages: &[&Message]) -> HashSet<(usize, usize)> {
    let (_, frames) = classify(messages, &mut Vec::new());
    frames
        .iter()
        .flat_map(|f| {
            f.occs
                .iter()
                .filter(|o| o.result.as_ref().is_some_and(|r| !r.synthetic))
                .map(move |o| (f.start, o.call.block))
        })
        .collect()
}

/// Steps 1–3: the frame starts (assistant turns with tool calls) and the frames after local
/// claiming and displacement; results dropped on the way are recorded in `dropped`.
fn classify<'m>(messages: &[&'m Message], dropped: &mut Vec<(usize, String)>) -> (Vec<usize>, Vec<Frame<'m>>) {
    let starts: Vec<usize> = (0..messages.len())
        .filter(|&i| messages[i].is_assistant() && !tool_calls(messages[i]).is_empty())
        .collect();
    let mut frames: Vec<Frame<'m>> = starts
        .iter()
        .enumerate()
        .map(|(k, &start)| {
            let end = starts.get(k + 1).copied().unwrap_or(messages.len());
            claim_locally(messages, start, end, dropped)
        })
        .collect();
    displace(messages, &mut frames, dropped);
    (starts, frames)
}

/// What becomes of one input message.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// The input message at `index`, possibly changed and/or moved.
    Kept {
        /// Index in the input.
        index: usize,
        /// The changed message and why, when its content changed.
        change: Option<(Message, String)>,
        /// Why it moved, when its relative position changed.
        moved: Option<String>,
    },
    /// A synthesized missing result for a call of the assistant at input index `owner`.
    Synthetic {
        /// Input index of the owning assistant.
        owner: usize,
        /// The new message.
        message: Message,
        /// Why it was synthesized.
        detail: String,
    },
    /// A further copy of the input message at `of` (OpenClaw 2026.7 lets several turns adopt
    /// one legacy result without an id), placed as the result of a call of `owner`.
    Copy {
        /// Input index of the adopting assistant.
        owner: usize,
        /// Input index of the message copied.
        of: usize,
        /// The copy as placed.
        message: Message,
        /// Why it was copied.
        detail: String,
    },
}

/// The output of a pairing pass: the new order, and the input messages that were dropped.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The output, in order.
    pub items: Vec<Item>,
    /// Dropped input indices with the reason, in input order.
    pub dropped: Vec<(usize, String)>,
}

impl Plan {
    /// The provenance of every input message an [`Item::Copy`] copies, taken from `source`
    /// (an input's provenance by index) before the inputs are moved into the output. Only the
    /// 2026.7 planner makes copies, so this is usually empty and costs nothing.
    pub fn copy_sources(&self, source: impl Fn(usize) -> Option<Vec<usize>>) -> HashMap<usize, Vec<usize>> {
        self.items
            .iter()
            .filter_map(|item| match item {
                Item::Copy { of, .. } => Some((*of, source(*of)?)),
                _ => None,
            })
            .collect()
    }
}

/// One tool result as classified: where it is, its legacy-adopted form, and its match key.
#[derive(Debug, Clone)]
struct Rec {
    index: usize,
    /// The message after legacy id adoption, when adoption applied.
    adopted: Option<Message>,
    synthetic: bool,
    key: Option<String>,
    /// Why a result without an id could not be adopted.
    no_id_reason: Option<String>,
}

#[derive(Debug)]
struct Occ<'m> {
    call: Call<'m>,
    result: Option<Rec>,
    /// The result came from a later frame (displacement).
    displaced: bool,
}

#[derive(Debug)]
struct Frame<'m> {
    start: usize,
    failed: Option<&'m str>,
    occs: Vec<Occ<'m>>,
    remainder: Vec<usize>,
    unclaimed: Vec<Rec>,
}

/// Run the pairing repair; `None` when the output would be element-wise identical to the input.
pub fn plan(messages: &[&Message], opts: &Options<'_>) -> Option<Plan> {
    let has_frame = messages.iter().any(|m| m.is_assistant() && !tool_calls(m).is_empty());
    if !has_frame && !messages.iter().any(|m| m.is_tool_result()) {
        return None;
    }
    let mut dropped = Vec::new();
    let (starts, frames) = classify(messages, &mut dropped);
    let mut items = Vec::new();
    let first = starts.first().copied().unwrap_or(messages.len());
    for (i, m) in messages.iter().enumerate().take(first) {
        if m.is_tool_result() {
            let what = result_label(m);
            dropped.push((
                i,
                format!("dropped orphan result {what}: no assistant tool call precedes it"),
            ));
        } else {
            items.push(kept(i));
        }
    }
    for frame in &frames {
        assemble(messages, frame, opts, &mut items, &mut dropped);
    }
    dropped.sort_by_key(|(i, _)| *i);
    let identical =
        dropped.is_empty() && items.len() == messages.len() && items.iter().enumerate().all(|(i, it)| *it == kept(i));
    (!identical).then_some(Plan { items, dropped })
}

fn kept(index: usize) -> Item {
    Item::Kept {
        index,
        change: None,
        moved: None,
    }
}

/// Step 2: every occurrence is queued under its id and the span's results claim them in order.
fn claim_locally<'m>(
    messages: &[&'m Message],
    start: usize,
    end: usize,
    dropped: &mut Vec<(usize, String)>,
) -> Frame<'m> {
    let assistant = messages[start];
    let calls = tool_calls(assistant);
    let mut pending: HashMap<&str, VecDeque<usize>> = HashMap::new();
    // The first call with each id (a turn may hold thousands of calls: no linear search).
    let mut first_call: HashMap<&str, usize> = HashMap::new();
    for (k, c) in calls.iter().enumerate() {
        pending.entry(c.id).or_default().push_back(k);
        first_call.entry(c.id).or_insert(k);
    }
    let mut replaceable: HashMap<String, VecDeque<usize>> = HashMap::new();
    let mut occs: Vec<Occ<'m>> = calls
        .iter()
        .map(|&call| Occ {
            call,
            result: None,
            displaced: false,
        })
        .collect();
    let mut frame = Frame {
        start,
        failed: assistant
            .stop_reason()
            .filter(|s| s.is_failure())
            .map(|s| if s == StopReason::Error { "error" } else { "aborted" }),
        occs: Vec::new(),
        remainder: Vec::new(),
        unclaimed: Vec::new(),
    };
    for (index, &m) in messages.iter().enumerate().take(end).skip(start + 1) {
        if !m.is_tool_result() {
            frame.remainder.push(index);
            continue;
        }
        let (adopted, no_id_reason) = match adopt(m, &calls) {
            Ok(a) => (a, None),
            Err(why) => (None, Some(why)),
        };
        let eff = adopted.as_ref().unwrap_or(m);
        let synthetic = is_synthetic_result(eff);
        let key = match_key(eff);
        let rec = Rec {
            index,
            adopted,
            synthetic,
            key,
            no_id_reason,
        };
        let Some(key) = rec.key.clone() else {
            frame.unclaimed.push(rec);
            continue;
        };
        if let Some(k) = pending.get_mut(key.as_str()).and_then(VecDeque::pop_front) {
            if synthetic {
                replaceable.entry(key).or_default().push_back(k);
            }
            occs[k].result = Some(rec);
            continue;
        }
        crate::openclaw::work::examined(1);
        let Some(&first) = first_call.get(key.as_str()) else {
            frame.unclaimed.push(rec);
            continue;
        };
        let owner = describe(&key, calls[first].name);
        let replaced = if synthetic {
            None
        } else {
            replaceable.get_mut(&key).and_then(VecDeque::pop_front)
        };
        match replaced {
            Some(k) => {
                if let Some(old) = occs[k].result.replace(rec) {
                    dropped.push((
                        old.index,
                        format!("dropped synthetic result for {owner}: a real result for the call follows"),
                    ));
                }
            }
            None => {
                let why = if synthetic {
                    format!("dropped duplicate synthetic result for {owner}: the call already has a result")
                } else {
                    format!("dropped duplicate result for {owner}: the call already has an earlier real result")
                };
                dropped.push((index, why));
            }
        }
    }
    frame.occs = occs;
    frame
}

/// Step 3: unclaimed results move backward to the one unresolved occurrence that can own them;
/// with none or several candidates they are orphans and dropped.
fn displace(messages: &[&Message], frames: &mut [Frame<'_>], dropped: &mut Vec<(usize, String)>) {
    let mut unresolved: HashMap<String, Vec<(usize, usize)>> = HashMap::new();
    for f in 0..frames.len() {
        for (k, occ) in frames[f].occs.iter().enumerate() {
            if occ.result.as_ref().is_none_or(|r| r.synthetic) {
                unresolved.entry(occ.call.id.to_owned()).or_default().push((f, k));
            }
        }
        for rec in std::mem::take(&mut frames[f].unclaimed) {
            let candidates: Vec<(usize, usize)> = rec
                .key
                .as_ref()
                .and_then(|key| unresolved.get(key))
                .into_iter()
                .flatten()
                .copied()
                .filter(|&(cf, ck)| {
                    frames[cf].occs[ck]
                        .result
                        .as_ref()
                        .is_none_or(|r| r.synthetic && !rec.synthetic)
                })
                .collect();
            let m = messages[rec.index];
            let [(cf, ck)] = candidates[..] else {
                let why = match (&rec.key, &rec.no_id_reason) {
                    (None, Some(reason)) => format!("dropped result without a tool-call id: {reason}"),
                    (None, None) => "dropped result without a tool-call id: it cannot be matched".to_owned(),
                    (Some(_), _) if candidates.is_empty() => format!(
                        "dropped orphan result {}: no tool call with this id is waiting for a result",
                        result_label(m)
                    ),
                    (Some(_), _) => format!(
                        "dropped ambiguous result {}: {} earlier tool calls with this id lack a result, so its owner is unknown",
                        result_label(m),
                        candidates.len()
                    ),
                };
                dropped.push((rec.index, why));
                continue;
            };
            let occ = &mut frames[cf].occs[ck];
            let owner = describe(occ.call.id, occ.call.name);
            if let Some(old) = occ.result.replace(rec) {
                dropped.push((
                    old.index,
                    format!("dropped synthetic result for {owner}: a real result displaced past a later tool-call turn replaces it"),
                ));
            }
            occ.displaced = true;
        }
    }
}

/// Step 4 for one frame: assistant, one result per occurrence (synthesizing missing ones),
/// then the remainder; or, for a failed frame under the drop policy, only the remainder.
fn assemble(
    messages: &[&Message],
    frame: &Frame<'_>,
    opts: &Options<'_>,
    items: &mut Vec<Item>,
    dropped: &mut Vec<(usize, String)>,
) {
    let calls_text = || {
        let list: Vec<String> = frame.occs.iter().map(|o| describe(o.call.id, o.call.name)).collect();
        crate::text::join_folded(&list)
    };
    if let (Some(reason), ErroredPolicy::Drop) = (frame.failed, opts.errored) {
        dropped.push((
            frame.start,
            format!(
                "dropped failed assistant turn (stopReason `{reason}`) with tool calls {}: failed tool-call turns are not replayed",
                calls_text()
            ),
        ));
        for occ in &frame.occs {
            if let Some(rec) = &occ.result {
                let owner = describe(occ.call.id, occ.call.name);
                dropped.push((
                    rec.index,
                    format!("dropped result for {owner}: its assistant turn failed (stopReason `{reason}`) and is not replayed"),
                ));
            }
        }
        items.extend(frame.remainder.iter().map(|&r| kept(r)));
        return;
    }
    items.push(kept(frame.start));
    let locals: Vec<(usize, String)> = frame
        .occs
        .iter()
        .filter(|o| !o.displaced)
        .filter_map(|o| Some((o.result.as_ref()?.index, describe(o.call.id, o.call.name))))
        .collect();
    let local_indices: Vec<usize> = locals.iter().map(|(i, _)| *i).collect();
    let ahead_of = order::next_smaller(&local_indices);
    let mut local_pos = 0;
    for occ in &frame.occs {
        let owner = describe(occ.call.id, occ.call.name);
        let Some(rec) = &occ.result else {
            if frame.failed.is_some() {
                continue;
            }
            let name = synthetic_tool_name(occ.call.name);
            let ts = messages[frame.start].get("timestamp").cloned();
            let message = synthetic_result(occ.call.id, &name, opts.missing_text, ts);
            let mut detail = format!("synthesized missing result for {}", describe(occ.call.id, Some(&name)));
            if opts.missing_text == ABORTED_TEXT {
                detail.push_str(" with the OpenAI Responses placeholder `aborted`");
            }
            items.push(Item::Synthetic {
                owner: frame.start,
                message,
                detail,
            });
            continue;
        };
        let moved = if occ.displaced {
            Some(format!(
                "moved result for {owner} back to its call: it had been displaced past a later tool-call turn"
            ))
        } else {
            let later = ahead_of[local_pos];
            local_pos += 1;
            later.map(|q| {
                let other = &locals[q].1;
                format!("moved result for {owner} ahead of the result for {other}: results follow their calls in order")
            })
        };
        items.push(Item::Kept {
            index: rec.index,
            change: finalize(messages[rec.index], rec.adopted.as_ref(), &occ.call),
            moved,
        });
    }
    let follows = order::greater_than_each(&local_indices, &frame.remainder, order::NAMED);
    for (&r, (after, count)) in frame.remainder.iter().zip(follows) {
        let moved = (count > 0).then(|| {
            let after: Vec<&str> = after.iter().map(|&q| locals[q].1.as_str()).collect();
            order::moved_behind_results(role_name(messages[r]), &after, count)
        });
        items.push(Item::Kept {
            index: r,
            change: None,
            moved,
        });
    }
}

fn role_name(m: &Message) -> &str {
    match m.role().as_str() {
        "" => "role-less",
        r => r,
    }
}

//! `responses-reasoning`: OpenAI Responses — drop orphaned or pre-switch replayable
//! reasoning, normalize call ids (OpenClaw's `dropStaleOpenAIReasoning`,
//! `normalizeOpenAIResponsesToolCallIds`, `downgradeOpenAIFunctionCallReasoningPairs`).

use std::collections::HashMap;

use crate::json;
use crate::model::json::Value;

use crate::hygiene::{Action, Context, PendingRewrite, Rule, RuleInfo, Working, WorkingMessage};
use crate::model::Message;

use crate::hygiene::helpers::responses_reasoning_ids::{
    describe_model, models_differ, normalize_function_call_id_as, replayable_reasoning, responses_tool_call_id,
    should_normalize, split_pairing, target_model, text_signature_phase,
};
use crate::hygiene::helpers::responses_result_ids::{
    Renames, downgrade_result_ids, legacy_rename_result_ids, rename_result_ids,
};
use crate::hygiene::helpers::thinking_blocks::with_content;
use crate::openclaw::compaction_replay::{none_rebuilt, replace_owner_content};
use crate::openclaw::js_map::JsMap;
use crate::openclaw::pairing::classify::tool_calls;
use crate::openclaw::pairing::results::primary_result_id;

static INFO: RuleInfo = RuleInfo {
    id: "responses-reasoning",
    summary: "OpenAI Responses: drop orphaned or pre-switch replayable reasoning, normalize call ids",
    explanation: "OpenAI Responses replays reasoning as `reasoning` items (`rs_…`) stored in a thinking block's \
        `thinkingSignature` (a JSON object, or a string holding one, whose `id` starts with `rs_` and whose \
        `type` is `reasoning` or `reasoning.*`). The API rejects a reasoning item without its following \
        item, an `fc_…` function call whose reasoning item is missing, and reasoning minted for another \
        model. Four passes run, in this order, each recording its own rewrites. (1) Pre-switch drop \
        (newest dropStaleOpenAIReasoning): the latest model switch is the current target differing from \
        the session's last recorded model (every message is then before it), else the latest model event \
        whose provider, API or model differs from the event before it; a part unknown on either side \
        (pi model_change entries have no API) is not a difference. A message is before the switch when \
        all its stored indices precede the event. In such assistant turns every replayable reasoning block \
        is removed, falsy blocks (null, false, 0, \"\") are removed, and when reasoning was removed each \
        text block's `textSignature` loses its paired `msg_…` id: it becomes `{\"v\":1,\"phase\":…}` when \
        it carried a commentary/final_answer phase (kept in place), else it is removed. A turn left empty \
        is dropped. (2) Orphan drop, up to 2026.9.1 only (`responses-orphan-reasoning-in-history`): a \
        replayable reasoning block with no later block in its turn whose type is not `thinking` is \
        removed; a turn left empty is dropped. From 2026.9.2 on OpenClaw leaves it to the transport, \
        which drops a trailing reasoning item only when it still carries its `rs_…` id and no \
        `encrypted_content`; without replayed item ids (no `store`) it never does, so a same-model \
        turn holding only reasoning is sent as `{\"type\":\"reasoning\",\"summary\":[]}` (the wire \
        stage, not this rule). (3) Call-id normalization \
        (normalizeOpenAIResponsesToolCallIds): a `toolCall`/`toolUse`/`functionCall` id whose call part is \
        not `call_[A-Za-z0-9_-]{1,59}` or whose `|` item part is not `fc_[A-Za-z0-9_-]{1,61}` is reshaped \
        to `call_<safe tail>_<10 hex of SHA-256>` (at most 64 characters; for a pair the call part is \
        shaped from the whole pair and the item part becomes `fc_…`); a tool result takes one \
        primary id, the first non-empty string of call_id, callId, tool_call_id, tool_use_id, toolCallId, \
        toolUseId, mapped the same way and written into every one of those fields holding a non-empty \
        string (whatever its own value), and into `toolCallId` when that is not a string; canonical \
        same-model `call_*|fc_*` pairs are preserved. (4) Pair downgrade \
        (downgradeOpenAIFunctionCallReasoningPairs): a tool call whose id is `call_x|fc_y` with no \
        replayable reasoning block before it in its turn becomes `call_x`, and the `toolCallId` / \
        `toolUseId` of the tool results directly following that turn are renamed with it. Every rewritten \
        assistant turn's compaction checkpoint (`providerReplay`) moves with its content in passes 1, 3 \
        and 4 (replaceCompactionReplayOwnerContent; see blank-text). Out of scope: re-keying duplicate call ids (done by \
        tool-result-pairing / tool-call-id), the Codex wire-level item-id stripping, and the transport \
        replay of `encrypted_content`.",
    families: "OpenAI Responses family: openai-responses, openai-chatgpt-responses, azure-openai-responses",
    reference: "transcript-hygiene.md › \"Provider matrix (current behavior)\" › OpenAI / OpenAI Codex · dropStaleOpenAIReasoning, normalizeOpenAIResponsesToolCallIds, downgradeOpenAIFunctionCallReasoningPairs",
};

/// The `responses-reasoning` rule.
pub struct ResponsesReasoning;

impl Rule for ResponsesReasoning {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        ctx.is_openai_responses()
    }

    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let checkpoints = ctx.options.rule_set.switches.compaction_checkpoints;
        if let Some((boundary, why)) = switch_boundary(ctx) {
            rebuild(work, rewrites, |wm| {
                if wm.source.iter().all(|&s| s < boundary) {
                    pre_switch(&wm.message, &why, checkpoints)
                } else {
                    Verdict::Keep
                }
            });
        }
        if ctx.options.rule_set.switches.responses_orphan_reasoning_in_history {
            // Up to 2026.9.1 the history step dropped orphaned reasoning too.
            rebuild(work, rewrites, |wm| orphans(&wm.message));
        }
        normalize_ids(
            work,
            rewrites,
            ctx.options.rule_set.switches.legacy_responses_call_ids,
            checkpoints,
        );
        downgrade_pairs(work, rewrites, checkpoints);
    }
}

/// The end of the history stage for OpenAI Responses: OpenClaw's
/// `assertOpenAIResponsesToolUseResultInvariant`. Every tool call must be answered by a result
/// before the next non-result message and every result must answer a pending call; otherwise
/// OpenClaw throws `invalid_replay_transcript` and sends nothing. This records that refusal.
pub struct ResponsesReplayInvariant {
    legacy_position: bool,
}

impl ResponsesReplayInvariant {
    /// The check where OpenClaw makes it: on the repaired list after the provider hooks, and
    /// again after Google turn ordering (rule sets without the legacy pairing order).
    pub const CURRENT: Self = Self { legacy_position: false };
    /// The check at the end of the history stage, which is where the legacy pairing order
    /// (up to 2026.7) leaves the list OpenClaw checked.
    pub const LEGACY: Self = Self { legacy_position: true };
}

impl Rule for ResponsesReplayInvariant {
    fn step(&self) -> &'static str {
        if self.legacy_position {
            "responses-reasoning/invariant-2026.7"
        } else {
            "responses-reasoning/invariant"
        }
    }

    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        // 2026.6.9 and 2026.6.10 (`no-responses-invariant`) did not check it.
        ctx.is_openai_responses()
            && ctx.options.rule_set.switches.responses_replay_invariant
            && ctx.options.rule_set.switches.legacy_pairing == self.legacy_position
    }

    fn apply<'s>(&self, _ctx: &Context<'_>, work: &mut Working<'s>, _rewrites: &mut Vec<PendingRewrite>) {
        if work.refusal.is_none() {
            work.refusal = invariant_violation(work.iter_messages());
        }
    }
}

/// The `invalid_replay_transcript` error OpenClaw would throw for these messages, if any.
pub fn invariant_violation<'m>(messages: impl Iterator<Item = &'m Message>) -> Option<String> {
    let error = |reason: &str, id: Option<&str>, index: usize| {
        let id = id.map(|id| format!(" toolCallId={id}")).unwrap_or_default();
        format!("invalid_replay_transcript: OpenAI Responses replay contains {reason}{id} at message index {index}")
    };
    // Pending calls in insertion order, like the JavaScript Map upstream: a repeated id keeps
    // its place and takes the later message index.
    let mut pending: JsMap<&'m str, usize> = JsMap::new();
    for (i, m) in messages.enumerate() {
        if !m.is_tool_result()
            && let Some((&id, &at)) = pending.first()
        {
            return Some(error("dangling_tool_call", Some(id), at));
        }
        if m.is_tool_result() {
            let id = primary_result_id(m);
            if id.and_then(|id| pending.delete(&id)).is_none() {
                return Some(error("orphan_tool_result", id, i));
            }
        } else {
            for call in tool_calls(m) {
                pending.set(call.id, i);
            }
        }
    }
    pending
        .first()
        .map(|(&id, &at)| error("dangling_tool_call", Some(id), at))
}

/// The stored-message count before the latest model switch, and a description of it.
fn switch_boundary(ctx: &Context<'_>) -> Option<(usize, String)> {
    let events = ctx.model_events;
    let target = target_model(&ctx.resolved.target);
    if let Some(last) = events.last()
        && models_differ(&last.model, &target)
    {
        return Some((
            usize::MAX,
            format!(
                "the target {} differs from the session's last model {}",
                describe_model(&target),
                describe_model(&last.model)
            ),
        ));
    }
    events
        .windows(2)
        .rev()
        .find(|w| models_differ(&w[0].model, &w[1].model))
        .map(|w| {
            (
                w[1].before_message,
                format!("recorded before the model switch to {}", describe_model(&w[1].model)),
            )
        })
}

enum Verdict {
    Keep,
    Modify(Message, String),
    Drop(String),
}

/// Apply a per-message verdict, recording one rewrite per changed or dropped message.
fn rebuild(
    work: &mut Working<'_>,
    rewrites: &mut Vec<PendingRewrite>,
    mut f: impl FnMut(&WorkingMessage<'_>) -> Verdict,
) {
    let verdicts: Vec<Verdict> = work.messages.iter().map(&mut f).collect();
    if verdicts.iter().all(|v| matches!(v, Verdict::Keep)) {
        return;
    }
    let old = std::mem::take(&mut work.messages);
    for (mut wm, v) in old.into_iter().zip(verdicts) {
        match v {
            Verdict::Keep => work.messages.push(wm),
            Verdict::Modify(next, detail) => {
                wm.message = std::borrow::Cow::Owned(next);
                rewrites.push(PendingRewrite::on(INFO.id, Action::Modify, &wm, detail));
                work.messages.push(wm);
            }
            Verdict::Drop(detail) => rewrites.push(PendingRewrite::dropped(INFO.id, &wm, detail)),
        }
    }
}

fn is_falsy(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::String(s) => s.is_empty(),
        Value::Number(n) => n.as_f64() == Some(0.0),
        _ => false,
    }
}

fn pre_switch(m: &Message, why: &str, checkpoints: bool) -> Verdict {
    let Some(content) = m.content_array().filter(|_| m.is_assistant()) else {
        return Verdict::Keep;
    };
    let mut kept: Vec<(usize, Value)> = Vec::with_capacity(content.len());
    let mut notes = Vec::new();
    let mut dropped_reasoning = false;
    for (i, b) in content.iter().enumerate() {
        if is_falsy(b) {
            notes.push(format!("removed empty block {i}"));
        } else if let Some(id) = replayable_reasoning(b) {
            dropped_reasoning = true;
            notes.push(format!("dropped replayable reasoning block {i} ({id})"));
        } else {
            kept.push((i, b.clone()));
        }
    }
    if notes.is_empty() {
        return Verdict::Keep;
    }
    if kept.is_empty() {
        return Verdict::Drop(format!(
            "dropped turn: nothing left after {}: {why}",
            crate::text::join_folded(&notes)
        ));
    }
    if dropped_reasoning {
        for (i, b) in &mut kept {
            let is_text = b.get("type").and_then(Value::as_str) == Some("text");
            let Some(obj) = b.as_object_mut().filter(|_| is_text) else {
                continue;
            };
            let Some(sig) = obj.get("textSignature") else { continue };
            match text_signature_phase(sig) {
                Some(phase) => {
                    let s = json!({"v": 1, "phase": phase}).to_string();
                    obj.insert("textSignature".into(), Value::String(s.into()));
                    notes.push(format!(
                        "cleared the paired msg id from the textSignature of text block {i} (kept phase {phase})"
                    ));
                }
                None => {
                    obj.shift_remove("textSignature");
                    notes.push(format!("removed the paired textSignature of text block {i}"));
                }
            }
        }
    }
    let kept: Vec<Value> = kept.into_iter().map(|(_, b)| b).collect();
    let mut next = with_content(m, kept);
    // A text block whose textSignature was rewritten is a new block even when it reads the same.
    let rebuilt = |b: &Value| {
        dropped_reasoning && b.get("type").and_then(Value::as_str) == Some("text") && b.get("textSignature").is_some()
    };
    if checkpoints {
        notes.extend(replace_owner_content(m, &mut next, &rebuilt));
    }
    Verdict::Modify(next, format!("{}: {why}", crate::text::join_folded(&notes)))
}

/// The content of an assistant turn and where its trailing run of `thinking` blocks starts:
/// replayable reasoning in that run has no output item after it.
fn orphan_tail(m: &Message) -> Option<(&[Value], usize)> {
    let content = m.content_array().filter(|_| m.is_assistant())?;
    let tail = content
        .iter()
        .rposition(|n| n.get("type").and_then(Value::as_str) != Some("thinking"))
        .map_or(0, |i| i + 1);
    Some((content, tail))
}

/// Whether a turn holds replayable reasoning that no output item follows (no copy made).
fn has_orphaned_reasoning(m: &Message) -> bool {
    orphan_tail(m).is_some_and(|(content, tail)| content[tail..].iter().any(|b| replayable_reasoning(b).is_some()))
}

fn orphans(m: &Message) -> Verdict {
    if !has_orphaned_reasoning(m) {
        return Verdict::Keep;
    }
    let Some((content, tail)) = orphan_tail(m) else {
        return Verdict::Keep;
    };
    let mut kept = Vec::with_capacity(content.len());
    let mut notes = Vec::new();
    for (i, b) in content.iter().enumerate() {
        match replayable_reasoning(b).filter(|_| i >= tail) {
            Some(id) => notes.push(format!("dropped orphaned reasoning block {i} ({id})")),
            None => kept.push(b.clone()),
        }
    }
    let why = "no output item follows it in the turn";
    if kept.is_empty() {
        return Verdict::Drop(format!(
            "dropped turn: nothing left after {}: {why}",
            crate::text::join_folded(&notes)
        ));
    }
    Verdict::Modify(
        with_content(m, kept),
        format!("{}: {why}", crate::text::join_folded(&notes)),
    )
}

/// Rewrite the tool-call ids of an assistant turn with `call`: the new turn (its compaction
/// checkpoint moved with its content), the renames and what happened to the checkpoint.
fn rename_call_ids(
    m: &Message,
    mut call: impl FnMut(&str) -> Option<String>,
    checkpoints: bool,
) -> Option<(Message, Renames, Option<String>)> {
    let mut renamed = Vec::new();
    let mut content = m.content_array()?.clone();
    for b in &mut content {
        let Some(old) = responses_tool_call_id(b).map(str::to_owned) else {
            continue;
        };
        if let Some(new) = call(&old).filter(|n| *n != old) {
            b["id"] = Value::String(new.clone().into());
            renamed.push((old, new));
        }
    }
    if renamed.is_empty() {
        return None;
    }
    let mut next = with_content(m, content);
    let moved = checkpoints
        .then(|| replace_owner_content(m, &mut next, &none_rebuilt))
        .flatten();
    Some((next, renamed, moved))
}

/// A rename detail, with what happened to the compaction checkpoint.
fn with_moved(detail: String, moved: Option<String>) -> String {
    match moved {
        Some(moved) => format!("{detail}; {moved}"),
        None => detail,
    }
}

fn arrows(renamed: &[(String, String)]) -> String {
    crate::text::join_first(
        renamed
            .iter()
            .take(crate::text::LIST_ITEMS)
            .map(|(a, b)| format!("{a} → {b}")),
        renamed.len(),
    )
}

/// `call_part_only`: the id rule of OpenClaw up to 2026.7 (`legacy-responses-call-ids`).
fn normalize_ids(work: &mut Working<'_>, rewrites: &mut Vec<PendingRewrite>, call_part_only: bool, checkpoints: bool) {
    let mut cache: HashMap<String, String> = HashMap::new();
    let mut resolve = |id: &str| -> Option<String> {
        if let Some(hit) = cache.get(id) {
            return Some(hit.clone());
        }
        should_normalize(id).then(|| {
            let n = normalize_function_call_id_as(id, call_part_only);
            cache.insert(id.to_owned(), n.clone());
            n
        })
    };
    work.modify_each(INFO.id, rewrites, |_, m| {
        let is_call = m.is_assistant();
        let (next, renamed, moved) = if is_call {
            rename_call_ids(m, &mut resolve, checkpoints)?
        } else if m.is_tool_result() {
            // Up to 2026.7 (`legacy-responses-call-ids`) each of two fields from its own value.
            let (next, renamed) = if call_part_only {
                legacy_rename_result_ids(m, &mut resolve)?
            } else {
                rename_result_ids(m, &mut resolve)?
            };
            (next, renamed, None)
        } else {
            return None;
        };
        let detail = if is_call {
            format!(
                "normalized tool call id {}: not a valid OpenAI Responses call_*/fc_* id (≤ 64 characters)",
                arrows(&renamed)
            )
        } else {
            format!(
                "set the result's id fields to its primary id (call_id > callId > tool_call_id > tool_use_id > \
                 toolCallId > toolUseId), normalized when not a valid OpenAI Responses call_*/fc_* id: {}",
                arrows(&renamed)
            )
        };
        Some((next, with_moved(detail, moved)))
    });
}

fn downgrade_pairs(work: &mut Working<'_>, rewrites: &mut Vec<PendingRewrite>, checkpoints: bool) {
    let mut pending: HashMap<String, String> = HashMap::new();
    work.modify_each(INFO.id, rewrites, |_, m| {
        if m.is_assistant() {
            pending.clear();
            let content = m.content_array()?;
            let mut seen_reasoning = false;
            for b in content {
                if replayable_reasoning(b).is_some() {
                    seen_reasoning = true;
                } else if let Some(id) = responses_tool_call_id(b)
                    && !seen_reasoning
                    && let (call, Some(item)) = split_pairing(id)
                    && item.starts_with("fc_")
                {
                    pending.insert(id.to_owned(), call.to_owned());
                }
            }
            let (next, renamed, moved) = rename_call_ids(m, |id| pending.get(id).cloned(), checkpoints)?;
            return Some((
                next,
                with_moved(
                    format!(
                        "downgraded tool call id {}: no replayable reasoning item precedes it in the turn",
                        arrows(&renamed)
                    ),
                    moved,
                ),
            ));
        }
        if m.is_tool_result() && !pending.is_empty() {
            let (next, renamed) = downgrade_result_ids(m, &pending)?;
            return Some((next, format!("downgraded result id {} with its call", arrows(&renamed))));
        }
        pending.clear();
        None
    });
}

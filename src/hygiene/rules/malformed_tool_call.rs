//! `malformed-tool-call`: drop tool calls without input/arguments, id or valid name; drop
//! unsafe signed turns (OpenClaw's `sanitizeToolCallInputs`).

use std::borrow::Cow;
use std::collections::HashSet;

use crate::model::json::Value;
use crate::openclaw::compaction_replay::{none_rebuilt, replace_owner_content};

use crate::hygiene::{Action, Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::{Message, StopReason};

use crate::hygiene::helpers::signed_thinking::{
    allow_provider_owned_thinking_replay, is_signed_tool_turn, unsafe_signed_block,
};
use crate::hygiene::helpers::tool_calls::{
    AllowedTools, completed_calls, describe_call, frame_calls, has_partial_json, has_tool_call_input, has_usable_id,
    is_tool_call, result_ids_in_frame, trimmed_name,
};

static INFO: RuleInfo = RuleInfo {
    id: "malformed-tool-call",
    summary: "drop tool calls without input/arguments, id or valid name; drop unsafe signed turns",
    explanation: "Partially persisted tool calls (after a rate limit or a crash mid-stream) make providers reject \
        the whole request, so OpenClaw's sanitizeToolCallInputs validates every assistant tool call (all six \
        spellings: toolCall, toolUse, functionCall, tool_call, tool_use, function_call) before replay. \
        Path B, block by block: a call is dropped when it has neither `input` nor `arguments` (null counts as \
        absent; `{}` and `\"{}\"` count as present), when none of `call_id`, `tool_call_id`, `toolCallId`, \
        `tool_use_id`, `toolUseId`, `id` is a string that is non-empty after trimming, or when its name fails the \
        name check: a string, non-empty and at most 64 characters after trimming, matching `^[A-Za-z0-9_:.-]+$`, \
        and in the `--tools` list (trimmed, lowercased, empty entries skipped; an empty list means no list). A \
        call carrying a string `partialJson` is kept only as a finalized OpenAI Responses call (stopReason \
        `toolUse`, an `id` whose first `|` is neither its first nor its last character, no `input` key, \
        `arguments` a non-array object, and `partialJson` a JSON object or blank with empty `arguments`); then \
        only `partialJson` is deleted. Names with surrounding whitespace are trimmed. An assistant the rule \
        leaves without content is dropped; one that was empty to begin with is kept. \
        Path A, when signed thinking may be replayed (`allowProviderOwnedThinkingReplay`: anthropic-messages or \
        bedrock-converse-stream, validateAnthropicTurns, preserveSignatures or a signed-thinking provider, no \
        dropThinkingBlocks) and the turn has a thinking block and a tool call: the turn is kept byte-identical \
        only if every call passes the checks above without needing any change (no `partialJson`, trimmed `id` \
        non-empty and unique in the turn, name needs no trimming), no call id was already kept by an earlier \
        signed turn, every call id has a following result when the turn has a `sessions_spawn` call with \
        non-empty `input.attachments`, and, when the following results are displaced (a result with an id comes \
        after a non-result message before the next assistant with tool calls), no call id appeared in an \
        earlier kept assistant; otherwise the whole assistant message is dropped, never trimmed. \
        Completed calls keep their history even when the tool left the list: the allowlist is waived (syntax \
        still checked) for a call that pairing would give a real, non-synthetic result. This rule runs before \
        pairing, so it approximates that with pairing's local claiming inside the call's frame (the results \
        from the next message up to the next assistant with tool calls; result ids trimmed, in pairing \
        priority, legacy id adoption for a lone call; a real result replaces a synthetic claim); results \
        pairing would move back from a later frame do not count. Call ids are compared untrimmed, as in \
        pairing. Messages are always JSON objects here (the loaders skip non-object entries), so the newest \
        revision's dropping of null entries never applies. A kept signed turn whose results are displaced is \
        not a change (OpenClaw only returns a new array for it).",
    families: "all",
    reference: "transcript-hygiene.md › \"Global rule: malformed tool calls\" · sanitizeToolCallInputs",
};

/// The `malformed-tool-call` rule.
pub struct MalformedToolCall;

/// What happens to one message.
enum Verdict {
    Keep,
    Drop(String),
    Modify(Message, String),
}

impl Rule for MalformedToolCall {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, _ctx: &Context<'_>) -> bool {
        true
    }

    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let verdicts = {
            let list: Vec<&Message> = work.iter_messages().collect();
            judge(ctx, &list)
        };
        if verdicts.iter().all(|v| matches!(v, Verdict::Keep)) {
            return;
        }
        let old = std::mem::take(&mut work.messages);
        for (mut wm, verdict) in old.into_iter().zip(verdicts) {
            match verdict {
                Verdict::Keep => work.messages.push(wm),
                Verdict::Drop(detail) => rewrites.push(PendingRewrite::dropped(INFO.id, &wm, detail)),
                Verdict::Modify(next, detail) => {
                    wm.message = Cow::Owned(next);
                    rewrites.push(PendingRewrite::on(INFO.id, Action::Modify, &wm, detail));
                    work.messages.push(wm);
                }
            }
        }
    }
}

/// The verdict for every message, in order.
fn judge(ctx: &Context<'_>, list: &[&Message]) -> Vec<Verdict> {
    let allowed = AllowedTools::from_options(ctx.options);
    let signed = allow_provider_owned_thinking_replay(ctx);
    // Up to 2026.9.4 (`name-check-completed-calls`) no call is exempt from the name check.
    let completed = if ctx.options.rule_set.switches.completed_calls_skip_name_check {
        completed_calls(list)
    } else {
        HashSet::new()
    };
    let mut kept_signed: HashSet<String> = HashSet::new();
    let mut prior: HashSet<String> = HashSet::new();
    let mut out = Vec::with_capacity(list.len());
    for (i, m) in list.iter().enumerate() {
        if !m.is_assistant() || m.content_array().is_none() {
            out.push(Verdict::Keep);
            continue;
        }
        let done = |b: usize| completed.contains(&(i, b));
        if signed && is_signed_tool_turn(m) {
            match unsafe_signed_turn(list, i, &allowed, done, &kept_signed, &prior) {
                None => {
                    for c in frame_calls(m) {
                        kept_signed.insert(c.id.to_owned());
                        prior.insert(c.id.to_owned());
                    }
                    out.push(Verdict::Keep);
                }
                Some(reason) => out.push(Verdict::Drop(format!(
                    "dropped signed-thinking turn: {reason}; a signed turn is replayed byte-identical or not at all"
                ))),
            }
            continue;
        }
        let verdict = match check_blocks(m, &allowed, done) {
            None => {
                prior.extend(frame_calls(m).iter().map(|c| c.id.to_owned()));
                Verdict::Keep
            }
            Some((blocks, notes)) if blocks.is_empty() => {
                Verdict::Drop(format!("dropped assistant turn left empty: {}", notes.join("; ")))
            }
            Some((blocks, mut notes)) => {
                let mut next = (*m).clone();
                next.set_content(blocks);
                if ctx.options.rule_set.switches.compaction_checkpoints {
                    notes.extend(replace_owner_content(m, &mut next, &none_rebuilt));
                }
                prior.extend(frame_calls(&next).iter().map(|c| c.id.to_owned()));
                Verdict::Modify(next, notes.join("; "))
            }
        };
        out.push(verdict);
    }
    out
}

/// Path A: the reason the signed turn at `i` cannot be replayed as it is, or `None`.
fn unsafe_signed_turn(
    list: &[&Message],
    i: usize,
    allowed: &AllowedTools,
    done: impl Fn(usize) -> bool,
    kept_signed: &HashSet<String>,
    prior: &HashSet<String>,
) -> Option<String> {
    let m = list[i];
    if let Some(reason) = unsafe_signed_block(m, allowed, done) {
        return Some(reason);
    }
    let (following, displaced) = following_results(list, i);
    let spawn = has_spawn_attachments(m);
    frame_calls(m).into_iter().find_map(|c| {
        let id = c.id;
        if kept_signed.contains(id) {
            Some(format!(
                "call id `{id}` was already kept by an earlier signed-thinking turn"
            ))
        } else if spawn && !following.contains(id) {
            Some(format!(
                "it has a `sessions_spawn` call with attachments and call `{id}` has no following result"
            ))
        } else if displaced && prior.contains(id) {
            Some(format!(
                "its results are displaced and call id `{id}` already appeared in an earlier assistant"
            ))
        } else {
            None
        }
    })
}

/// The "following results" of the assistant at `i`: every result id (trimmed, after legacy id
/// adoption) from the next message up to the next assistant with tool calls, and whether they
/// are displaced (a result with an id after a non-result message).
fn following_results(list: &[&Message], i: usize) -> (HashSet<String>, bool) {
    let calls = frame_calls(list[i]);
    let mut ids = HashSet::new();
    let mut saw_other = false;
    let mut displaced = false;
    for m in &list[i + 1..] {
        if m.is_assistant() && !frame_calls(m).is_empty() {
            break;
        }
        if m.is_tool_result() {
            let (found, _) = result_ids_in_frame(m, &calls);
            displaced |= !found.is_empty() && saw_other;
            ids.extend(found);
        } else {
            saw_other = true;
        }
    }
    (ids, displaced)
}

/// Whether a turn has a `sessions_spawn` tool call whose `input.attachments` is a non-empty array.
fn has_spawn_attachments(m: &Message) -> bool {
    m.content_array().into_iter().flatten().any(|b| {
        is_tool_call(b)
            && b.get("name").and_then(Value::as_str) == Some("sessions_spawn")
            && b.get("input")
                .and_then(|i| i.get("attachments"))
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty())
    })
}

/// Path B: the new content and one note per change, or `None` when nothing changes.
fn check_blocks(
    m: &Message,
    allowed: &AllowedTools,
    done: impl Fn(usize) -> bool,
) -> Option<(Vec<Value>, Vec<String>)> {
    let content = m.content_array()?;
    let mut out: Vec<Cow<'_, Value>> = Vec::with_capacity(content.len());
    let mut notes = Vec::new();
    for (j, block) in content.iter().enumerate() {
        if !is_tool_call(block) {
            out.push(Cow::Borrowed(block));
            continue;
        }
        let what = describe_call(block);
        let reason = if !has_tool_call_input(block) {
            Some("no input or arguments")
        } else if !has_usable_id(block) {
            Some("no usable id")
        } else {
            allowed.check(block.get("name"), done(j)).err()
        };
        if let Some(reason) = reason {
            notes.push(format!("dropped tool call {what}: {reason}"));
            continue;
        }
        let mut next = Cow::Borrowed(block);
        if has_partial_json(block) {
            if !is_finalized_responses_call(m, block) {
                notes.push(format!(
                    "dropped tool call {what}: unfinished streaming call (`partialJson`)"
                ));
                continue;
            }
            if let Some(obj) = next.to_mut().as_object_mut() {
                obj.shift_remove("partialJson");
            }
            notes.push(format!("removed `partialJson` from finalized Responses call {what}"));
        }
        if let Some(trimmed) = trimmed_name(block) {
            let raw = block.get("name").and_then(Value::as_str).unwrap_or_default();
            notes.push(format!("trimmed tool name `{raw}` → `{trimmed}`"));
            let trimmed = Value::String(trimmed.to_owned().into());
            if let Some(obj) = next.to_mut().as_object_mut() {
                obj.insert("name".into(), trimmed);
            }
        }
        out.push(next);
    }
    if notes.is_empty() {
        return None;
    }
    Some((out.into_iter().map(Cow::into_owned).collect(), notes))
}

/// A finalized OpenAI Responses call that may keep its arguments (its `partialJson` is
/// deleted): stopReason `toolUse`, an `id` whose first `|` is neither first nor last, no
/// `input`, `arguments` a non-array object, and `partialJson` either a JSON object or blank
/// with empty `arguments`.
fn is_finalized_responses_call(m: &Message, block: &Value) -> bool {
    if m.stop_reason() != Some(StopReason::ToolUse) || block.get("input").is_some() {
        return false;
    }
    let Some(id) = block.get("id").and_then(Value::as_str) else {
        return false;
    };
    let Some(args) = block.get("arguments").and_then(Value::as_object) else {
        return false;
    };
    let partial = block.get("partialJson").and_then(Value::as_str).unwrap_or_default();
    let parses_to_object = serde_json::from_str::<Value>(partial).is_ok_and(|v| v.is_object());
    if !parses_to_object && (!partial.trim().is_empty() || !args.is_empty()) {
        return false;
    }
    id.find('|').is_some_and(|p| p > 0 && p < id.len() - 1)
}

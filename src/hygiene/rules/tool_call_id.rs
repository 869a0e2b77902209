//! `tool-call-id`: rewrite tool-call and result ids (strict / strict9 / openai duplicate
//! style), OpenClaw's `sanitizeToolCallIdsForCloudCodeAssist`.

use std::collections::HashSet;

use crate::model::json::Value;

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::{BlockKind, Message};
use crate::openclaw::result_ids::{RESULT_ID_FIELDS, RESULT_ID_PRIORITY};
use crate::policy::{DuplicateToolCallIdStyle, ToolCallIdMode};

use crate::hygiene::helpers::signed_thinking::{
    allow_provider_owned_thinking_replay, is_signed_tool_turn, unsafe_signed_block,
};
use crate::hygiene::helpers::tool_calls::{AllowedTools, completed_calls, frame_calls};
use crate::hygiene::helpers::tool_id_allocator::{AllocatorOptions, IdAllocator};

static INFO: RuleInfo = RuleInfo {
    id: "tool-call-id",
    summary: "rewrite tool-call and result ids (strict / strict9 / openai duplicate style)",
    explanation: "Providers constrain tool-call ids (Anthropic and Gemini `[A-Za-z0-9_-]`, OpenAI chat at most 40 \
        characters, Mistral exactly 9 alphanumerics) and some reject repeated ids, so ids minted by another \
        provider (`call_abc|fc_123`, `functions.read:0`, `call_49c89af0`) are rewritten. One in-order pass keeps \
        occurrences apart: each assistant tool call (canonical spellings toolCall/toolUse/functionCall with a \
        non-empty string `id`, not trimmed) gets an id for its occurrence n of that raw id, and tool results take \
        the queued ids of their raw id first-in first-out. strict keeps `[A-Za-z0-9]` (a native Kimi id \
        `functions.<name>:<n>` is kept; nothing left gives `sanitizedtoolid`, an empty id `defaulttoolid`), cut \
        to 40 characters; on a collision it uses the first 32 characters plus the first 8 hex of sha256(seed), \
        then `x2`…`x999` suffixes. strict9 takes the first 9 alphanumerics, or the first 9 hex of sha256 of \
        what remains (of `sanitized` when nothing does; an empty id gives `defaultid`); on a collision the \
        first unused sha256(`seed:i`)[0:9] for i = 0…999. The seed is the raw id for the first occurrence and \
        `raw:n` after. With duplicateToolCallIdStyle `openai`, later occurrences get `call_` plus 24 hex of \
        sha256(`raw:n:attempt`) and a first-occurrence `call_[A-Za-z0-9_-]+` id is kept; with \
        preserveNativeAnthropicToolUseIds a first-occurrence `toolu_[A-Za-z0-9_]+` id is kept. A result \
        with no queued id is an orphan: its m-th orphan occurrence gets the id of seed `raw:tool_result:m` \
        (a native `toolu_` id is kept once when allowed). The result's raw id is the first non-empty of \
        `call_id`, `callId`, `tool_call_id`, `tool_use_id`, `toolCallId`, `toolUseId` (not trimmed); every \
        one of those fields that is present is set to the new id and `toolCallId` is added when it is not a \
        string. When signed thinking may be replayed (allowProviderOwnedThinkingReplay) an assistant with a \
        thinking block and a tool call that passes the per-turn safety test of malformed-tool-call path A \
        (input, no partialJson, unique non-blank id, valid name needing no trim, allowlist waived for \
        completed calls) keeps its ids verbatim, the first such turn claiming an id winning; its ids are \
        reserved up front and queued for their results. The cross-message checks of path A (following \
        results, displacement) were already applied by malformed-tool-call. OpenClaw's last-resort suffix \
        uses the clock; here it uses the timestamp (integer ms, 0 when absent) of the message being \
        rewritten, so output stays deterministic. Runs after pairing (newest order), only when the policy \
        sets sanitizeToolCallIds and a toolCallIdMode, never on the OpenAI Responses family.",
    families: "Anthropic, Bedrock, MiniMax, Google/Gemini, OpenAI-compatible chat completions and Moonshot/Kimi \
        (strict); Mistral and OpenRouter Mistral models (strict9); never OpenAI Responses",
    reference: "transcript-hygiene.md › \"Provider matrix (current behavior)\" › Google, Mistral · sanitizeToolCallIdsForCloudCodeAssist",
};

/// The `tool-call-id` rule.
pub struct ToolCallId;

impl Rule for ToolCallId {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        let policy = &ctx.resolved.policy;
        // Up to 2026.7 (`legacy-pairing`) this step ran on the Responses family too.
        policy.sanitize_tool_call_ids
            && policy.tool_call_id_mode.is_some()
            && (!ctx.is_openai_responses() || ctx.options.rule_set.switches.legacy_pairing)
    }

    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let policy = &ctx.resolved.policy;
        let Some(mode) = policy.tool_call_id_mode else { return };
        let opts = AllocatorOptions {
            mode,
            openai_duplicates: policy.duplicate_tool_call_id_style == Some(DuplicateToolCallIdStyle::Openai),
            preserve_native_anthropic: policy.preserve_native_anthropic_tool_use_ids,
        };
        let mut changes: Vec<Option<(Message, String)>> = {
            let list: Vec<&Message> = work.iter_messages().collect();
            let (reserved, preserved) = if allow_provider_owned_thinking_replay(ctx) {
                replay_safe_turns(
                    &list,
                    &AllowedTools::from_options(ctx.options),
                    ctx.options.rule_set.switches.completed_calls_skip_name_check,
                )
            } else {
                (HashSet::new(), HashSet::new())
            };
            let mut alloc = IdAllocator::new(opts, reserved);
            let label = mode_label(mode);
            list.iter()
                .enumerate()
                .map(|(i, m)| {
                    let ts = m.timestamp_ms().map_or(0, |t| t as i64);
                    if preserved.contains(&i) {
                        frame_calls(m).iter().for_each(|c| alloc.preserve_call(c.id));
                        None
                    } else if m.is_assistant() {
                        rewrite_calls(m, &mut alloc, ts, label)
                    } else if m.is_tool_result() && !ctx.options.rule_set.switches.result_id_aliases {
                        legacy_rewrite_result(m, &mut alloc, ts, label)
                    } else if m.is_tool_result() {
                        rewrite_result(m, &mut alloc, ts, label)
                    } else {
                        None
                    }
                })
                .collect()
        };
        work.modify_each(INFO.id, rewrites, |i, _| changes[i].take());
    }
}

/// The mode as written in the policy.
fn mode_label(mode: ToolCallIdMode) -> &'static str {
    match mode {
        ToolCallIdMode::Strict => "strict",
        ToolCallIdMode::Strict9 => "strict9",
    }
}

/// The replay-safe signed-thinking turns: their reserved ids and their message indices. The
/// first turn claiming an id wins; a later safe turn that reuses a reserved id is rewritten.
/// `skip_completed`: completed calls are exempt from the name check (2026.9.5 and later).
fn replay_safe_turns(
    list: &[&Message],
    allowed: &AllowedTools,
    skip_completed: bool,
) -> (HashSet<String>, HashSet<usize>) {
    let completed = if skip_completed {
        completed_calls(list)
    } else {
        HashSet::new()
    };
    let mut reserved = HashSet::new();
    let mut preserved = HashSet::new();
    for (i, m) in list.iter().enumerate() {
        if !is_signed_tool_turn(m) || unsafe_signed_block(m, allowed, |b| completed.contains(&(i, b))).is_some() {
            continue;
        }
        let calls = frame_calls(m);
        if calls.iter().any(|c| reserved.contains(c.id)) {
            continue;
        }
        preserved.insert(i);
        reserved.extend(calls.iter().map(|c| c.id.to_owned()));
    }
    (reserved, preserved)
}

/// New ids for an assistant's tool calls, or `None` when every id stays.
fn rewrite_calls(m: &Message, alloc: &mut IdAllocator, ts: i64, label: &str) -> Option<(Message, String)> {
    let content = m.content_array()?;
    let mut changed: Vec<(usize, String)> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    for (j, block) in content.iter().enumerate() {
        if !BlockKind::of(block).is_canonical_tool_call() {
            continue;
        }
        let Some(raw) = block.get("id").and_then(Value::as_str).filter(|s| !s.is_empty()) else {
            continue;
        };
        let next = alloc.resolve_call(raw, ts);
        if next != raw {
            notes.push(format!("`{raw}` → `{next}`"));
            changed.push((j, next));
        }
    }
    if changed.is_empty() {
        return None;
    }
    let mut out = m.clone();
    let blocks = out.blocks_mut()?;
    for (j, next) in changed {
        if let Some(obj) = blocks.get_mut(j).and_then(Value::as_object_mut) {
            obj.insert("id".into(), Value::String(next.into()));
        }
    }
    Some((
        out,
        format!("tool call ids ({label}): {}", crate::text::join_folded(&notes)),
    ))
}

/// New ids for a tool result's `toolCallId` and `toolUseId` as 2026.6.9 and 2026.6.10 rewrite
/// them (`legacy-result-id-fields`): each non-empty string from its own value, resolved once
/// when the two are equal, `toolCallId` first; the other alias fields stay as they are.
fn legacy_rewrite_result(m: &Message, alloc: &mut IdAllocator, ts: i64, label: &str) -> Option<(Message, String)> {
    let call = m.str_field("toolCallId").filter(|s| !s.is_empty());
    let using = m.str_field("toolUseId").filter(|s| !s.is_empty());
    let (next_call, next_use) = match (call, using) {
        (Some(c), Some(u)) if c == u => {
            let shared = alloc.resolve_result(c, ts);
            (Some(shared.clone()), Some(shared))
        }
        _ => {
            let next_call = call.map(|c| alloc.resolve_result(c, ts));
            (next_call, using.map(|u| alloc.resolve_result(u, ts)))
        }
    };
    let mut out = m.clone();
    let mut notes = Vec::new();
    for (field, raw, next) in [("toolCallId", call, next_call), ("toolUseId", using, next_use)] {
        if let (Some(raw), Some(next)) = (raw, next)
            && raw != next
        {
            notes.push(format!("{field} `{raw}` → `{next}`"));
            out.set(field, Value::String(next.into()));
        }
    }
    (!notes.is_empty()).then(|| {
        (
            out,
            format!("result id ({label}): {}", crate::text::join_folded(&notes)),
        )
    })
}

/// New ids for a tool result's id fields, or `None` when nothing changes.
fn rewrite_result(m: &Message, alloc: &mut IdAllocator, ts: i64, label: &str) -> Option<(Message, String)> {
    let raw_of = |k: &str| m.str_field(k).filter(|s| !s.is_empty());
    let primary = RESULT_ID_PRIORITY.iter().find_map(|k| raw_of(k))?;
    let next = alloc.resolve_result(primary, ts);
    let mut fields: Vec<&str> = Vec::new();
    let mut notes = Vec::new();
    for field in RESULT_ID_FIELDS {
        if let Some(raw) = raw_of(field)
            && raw != next
        {
            notes.push(format!("{field} `{raw}` → `{next}`"));
            fields.push(field);
        }
    }
    if !m.get("toolCallId").is_some_and(Value::is_string) {
        notes.push(format!("added toolCallId `{next}`"));
        fields.push("toolCallId");
    }
    if notes.is_empty() {
        return None;
    }
    let mut out = m.clone();
    for field in fields {
        out.set(field, Value::String(next.clone().into()));
    }
    Some((
        out,
        format!("result id ({label}): {}", crate::text::join_folded(&notes)),
    ))
}

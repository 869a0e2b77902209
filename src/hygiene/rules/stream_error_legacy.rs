//! `stream-error-turn` as OpenClaw up to 2026.9.2 applied it (switch `empty-turn-placeholder`):
//! inside `normalizeAssistantReplayContent`, an assistant turn whose content is empty after
//! its blocks were normalized, and that failed or stopped with zero usage, is replayed as the
//! placeholder text; once the whole history is normalized, such turns at its end (empty, or
//! holding only the placeholder) are dropped. Two steps, because the placeholder comes before
//! the delivery-mirror check and the tail trim after the user-turn checks of the same loop.

use crate::json;
use crate::model::json::Value;

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Message;

use super::stream_error_turn::INFO;
use crate::openclaw::assistant_text::{STREAM_ERROR_FALLBACK_TEXT, is_zero_usage_stop};
use crate::openclaw::compaction_replay::replace_owner_content;

/// Whether a turn failed or stopped with zero usage (`stopReason: error`, or
/// `isZeroUsageEmptyStopAssistantTurn`).
fn failed_or_zero_usage(m: &Message) -> bool {
    m.str_field("stopReason") == Some("error") || is_zero_usage_stop(m)
}

/// The content the loop sees: missing, `null` and other non-objects read as `[]`.
fn is_empty_content(m: &Message) -> bool {
    match m.content() {
        Some(Value::Array(blocks)) => blocks.is_empty(),
        Some(Value::String(_) | Value::Object(_)) => false,
        _ => true,
    }
}

/// The placeholder step: empty failed turns get the placeholder text.
pub struct LegacyPlaceholder;

impl Rule for LegacyPlaceholder {
    fn step(&self) -> &'static str {
        "stream-error-turn/placeholder-2026.9.2"
    }

    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        ctx.options.rule_set.switches.empty_turn_placeholder
    }

    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let before = rewrites.len();
        let checkpoints = ctx.options.rule_set.switches.compaction_checkpoints;
        work.modify_each(INFO.id, rewrites, |_, m| {
            if !m.is_assistant() || !is_empty_content(m) || !failed_or_zero_usage(m) {
                return None;
            }
            let mut next = m.clone();
            next.set_content(vec![json!({"type": "text", "text": STREAM_ERROR_FALLBACK_TEXT})]);
            let mut detail = format!(
                "failed turn without content replayed as `{STREAM_ERROR_FALLBACK_TEXT}` (OpenClaw up to 2026.9.2)"
            );
            // The placeholder goes through `replaceCompactionReplayOwnerContent` (2026.8 to
            // 2026.9.2): a block the old content never held, so a checkpoint is removed.
            if checkpoints && let Some(moved) = replace_owner_content(m, &mut next, &|_| false) {
                detail = format!("{detail}; {moved}");
            }
            Some((next, detail))
        });
        // The loop moves on after the placeholder: the duplicate check never sees these turns.
        let placed: Vec<_> = rewrites[before..]
            .iter()
            .flat_map(|r| r.result.iter().copied())
            .collect();
        work.moved_on_turns.extend(placed);
    }
}

/// Whether a turn at the end of the history is dropped (`isReplayDroppableTrailingAssistant`).
fn droppable_trailing(m: &Message) -> bool {
    if !m.is_assistant() {
        return false;
    }
    let Some(Value::Array(blocks)) = m.content() else {
        return false;
    };
    let placeholder_only = match blocks.as_slice() {
        [] => true,
        [block] => {
            block.get("type").and_then(Value::as_str) == Some("text")
                && block.get("text").and_then(Value::as_str) == Some(STREAM_ERROR_FALLBACK_TEXT)
        }
        _ => false,
    };
    placeholder_only && failed_or_zero_usage(m)
}

/// The tail step: trailing failed placeholder turns are dropped.
pub struct LegacyTrailingTrim;

impl Rule for LegacyTrailingTrim {
    fn step(&self) -> &'static str {
        "stream-error-turn/trailing-trim-2026.9.2"
    }

    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        ctx.options.rule_set.switches.empty_turn_placeholder
    }

    fn apply<'s>(&self, _ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let len = work.len();
        let messages: Vec<&Message> = work.iter_messages().collect();
        let kept = messages.iter().rev().take_while(|m| droppable_trailing(m)).count();
        let first_dropped = len - kept;
        if first_dropped == len {
            return;
        }
        work.drop_where(INFO.id, rewrites, |i, _| {
            (i >= first_dropped).then(|| {
                "failed turn at the end of the history, empty or only the placeholder (OpenClaw up to 2026.9.2)"
                    .to_owned()
            })
        });
    }
}

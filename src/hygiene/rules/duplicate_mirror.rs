//! `duplicate-mirror`: drop a bare zero-usage duplicate of the previous assistant turn
//! (OpenClaw's `isBareDeliveryMirrorDuplicate`, newest behaviour).

use crate::model::json::Value;

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Message;

use super::blank_user_turn::is_droppable_blank_user;
use crate::openclaw::assistant_text::has_nonzero_usage;
use crate::openclaw::js::deep_equal;
use crate::openclaw::pairing::classify::tool_calls;

static INFO: RuleInfo = RuleInfo {
    id: "duplicate-mirror",
    summary: "drop a bare zero-usage duplicate of the previous assistant turn",
    explanation: "Historical side-branch rebuilds could strip the delivery-mirror marker from a mirrored reply \
        while keeping the zero-usage receipt right after the reply it copies; replaying it would show the \
        model its own answer twice. An assistant turn (the candidate) is dropped when its `usage` is an \
        object without any non-zero token count (input/output/cacheRead/cacheWrite/total/totalTokens and \
        the snake_case provider aliases; an empty or cost-only usage object counts as zero, missing usage \
        does not), its `stopReason` is `stop`, it has no tool-call block, and the previous message of the \
        replay is an assistant turn without tool-call blocks whose content is a non-empty array deep-equal \
        to the candidate's array content (object key order and number spelling ignored). OpenClaw \
        compares with the previous message it has already kept in the same pass in \
        which blank user turns are dropped, so a user turn that blank-user-turn (which runs after this \
        rule) will drop is skipped when looking for the previous message; a dropped duplicate is not the \
        previous message of the next one. A candidate whose stored content was a string is never dropped: \
        OpenClaw converts string content to a text block and moves on before this check. Identical repeats with non-zero usage are ordinary model turns \
        and are kept. A tool call here is what OpenClaw's extractToolCallsFromAssistant reads: a `toolCall`, \
        `toolUse` or `functionCall` block with a non-empty string `id` (a call without an id does not \
        count).",
    families: "all",
    reference: "transcript-hygiene.md › \"Provider matrix (current behavior)\" › Amazon Bedrock · isBareDeliveryMirrorDuplicate",
};

/// The `duplicate-mirror` rule.
pub struct DuplicateMirror;

impl Rule for DuplicateMirror {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        // Not up to 2026.7 (`no-duplicate-mirror-check`).
        ctx.options.rule_set.switches.duplicate_mirror_check
    }

    fn apply<'s>(&self, _ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let mut previous: Option<usize> = None;
        let mut drops: Vec<Option<String>> = vec![None; work.messages.len()];
        for (i, wm) in work.messages.iter().enumerate() {
            let m = wm.message.as_ref();
            if let Some(p) = previous
                && !work.moved_on_turns.contains(&wm.uid)
                && let Some(detail) = duplicate_reason(&work.messages[p].message, m, &work.messages[p].source)
            {
                drops[i] = Some(detail);
                continue;
            }
            if !is_droppable_blank_user(m) {
                previous = Some(i);
            }
        }
        let mut verdicts = drops.into_iter();
        work.drop_where(INFO.id, rewrites, |_, _| verdicts.next().flatten());
    }
}

fn is_candidate(m: &Message) -> bool {
    m.is_assistant()
        && m.str_field("stopReason") == Some("stop")
        && m.usage().is_some_and(|u| !has_nonzero_usage(u))
        && tool_calls(m).is_empty()
}

/// Why `next` is a bare duplicate of `previous`, or `None`.
fn duplicate_reason(previous: &Message, next: &Message, previous_source: &[usize]) -> Option<String> {
    if !previous.is_assistant() || !tool_calls(previous).is_empty() || !is_candidate(next) {
        return None;
    }
    let (Some(Value::Array(a)), Some(b @ Value::Array(_))) = (previous.content(), next.content()) else {
        return None;
    };
    if a.is_empty() || !deep_equal(previous.content()?, b) {
        return None;
    }
    let of = match previous_source {
        [i] => format!("stored message {i}"),
        _ => "the previous assistant turn".to_owned(),
    };
    Some(format!(
        "bare zero-usage duplicate of {of} ({} identical block(s), stopReason stop)",
        a.len()
    ))
}

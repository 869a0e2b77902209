//! `drop-reasoning-history`: strip historical reasoning for OpenAI-compatible chat
//! completions (OpenClaw's `dropReasoningFromHistory`).

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Message;

use crate::hygiene::helpers::thinking_blocks::{
    is_assistant_with_content, is_current_tool_turn, latest_user_index, strip_thinking_and_blank_text, with_content,
};

static INFO: RuleInfo = RuleInfo {
    id: "drop-reasoning-history",
    summary: "strip historical reasoning for OpenAI-compatible chat completions",
    explanation: "Local and proxy OpenAI-compatible Chat Completions servers reject or mishandle prior-turn \
        reasoning fields (`reasoning`, `reasoning_content`). With the policy flag dropReasoningFromHistory \
        (set for `openai-completions` unless the model is a reasoning-content model such as kimi-k2.5 or \
        mimo-v2-pro, or the provider opts out), OpenClaw's dropReasoningFromHistory removes every \
        `thinking` and `redacted_thinking` block from every assistant turn with array content except the \
        current tool turn: the assistant at or after the latest user message that has a \
        `toolCall`/`tool_use`/`function_call` block (the `toolUse` spelling is not counted, as in \
        OpenClaw), has no other assistant between it and the previous user message, and is followed by a \
        toolResult before any user message. Its reasoning stays attached to the tool call until the result \
        has been replayed. A completed final assistant turn IS stripped (unlike drop-thinking, there is no \
        latest-assistant exemption). As with drop-thinking, a turn that lost reasoning also loses its blank \
        text blocks (the behaviour OpenClaw's tests assert), and a turn left empty becomes \
        `[{type:\"text\",text:\"[assistant reasoning omitted]\"}]`.",
    families: "OpenAI-compatible Chat Completions (`openai-completions`) without reasoning-content models",
    reference: "transcript-hygiene.md › \"Provider matrix (current behavior)\" › OpenAI-compatible Chat Completions · dropReasoningFromHistory",
};

/// The `drop-reasoning-history` rule.
pub struct DropReasoningHistory;

impl Rule for DropReasoningHistory {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        ctx.resolved.policy.drops_reasoning_from_history()
    }

    fn apply<'s>(&self, _ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let exempt: Vec<bool> = {
            let all: Vec<&Message> = work.iter_messages().collect();
            let latest_user = latest_user_index(&all);
            (0..all.len())
                .map(|i| is_current_tool_turn(&all, i, latest_user))
                .collect()
        };
        work.modify_each(INFO.id, rewrites, |i, m| {
            if exempt[i] || !is_assistant_with_content(m) {
                return None;
            }
            let (content, detail) = strip_thinking_and_blank_text(
                m.content_array()?,
                "historical reasoning is not replayed to chat completions",
            )?;
            Some((with_content(m, content), detail))
        });
    }
}

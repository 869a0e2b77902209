//! `prefill-strip`: outgoing payload only — strip trailing assistant prefill when
//! thinking/reasoning is on.

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::{BlockKind, Message};
use crate::policy::Family;

static INFO: RuleInfo = RuleInfo {
    id: "prefill-strip",
    summary: "outgoing payload only: strip trailing assistant prefill when thinking/reasoning is on",
    explanation: "With extended thinking (Anthropic) or reasoning (OpenRouter Anthropic models) enabled, the \
        conversation must end with a user turn; a trailing assistant message would be sent as a prefill and \
        rejected. When building the outgoing payload (never the stored history), OpenClaw pops trailing \
        messages while the last one is an assistant turn without tool use, logging `removed N trailing \
        assistant prefill message(s) because Anthropic extended thinking requires conversations to end with \
        a user turn`. It applies to every Anthropic Messages payload (target API `anthropic-messages`: the \
        native Anthropic provider, Cloudflare AI Gateway and other routes to that API) and to OpenRouter \
        Anthropic models (`anthropic/…` or `openrouter/anthropic/…` on provider `openrouter`) when the model \
        API is unset or `openai-completions`. Thinking is on when `--thinking` says so, else when the \
        session's thinking level is recorded and is not `off` (or `none`, or blank, which OpenRouter also \
        treats as disabled); with neither, thinking is off and nothing is stripped. The walk stops at the \
        first message that is not an assistant turn, or at an assistant turn with tool use: a non-empty \
        `tool_calls` array, or a tool-call block in any spelling (the payload's `tool_use`/`toolCall` are what \
        the stored `toolCall`, `toolUse`, `functionCall` and snake-case spellings become). Each stripped turn \
        is one drop rewrite, listed in transcript order.",
    families: "Anthropic Messages API (Anthropic direct, Cloudflare AI Gateway, MiniMax and unowned providers on `anthropic-messages`), OpenRouter Anthropic",
    reference: "transcript-hygiene.md › \"Provider matrix (current behavior)\" › Anthropic, OpenRouter Anthropic · createAnthropicThinkingPrefillWrapper, createOpenRouterAnthropicPrefillWrapper",
};

/// The `prefill-strip` rule.
pub struct PrefillStrip;

/// Whether thinking/reasoning is on: `--thinking` when given, else the session's thinking level
/// when recorded and not `off`/`none`/blank.
pub fn thinking_on(ctx: &Context<'_>) -> bool {
    match ctx.options.thinking {
        Some(on) => on,
        None => ctx.thinking_level.is_some_and(|level| {
            let l = level.trim().to_ascii_lowercase();
            !matches!(l.as_str(), "" | "off" | "none")
        }),
    }
}

/// Whether the outgoing payload is one the strip applies to.
fn payload_applies(ctx: &Context<'_>) -> bool {
    let api = ctx.api();
    api == "anthropic-messages"
        || (ctx.resolved.family == Family::OpenRouterAnthropic && matches!(api, "" | "openai-completions"))
}

/// Whether an assistant turn carries tool use (and so is not a prefill).
fn has_tool_use(m: &Message) -> bool {
    let tool_calls = m
        .get("tool_calls")
        .and_then(|v| v.as_array())
        .is_some_and(|a| !a.is_empty());
    tool_calls || m.blocks().any(|b| matches!(b.kind(), BlockKind::ToolCall(_)))
}

impl Rule for PrefillStrip {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        payload_applies(ctx) && thinking_on(ctx)
    }

    fn may_change(&self, _ctx: &Context<'_>, work: &Working<'_>) -> bool {
        work.messages
            .last()
            .is_some_and(|wm| wm.message.is_assistant() && !has_tool_use(&wm.message))
    }

    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let keep = work
            .messages
            .iter()
            .rposition(|wm| !wm.message.is_assistant() || has_tool_use(&wm.message))
            .map_or(0, |i| i + 1);
        if keep == work.len() {
            return;
        }
        let why = if ctx.resolved.family == Family::OpenRouterAnthropic && ctx.api() != "anthropic-messages" {
            "removed trailing assistant prefill: reasoning is on and OpenRouter Anthropic requires the conversation to end with a user turn"
        } else {
            "removed trailing assistant prefill: Anthropic extended thinking requires the conversation to end with a user turn"
        };
        for wm in work.messages.drain(keep..) {
            rewrites.push(PendingRewrite::dropped(INFO.id, &wm, why));
        }
    }
}

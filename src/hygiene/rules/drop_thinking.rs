//! `drop-thinking`: drop thinking blocks from older assistant turns (OpenClaw's
//! `dropThinkingBlocks`).

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Message;

use crate::hygiene::helpers::thinking_blocks::{
    OMITTED_ASSISTANT_REASONING_TEXT, block_type, is_assistant_with_content, is_thinking_like, latest_assistant_index,
    omitted_reasoning_content, strip_thinking_and_blank_text, with_content,
};
use crate::model::json::Value;
use crate::policy::Family;

static INFO: RuleInfo = RuleInfo {
    id: "drop-thinking",
    summary: "drop thinking blocks from older assistant turns (dropThinkingBlocks)",
    explanation: "Some Claude routes do not accept reasoning from earlier turns (older Claude models such as \
        claude-3-7-sonnet or claude-sonnet-4-5, GitHub Copilot Claude, models without reasoning-effort \
        support). With the policy flag dropThinkingBlocks, OpenClaw's dropThinkingBlocks removes every \
        `thinking` and `redacted_thinking` block from every assistant turn with array content except the \
        latest such turn, which is kept verbatim even when it holds only thinking. In a turn that lost a \
        thinking block, blank text blocks are removed too (the behaviour OpenClaw's tests \
        assert). A turn left with no blocks becomes \
        `[{type:\"text\",text:\"[assistant reasoning omitted]\"}]` so strict providers keep the turn shape. \
        Turns without thinking blocks are not touched, blank text included.",
    families: "policies with dropThinkingBlocks: pre-4.6 Claude models on Anthropic / Bedrock / Vertex, GitHub \
        Copilot Claude",
    reference: "transcript-hygiene.md › \"Provider matrix (current behavior)\" › Anthropic, Amazon Bedrock · dropThinkingBlocks",
};

/// The `drop-thinking` rule.
pub struct DropThinking;

impl Rule for DropThinking {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        ctx.resolved.policy.drop_thinking_blocks
    }

    fn apply<'s>(&self, _ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let latest = latest_assistant_index(&work.iter_messages().collect::<Vec<_>>());
        work.modify_each(INFO.id, rewrites, |i, m| {
            if Some(i) == latest || !is_assistant_with_content(m) {
                return None;
            }
            stripped(m)
        });
    }
}

static COPILOT_INFO: RuleInfo = RuleInfo {
    id: "drop-thinking",
    summary: "GitHub Copilot: strip thinking blocks from every assistant turn (its replay-history hook)",
    explanation: "The GitHub Copilot plugin's replay-history hook (stripCopilotAssistantThinkingMessages), run \
        on `openai-responses` and `anthropic-messages` after the generic passes, removes every `thinking` and \
        `redacted_thinking` block from every assistant turn with array content, the latest included; other \
        blocks (blank text too) stay. A turn left with no blocks becomes \
        `[{type:\"text\",text:\"[assistant reasoning omitted]\"}]`.",
    families: "GitHub Copilot on `openai-responses` and `anthropic-messages`",
    reference: "OpenClaw 2026.9.6 extensions/github-copilot/replay-policy.ts · sanitizeGithubCopilotReplayHistory",
};

/// The GitHub Copilot plugin's history hook, a later step of `drop-thinking`.
pub struct CopilotThinkingStrip;

impl Rule for CopilotThinkingStrip {
    fn step(&self) -> &'static str {
        "drop-thinking/copilot-hook"
    }

    fn info(&self) -> &'static RuleInfo {
        &COPILOT_INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        ctx.resolved.family == Family::GithubCopilot && matches!(ctx.api(), "openai-responses" | "anthropic-messages")
    }

    fn apply<'s>(&self, _ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        work.modify_each(COPILOT_INFO.id, rewrites, |_, m| {
            if !is_assistant_with_content(m) {
                return None;
            }
            let content = m.content_array()?;
            if !content.iter().any(is_thinking_like) {
                return None;
            }
            let removed: Vec<String> = content
                .iter()
                .enumerate()
                .filter(|(_, b)| is_thinking_like(b))
                .map(|(i, b)| format!("{} block {i}", block_type(b).unwrap_or("thinking")))
                .collect();
            let mut kept: Vec<Value> = content.iter().filter(|b| !is_thinking_like(b)).cloned().collect();
            let mut detail = format!(
                "removed {}: GitHub Copilot replays no reasoning",
                crate::text::join_folded(&removed)
            );
            if kept.is_empty() {
                kept = omitted_reasoning_content();
                detail.push_str(&format!(
                    "; nothing left, so the turn keeps `{OMITTED_ASSISTANT_REASONING_TEXT}`"
                ));
            }
            Some((with_content(m, kept), detail))
        });
    }
}

fn stripped(m: &Message) -> Option<(Message, String)> {
    let (content, detail) =
        strip_thinking_and_blank_text(m.content_array()?, "older turn and the policy drops thinking blocks")?;
    Some((with_content(m, content), detail))
}

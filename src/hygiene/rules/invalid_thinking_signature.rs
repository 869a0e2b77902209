//! `invalid-thinking-signature`: remove thinking blocks with missing or blank signatures
//! (OpenClaw's `stripInvalidThinkingSignatures`).

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Message;

use crate::hygiene::helpers::thinking_blocks::{
    OMITTED_ASSISTANT_REASONING_TEXT, block_type, has_replayable_signature, is_assistant_with_content,
    is_thinking_like, latest_assistant_index, omitted_reasoning_content, should_preserve_latest_assistant_thinking,
    signed_thinking_provider, with_content,
};

static INFO: RuleInfo = RuleInfo {
    id: "invalid-thinking-signature",
    summary: "remove thinking blocks with missing or blank signatures; keep turn shape with `[assistant reasoning omitted]`",
    explanation: "Anthropic and Bedrock reject a replayed thinking block whose signature is missing, empty or \
        blank. OpenClaw's stripInvalidThinkingSignatures removes every thinking-like block (`thinking`, \
        `redacted_thinking`) that has no replayable signature: a block is replayable iff one of its \
        candidate fields is a string that is non-blank after trimming (`thinking`: `signature`, \
        `thinkingSignature`, `thought_signature`; `redacted_thinking`: `data`, `signature`, \
        `thinkingSignature`, `thought_signature`); no length or shape heuristics. Every assistant turn \
        with array content is checked except the latest one when preserveLatestAssistant holds; that \
        flag is shouldPreserveLatestAssistantThinking: the latest assistant with array content is the last \
        message, or it is the current tool turn (at or after the latest user message, with a \
        `toolCall`/`tool_use`/`function_call` block, no other assistant since the previous user message, \
        and a toolResult after it before any user message). When the flag is false the latest assistant \
        is checked like every other. A turn left with no blocks becomes \
        `[{type:\"text\",text:\"[assistant reasoning omitted]\"}]` so the provider still sees the turn; \
        other blocks (blank text included) are not touched. Unsigned blocks left by compaction-signature \
        are removed here. Gate: the provider requires signed thinking (anthropic, amazon-bedrock, \
        anthropic-vertex) or the policy preserves signatures (it runs together with compaction-signature \
        under the same gate; the `replayInvalid` retry pass of older releases no longer exists).",
    families: "Anthropic, Amazon Bedrock, Anthropic Vertex, and any policy with preserveSignatures",
    reference: "transcript-hygiene.md › \"Provider matrix (current behavior)\" › Anthropic, Amazon Bedrock · stripInvalidThinkingSignatures, shouldPreserveLatestAssistantThinking",
};

/// The `invalid-thinking-signature` rule.
pub struct InvalidThinkingSignature;

impl Rule for InvalidThinkingSignature {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        signed_thinking_provider(ctx) || ctx.resolved.policy.preserve_signatures
    }

    fn apply<'s>(&self, _ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let exempt = {
            let all: Vec<&Message> = work.iter_messages().collect();
            if should_preserve_latest_assistant_thinking(&all) {
                latest_assistant_index(&all)
            } else {
                None
            }
        };
        work.modify_each(
            INFO.id,
            rewrites,
            |i, m| if Some(i) == exempt { None } else { stripped(m) },
        );
    }
}

fn stripped(m: &Message) -> Option<(Message, String)> {
    if !is_assistant_with_content(m) {
        return None;
    }
    let content = m.content_array()?;
    let mut kept = Vec::with_capacity(content.len());
    let mut notes = Vec::new();
    for (i, b) in content.iter().enumerate() {
        if is_thinking_like(b) && !has_replayable_signature(b) {
            let ty = block_type(b).unwrap_or("thinking");
            let why = if signature_fields(b).any(|v| v.is_string()) {
                "blank signature"
            } else {
                "missing signature"
            };
            notes.push(format!("removed {ty} block {i}: {why}"));
        } else {
            kept.push(b.clone());
        }
    }
    if notes.is_empty() {
        return None;
    }
    let mut detail = notes.join("; ");
    if kept.is_empty() {
        kept = omitted_reasoning_content();
        detail.push_str(&format!(
            "; nothing left, so the turn keeps `{OMITTED_ASSISTANT_REASONING_TEXT}`"
        ));
    }
    Some((with_content(m, kept), detail))
}

/// The candidate signature values present on a block.
fn signature_fields(b: &crate::model::json::Value) -> impl Iterator<Item = &crate::model::json::Value> {
    ["data", "signature", "thinkingSignature", "thought_signature"]
        .into_iter()
        .filter(|k| *k != "data" || block_type(b) == Some("redacted_thinking"))
        .filter_map(|k| b.get(k))
}

//! `compaction-signature`: strip thinking signatures older than the latest compaction
//! (OpenClaw's `stripStaleThinkingSignaturesForCompactionReplay`).

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::{Message, Role};

use crate::hygiene::helpers::thinking_blocks::{
    block_type, fmt_ms, is_assistant_with_content, is_thinking_like, parse_timestamp_ms, signed_thinking_provider,
    with_content,
};

static INFO: RuleInfo = RuleInfo {
    id: "compaction-signature",
    summary: "strip thinking signatures older than the latest compaction",
    explanation: "A thinking signature is bound to the exact prompt prefix it was produced for. After a \
        compaction the summary replaces that prefix, so Anthropic rejects replayed pre-compaction \
        signatures with \"Invalid signature in thinking block\". OpenClaw's \
        stripStaleThinkingSignaturesForCompactionReplay takes T = the largest parseable timestamp (a \
        number, or an ISO string) of any `compactionSummary` message; without one nothing changes. Every \
        assistant turn with array content whose own timestamp parses and is strictly earlier than T \
        (`<`, so a turn stamped exactly at T keeps its signatures) loses \
        `thinkingSignature`, `signature` and `thought_signature` from its thinking and redacted_thinking \
        blocks, and `data` from redacted_thinking blocks. The blocks themselves and their reasoning text \
        stay (a redacted block may be left as `{type:\"redacted_thinking\"}`); the next rule, \
        invalid-thinking-signature, then removes the now-unsigned blocks except in the exempt latest \
        turn. Turns without a parseable timestamp are left alone. Gate: the provider requires signed \
        thinking (anthropic, amazon-bedrock, anthropic-vertex) or the policy preserves signatures; in the \
        newest order this pass and invalid-thinking-signature run together under that gate.",
    families: "Anthropic, Amazon Bedrock, Anthropic Vertex, and any policy with preserveSignatures",
    reference: "transcript-hygiene.md › \"Provider matrix (current behavior)\" › Anthropic, Amazon Bedrock · stripStaleThinkingSignaturesForCompactionReplay",
};

/// The `compaction-signature` rule.
pub struct CompactionSignature;

impl Rule for CompactionSignature {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        signed_thinking_provider(ctx) || ctx.resolved.policy.preserve_signatures
    }

    fn apply<'s>(&self, _ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let latest = work
            .iter_messages()
            .filter(|m| m.role() == Role::CompactionSummary)
            .filter_map(|m| parse_timestamp_ms(m.get("timestamp")))
            .fold(None, |acc: Option<f64>, t| Some(acc.map_or(t, |a| a.max(t))));
        let Some(t) = latest else { return };
        work.modify_each(INFO.id, rewrites, |_, m| stripped(m, t));
    }
}

const SIGNATURE_FIELDS: [&str; 3] = ["thinkingSignature", "signature", "thought_signature"];

fn stripped(m: &Message, compaction: f64) -> Option<(Message, String)> {
    if !is_assistant_with_content(m) {
        return None;
    }
    let ts = parse_timestamp_ms(m.get("timestamp")).filter(|ts| *ts < compaction)?;
    let mut content = m.content_array()?.clone();
    let mut notes = Vec::new();
    for (i, block) in content.iter_mut().enumerate() {
        if !is_thinking_like(block) {
            continue;
        }
        let redacted = block_type(block) == Some("redacted_thinking");
        let ty = block_type(block).unwrap_or("thinking").to_owned();
        let Some(obj) = block.as_object_mut() else { continue };
        let keys: Vec<&str> = SIGNATURE_FIELDS.into_iter().chain(redacted.then_some("data")).collect();
        // OpenClaw strips only when some field is non-null, and then removes every one of them.
        if !keys.iter().any(|k| obj.get(k).is_some_and(|v| !v.is_null())) {
            continue;
        }
        let removed: Vec<&str> = keys.into_iter().filter(|k| obj.shift_remove(k).is_some()).collect();
        if !removed.is_empty() {
            notes.push(format!(
                "stripped {} from {ty} block {i}",
                crate::text::join_folded(&removed)
            ));
        }
    }
    if notes.is_empty() {
        return None;
    }
    let detail = format!(
        "{}: turn at {} predates the latest compaction at {}",
        notes.join("; "),
        fmt_ms(ts),
        fmt_ms(compaction)
    );
    Some((with_content(m, content), detail))
}

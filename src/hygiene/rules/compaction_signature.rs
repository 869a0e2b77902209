//! `compaction-signature`: strip thinking signatures older than the latest compaction
//! (hygiene-b §2.7).

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::{Message, Role};

use super::helpers::thinking_blocks::{
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
            notes.push(format!("stripped {} from {ty} block {i}", removed.join(", ")));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hygiene::rules::test_support::{apply_rule, apply_rule_for, msgs, resolved};
    use crate::hygiene::{Action, ReplayOptions};
    use crate::json;

    #[test]
    fn strips_signatures_of_turns_strictly_before_the_latest_compaction() {
        let work = msgs(json!([
            {"role": "assistant", "timestamp": 1000, "content": [
                {"type": "thinking", "thinking": "plan", "thinkingSignature": "sigA", "z": 1},
                {"type": "redacted_thinking", "data": "opaque"},
                {"type": "text", "text": "done", "signature": "keep"}
            ]},
            {"role": "compactionSummary", "summary": "s", "tokensBefore": 10, "timestamp": 1500},
            {"role": "compactionSummary", "summary": "s2", "tokensBefore": 10, "timestamp": "1970-01-01T00:00:02.000Z"},
            {"role": "assistant", "timestamp": 2000, "content": [{"type": "thinking", "thinking": "t", "signature": "sigB"}]},
            {"role": "assistant", "timestamp": "1970-01-01T00:00:01.999Z", "content": [{"type": "thinking", "thinking": "t", "signature": "sigC", "thought_signature": "x"}]},
            {"role": "assistant", "content": [{"type": "thinking", "thinking": "t", "signature": "sigD"}]}
        ]));
        let (out, rw) = apply_rule(&CompactionSignature, work);
        assert_eq!(
            out[0].content().unwrap(),
            &json!([
                {"type": "thinking", "thinking": "plan", "z": 1},
                {"type": "redacted_thinking"},
                {"type": "text", "text": "done", "signature": "keep"}
            ])
        );
        assert_eq!(
            out[3].content().unwrap(),
            &json!([{"type": "thinking", "thinking": "t", "signature": "sigB"}]),
            "equal to T keeps it"
        );
        assert_eq!(
            out[4].content().unwrap(),
            &json!([{"type": "thinking", "thinking": "t"}])
        );
        assert_eq!(
            out[5].content().unwrap(),
            &json!([{"type": "thinking", "thinking": "t", "signature": "sigD"}]),
            "no timestamp"
        );
        assert_eq!(rw.len(), 2);
        assert_eq!((rw[0].action, rw[0].stored.clone()), (Action::Modify, vec![0]));
        assert_eq!(
            rw[0].detail,
            "stripped thinkingSignature from thinking block 0; stripped data from redacted_thinking block 1: turn at 1000 predates the latest compaction at 2000"
        );
        assert_eq!(rw[1].stored, vec![4]);
        assert_eq!(
            rw[1].detail,
            "stripped signature, thought_signature from thinking block 0: turn at 1999 predates the latest compaction at 2000"
        );
    }

    #[test]
    fn no_compaction_or_unparseable_compaction_is_a_no_op() {
        let work = msgs(json!([
            {"role": "compactionSummary", "summary": "s", "timestamp": "later"},
            {"role": "assistant", "timestamp": 1, "content": [{"type": "thinking", "thinking": "t", "signature": "s"}]}
        ]));
        let (_, rw) = apply_rule(&CompactionSignature, work);
        assert!(rw.is_empty());
        let work = msgs(json!([
            {"role": "compactionSummary", "summary": "s", "timestamp": 9},
            {"role": "assistant", "timestamp": 1, "content": [
                {"type": "thinking", "thinking": "t", "signature": null},
                {"type": "thinking", "thinking": "u", "signature": null, "thinkingSignature": "s"}
            ]}
        ]));
        let (out, rw) = apply_rule(&CompactionSignature, work);
        assert_eq!(
            out[1].content().unwrap(),
            &json!([{"type": "thinking", "thinking": "t", "signature": null}, {"type": "thinking", "thinking": "u"}]),
            "null alone is not a signature; with a real one both go"
        );
        assert_eq!(
            rw[0].detail,
            "stripped thinkingSignature, signature from thinking block 1: turn at 1 predates the latest compaction at 9"
        );
    }

    #[test]
    fn gate_is_signed_thinking_provider_or_preserve_signatures() {
        let opts = ReplayOptions::default();
        let on = |p: &crate::policy::ResolvedPolicy| {
            CompactionSignature.enabled(&Context {
                resolved: p,
                options: &opts,
                model_events: &[],
                thinking_level: None,
            })
        };
        assert!(on(&resolved("anthropic", "anthropic-messages", "claude-sonnet-4-6")));
        assert!(on(&resolved(
            "amazon-bedrock",
            "bedrock-converse-stream",
            "anthropic.claude-sonnet-4-6"
        )));
        assert!(!on(&resolved("openai", "openai-responses", "gpt-5")));
        assert!(!on(&resolved("google", "google-generative-ai", "gemini-2.5-pro")));
        let work = msgs(json!([{"role": "compactionSummary", "timestamp": 5}]));
        let (_, rw) = apply_rule_for(
            &CompactionSignature,
            work,
            &resolved("anthropic", "anthropic-messages", "claude-sonnet-4-6"),
            &opts,
        );
        assert!(rw.is_empty());
    }
}

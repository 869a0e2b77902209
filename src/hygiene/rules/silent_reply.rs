//! `silent-reply`: remove `NO_REPLY` silent-reply text; drop turns it leaves empty or
//! reasoning-only (hygiene-b §2.3, newest behaviour).

use crate::model::json::Value;

use crate::hygiene::{Change, Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Message;

use crate::openclaw::assistant_text::{excerpt, is_blank, is_reasoning_only};
use crate::openclaw::js::js_trim;
use crate::openclaw::silent_token::is_silent_reply_payload_as;
use crate::rule_set::Switches;

static INFO: RuleInfo = RuleInfo {
    id: "silent-reply",
    summary: "remove `NO_REPLY` silent-reply text; drop turns it leaves empty or reasoning-only",
    explanation: "An agent that decides not to answer replies with the silent token `NO_REPLY`; OpenClaw does \
        not deliver it, and replaying it would teach the model to stay silent. In every assistant message \
        with array content, each block that has a string `text` (whatever its type) whose trimmed text is \
        a silent payload is removed. A silent payload is what OpenClaw 2026.9.6's isSilentReplyPayloadText \
        accepts: the token alone, case-insensitive and possibly repeated (`NO_REPLY`, `no_reply`, \
        `NO_REPLY NO_REPLY`), also inside edge punctuation (`NO_REPLY.`, `**NO_REPLY**`); a JSON string \
        `\"NO_REPLY\"`; a JSON object whose only key `action` trims to the token; or reasoning followed by \
        the token (closed `<think>` blocks, an unclosed `<thinking>` or a `Thinking:` line, then the token \
        or a silent-intent sentence such as `I will stay quiet.` ending in it). `NO_REPLY` inside an \
        ordinary answer (`Sure. NO_REPLY`, `` `NO_REPLY` ``) is not silent. A message whose blocks are all removed is dropped \
        (no placeholder is fabricated). Newest behaviour: when a silent text was removed and what \
        remains is reasoning-only (at least one `thinking`/`redacted_thinking` block and otherwise only \
        blank text blocks), the whole message is dropped so its signed reasoning cannot merge into a \
        later assistant tool-use turn. A silent turn that also has tool calls, visible text or unknown \
        blocks keeps them; only the silent block goes. String content (normally converted to a text \
        block by internal-metadata just before) is dropped when it is a silent payload.",
    families: "all",
    reference: "transcript-hygiene.md › \"Global rule: incomplete or silent reasoning-only turns\" · normalizeAssistantReplayContent, isSilentReplyPayloadText",
};

/// The `silent-reply` rule.
pub struct SilentReply;

impl Rule for SilentReply {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, _ctx: &Context<'_>) -> bool {
        true
    }

    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        // Up to 2026.7 (`keep-reasoning-after-silent-reply`) the reasoning left stays; in 2026.6
        // (`silent-token-exact`) `NO_REPLY.` is not silent.
        let switches = &ctx.options.rule_set.switches;
        work.change_each(INFO.id, rewrites, |_, m| silent_outcome(m, switches));
    }
}

/// Whether a block is a silent-reply text block (`exact`: without edge punctuation).
pub fn is_silent_block(block: &Value, exact: bool) -> bool {
    block
        .get("text")
        .and_then(Value::as_str)
        .is_some_and(|t| !is_blank(t) && is_silent_reply_payload_as(t, exact))
}

fn silent_outcome(m: &Message, switches: &Switches) -> Option<Change> {
    if !m.is_assistant() {
        return None;
    }
    let exact = !switches.silent_token_edge_punctuation;
    if let Some(s) = m.content_str() {
        return (!is_blank(s) && is_silent_reply_payload_as(s, exact)).then(|| {
            Change::Drop(format!(
                "string content is the silent reply {}",
                excerpt(js_trim(s), 40)
            ))
        });
    }
    let blocks = m.content_array()?;
    let mut notes = Vec::new();
    let mut kept = Vec::with_capacity(blocks.len());
    for (i, block) in blocks.iter().enumerate() {
        if is_silent_block(block, exact) {
            let text = block.get("text").and_then(Value::as_str).unwrap_or_default();
            let ty = block.get("type").and_then(Value::as_str).unwrap_or("untyped");
            notes.push(format!("removed {} {ty} block {i}", excerpt(js_trim(text), 40)));
        } else {
            kept.push(block.clone());
        }
    }
    if notes.is_empty() {
        return None;
    }
    let removed = notes.join("; ");
    if kept.is_empty() {
        return Some(Change::Drop(format!("only silent-reply text: {removed}")));
    }
    if switches.silent_reply_drops_reasoning_only && is_reasoning_only(&kept) {
        return Some(Change::Drop(format!("reasoning-only after silent reply: {removed}")));
    }
    Some(Change::Content(kept, removed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hygiene::Action;
    use crate::hygiene::rules::normalize_test_support::assert_untouched;
    use crate::hygiene::rules::test_support::{apply_rule, msgs};
    use crate::json;

    fn summary(rw: &[PendingRewrite]) -> Vec<(Action, Vec<usize>, String)> {
        rw.iter()
            .map(|r| (r.action, r.stored.clone(), r.detail.to_string()))
            .collect()
    }

    #[test]
    fn silent_only_turns_are_dropped() {
        let work = msgs(json!([
            {"role": "user", "content": "ping"},
            {"role": "assistant", "content": [{"type": "text", "text": "  NO_REPLY\n"}], "stopReason": "stop", "usage": {"output": 3}},
            {"role": "assistant", "content": [{"type": "text", "text": "{\"action\": \"NO_REPLY\"}"}], "stopReason": "stop"},
            {"role": "assistant", "content": "NO_REPLY"}
        ]));
        let (out, rw) = apply_rule(&SilentReply, work);
        assert_eq!(out.len(), 1);
        assert_eq!(
            summary(&rw),
            vec![
                (
                    Action::Drop,
                    vec![1],
                    "only silent-reply text: removed NO_REPLY text block 0".to_owned()
                ),
                (
                    Action::Drop,
                    vec![2],
                    "only silent-reply text: removed {\"action\": \"NO_REPLY\"} text block 0".to_owned()
                ),
                (
                    Action::Drop,
                    vec![3],
                    "string content is the silent reply NO_REPLY".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn silent_block_is_removed_and_the_rest_kept() {
        let work = msgs(json!([
            {"role": "assistant", "content": [
                {"type": "text", "text": "NO_REPLY"},
                {"type": "toolCall", "id": "c1", "name": "read", "arguments": {}}
            ], "stopReason": "toolUse"},
            {"role": "assistant", "content": [
                {"type": "text", "text": "Visible"},
                {"type": "output_text", "text": "NO_REPLY"},
                {"type": "mystery"}
            ]}
        ]));
        let (out, rw) = apply_rule(&SilentReply, work);
        assert_eq!(
            out[0].content(),
            Some(&json!([{"type": "toolCall", "id": "c1", "name": "read", "arguments": {}}]))
        );
        assert_eq!(
            out[1].content(),
            Some(&json!([{"type": "text", "text": "Visible"}, {"type": "mystery"}]))
        );
        assert_eq!(
            summary(&rw),
            vec![
                (Action::Modify, vec![0], "removed NO_REPLY text block 0".to_owned()),
                (
                    Action::Modify,
                    vec![1],
                    "removed NO_REPLY output_text block 1".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn reasoning_left_alone_after_a_silent_reply_is_dropped() {
        let work = msgs(json!([
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "nothing to add", "thinkingSignature": "sig"},
                {"type": "text", "text": " "},
                {"type": "text", "text": "NO_REPLY"}
            ], "stopReason": "stop"}
        ]));
        let (out, rw) = apply_rule(&SilentReply, work);
        assert!(out.is_empty());
        assert_eq!(
            summary(&rw),
            vec![(
                Action::Drop,
                vec![0],
                "reasoning-only after silent reply: removed NO_REPLY text block 2".to_owned()
            )]
        );
    }

    #[test]
    fn case_and_repetition_do_not_matter() {
        // OpenClaw 2026.9.6 matches the token case-insensitively and repeated (oracle).
        let work = msgs(json!([
            {"role": "assistant", "content": [{"type": "text", "text": "no_reply"}], "stopReason": "stop"},
            {"role": "assistant", "content": [{"type": "text", "text": "NO_REPLY NO_REPLY"}], "stopReason": "stop"}
        ]));
        let (out, rw) = apply_rule(&SilentReply, work);
        assert!(out.is_empty() && rw.len() == 2, "{rw:?}");
    }

    #[test]
    fn look_alikes_are_kept() {
        assert_untouched(
            &SilentReply,
            json!([
                {"role": "assistant", "content": [{"type": "text", "text": "Reply NO_REPLY if nothing changed."}]},
                {"role": "assistant", "content": [{"type": "text", "text": "Sure. NO_REPLY"}]},
                {"role": "assistant", "content": [{"type": "text", "text": "{\"action\":\"NO_REPLY\",\"reason\":\"x\"}"}]},
                {"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}, {"type": "text", "text": " "}]},
                {"role": "assistant", "content": "Answer"},
                {"role": "user", "content": [{"type": "text", "text": "NO_REPLY"}]},
                {"role": "toolResult", "toolCallId": "c", "content": [{"type": "text", "text": "NO_REPLY"}]}
            ]),
        );
    }

    #[test]
    fn up_to_2026_7_reasoning_left_after_a_silent_reply_stays() {
        let transcript = json!([
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "nothing to add"},
                {"type": "text", "text": "NO_REPLY"}
            ]}
        ]);
        let run = |set| crate::hygiene::rules::test_support::apply_rule_in(&SilentReply, msgs(transcript.clone()), set);
        assert_eq!(run(&crate::rule_set::V2026_8).0.len(), 0);
        let (out, _) = run(&crate::rule_set::V2026_7);
        assert_eq!(
            out[0].content(),
            Some(&json!([{"type": "thinking", "thinking": "nothing to add"}]))
        );
    }

    #[test]
    fn in_2026_6_the_token_in_punctuation_is_not_silent() {
        let transcript = json!([{"role": "assistant", "content": [{"type": "text", "text": "NO_REPLY."}]}]);
        let run = |set| crate::hygiene::rules::test_support::apply_rule_in(&SilentReply, msgs(transcript.clone()), set);
        assert_eq!(run(&crate::rule_set::V2026_7).0.len(), 0, "2026.7 and later drop it");
        let (out, rw) = run(&crate::rule_set::V2026_6);
        assert_eq!((out.len(), rw.len()), (1, 0));
    }
}

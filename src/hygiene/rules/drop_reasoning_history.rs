//! `drop-reasoning-history`: strip historical reasoning for OpenAI-compatible chat
//! completions (dropReasoningFromHistory, hygiene-b §2.6).

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Message;

use super::helpers::thinking_blocks::{
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hygiene::rules::test_support::{apply_rule_for, msgs, resolved};
    use crate::hygiene::{Action, ReplayOptions};
    use crate::json;

    fn completions() -> crate::policy::ResolvedPolicy {
        resolved("vllm", "openai-completions", "qwen3-32b")
    }

    fn run(v: crate::model::json::Value) -> (Vec<Message>, Vec<PendingRewrite>) {
        apply_rule_for(
            &DropReasoningHistory,
            msgs(v),
            &completions(),
            &ReplayOptions::default(),
        )
    }

    #[test]
    fn current_tool_turn_keeps_reasoning_and_history_loses_it() {
        let (out, rw) = run(json!([
            {"role": "user", "content": "q1"},
            {"role": "assistant", "content": [{"type": "thinking", "thinking": "old"}, {"type": "text", "text": "a1"}]},
            {"role": "user", "content": "q2"},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "now"},
                {"type": "toolCall", "id": "c1", "name": "read", "arguments": {}}
            ]},
            {"role": "toolResult", "toolCallId": "c1", "toolName": "read", "content": []}
        ]));
        assert_eq!(out[1].content().unwrap(), &json!([{"type": "text", "text": "a1"}]));
        assert_eq!(
            out[3].content().unwrap(),
            &json!([{"type": "thinking", "thinking": "now"}, {"type": "toolCall", "id": "c1", "name": "read", "arguments": {}}])
        );
        assert_eq!(rw.len(), 1);
        assert_eq!((rw[0].action, rw[0].stored.clone()), (Action::Modify, vec![1]));
        assert_eq!(
            rw[0].detail,
            "removed thinking block 0: historical reasoning is not replayed to chat completions"
        );
    }

    #[test]
    fn completed_final_turn_is_stripped_and_emptied_turns_get_the_omitted_text() {
        let (out, rw) = run(json!([
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [{"type": "thinking", "thinking": "r"}, {"type": "text", "text": " "}]}
        ]));
        assert_eq!(
            out[1].content().unwrap(),
            &json!([{"type": "text", "text": "[assistant reasoning omitted]"}])
        );
        assert_eq!(
            rw[0].detail,
            "removed thinking block 0, blank text block 1: historical reasoning is not replayed to chat completions; nothing left, so the turn keeps `[assistant reasoning omitted]`"
        );
    }

    #[test]
    fn tool_use_spelling_and_answered_turns_are_not_exempt() {
        let (_, rw) = run(json!([
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [{"type": "thinking", "thinking": "r"}, {"type": "toolUse", "id": "c", "name": "x", "input": {}}]},
            {"role": "toolResult", "toolCallId": "c", "content": []}
        ]));
        assert_eq!(rw.len(), 1, "toolUse is not a tool call for this exemption");
        let (_, rw) = run(json!([
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [{"type": "redacted_thinking", "data": "d"}, {"type": "tool_use", "id": "c", "name": "x", "input": {}}]},
            {"role": "toolResult", "toolCallId": "c", "content": []},
            {"role": "assistant", "content": [{"type": "text", "text": "done"}]}
        ]));
        assert!(rw.is_empty(), "tool_use turn still current: no user after it");
        let (_, rw) = run(json!([
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [{"type": "thinking", "thinking": "r"}, {"type": "toolCall", "id": "c", "name": "x", "arguments": {}}]},
            {"role": "user", "content": "interrupt"},
            {"role": "toolResult", "toolCallId": "c", "content": []}
        ]));
        assert_eq!(rw.len(), 1, "a user message precedes the result");
    }

    #[test]
    fn gate_is_drop_reasoning_from_history() {
        let opts = ReplayOptions::default();
        let on = |p: &crate::policy::ResolvedPolicy| {
            DropReasoningHistory.enabled(&Context {
                resolved: p,
                options: &opts,
                model_events: &[],
                thinking_level: None,
            })
        };
        assert!(on(&completions()));
        assert!(!on(&resolved("vllm", "openai-completions", "kimi-k2.5")));
        assert!(!on(&resolved("anthropic", "anthropic-messages", "claude-sonnet-4-6")));
    }
}

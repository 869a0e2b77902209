//! `anthropic-turn-merge`: merge consecutive assistant turns, then consecutive user turns
//! (Anthropic alternation).

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Role;

use super::helpers::turn_merge::{MergeSpec, merge_assistants, merge_consecutive, merge_users};

static INFO: RuleInfo = RuleInfo {
    id: "anthropic-turn-merge",
    summary: "merge consecutive assistant turns, then consecutive user turns (Anthropic alternation)",
    explanation: "The Anthropic Messages and Bedrock Converse APIs require user and assistant turns to \
        alternate. OpenClaw's validateAnthropicTurns first merges every run of adjacent assistant messages \
        exactly like gemini-turn-merge (fields of the earlier turn, content concatenated, `usage`, \
        `stopReason` and `errorMessage` from the later turn when truthy), then merges every run of adjacent \
        user messages: the content of both is concatenated (string content becomes one text block, other \
        non-array content contributes nothing), every other field comes from the later (newer) turn in its \
        key order, and `timestamp` is the later turn's when it is neither missing nor null, else the earlier \
        turn's (absent when both lack one). Newest behaviour: the user merge is skipped when the policy sets \
        `appendOnlyRuntimeContext` and the target API is `anthropic-messages` (prefix-binding Claude models \
        such as claude-fable-5-1 replay each user turn with the timestamp it was signed over); Bedrock \
        Converse and OpenAI-compatible chat completions still merge users. Upstream strips dangling tool calls \
        between the two merges; that is the separate dangling-tool-call rule, which runs right after this one \
        and sees the same assistant turns and result spans (merging user turns never changes them). A run of \
        three or more is one merge rewrite listing every member's stored indices; the merged message keeps \
        the first member's place. Only neighbours merge: any message of another role, or without a role, \
        breaks a run.",
    families: "Anthropic (direct), MiniMax on Anthropic APIs, Amazon Bedrock Converse, unowned Anthropic APIs, OpenAI-compatible chat completions, Responses-compatible APIs with Claude-family model ids",
    reference: "transcript-hygiene.md › \"Provider matrix (current behavior)\" › Anthropic · validateAnthropicTurns",
};

/// The `anthropic-turn-merge` rule.
pub struct AnthropicTurnMerge;

/// Whether consecutive user turns merge (N: not on `anthropic-messages` with append-only
/// runtime context).
pub fn merges_user_turns(ctx: &Context<'_>) -> bool {
    !(ctx.resolved.policy.append_only_runtime_context == Some(true) && ctx.api() == "anthropic-messages")
}

impl Rule for AnthropicTurnMerge {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        ctx.resolved.policy.validate_anthropic_turns
    }

    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let assistants = MergeSpec {
            rule: INFO.id,
            role: Role::Assistant,
            why: "for Anthropic alternation",
            fields: "fields of the first turn except usage/stopReason/errorMessage taken from later turns when set",
            union_notes: true,
        };
        merge_consecutive(work, &assistants, merge_assistants, rewrites);
        if !merges_user_turns(ctx) {
            return;
        }
        let users = MergeSpec {
            rule: INFO.id,
            role: Role::User,
            why: "for Anthropic alternation",
            fields: "other fields from the last turn",
            union_notes: false,
        };
        merge_consecutive(work, &users, merge_users, rewrites);
    }
}

#[cfg(test)]
mod tests {
    use crate::json;

    use super::*;
    use crate::hygiene::rules::helpers::turn_merge::testing::{all_borrowed, assert_json, borrowed, list};
    use crate::hygiene::rules::test_support::{assert_gate, msgs, resolved};
    use crate::hygiene::{Action, ReplayOptions};
    use crate::model::Message;
    use crate::policy::ResolvedPolicy;

    fn run_for(r: &ResolvedPolicy, mut work: Working<'_>) -> (Vec<Message>, Vec<PendingRewrite>, Vec<Vec<usize>>) {
        let opts = ReplayOptions::default();
        let ctx = Context {
            resolved: r,
            options: &opts,
            model_events: &[],
            thinking_level: None,
        };
        let mut rw = Vec::new();
        AnthropicTurnMerge.apply(&ctx, &mut work, &mut rw);
        let sources = work.messages.iter().map(|m| m.source.clone()).collect();
        let out = work.messages.into_iter().map(|m| m.message.into_owned()).collect();
        (out, rw, sources)
    }

    fn sonnet() -> ResolvedPolicy {
        resolved("anthropic", "anthropic-messages", "claude-sonnet-4-6")
    }

    fn transcript() -> Working<'static> {
        msgs(json!([
            {"role": "user", "content": "first", "timestamp": 10, "a": 1},
            {"role": "user", "content": [{"type": "text", "text": "second"}], "b": 2},
            {"role": "assistant", "content": [{"type": "text", "text": "x"}], "stopReason": "stop", "timestamp": 12},
            {"role": "assistant", "content": [{"type": "text", "text": "y"}], "stopReason": "stop",
             "usage": {"input": 3}, "timestamp": 13},
            {"role": "user", "content": "third", "timestamp": 14}
        ]))
    }

    #[test]
    fn gate_is_validate_anthropic_turns() {
        assert_gate(
            &AnthropicTurnMerge,
            &[
                ("anthropic", "anthropic-messages", "claude-sonnet-4-6", true),
                (
                    "amazon-bedrock",
                    "bedrock-converse-stream",
                    "us.anthropic.claude-opus-4-6-v1",
                    true,
                ),
                ("deepseek", "openai-completions", "deepseek-chat", true),
                ("google", "google-generative-ai", "gemini-2.5-pro", false),
                ("openai", "openai-responses", "gpt-5.1", false),
            ],
        );
    }

    #[test]
    fn merges_assistants_first_then_users() {
        let (out, rw, sources) = run_for(&sonnet(), transcript());
        assert_json(
            &out,
            json!([
                {"role": "user", "content": [{"type": "text", "text": "first"}, {"type": "text", "text": "second"}],
                 "b": 2, "timestamp": 10},
                {"role": "assistant", "content": [{"type": "text", "text": "x"}, {"type": "text", "text": "y"}],
                 "stopReason": "stop", "timestamp": 12, "usage": {"input": 3}},
                {"role": "user", "content": "third", "timestamp": 14}
            ]),
        );
        assert_eq!(sources, vec![vec![0, 1], vec![2, 3], vec![4]]);
        let summary: Vec<_> = rw
            .iter()
            .map(|r| (r.rule, r.action, r.stored.clone(), r.result.clone()))
            .collect();
        assert_eq!(
            summary,
            vec![
                ("anthropic-turn-merge", Action::Merge, vec![2, 3], vec![2]),
                ("anthropic-turn-merge", Action::Merge, vec![0, 1], vec![0]),
            ]
        );
        assert_eq!(
            rw[0].detail,
            "merged 2 consecutive assistant turns (stored [2] + [3]) for Anthropic alternation: content concatenated, \
             fields of the first turn except usage/stopReason/errorMessage taken from later turns when set (usage; stopReason)"
        );
        assert_eq!(
            rw[1].detail,
            "merged 2 consecutive user turns (stored [0] + [1]) for Anthropic alternation: content concatenated, \
             other fields from the last turn (timestamp from the earlier turn)"
        );
    }

    #[test]
    fn user_timestamp_prefers_the_later_turn() {
        let (out, rw, _) = run_for(
            &sonnet(),
            msgs(json!([
                {"role": "user", "timestamp": 1, "content": "a"},
                {"role": "user", "timestamp": 2, "content": "b"},
                {"role": "user", "timestamp": null, "content": "c"}
            ])),
        );
        assert_json(
            &out,
            json!([{"role": "user", "timestamp": 2, "content": [{"type": "text", "text": "a"},
                {"type": "text", "text": "b"}, {"type": "text", "text": "c"}]}]),
        );
        assert_eq!(rw.len(), 1);
        assert_eq!(rw[0].stored, vec![0, 1, 2]);
        assert!(
            rw[0].detail.ends_with("(timestamp from the earlier turn)"),
            "{}",
            rw[0].detail
        );
    }

    #[test]
    fn prefix_binding_model_keeps_users_separate_on_messages_api() {
        let (out, rw, sources) = run_for(
            &resolved("anthropic", "anthropic-messages", "claude-fable-5-1"),
            transcript(),
        );
        assert_eq!(out.len(), 4);
        assert_eq!(sources, vec![vec![0], vec![1], vec![2, 3], vec![4]]);
        assert_eq!(rw.len(), 1);
        assert_eq!(rw[0].stored, vec![2, 3]);
    }

    #[test]
    fn prefix_binding_model_still_merges_users_on_bedrock() {
        let (_, rw, sources) = run_for(
            &resolved(
                "amazon-bedrock",
                "bedrock-converse-stream",
                "us.anthropic.claude-fable-5-1-v1:0",
            ),
            transcript(),
        );
        assert_eq!(sources, vec![vec![0, 1], vec![2, 3], vec![4]]);
        assert_eq!(rw.len(), 2);
    }

    #[test]
    fn append_only_on_openai_completions_still_merges_users() {
        let mut r = resolved("deepseek", "openai-completions", "deepseek-chat");
        r.policy.append_only_runtime_context = Some(true);
        let (_, rw, sources) = run_for(&r, transcript());
        assert_eq!(sources, vec![vec![0, 1], vec![2, 3], vec![4]]);
        assert_eq!(rw.len(), 2);
    }

    #[test]
    fn alternating_transcript_is_untouched() {
        let stored = list(json!([
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [{"type": "toolCall", "id": "c", "name": "read", "arguments": {}}]},
            {"role": "toolResult", "toolCallId": "c", "toolName": "read", "content": [], "isError": false},
            {"role": "assistant", "content": [{"type": "text", "text": "a"}]},
            {"role": "user", "content": "r"}
        ]));
        let mut work = borrowed(&stored);
        let r = sonnet();
        let opts = ReplayOptions::default();
        let ctx = Context {
            resolved: &r,
            options: &opts,
            model_events: &[],
            thinking_level: None,
        };
        let mut rw = Vec::new();
        AnthropicTurnMerge.apply(&ctx, &mut work, &mut rw);
        assert!(rw.is_empty());
        assert!(all_borrowed(&work));
    }
}

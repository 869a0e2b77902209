//! `anthropic-turn-merge`: merge consecutive assistant turns, then consecutive user turns
//! (Anthropic alternation).

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Role;

use crate::hygiene::helpers::turn_merge::{MergeSpec, merge_assistants, merge_consecutive, merge_users};

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

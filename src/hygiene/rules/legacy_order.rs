//! Where `tool-call-id` and `tool-result-pairing` ran up to OpenClaw 2026.7 (switch
//! `legacy-pairing`): tool-call ids were sanitized first, inside `sanitizeSessionMessagesImages`
//! (unless the policy allows provider-owned thinking replay, or on the Responses family), and
//! results were paired outside the Responses family only after the second id pass. These steps
//! share the ids of the rules they move, and do nothing for newer rule sets.

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};

use super::tool_call_id::ToolCallId;
use super::tool_result_pairing::ToolResultPairing;
use crate::hygiene::helpers::signed_thinking::allow_provider_owned_thinking_replay;

fn legacy(ctx: &Context<'_>) -> bool {
    ctx.options.rule_set.switches.legacy_pairing
}

/// The first id pass of 2026.7, with image sanitizing.
pub struct EarlyToolCallIds;

impl Rule for EarlyToolCallIds {
    fn step(&self) -> &'static str {
        "tool-call-id/early-2026.7"
    }

    fn info(&self) -> &'static RuleInfo {
        ToolCallId.info()
    }

    fn older_releases_only(&self) -> bool {
        true
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        let policy = &ctx.resolved.policy;
        legacy(ctx)
            && policy.sanitize_tool_call_ids
            && policy.tool_call_id_mode.is_some()
            && !allow_provider_owned_thinking_replay(ctx)
            && !ctx.is_openai_responses()
    }

    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        ToolCallId.apply(ctx, work, rewrites);
    }
}

/// Pairing where the newer releases run it: before the id pass (always on the Responses
/// family; elsewhere only for rule sets after 2026.7).
pub struct PairingBeforeIds;

impl Rule for PairingBeforeIds {
    fn step(&self) -> &'static str {
        "tool-result-pairing/before-ids"
    }

    fn info(&self) -> &'static RuleInfo {
        ToolResultPairing.info()
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        ToolResultPairing.enabled(ctx) && (!legacy(ctx) || ctx.is_openai_responses())
    }

    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        ToolResultPairing.apply(ctx, work, rewrites);
    }
}

/// Pairing after the id pass, outside the Responses family, up to 2026.7.
pub struct PairingAfterIds;

impl Rule for PairingAfterIds {
    fn step(&self) -> &'static str {
        "tool-result-pairing/after-ids-2026.7"
    }

    fn info(&self) -> &'static RuleInfo {
        ToolResultPairing.info()
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        ToolResultPairing.enabled(ctx) && legacy(ctx) && !ctx.is_openai_responses()
    }

    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        ToolResultPairing.apply(ctx, work, rewrites);
    }
}

//! Provider-owned signed thinking (`allowProviderOwnedThinkingReplay` in OpenClaw's `sanitizeSessionHistory`,
//! and the signed-turn path of `sanitizeToolCallInputs`):
//! whether signed thinking turns may be replayed as they are, and the per-turn safety test
//! shared by `malformed-tool-call` and `tool-call-id`.

use std::collections::HashSet;

use crate::model::json::Value;

use crate::hygiene::Context;
use crate::model::Message;

use super::tool_calls::{
    AllowedTools, describe_call, has_partial_json, has_tool_call_input, is_tool_call, trimmed_name,
};

/// `signedThinkingProvider`: the normalised provider owns signed thinking blocks
/// (`anthropic`, `amazon-bedrock`, `anthropic-vertex`).
pub fn signed_thinking_provider(ctx: &Context<'_>) -> bool {
    matches!(
        ctx.resolved.target.provider_str(),
        "anthropic" | "amazon-bedrock" | "anthropic-vertex"
    )
}

/// `allowProviderOwnedThinkingReplay`: modelApi is `anthropic-messages` or
/// `bedrock-converse-stream`, the policy validates Anthropic turns, keeps signatures or the
/// provider requires signed thinking, and does not drop thinking blocks.
pub fn allow_provider_owned_thinking_replay(ctx: &Context<'_>) -> bool {
    let policy = &ctx.resolved.policy;
    matches!(ctx.api(), "anthropic-messages" | "bedrock-converse-stream")
        && policy.validate_anthropic_turns
        && (policy.preserve_signatures || signed_thinking_provider(ctx))
        && !policy.drop_thinking_blocks
}

/// Whether an assistant's content holds a thinking-like block and a tool call (any of the six
/// spellings): the turns `sanitizeToolCallInputs` keeps whole when they are safe to replay.
pub fn is_signed_tool_turn(m: &Message) -> bool {
    m.is_assistant()
        && m.blocks().any(|b| b.kind().is_thinking_like())
        && m.content_array().is_some_and(|c| c.iter().any(is_tool_call))
}

/// Part (a) of the path-A safety test, block by block: every tool call (six spellings) has
/// input or arguments, no string `partialJson`, an `id` that is non-empty after trimming and
/// not repeated (trimmed) inside the turn, a name that passes the name check (allowlist waived
/// when `completed(block index)`), and a name that needs no trimming. `Some(reason)` names the
/// first block that fails.
pub fn unsafe_signed_block(m: &Message, allowed: &AllowedTools, completed: impl Fn(usize) -> bool) -> Option<String> {
    let mut seen: HashSet<&str> = HashSet::new();
    for (i, block) in m.content_array().into_iter().flatten().enumerate() {
        if !is_tool_call(block) {
            continue;
        }
        let what = describe_call(block);
        let id = block.get("id").and_then(Value::as_str).map(str::trim).unwrap_or("");
        let reason = if !has_tool_call_input(block) {
            "has no input or arguments".to_owned()
        } else if has_partial_json(block) {
            "carries streaming `partialJson`".to_owned()
        } else if id.is_empty() {
            "has no `id`".to_owned()
        } else if !seen.insert(id) {
            format!("repeats id `{id}` inside the turn")
        } else if let Err(why) = allowed.check(block.get("name"), completed(i)) {
            why.to_owned()
        } else if trimmed_name(block).is_some() {
            "name needs trimming".to_owned()
        } else {
            continue;
        };
        return Some(format!("tool call {what} {reason}"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hygiene::ReplayOptions;
    use crate::json;
    use crate::policy::{ResolvedPolicy, Target, resolve};

    fn resolved(provider: &str, api: &str, model: &str) -> ResolvedPolicy {
        resolve(&Target {
            provider: Some(provider.into()),
            api: Some(api.into()),
            model: Some(model.into()),
        })
    }

    fn allow(provider: &str, api: &str, model: &str) -> bool {
        let r = resolved(provider, api, model);
        let opts = ReplayOptions::default();
        let ctx = Context {
            resolved: &r,
            options: &opts,
            model_events: &[],
            thinking_level: None,
        };
        allow_provider_owned_thinking_replay(&ctx)
    }

    #[test]
    fn derived_flag_per_target() {
        assert!(allow("anthropic", "anthropic-messages", "claude-sonnet-4-6"));
        assert!(allow(
            "amazon-bedrock",
            "bedrock-converse-stream",
            "us.anthropic.claude-opus-4-6-v1"
        ));
        // Older Claude models drop thinking blocks.
        assert!(!allow("anthropic", "anthropic-messages", "claude-sonnet-4-5-20250929"));
        // Not an Anthropic-shaped API.
        assert!(!allow("google", "google-generative-ai", "gemini-2.5-pro"));
        assert!(!allow("openai", "openai-responses", "gpt-5.1"));
    }

    #[test]
    fn safety_test_reports_the_first_failing_block() {
        let m = Message::from_value(json!({"role": "assistant", "content": [
            {"type": "thinking", "thinking": "t", "thinkingSignature": "s"},
            {"type": "toolCall", "id": "a", "name": "read", "arguments": {}},
            {"type": "toolCall", "id": " a", "name": "read", "arguments": {}}]}))
        .unwrap();
        assert!(is_signed_tool_turn(&m));
        assert_eq!(
            unsafe_signed_block(&m, &AllowedTools::default(), |_| false),
            Some("tool call `read` (id ` a`) repeats id `a` inside the turn".to_owned())
        );
    }
}

//! What the Bedrock converter asks of a model id: is it Claude, which prompt-cache policy
//! applies.
//!
//! Ports of the plugin's own `isAnthropicClaudeModel` (`stream.runtime.ts`) and
//! `resolveBedrockPromptCachePolicy` (`bedrock-options.ts`), on top of the SDK's Claude
//! identity (`resolveClaudeModelIdentity`, ported in [`crate::openclaw::claude_model`]). The
//! model object has no `name` or `params.canonicalModelId` here: the id stands for both.

use std::sync::LazyLock;

use regex::Regex;

use crate::openclaw::claude_model::{claude_model_identity, dash_runs};
use crate::openclaw::js::{is_js_whitespace, js_trim};

static ARN_PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^arn:aws(?:-cn|-us-gov)?:bedrock:[^:]+:[^:]*:(?:foundation-model|inference-profile)/").expect("regex")
});
static REGION_PREFIX: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^(?:us|eu|apac|jp|global)\.").expect("regex"));
static NOVA_CACHE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^amazon\.nova-(?:micro|lite|pro|premier|2-lite)-v1:0$").expect("regex"));

/// The prompt-cache family of a Bedrock model (`resolveBedrockPromptCachePolicy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CachePolicy {
    /// Amazon Nova: explicit checkpoints only when retention is set, which it is not by default.
    Nova,
    /// Claude models with prompt caching: a checkpoint with the default five-minute TTL.
    Claude,
}

/// Whether the Bedrock model is an Anthropic Claude model (`isAnthropicClaudeModel`): only
/// these take signed reasoning and redacted reasoning on replay.
pub fn is_claude(model_id: &str) -> bool {
    let id = model_id.to_lowercase();
    claude_model_identity(Some(model_id)).starts_with("claude-")
        || id.contains("anthropic.claude")
        || id.contains("anthropic/claude")
}

/// The prompt-cache policy of a Bedrock model, `None` when it gets no cache points.
pub fn cache_policy(model_id: &str) -> Option<CachePolicy> {
    let lower = js_trim(model_id).to_lowercase();
    let unwrapped = ARN_PREFIX.replace(&lower, "");
    let unwrapped = REGION_PREFIX.replace(&unwrapped, "");
    if NOVA_CACHE.is_match(&unwrapped) {
        return Some(CachePolicy::Nova);
    }
    (claude_prompt_caching(model_id) || claude_prompt_caching(&claude_model_identity(Some(model_id))))
        .then_some(CachePolicy::Claude)
}

/// `supportsBedrockClaudePromptCaching` for one id (without `AWS_BEDROCK_FORCE_CACHE`).
fn claude_prompt_caching(model_id: &str) -> bool {
    const FAMILIES: [&str; 6] = [
        "claude-fable-5",
        "claude-mythos-5",
        "claude-opus-5",
        "claude-sonnet-5",
        "claude-3-7-sonnet",
        "claude-3-5-haiku",
    ];
    let lower = model_id.to_lowercase();
    let dashed = dash_runs(&lower, |c| matches!(c, '_' | '.' | ':') || is_js_whitespace(c));
    let candidates = [lower.as_str(), dashed.as_str()];
    candidates.iter().any(|c| c.contains("claude"))
        && candidates
            .iter()
            .any(|c| c.contains("-4-") || FAMILIES.iter().any(|f| c.contains(f)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_models() {
        assert!(is_claude("us.anthropic.claude-sonnet-4-5-20250929-v1:0"));
        assert!(is_claude("anthropic.claude-3-5-haiku-20241022-v1:0"));
        assert!(!is_claude("openai.gpt-oss-120b-1:0"));
        assert!(!is_claude(
            "arn:aws:bedrock:us-east-1:123:application-inference-profile/abc"
        ));
    }

    #[test]
    fn cache_policies() {
        assert_eq!(
            cache_policy("us.anthropic.claude-sonnet-4-5-20250929-v1:0"),
            Some(CachePolicy::Claude)
        );
        assert_eq!(
            cache_policy("anthropic.claude-3-7-sonnet-20250219-v1:0"),
            Some(CachePolicy::Claude)
        );
        assert_eq!(cache_policy("anthropic.claude-3-haiku-20240307-v1:0"), None);
        assert_eq!(cache_policy("us.amazon.nova-pro-v1:0"), Some(CachePolicy::Nova));
        assert_eq!(
            cache_policy("arn:aws:bedrock:us-east-1::foundation-model/amazon.nova-lite-v1:0"),
            Some(CachePolicy::Nova)
        );
        assert_eq!(cache_policy("meta.llama3-70b-instruct-v1:0"), None);
    }
}

//! Provider normalisation and the detection predicates of OpenClaw's policy resolution that the
//! per-family table needs. All tests take already-normalised inputs unless noted.

/// `normalizeProviderId` of OpenClaw 2026.9.6 (`model-catalog-core` `provider-id`): trim and
/// lowercase. Aliases are the plugins' business ([`super::owner`]). Returns an empty string for
/// a blank id.
pub fn normalize_provider_id(provider: &str) -> String {
    provider.trim().to_lowercase()
}

/// APIs of the OpenAI Responses family (OpenClaw's `isOpenAIResponsesApi`).
pub const RESPONSES_APIS: [&str; 3] = ["openai-responses", "openai-chatgpt-responses", "azure-openai-responses"];

/// Whether `api` is an OpenAI Responses-family API (`openai-responses`,
/// `openai-chatgpt-responses`, `azure-openai-responses`).
pub fn is_openai_responses_api(api: &str) -> bool {
    RESPONSES_APIS.contains(&api)
}

/// Responses-compatible APIs accepted by the OpenAI-compatible helper and the unowned fallback:
/// the Responses family plus the older `openai-codex-responses`.
pub fn is_responses_compatible_api(api: &str) -> bool {
    is_openai_responses_api(api) || api == "openai-codex-responses"
}

/// `isGoogleModelApi` of OpenClaw 2026.9.6: exactly `google-generative-ai` or
/// `google-gemini-cli` (`google-vertex` is not one: an unowned provider on it gets the defaults).
pub fn is_google_model_api(api: &str) -> bool {
    api == "google-generative-ai" || api == "google-gemini-cli"
}

/// Anthropic transport APIs: `anthropic-messages` or `bedrock-converse-stream`.
pub fn is_anthropic_api(api: &str) -> bool {
    api == "anthropic-messages" || api == "bedrock-converse-stream"
}

/// `isGoogle`: the API, lowercased, contains `google` or `gemini`.
pub fn is_google_api(api: &str) -> bool {
    let a = api.to_ascii_lowercase();
    a.contains("google") || a.contains("gemini")
}

/// Model-id prefixes of the OpenRouter plugin's Mistral rule (its `buildReplayPolicy`).
const OPENROUTER_MISTRAL_PREFIXES: [&str; 9] = [
    "mistralai/",
    "mistral/",
    "mistral-",
    "codestral-",
    "devstral-",
    "ministral-",
    "mixtral-",
    "pixtral-",
    "voxtral-",
];

/// OpenRouter's Mistral rule: the lowercased id, a leading `openrouter/` removed, starts with a
/// Mistral prefix.
pub fn is_openrouter_mistral_model(model: &str) -> bool {
    let m = model.trim().to_ascii_lowercase();
    let m = m.strip_prefix("openrouter/").unwrap_or(&m);
    OPENROUTER_MISTRAL_PREFIXES.iter().any(|p| m.starts_with(p))
}

/// OpenRouter Anthropic models: the id starts with `anthropic/` or `openrouter/anthropic/`.
pub fn is_openrouter_anthropic_model(model: &str) -> bool {
    let m = model.trim().to_ascii_lowercase();
    m.starts_with("anthropic/") || m.starts_with("openrouter/anthropic/")
}

/// `isMinimax`: provider `minimax` / `minimax-cn`, or the lowercased model id contains `minimax`.
pub fn is_minimax(provider: &str, model: &str) -> bool {
    matches!(provider, "minimax" | "minimax-cn") || model.to_ascii_lowercase().contains("minimax")
}

/// `isOpenRouterGemini`: a passthrough provider (`openrouter`, `opencode`, `kilocode`) with a
/// model id containing `gemini`.
pub fn is_openrouter_gemini(provider: &str, model: &str) -> bool {
    matches!(provider, "openrouter" | "opencode" | "kilocode") && model.to_ascii_lowercase().contains("gemini")
}

/// `isCopilotClaude`: provider `github-copilot` with a model id containing `claude`.
pub fn is_copilot_claude(provider: &str, model: &str) -> bool {
    provider == "github-copilot" && model.to_ascii_lowercase().contains("claude")
}

/// `isOpenAi` of the flat resolver: provider `openai` / `openai-codex`, or no provider and an
/// OpenAI API.
pub fn is_openai(provider: &str, api: &str) -> bool {
    matches!(provider, "openai" | "openai-codex")
        || (provider.is_empty()
            && matches!(
                api,
                "openai" | "openai-completions" | "openai-responses" | "openai-codex-responses"
            ))
}

/// `isStrictOpenAiCompatible`: `openai-completions`, not OpenAI, and not a passthrough provider
/// (`openrouter`, `opencode`).
pub fn is_strict_openai_compatible(provider: &str, api: &str) -> bool {
    api == "openai-completions" && !is_openai(provider, api) && !matches!(provider, "openrouter" | "opencode")
}

/// Models that need their reasoning content replayed, so `dropReasoningFromHistory` stays off
/// for them: openclaw 2026.9.6's transcript-policy `REASONING_CONTENT_REPLAY_MODEL_IDS` (15 ids).
/// The release really keeps two lists of that name: the wire converter in `@openclaw/ai`
/// (`openai-completions-stream`) has two more ids, `deepseek-v4-flash` and `deepseek-v4-pro`
/// (see `wire::openai_completions::replay`). Two lists here because OpenClaw keeps two.
const REASONING_CONTENT_MODELS: [&str; 15] = [
    "kimi-for-coding",
    "kimi-k2.5",
    "kimi-k2.6",
    "kimi-k2.7-code",
    "kimi-k2.7-code-highspeed",
    "kimi-k3",
    "kimi-k2-thinking",
    "kimi-k2-thinking-turbo",
    "mimo-v2-pro",
    "mimo-v2-omni",
    "mimo-v2.5",
    "mimo-v2.5-pro",
    "mimo-v2.6-flash",
    "mimo-v2.6-pro",
    "mimo-v2.6-pro-ultraspeed",
];

/// `requiresReasoningContentReplay`: the final non-empty `/` segment of the lowercased id, or
/// the first or last of its non-empty `:` parts when it has several, is a reasoning-content
/// model such as `kimi-k2.5` or `mimo-v2-pro`.
pub fn is_reasoning_content_model(model: &str) -> bool {
    let m = model.trim().to_lowercase();
    if m.is_empty() {
        return false;
    }
    let last = m.split('/').rfind(|s| !s.is_empty()).unwrap_or(&m);
    let colon: Vec<&str> = last.split(':').filter(|s| !s.is_empty()).collect();
    let mut candidates = vec![last];
    if colon.len() > 1 {
        candidates.push(colon[0]);
        candidates.push(colon[colon.len() - 1]);
    }
    candidates.iter().any(|c| REASONING_CONTENT_MODELS.contains(c))
}

//! What replaylens knows about provider ids and model APIs: each known provider's default API
//! and a representative model (used when a replay is retargeted to another provider without
//! `--api` / `--model`), and the near-miss test behind "did you mean".
//!
//! The APIs are the ones OpenClaw 2026.9.6 configures for the provider (its bundled model
//! catalogs and provider plugins); the models are the family presets of [`super::preset`]
//! where one exists for the provider, else OpenClaw's own default model for it. Two choices
//! differ from a catalog on purpose: Mistral gets `mistral-conversations` (the Mistral API,
//! whose converter and constraints replaylens checks) although the npm plugin's catalog routes
//! it through `openai-completions`, and OpenRouter gets OpenClaw's default `auto` rather than
//! the preset's Gemini model, whose Gemini-only rules would surprise. `google-gemini-cli` has
//! no catalog of its own: its models are the google plugin's templates, on
//! `google-generative-ai`.

use super::family::plugin_family;

/// A known provider's default API and a representative model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProviderDefault {
    /// Provider id, normalised (`normalizeProviderId`).
    pub provider: &'static str,
    /// The API OpenClaw calls the provider with by default.
    pub api: &'static str,
    /// A representative model id.
    pub model: &'static str,
}

const fn entry(provider: &'static str, api: &'static str, model: &'static str) -> ProviderDefault {
    ProviderDefault { provider, api, model }
}

/// Every provider with a default API and model, by normalised id.
pub const PROVIDER_DEFAULTS: &[ProviderDefault] = &[
    entry("anthropic", "anthropic-messages", "claude-sonnet-4-6"),
    entry("openai", "openai-responses", "gpt-5.1"),
    entry("openai-codex", "openai-chatgpt-responses", "gpt-5.1-codex"),
    entry("azure-openai", "azure-openai-responses", "gpt-5.1"),
    entry("azure-openai-responses", "azure-openai-responses", "gpt-5.1"),
    entry("github-copilot", "openai-responses", "gpt-5.4"),
    entry("google", "google-generative-ai", "gemini-2.5-pro"),
    entry("google-vertex", "google-vertex", "gemini-2.5-pro"),
    entry("google-gemini-cli", "google-generative-ai", "gemini-2.5-pro"),
    entry("mistral", "mistral-conversations", "mistral-large-latest"),
    entry(
        "amazon-bedrock",
        "bedrock-converse-stream",
        "us.anthropic.claude-opus-4-6-v1",
    ),
    entry("openrouter", "openai-completions", "auto"),
    entry("deepseek", "openai-completions", "deepseek-chat"),
    entry("minimax", "anthropic-messages", "MiniMax-M2.7"),
    entry("minimax-cn", "anthropic-messages", "MiniMax-M2.7"),
    entry("minimax-portal", "anthropic-messages", "MiniMax-M2.7"),
    entry("moonshot", "openai-completions", "kimi-k2.6"),
    entry("kimi", "anthropic-messages", "kimi-for-coding"),
    entry("ollama", "ollama", "llama3.1"),
    entry("xai", "openai-responses", "grok-4.7"),
    entry("groq", "openai-completions", "llama-3.3-70b-versatile"),
    entry("together", "openai-completions", "moonshotai/Kimi-K2.6"),
    entry("huggingface", "openai-completions", "deepseek-ai/DeepSeek-R1"),
    entry("nvidia", "openai-completions", "nvidia/nemotron-3-ultra-550b-a55b"),
    entry("opencode-go", "openai-completions", "kimi-k2.6"),
];

/// Provider ids OpenClaw knows (bundled or official plugins) without a default here: a target
/// naming one keeps the session's API and model, like a custom provider, but is no near miss.
const OTHER_PROVIDERS: &[&str] = &[
    "google-antigravity",
    "anthropic-vertex",
    "amazon-bedrock-mantle",
    "opencode",
    "kilocode",
    "fireworks",
    "cerebras",
    "qwen",
    "zai",
    "volcengine",
    "byteplus",
    "venice",
    "vllm",
    "sglang",
    "lmstudio",
    "litellm",
    "copilot-proxy",
    "microsoft-foundry",
    "cloudflare-ai-gateway",
    "vercel-ai-gateway",
    "deepinfra",
    "baseten",
    "chutes",
    "cohere",
    "featherless",
    "novita",
    "qianfan",
    "stepfun",
    "xiaomi",
    "synthetic",
];

/// Model API ids OpenClaw knows (`KnownApi` of its model layer, plus the legacy Codex API and
/// the Ollama and plain `openai` APIs its plugins use).
pub const KNOWN_APIS: &[&str] = &[
    "anthropic-messages",
    "openai-completions",
    "openai-responses",
    "openai-chatgpt-responses",
    "openai-codex-responses",
    "azure-openai-responses",
    "google-generative-ai",
    "google-vertex",
    "github-copilot",
    "bedrock-converse-stream",
    "mistral-conversations",
    "ollama",
    "openai",
];

/// The default API and model of a normalised provider id, when replaylens knows them.
pub fn provider_default(provider: &str) -> Option<&'static ProviderDefault> {
    PROVIDER_DEFAULTS.iter().find(|d| d.provider == provider)
}

/// Whether a normalised provider id is one OpenClaw knows.
pub fn is_known_provider(provider: &str) -> bool {
    provider_default(provider).is_some()
        || OTHER_PROVIDERS.contains(&provider)
        || plugin_family(provider, "", "").is_some()
}

/// Whether a lowercased API id is one OpenClaw knows.
pub fn is_known_api(api: &str) -> bool {
    KNOWN_APIS.contains(&api)
}

fn known_providers() -> impl Iterator<Item = &'static str> {
    PROVIDER_DEFAULTS
        .iter()
        .map(|d| d.provider)
        .chain(OTHER_PROVIDERS.iter().copied())
}

/// The known provider id an unknown normalised id is a near miss of (`antropic` →
/// `anthropic`), if any.
pub fn nearest_provider(provider: &str) -> Option<&'static str> {
    nearest(provider, known_providers())
}

/// The known API id an unknown lowercased id is a near miss of (`anthropic-message` →
/// `anthropic-messages`), if any.
pub fn nearest_api(api: &str) -> Option<&'static str> {
    nearest(api, KNOWN_APIS.iter().copied())
}

/// The closest candidate within the allowed distance: 1 edit for ids of up to 4 characters
/// (so `zai` does not suggest `xai`'s neighbours at random), else 2. Ties go to the first.
fn nearest(word: &str, candidates: impl Iterator<Item = &'static str>) -> Option<&'static str> {
    let allowed = if word.chars().count() <= 4 { 1 } else { 2 };
    candidates
        .filter(|c| *c != word)
        .map(|c| (distance(word, c), c))
        .filter(|(d, _)| *d <= allowed)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Optimal string alignment distance: insertions, deletions, substitutions and transpositions
/// of adjacent characters each cost 1 (`googel` → `google` is 1).
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    rows[0] = (0..=b.len()).collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::predicates::normalize_provider_id;
    use crate::policy::{Family, Target, preset, resolve};

    #[test]
    fn every_default_resolves_to_its_providers_plugin() {
        for d in PROVIDER_DEFAULTS {
            assert_eq!(normalize_provider_id(d.provider), d.provider, "{d:?} is normalised");
            let family = resolve(&Target::new(Some(d.provider), Some(d.api), Some(d.model))).family;
            if let Some(plugin) = plugin_family(d.provider, d.api, d.model) {
                assert_eq!(family, plugin, "{d:?}");
            }
            assert_ne!(family, Family::Default, "{d:?}");
            assert!(is_known_api(d.api), "{d:?}");
        }
    }

    #[test]
    fn defaults_agree_with_the_family_presets() {
        for family in [
            Family::Anthropic,
            Family::Google,
            Family::Mistral,
            Family::BedrockConverse,
            Family::MiniMax,
            Family::MoonshotKimi,
            Family::Ollama,
            Family::OpenAICompatible,
        ] {
            let p = preset(family);
            let d = provider_default(p.provider_str()).unwrap();
            assert_eq!((d.api, d.model), (p.api_str(), p.model_str()), "{family:?}");
        }
        let openai = preset(Family::OpenAIResponses);
        assert_eq!(provider_default("openai").unwrap().api, openai.api_str());
    }

    #[test]
    fn every_plugin_provider_is_known() {
        for p in [
            "openai",
            "openai-codex",
            "azure-openai",
            "google-gemini-cli",
            "google-antigravity",
            "minimax-portal",
            "opencode",
            "kilocode",
            "kimi",
            "venice",
            "sglang",
        ] {
            assert!(is_known_provider(p), "{p}");
            assert_eq!(nearest_provider(p), None, "{p} is no near miss");
        }
        assert!(!is_known_provider("my-gateway"));
    }

    #[test]
    fn near_misses_find_the_known_id() {
        assert_eq!(nearest_provider("antropic"), Some("anthropic"));
        assert_eq!(nearest_provider("googel"), Some("google"));
        assert_eq!(nearest_provider("mistal"), Some("mistral"));
        assert_eq!(nearest_provider("opnai"), Some("openai"));
        assert_eq!(nearest_api("anthropic-message"), Some("anthropic-messages"));
        assert_eq!(nearest_api("openai-completion"), Some("openai-completions"));
        assert_eq!(nearest_api("mistral-conversation"), Some("mistral-conversations"));
    }

    #[test]
    fn far_ids_are_not_near_misses() {
        for p in ["my-gateway", "acme", "local-llm", "custom-anthropic", "corp-proxy"] {
            assert_eq!(nearest_provider(p), None, "{p}");
        }
        assert_eq!(nearest_api("acme-chat"), None);
        assert_eq!(distance("googel", "google"), 1);
        assert_eq!(distance("", "abc"), 3);
    }
}

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
use super::providers::catalog;

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

/// Model API ids replaylens accepts beyond the release's vocabulary: the APIs the wire stage
/// builds payloads for (a test in `wire`, the layer above, keeps this list equal to its
/// converters) and the legacy Codex API, which the Responses-family policy still recognises.
const EXTRA_APIS: &[&str] = &[
    "anthropic-messages",
    "openai-completions",
    "openai-responses",
    "azure-openai-responses",
    "google-generative-ai",
    "google-vertex",
    "bedrock-converse-stream",
    "mistral-conversations",
    "ollama",
    "openai-codex-responses",
];

/// The default API and model of a normalised provider id, when replaylens knows them.
pub fn provider_default(provider: &str) -> Option<&'static ProviderDefault> {
    PROVIDER_DEFAULTS.iter().find(|d| d.provider == provider)
}

/// Whether a normalised provider id is one OpenClaw knows: a provider of the release's list
/// ([`super::providers`]), one replaylens has a default for, or one a policy plugin owns.
pub fn is_known_provider(provider: &str) -> bool {
    catalog().is_known_provider(provider)
        || provider_default(provider).is_some()
        || plugin_family(provider, "", "").is_some()
}

/// Whether a lowercased API id is one OpenClaw knows: the release's API vocabulary, the APIs
/// replaylens builds payloads for, and the legacy Codex API.
pub fn is_known_api(api: &str) -> bool {
    known_apis().any(|a| a == api)
}

/// The provider ids "did you mean" offers: the release's list, then replaylens' defaults.
fn known_providers() -> impl Iterator<Item = &'static str> {
    catalog()
        .provider_ids()
        .chain(PROVIDER_DEFAULTS.iter().map(|d| d.provider))
}

/// The API ids "did you mean" offers, each once.
pub fn known_apis() -> impl Iterator<Item = &'static str> {
    let mut seen = Vec::new();
    catalog()
        .apis
        .iter()
        .map(String::as_str)
        .chain(EXTRA_APIS.iter().copied())
        .filter(move |a| {
            let new = !seen.contains(a);
            seen.push(*a);
            new
        })
}

/// The known provider ids an unknown normalised id is a near miss of (`antropic` →
/// `anthropic`), nearest first; empty when none is close.
pub fn nearest_providers(provider: &str) -> Vec<&'static str> {
    nearest(provider, known_providers())
}

/// The `n` known provider ids closest to `provider` however far they are, nearest first.
pub fn closest_providers(provider: &str, n: usize) -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = Vec::new();
    for id in known_providers() {
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    ids.sort_by_key(|id| distance(provider, id));
    ids.truncate(n);
    ids
}

/// The known API ids an unknown lowercased id is a near miss of (`anthropic-message` →
/// `anthropic-messages`), nearest first; empty when none is close.
pub fn nearest_apis(api: &str) -> Vec<&'static str> {
    nearest(api, known_apis())
}

/// The closest candidates within the allowed distance (1 edit for ids of up to 4 characters, so
/// `zai` does not suggest `xai`'s neighbours at random, else 2): every one at the smallest
/// distance found, in list order, at most three.
fn nearest(word: &str, candidates: impl Iterator<Item = &'static str>) -> Vec<&'static str> {
    let allowed = if word.chars().count() <= 4 { 1 } else { 2 };
    let mut close: Vec<(usize, &'static str)> = Vec::new();
    for c in candidates.filter(|c| *c != word) {
        let d = distance(word, c);
        if d <= allowed && !close.iter().any(|(_, known)| *known == c) {
            close.push((d, c));
        }
    }
    let best = close.iter().map(|(d, _)| *d).min().unwrap_or(0);
    close
        .into_iter()
        .filter(|(d, _)| *d == best)
        .map(|(_, c)| c)
        .take(3)
        .collect()
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
            Family::OpenAICompatibleKeepReasoning,
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
            assert!(nearest_providers(p).is_empty(), "{p} is no near miss");
        }
        assert!(!is_known_provider("my-gateway"));
    }

    #[test]
    fn near_misses_find_the_known_id() {
        assert_eq!(nearest_providers("antropic"), ["anthropic"]);
        assert_eq!(nearest_providers("googel"), ["google"]);
        assert_eq!(nearest_providers("mistal"), ["mistral"]);
        assert_eq!(nearest_providers("opnai"), ["openai"]);
        assert_eq!(nearest_providers("qwen-cloud"), ["qwencloud"]);
        assert_eq!(nearest_providers("grok"), ["groq"], "ClawHub-only providers are known");
        assert_eq!(nearest_providers("olama"), ["ollama"]);
        assert_eq!(nearest_apis("anthropic-message"), ["anthropic-messages"]);
        assert_eq!(nearest_apis("openai-completion"), ["openai-completions"]);
        assert_eq!(nearest_apis("mistral-conversation"), ["mistral-conversations"]);
        assert_eq!(nearest_apis("pi-message"), ["pi-messages"]);
    }

    #[test]
    fn far_ids_are_not_near_misses() {
        for p in ["my-gateway", "acme", "local-llm", "custom-anthropic", "corp-proxy"] {
            assert!(nearest_providers(p).is_empty(), "{p}");
        }
        assert!(nearest_apis("acme-chat").is_empty());
        assert_eq!(distance("googel", "google"), 1);
        assert_eq!(distance("", "abc"), 3);
    }
}

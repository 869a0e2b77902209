//! The replay target: provider, API and model, each optional.

use serde::{Deserialize, Serialize};

use super::Family;
use super::predicates::normalize_provider_id;

/// What the transcript is replayed to. Each part is optional; missing parts simply do not
/// select anything (the CLI fills them from the session where it can).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target {
    /// Provider id, e.g. `anthropic`, `amazon-bedrock`, `openrouter`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// Model API, e.g. `anthropic-messages`, `openai-completions`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api: Option<String>,
    /// Model id, e.g. `claude-sonnet-4-6`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

fn non_blank(s: &Option<String>) -> Option<String> {
    s.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned)
}

impl Target {
    /// A target from its three parts.
    pub fn new(provider: Option<&str>, api: Option<&str>, model: Option<&str>) -> Self {
        Target {
            provider: provider.map(str::to_owned),
            api: api.map(str::to_owned),
            model: model.map(str::to_owned),
        }
    }

    /// The normalised target: the provider through `normalizeProviderId` (trim, lowercase,
    /// aliases), the API trimmed and lowercased, the model trimmed (case kept). Blank parts
    /// become `None`.
    pub fn normalized(&self) -> Target {
        Target {
            provider: non_blank(&self.provider)
                .map(|p| normalize_provider_id(&p))
                .filter(|p| !p.is_empty()),
            api: non_blank(&self.api).map(|a| a.to_ascii_lowercase()),
            model: non_blank(&self.model),
        }
    }

    /// The provider, or `""`.
    pub fn provider_str(&self) -> &str {
        self.provider.as_deref().unwrap_or("")
    }

    /// The API, or `""`.
    pub fn api_str(&self) -> &str {
        self.api.as_deref().unwrap_or("")
    }

    /// The model id, or `""`.
    pub fn model_str(&self) -> &str {
        self.model.as_deref().unwrap_or("")
    }
}

/// A representative target for each family, for the inspector's profile picker and for tests.
/// `resolve(&preset(f)).family == f` holds for every family.
pub fn preset(family: Family) -> Target {
    let (p, a, m) = match family {
        Family::OpenAIResponses => ("openai", "openai-responses", "gpt-5.1-codex"),
        Family::OpenAICompletions => ("openai", "openai-completions", "gpt-4.1"),
        Family::OpenAI => ("openai", "openai", "gpt-4o"),
        Family::OpenAICompatible => ("xai", "openai-completions", "grok-4"),
        Family::OpenAICompatibleKeepReasoning => ("deepseek", "openai-completions", "deepseek-chat"),
        Family::ClawRouter => ("clawrouter", "openai-completions", "MiniMax-M2.5"),
        Family::GithubCopilot => ("github-copilot", "anthropic-messages", "claude-sonnet-4.5"),
        Family::UnownedAnthropic => ("custom-anthropic", "anthropic-messages", "claude-sonnet-4-6"),
        Family::UnownedGoogle => ("custom-gemini", "google-generative-ai", "gemini-2.5-flash"),
        Family::UnownedCompletions => ("local-llm", "openai-completions", "qwen3-coder-30b"),
        Family::UnownedResponses => ("custom-responses", "openai-responses", "gpt-5.1"),
        Family::Google => ("google", "google-generative-ai", "gemini-2.5-pro"),
        Family::Anthropic => ("anthropic", "anthropic-messages", "claude-sonnet-4-6"),
        Family::MiniMax => ("minimax", "anthropic-messages", "MiniMax-M2.7"),
        Family::BedrockConverse => (
            "amazon-bedrock",
            "bedrock-converse-stream",
            "us.anthropic.claude-opus-4-6-v1",
        ),
        Family::Mistral => ("mistral", "mistral-conversations", "mistral-large-latest"),
        Family::OpenRouter => ("openrouter", "openai-completions", "google/gemini-2.5-pro"),
        Family::OpenRouterAnthropic => ("openrouter", "openai-completions", "anthropic/claude-sonnet-4-6"),
        Family::MoonshotKimi => ("moonshot", "openai-completions", "kimi-k2.6"),
        Family::Ollama => ("ollama", "ollama", "llama3.1"),
        Family::Default => ("custom", "custom-api", "some-model"),
    };
    Target::new(Some(p), Some(a), Some(m))
}

//! The rows of hygiene-a §2.3 ("policy per family") and how a target selects one.

use serde::Serialize;

use super::Target;
use super::predicates::{
    is_anthropic_api, is_google_api, is_minimax, is_openai_responses_api, is_openrouter_anthropic_model,
    is_responses_compatible_api,
};

/// The row of the newest per-family table (hygiene-a §2.3) a target resolved to.
/// Serialized as its [`Family::id`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// OpenAI / Codex plugin on a Responses-family API.
    OpenAIResponses,
    /// OpenAI / Codex plugin on `openai-completions`.
    OpenAICompletions,
    /// OpenAI / Codex plugin on any other (or no) API: image sanitization only.
    OpenAI,
    /// A plugin built on the generic OpenAI-compatible helper (`buildOpenAICompatibleReplayPolicy`).
    OpenAICompatible,
    /// Provider without a plugin, Anthropic API: the Anthropic policy for the model.
    UnownedAnthropic,
    /// Provider without a plugin, Google API: the Gemini row.
    UnownedGoogle,
    /// Provider without a plugin, `openai-completions`.
    UnownedCompletions,
    /// Provider without a plugin, Responses-compatible API.
    UnownedResponses,
    /// Google / Gemini / Antigravity plugin.
    Google,
    /// Native Anthropic provider.
    Anthropic,
    /// MiniMax: hybrid Anthropic / OpenAI-compatible.
    MiniMax,
    /// Amazon Bedrock Converse (Anthropic by model).
    BedrockConverse,
    /// Mistral plugin.
    Mistral,
    /// OpenRouter-style passthrough (`openrouter`, `opencode`, `opencode-go`, `kilocode`).
    OpenRouter,
    /// OpenRouter with an `anthropic/…` model.
    OpenRouterAnthropic,
    /// Moonshot / Kimi.
    MoonshotKimi,
    /// The bundled Ollama plugin.
    Ollama,
    /// Everything else: defaults.
    Default,
}

impl Family {
    /// Every family, in table order.
    pub fn all() -> &'static [Family] {
        use Family::*;
        &[
            OpenAIResponses,
            OpenAICompletions,
            OpenAI,
            OpenAICompatible,
            UnownedAnthropic,
            UnownedGoogle,
            UnownedCompletions,
            UnownedResponses,
            Google,
            Anthropic,
            MiniMax,
            BedrockConverse,
            Mistral,
            OpenRouter,
            OpenRouterAnthropic,
            MoonshotKimi,
            Ollama,
            Default,
        ]
    }

    /// Stable kebab-case id, used in JSON as `"family"`.
    pub fn id(&self) -> &'static str {
        match self {
            Family::OpenAIResponses => "openai-responses",
            Family::OpenAICompletions => "openai-completions",
            Family::OpenAI => "openai",
            Family::OpenAICompatible => "openai-compatible",
            Family::UnownedAnthropic => "unowned-anthropic",
            Family::UnownedGoogle => "unowned-google",
            Family::UnownedCompletions => "unowned-openai-completions",
            Family::UnownedResponses => "unowned-responses",
            Family::Google => "google",
            Family::Anthropic => "anthropic",
            Family::MiniMax => "minimax",
            Family::BedrockConverse => "bedrock-converse",
            Family::Mistral => "mistral",
            Family::OpenRouter => "openrouter",
            Family::OpenRouterAnthropic => "openrouter-anthropic",
            Family::MoonshotKimi => "moonshot-kimi",
            Family::Ollama => "ollama",
            Family::Default => "default",
        }
    }

    /// Human-readable name.
    pub fn label(&self) -> &'static str {
        match self {
            Family::OpenAIResponses => "OpenAI / Codex (Responses)",
            Family::OpenAICompletions => "OpenAI / Codex (Chat Completions)",
            Family::OpenAI => "OpenAI / Codex",
            Family::OpenAICompatible => "OpenAI-compatible chat completions",
            Family::UnownedAnthropic => "Unowned custom provider (Anthropic API)",
            Family::UnownedGoogle => "Unowned custom provider (Google API)",
            Family::UnownedCompletions => "Unowned custom provider (OpenAI chat completions)",
            Family::UnownedResponses => "Unowned custom provider (Responses-compatible)",
            Family::Google => "Google / Gemini / Antigravity",
            Family::Anthropic => "Anthropic (direct)",
            Family::MiniMax => "MiniMax",
            Family::BedrockConverse => "Amazon Bedrock Converse",
            Family::Mistral => "Mistral",
            Family::OpenRouter => "OpenRouter (passthrough)",
            Family::OpenRouterAnthropic => "OpenRouter Anthropic",
            Family::MoonshotKimi => "Moonshot / Kimi",
            Family::Ollama => "Ollama",
            Family::Default => "Everything else (defaults)",
        }
    }

    /// The family with this [`Family::id`].
    pub fn from_id(id: &str) -> Option<Family> {
        Family::all().iter().copied().find(|f| f.id() == id)
    }
}

impl std::fmt::Display for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for Family {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

/// Providers whose plugin is built on the generic OpenAI-compatible helper. The reference does
/// not enumerate them; these are the bundled providers known to speak Chat Completions.
const OPENAI_COMPATIBLE_PROVIDERS: [&str; 15] = [
    "deepseek",
    "xai",
    "groq",
    "together",
    "fireworks",
    "cerebras",
    "qwen",
    "zai",
    "volcengine",
    "byteplus",
    "nvidia",
    "venice",
    "huggingface",
    "vllm",
    "sglang",
];

/// Pick the row of hygiene-a §2.3 for a normalised target: the provider's plugin when it has
/// one, else the unowned fallback keyed on the API.
pub fn select(t: &Target) -> Family {
    let (provider, api, model) = (t.provider_str(), t.api_str(), t.model_str());
    plugin_family(provider, api, model).unwrap_or_else(|| select_unowned(provider, api, model))
}

/// The family of the plugin that owns `provider`, or `None` when no plugin owns it.
pub fn plugin_family(provider: &str, api: &str, model: &str) -> Option<Family> {
    Some(match provider {
        "openai" | "openai-codex" | "azure-openai" => {
            if is_openai_responses_api(api) {
                Family::OpenAIResponses
            } else if api == "openai-completions" {
                Family::OpenAICompletions
            } else {
                Family::OpenAI
            }
        }
        "anthropic" => Family::Anthropic,
        "amazon-bedrock" => Family::BedrockConverse,
        "google" | "google-gemini-cli" | "google-antigravity" | "google-vertex" => Family::Google,
        "minimax" | "minimax-cn" | "minimax-portal" => Family::MiniMax,
        "mistral" => Family::Mistral,
        "openrouter" if is_openrouter_anthropic_model(model) => Family::OpenRouterAnthropic,
        "openrouter" | "opencode" | "opencode-go" | "kilocode" => Family::OpenRouter,
        "moonshot" | "kimi" => Family::MoonshotKimi,
        "ollama" | "ollama-cloud" => Family::Ollama,
        p if OPENAI_COMPATIBLE_PROVIDERS.contains(&p) => Family::OpenAICompatible,
        _ => return None,
    })
}

/// The unowned fallback: no plugin owns the provider (or there is no provider).
fn select_unowned(provider: &str, api: &str, model: &str) -> Family {
    if is_anthropic_api(api) {
        Family::UnownedAnthropic
    } else if is_google_api(api) {
        Family::UnownedGoogle
    } else if is_minimax(provider, model) {
        // MiniMax detected from the model id on a relay without a plugin (hygiene-a §2.2).
        Family::MiniMax
    } else if api == "openai-completions" {
        Family::UnownedCompletions
    } else if is_responses_compatible_api(api) {
        Family::UnownedResponses
    } else {
        // OpenClaw 2026.9.6 has no model-id based Mistral detection for providers without a
        // plugin (the published page mentions one): defaults.
        Family::Default
    }
}

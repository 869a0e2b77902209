//! The rows of hygiene-a §2.3 ("policy per family") and how a target selects one.

use serde::Serialize;

use super::Target;
use super::owner::Ownership;
use super::predicates::{
    is_anthropic_api, is_google_model_api, is_minimax, is_openai_responses_api, is_openrouter_anthropic_model,
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
    /// A plugin on the OpenAI-compatible helper with `dropReasoningFromHistory: false`
    /// (`sglang`, npm `deepseek` and `featherless`).
    OpenAICompatibleKeepReasoning,
    /// The ClawRouter plugin: native Anthropic by model on `anthropic-messages`, Gemini on
    /// `google-generative-ai`, the OpenAI-compatible helper keeping reasoning elsewhere.
    ClawRouter,
    /// The GitHub Copilot plugin: strict Anthropic without id sanitization on
    /// `anthropic-messages`, defaults elsewhere; its history hook strips thinking blocks.
    GithubCopilot,
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
            OpenAICompatibleKeepReasoning,
            ClawRouter,
            GithubCopilot,
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
            Family::OpenAICompatibleKeepReasoning => "openai-compatible-keep-reasoning",
            Family::ClawRouter => "clawrouter",
            Family::GithubCopilot => "github-copilot",
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
            Family::OpenAICompatibleKeepReasoning => "OpenAI-compatible, reasoning replayed",
            Family::ClawRouter => "ClawRouter",
            Family::GithubCopilot => "GitHub Copilot",
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

/// Providers whose plugin builds its policy with the generic OpenAI-compatible helper: `xai`
/// (bundled with 2026.9.6), and the ClawHub-only plugins the reference names (`groq`,
/// `fireworks`, `cerebras`, `zai`, `volcengine`, `byteplus`; not installable here, so not
/// checked by the differential). Bundled plugins without a `buildReplayPolicy` hook
/// (`huggingface`, `nvidia`, `together`, `vllm`, `lmstudio`, …) and the npm `qwen`, `venice`
/// and `llama-cpp` plugins get the unowned fallback, as in OpenClaw.
const OPENAI_COMPATIBLE_PROVIDERS: [&str; 7] =
    ["xai", "groq", "fireworks", "cerebras", "zai", "volcengine", "byteplus"];

/// Plugins on the OpenAI-compatible helper with `dropReasoningFromHistory: false`.
const KEEP_REASONING_PROVIDERS: [&str; 3] = ["sglang", "deepseek", "featherless"];

/// Pick the row of hygiene-a §2.3 for a normalised target whose policy owner is `owner`: the
/// owning plugin's row when it builds a policy of its own, else the unowned fallback keyed on
/// the API.
pub(super) fn select(t: &Target, owner: &Ownership) -> Family {
    let (provider, api, model) = (t.provider_str(), t.api_str(), t.model_str());
    owner
        .registration()
        .and_then(|registration| plugin_family(registration, api, model))
        .unwrap_or_else(|| select_unowned(provider, api, model))
}

/// The family of the plugin whose provider registration is `provider`, or `None` when replaylens
/// knows no replay policy hook of it (the unowned fallback then applies, as in OpenClaw). Which
/// registration an id reaches is the release's answer ([`super::owner`]).
pub fn plugin_family(provider: &str, api: &str, model: &str) -> Option<Family> {
    Some(match provider {
        "openai" => {
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
        "google" | "google-gemini-cli" => Family::Google,
        "minimax" | "minimax-portal" => Family::MiniMax,
        "mistral" => Family::Mistral,
        "openrouter" if is_openrouter_anthropic_model(model) => Family::OpenRouterAnthropic,
        "openrouter" | "opencode" | "opencode-go" | "kilocode" => Family::OpenRouter,
        "moonshot" | "kimi" => Family::MoonshotKimi,
        "ollama" | "ollama-cloud" => Family::Ollama,
        "clawrouter" => Family::ClawRouter,
        "github-copilot" => Family::GithubCopilot,
        p if OPENAI_COMPATIBLE_PROVIDERS.contains(&p) => Family::OpenAICompatible,
        p if KEEP_REASONING_PROVIDERS.contains(&p) => Family::OpenAICompatibleKeepReasoning,
        _ => return None,
    })
}

/// The unowned fallback: no plugin owns the provider (or there is no provider).
pub(super) fn select_unowned(provider: &str, api: &str, model: &str) -> Family {
    if is_anthropic_api(api) {
        Family::UnownedAnthropic
    } else if is_google_model_api(api) {
        Family::UnownedGoogle
    } else if is_minimax(provider, model) {
        // MiniMax detected from the model id on a relay without a plugin (hygiene-a §2.2).
        Family::MiniMax
    } else if api == "openai-completions" {
        Family::UnownedCompletions
    } else if is_openai_responses_api(api) {
        Family::UnownedResponses
    } else {
        // OpenClaw 2026.9.6 has no model-id based Mistral detection for providers without a
        // plugin (the published page mentions one): defaults.
        Family::Default
    }
}

//! The policy families (one row per plugin `buildReplayPolicy`, plus the fallbacks for providers without
//! a plugin) and how a target selects one.

use serde::Serialize;
use strum::{EnumMessage, EnumString, IntoStaticStr, VariantArray};

use super::Target;
use super::owner::Ownership;
use super::predicates::{
    is_anthropic_api, is_google_model_api, is_minimax, is_openai_responses_api, is_openrouter_anthropic_model,
};

/// The row of the newest per-family table a target resolved to.
/// Serialized as its [`Family::id`]. Each variant carries its id and label once, in its
/// `strum` attribute; [`Family::all`] lists the variants in declaration (table) order.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, VariantArray, IntoStaticStr, EnumString, EnumMessage,
)]
pub enum Family {
    /// OpenAI / Codex plugin on a Responses-family API.
    #[strum(serialize = "openai-responses", message = "OpenAI / Codex (Responses)")]
    OpenAIResponses,
    /// OpenAI / Codex plugin on `openai-completions`.
    #[strum(serialize = "openai-completions", message = "OpenAI / Codex (Chat Completions)")]
    OpenAICompletions,
    /// OpenAI / Codex plugin on any other (or no) API: image sanitization only.
    #[strum(serialize = "openai", message = "OpenAI / Codex")]
    OpenAI,
    /// A plugin built on the generic OpenAI-compatible helper (`buildOpenAICompatibleReplayPolicy`).
    #[strum(serialize = "openai-compatible", message = "OpenAI-compatible chat completions")]
    OpenAICompatible,
    /// A plugin on the OpenAI-compatible helper with `dropReasoningFromHistory: false`
    /// (`sglang`, npm `deepseek` and `featherless`).
    #[strum(
        serialize = "openai-compatible-keep-reasoning",
        message = "OpenAI-compatible, reasoning replayed"
    )]
    OpenAICompatibleKeepReasoning,
    /// The ClawRouter plugin: native Anthropic by model on `anthropic-messages`, Gemini on
    /// `google-generative-ai`, the OpenAI-compatible helper keeping reasoning elsewhere.
    #[strum(serialize = "clawrouter", message = "ClawRouter")]
    ClawRouter,
    /// The GitHub Copilot plugin: strict Anthropic without id sanitization on
    /// `anthropic-messages`, defaults elsewhere; its history hook strips thinking blocks.
    #[strum(serialize = "github-copilot", message = "GitHub Copilot")]
    GithubCopilot,
    /// Provider without a plugin, Anthropic API: the Anthropic policy for the model.
    #[strum(serialize = "unowned-anthropic", message = "Unowned custom provider (Anthropic API)")]
    UnownedAnthropic,
    /// Provider without a plugin, Google API: the Gemini row.
    #[strum(serialize = "unowned-google", message = "Unowned custom provider (Google API)")]
    UnownedGoogle,
    /// Provider without a plugin, `openai-completions`.
    #[strum(
        serialize = "unowned-openai-completions",
        message = "Unowned custom provider (OpenAI chat completions)"
    )]
    UnownedCompletions,
    /// Provider without a plugin, Responses-compatible API.
    #[strum(
        serialize = "unowned-responses",
        message = "Unowned custom provider (Responses-compatible)"
    )]
    UnownedResponses,
    /// Google / Gemini / Antigravity plugin.
    #[strum(serialize = "google", message = "Google / Gemini / Antigravity")]
    Google,
    /// Native Anthropic provider.
    #[strum(serialize = "anthropic", message = "Anthropic (direct)")]
    Anthropic,
    /// MiniMax: hybrid Anthropic / OpenAI-compatible.
    #[strum(serialize = "minimax", message = "MiniMax")]
    MiniMax,
    /// Amazon Bedrock Converse (Anthropic by model).
    #[strum(serialize = "bedrock-converse", message = "Amazon Bedrock Converse")]
    BedrockConverse,
    /// Mistral plugin.
    #[strum(serialize = "mistral", message = "Mistral")]
    Mistral,
    /// OpenRouter-style passthrough (`openrouter`, `opencode`, `opencode-go`, `kilocode`).
    #[strum(serialize = "openrouter", message = "OpenRouter (passthrough)")]
    OpenRouter,
    /// OpenRouter with an `anthropic/…` model.
    #[strum(serialize = "openrouter-anthropic", message = "OpenRouter Anthropic")]
    OpenRouterAnthropic,
    /// Moonshot / Kimi.
    #[strum(serialize = "moonshot-kimi", message = "Moonshot / Kimi")]
    MoonshotKimi,
    /// The bundled Ollama plugin.
    #[strum(serialize = "ollama", message = "Ollama")]
    Ollama,
    /// Everything else: defaults.
    #[strum(serialize = "default", message = "Everything else (defaults)")]
    Default,
}

impl Family {
    /// Every family, in table order.
    pub fn all() -> &'static [Family] {
        Family::VARIANTS
    }

    /// Stable kebab-case id, used in JSON as `"family"`.
    pub fn id(&self) -> &'static str {
        self.into()
    }

    /// Human-readable name.
    pub fn label(&self) -> &'static str {
        self.get_message().unwrap_or_else(|| self.id())
    }

    /// The family with this [`Family::id`].
    pub fn from_id(id: &str) -> Option<Family> {
        id.parse().ok()
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
/// (bundled with 2026.9.6), and the ClawHub-only plugins that use it (`groq`,
/// `fireworks`, `cerebras`, `zai`, `volcengine`, `byteplus`; not installable here, so not
/// checked by the differential). Bundled plugins without a `buildReplayPolicy` hook
/// (`huggingface`, `nvidia`, `together`, `vllm`, `lmstudio`, …) and the npm `qwen`, `venice`
/// and `llama-cpp` plugins get the unowned fallback, as in OpenClaw.
const OPENAI_COMPATIBLE_PROVIDERS: [&str; 7] =
    ["xai", "groq", "fireworks", "cerebras", "zai", "volcengine", "byteplus"];

/// Plugins on the OpenAI-compatible helper with `dropReasoningFromHistory: false`.
const KEEP_REASONING_PROVIDERS: [&str; 3] = ["sglang", "deepseek", "featherless"];

/// Pick the family row for a normalised target whose policy owner is `owner`: the
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
        // MiniMax detected from the model id on a relay without a plugin (OpenClaw's older flat resolver did
        // the same: relayed MiniMax ids break pairing).
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

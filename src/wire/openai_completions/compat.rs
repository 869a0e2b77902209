//! Which OpenAI-compatible quirks shape the `messages` of a model.
//!
//! Port of the message-shaping part of `detectOpenAICompletionsCompat` /
//! `resolveOpenAICompletionsCompatDefaults` / `resolveOpenAICompletionsCompat`
//! (`@openclaw/ai/dist/openai-completions-compat-*.mjs`) and of the endpoint classification
//! OpenClaw's transport host answers it with (`resolveProviderEndpoint` and
//! `resolveKnownProviderFamily`, `openclaw/dist/provider-attribution-*.mjs`, over the
//! `providerEndpoints` / `providerRequest` families declared by the bundled plugin manifests
//! and `@openclaw/mistral-provider`).
//!
//! A model without `compat` overrides gets the detected defaults; the flags only an explicit
//! `compat` turns on start `false`. A configured model's `compat` ([`WireModel::compat`]) is
//! merged over them ([`Compat::configured`]).

use super::super::WireModel;

/// How a provider wants reasoning controlled and replayed (`compat.thinkingFormat`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ThinkingFormat {
    /// OpenAI's own `reasoning_effort`.
    OpenAi,
    /// DeepSeek (and Xiaomi MiMo): `reasoning_content` on every assistant message.
    DeepSeek,
    /// Z.AI GLM.
    Zai,
    /// Together.
    Together,
    /// OpenRouter: `reasoning` / `reasoning_details`.
    OpenRouter,
}

/// The compat flags that change the `messages` array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Compat {
    /// The endpoint class of the model's base URL (`openai-public`, `openrouter`, `custom`, …).
    pub endpoint_class: &'static str,
    /// `requiresToolResultName`: `tool` messages carry the tool `name`.
    pub requires_tool_result_name: bool,
    /// `requiresAssistantAfterToolResult`: a user turn never follows tool results directly.
    pub requires_assistant_after_tool_result: bool,
    /// `requiresThinkingAsText`: replayed reasoning goes into `content` as text parts.
    pub requires_thinking_as_text: bool,
    /// `requiresReasoningContentOnAssistantMessages`: every assistant message has
    /// `reasoning_content` (empty when there was none).
    pub requires_reasoning_content: bool,
    /// `thinkingFormat`.
    pub thinking_format: ThinkingFormat,
    /// `requiresStringContent`: text-only content arrays are sent as one string.
    pub requires_string_content: bool,
    /// `strictMessageKeys`: messages keep only `role` and `content`.
    pub strict_message_keys: bool,
    /// `cacheControlFormat: "anthropic"`: Anthropic `cache_control` markers on the last turn.
    pub anthropic_cache_control: bool,
}

impl Compat {
    /// The defaults OpenClaw detects for `model` (no explicit `compat`).
    pub(crate) fn detect(model: &WireModel) -> Self {
        let provider = model.provider.as_str();
        let base_url = model.base_url();
        let endpoint = endpoint_class(base_url);
        let family = provider_family(provider);
        let default_route = endpoint == "default";
        let on_default = |ids: &[&str]| default_route && ids.contains(&provider);
        let model_studio_like = family == "modelstudio"
            || endpoint == "modelstudio-native"
            || on_default(&["dashscope", "modelstudio", "qwen"]);
        let zai = endpoint == "zai-native" || on_default(&["zai"]);
        let deepseek = endpoint == "deepseek-native" || on_default(&["deepseek"]);
        let xiaomi = endpoint == "xiaomi-native" || on_default(&["xiaomi"]);
        let together = family == "together"
            || base_url.contains("api.together.ai")
            || base_url.contains("api.together.xyz")
            || on_default(&["together"]);
        let openrouter_like = provider == "openrouter" || endpoint == "openrouter";
        let thinking_format = if deepseek || xiaomi {
            ThinkingFormat::DeepSeek
        } else if zai {
            ThinkingFormat::Zai
        } else if together {
            ThinkingFormat::Together
        } else if openrouter_like {
            ThinkingFormat::OpenRouter
        } else {
            ThinkingFormat::OpenAi
        };
        let anthropic_model = model.model.to_lowercase().starts_with("anthropic/");
        let anthropic_cache_control = (model_studio_like && endpoint != "custom")
            || (anthropic_model
                && (endpoint == "openrouter"
                    || (default_route && provider == "openrouter")
                    || provider == "deepinfra"));
        let detected = Self {
            endpoint_class: endpoint,
            requires_tool_result_name: false,
            requires_assistant_after_tool_result: false,
            requires_thinking_as_text: false,
            requires_reasoning_content: deepseek || xiaomi,
            thinking_format,
            requires_string_content: false,
            strict_message_keys: false,
            anthropic_cache_control,
        };
        detected.configured(model)
    }

    /// The model's configured `compat` over the detected defaults, as
    /// `resolveOpenAICompletionsCompat` (`configured?.X ?? defaults.X`) and `getCompat`
    /// (`requiresStringContent ?? false`, `strictMessageKeys === true`) of `@openclaw/ai` merge
    /// them.
    fn configured(self, model: &WireModel) -> Self {
        if model.compat.is_empty() {
            return self;
        }
        let flag = |key: &str, default: bool| model.compat_flag(key).unwrap_or(default);
        let thinking_format = match model.compat.get("thinkingFormat").and_then(|v| v.as_str()) {
            Some("openai") => ThinkingFormat::OpenAi,
            Some("deepseek") => ThinkingFormat::DeepSeek,
            Some("zai") => ThinkingFormat::Zai,
            Some("together") => ThinkingFormat::Together,
            Some("openrouter") => ThinkingFormat::OpenRouter,
            _ => self.thinking_format,
        };
        let anthropic_cache_control = match model.compat.get("cacheControlFormat").and_then(|v| v.as_str()) {
            Some(format) => format == "anthropic",
            None => self.anthropic_cache_control,
        };
        Self {
            endpoint_class: self.endpoint_class,
            requires_tool_result_name: flag("requiresToolResultName", false),
            requires_assistant_after_tool_result: flag("requiresAssistantAfterToolResult", false),
            requires_thinking_as_text: flag("requiresThinkingAsText", false),
            requires_reasoning_content: flag(
                "requiresReasoningContentOnAssistantMessages",
                self.requires_reasoning_content,
            ),
            thinking_format,
            requires_string_content: flag("requiresStringContent", false),
            strict_message_keys: model.compat_flag("strictMessageKeys") == Some(true),
            anthropic_cache_control,
        }
    }
}

/// A provider endpoint declared by a bundled plugin manifest (`providerEndpoints`).
struct Endpoint {
    class: &'static str,
    hosts: &'static [&'static str],
    host_suffixes: &'static [&'static str],
    base_urls: &'static [&'static str],
}

/// The `providerEndpoints` of the plugins OpenClaw 2026.9.6 loads (bundled, then the npm
/// provider packages the oracle loads), in load order.
const ENDPOINTS: &[Endpoint] = &[
    Endpoint {
        class: "anthropic-public",
        hosts: &["api.anthropic.com"],
        host_suffixes: &[],
        base_urls: &[],
    },
    Endpoint {
        class: "github-copilot-native",
        hosts: &[],
        host_suffixes: &[".githubcopilot.com"],
        base_urls: &[],
    },
    Endpoint {
        class: "google-generative-ai",
        hosts: &["generativelanguage.googleapis.com"],
        host_suffixes: &[],
        base_urls: &[],
    },
    Endpoint {
        class: "google-vertex",
        hosts: &[
            "aiplatform.googleapis.com",
            "aiplatform.eu.rep.googleapis.com",
            "aiplatform.us.rep.googleapis.com",
        ],
        host_suffixes: &["-aiplatform.googleapis.com"],
        base_urls: &[],
    },
    Endpoint {
        class: "minimax-native",
        hosts: &["api.minimax.io", "api.minimaxi.com"],
        host_suffixes: &[],
        base_urls: &[],
    },
    Endpoint {
        class: "nvidia-native",
        hosts: &["integrate.api.nvidia.com"],
        host_suffixes: &[],
        base_urls: &["https://integrate.api.nvidia.com/v1"],
    },
    Endpoint {
        class: "openai-public",
        hosts: &["api.openai.com"],
        host_suffixes: &[".api.openai.com"],
        base_urls: &[],
    },
    Endpoint {
        class: "openai",
        hosts: &["chatgpt.com"],
        host_suffixes: &[],
        base_urls: &[],
    },
    Endpoint {
        class: "azure-openai",
        hosts: &[],
        host_suffixes: &[".openai.azure.com"],
        base_urls: &[],
    },
    Endpoint {
        class: "opencode-go-native",
        hosts: &[],
        host_suffixes: &[],
        base_urls: &["https://opencode.ai/zen/go", "https://opencode.ai/zen/go/v1"],
    },
    Endpoint {
        class: "openrouter",
        hosts: &[],
        host_suffixes: &["openrouter.ai"],
        base_urls: &[],
    },
    Endpoint {
        class: "xai-native",
        hosts: &["api.x.ai"],
        host_suffixes: &[],
        base_urls: &[],
    },
    Endpoint {
        class: "custom",
        hosts: &[],
        host_suffixes: &[],
        base_urls: &["https://cli-chat-proxy.grok.com/v1"],
    },
    Endpoint {
        class: "mistral-public",
        hosts: &["api.mistral.ai"],
        host_suffixes: &[],
        base_urls: &[],
    },
    // `@openclaw/deepseek-provider` and `@openclaw/qwen-provider` (npm), loaded from
    // `plugins.load.paths` like the mistral plugin.
    Endpoint {
        class: "deepseek-native",
        hosts: &["api.deepseek.com"],
        host_suffixes: &[],
        base_urls: &[],
    },
    Endpoint {
        class: "modelstudio-native",
        hosts: &[],
        host_suffixes: &[],
        base_urls: &[
            "https://coding-intl.dashscope.aliyuncs.com/v1",
            "https://coding.dashscope.aliyuncs.com/v1",
            "https://dashscope.aliyuncs.com/compatible-mode/v1",
            "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
            "https://token-plan.ap-southeast-1.maas.aliyuncs.com/compatible-mode/v1",
            "https://token-plan.cn-beijing.maas.aliyuncs.com/compatible-mode/v1",
        ],
    },
];

/// `hostMatchesSuffix`: a suffix starting with `.` or `-` matches the end of the host, any
/// other the host itself or one of its subdomains.
fn host_matches_suffix(host: &str, suffix: &str) -> bool {
    if suffix.starts_with('.') || suffix.starts_with('-') {
        host.ends_with(suffix)
    } else {
        host == suffix || host.strip_suffix(suffix).is_some_and(|rest| rest.ends_with('.'))
    }
}

/// The lowercase host and the normalized base URL (no query, fragment or trailing `/`).
fn host_and_base(base_url: &str) -> Option<(String, String)> {
    let trimmed = base_url.trim();
    let (_, rest) = trimmed.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = match authority.strip_prefix('[') {
        Some(v6) => format!("[{}]", v6.split(']').next().unwrap_or("")),
        None => authority.split(':').next().unwrap_or("").to_string(),
    }
    .to_lowercase();
    let without_query = trimmed.split(['?', '#']).next().unwrap_or("");
    Some((host, without_query.trim_end_matches('/').to_lowercase()))
}

/// `resolveProviderEndpoint(baseUrl).endpointClass`.
pub(crate) fn endpoint_class(base_url: &str) -> &'static str {
    if base_url.trim().is_empty() {
        return "default";
    }
    let Some((host, base)) = host_and_base(base_url).filter(|(h, _)| !h.is_empty()) else {
        return "invalid";
    };
    let declared = ENDPOINTS.iter().find(|e| {
        e.hosts.contains(&host.as_str())
            || e.host_suffixes.iter().any(|s| host_matches_suffix(&host, s))
            || e.base_urls.contains(&base.as_str())
    });
    if let Some(endpoint) = declared {
        return endpoint.class;
    }
    let local = matches!(host.as_str(), "localhost" | "127.0.0.1" | "::1" | "[::1]")
        || [".localhost", ".local", ".internal"].iter().any(|s| host.ends_with(s));
    if local { "local" } else { "custom" }
}

/// `resolveKnownProviderFamily`: the family a plugin manifest declares, else the provider.
fn provider_family(provider: &str) -> &str {
    match provider {
        "google" | "google-gemini-cli" | "google-vertex" => "google",
        "openai" | "azure-openai" | "azure-openai-responses" => "openai-family",
        "opencode-go" => "opencode",
        "" => "unknown",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoint_classes_of_the_default_base_urls() {
        for (url, class) in [
            ("https://api.openai.com/v1", "openai-public"),
            ("https://openrouter.ai/api/v1", "openrouter"),
            ("https://api.together.xyz/v1", "custom"),
            ("http://127.0.0.1:8000/v1", "local"),
            ("http://localhost:1234/v1", "local"),
            ("https://api.individual.githubcopilot.com", "github-copilot-native"),
            ("https://integrate.api.nvidia.com/v1", "nvidia-native"),
            (
                "https://generativelanguage.googleapis.com/v1beta",
                "google-generative-ai",
            ),
            ("https://api.mistral.ai/v1", "mistral-public"),
            ("https://llm.example.com/v1", "custom"),
            ("https://chatgpt.com/backend-api/codex", "openai"),
            ("https://opencode.ai/zen/go/v1/", "opencode-go-native"),
            ("", "default"),
        ] {
            assert_eq!(endpoint_class(url), class, "{url}");
        }
    }

    #[test]
    fn openrouter_anthropic_models_get_anthropic_cache_control() {
        let c = Compat::detect(&WireModel::new(
            "openrouter",
            "openai-completions",
            "anthropic/claude-sonnet-4.6",
        ));
        assert!(c.anthropic_cache_control);
        assert_eq!(c.thinking_format, ThinkingFormat::OpenRouter);
        let c = Compat::detect(&WireModel::new("openai", "openai-completions", "gpt-5"));
        assert!(!c.anthropic_cache_control);
        assert_eq!(c.thinking_format, ThinkingFormat::OpenAi);
        assert_eq!(
            Compat::detect(&WireModel::new("together", "openai-completions", "x")).thinking_format,
            ThinkingFormat::Together
        );
    }
}

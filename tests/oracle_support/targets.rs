//! The replay targets every case is run against.

use replaylens::model::json::Value;

/// A provider / API / model triple.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TargetSpec {
    /// Provider id.
    pub provider: String,
    /// Model API.
    pub api: String,
    /// Model id.
    pub model: String,
}

impl TargetSpec {
    /// A target from its three parts.
    pub fn new(provider: &str, api: &str, model: &str) -> Self {
        TargetSpec {
            provider: provider.to_owned(),
            api: api.to_owned(),
            model: model.to_owned(),
        }
    }

    /// `provider/api/model`, as used in case ids.
    pub fn label(&self) -> String {
        format!("{}/{}/{}", self.provider, self.api, self.model)
    }

    /// Read the target fields of an oracle request object (missing parts are blank).
    pub fn read_from(request: &Value) -> Self {
        let part = |k: &str| request.get(k).and_then(Value::as_str).unwrap_or("");
        TargetSpec::new(part("provider"), part("api"), part("model"))
    }
}

const TABLE: [(&str, &str, &str); 13] = [
    ("anthropic", "anthropic-messages", "claude-sonnet-4-5"),
    ("openai", "openai-responses", "gpt-5"),
    ("openai", "openai-completions", "gpt-4o"),
    ("google", "google-generative-ai", "gemini-2.5-pro"),
    ("mistral", "mistral-conversations", "mistral-large-latest"),
    (
        "amazon-bedrock",
        "bedrock-converse-stream",
        "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    ),
    ("openrouter", "openai-completions", "google/gemini-2.5-pro"),
    ("openrouter", "openai-completions", "anthropic/claude-sonnet-4.5"),
    ("minimax", "anthropic-messages", "MiniMax-M2.7"),
    ("ollama", "ollama", "llama3.1"),
    ("ollama-cloud", "ollama", "glm-5.1"),
    ("my-llm", "openai-completions", "local-model"),
    ("acme", "acme-chat", "acme-1"),
];

/// The twelve targets, one per provider family the oracle can load.
pub fn targets() -> Vec<TargetSpec> {
    TABLE.iter().map(|(p, a, m)| TargetSpec::new(p, a, m)).collect()
}

/// Target providers left out because their OpenClaw plugin is not on npm (none of the twelve;
/// `moonshot` and `openai-codex` appear only as origins of stored assistant turns).
pub const EXCLUDED_PROVIDERS: [&str; 0] = [];

/// Extra origins stored assistant turns may come from besides the targets (model switches).
pub const OTHER_ORIGINS: [(&str, &str, &str); 5] = [
    ("anthropic", "anthropic-messages", "claude-opus-4-1"),
    ("openai-codex", "openai-codex-responses", "gpt-5.1-codex"),
    ("moonshot", "openai-completions", "kimi-k2"),
    ("google", "google-generative-ai", "gemini-2.5-flash"),
    ("openai", "openai-responses", "gpt-5.2"),
];

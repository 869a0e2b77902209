//! The wire stage: the conversation part of the request body each provider API receives.
//!
//! After the history rules and the stream-time steps, OpenClaw's transports turn the replay
//! messages into a provider request: Anthropic `messages`, OpenAI Chat `messages`, Responses
//! `input` items, Gemini `contents` (Gemini API and Vertex AI), Bedrock Converse `messages`,
//! Mistral and Ollama `messages`. Each API has one module here, a port of the matching converter
//! in OpenClaw's `@openclaw/ai` package or its bundled provider plugin. Only the conversation is built: no system prompt, tools, sampling parameters or
//! credentials.
//!
//! Every payload item records the input messages it came from ([`WireItem::source`]), so a
//! provider error that names `messages.22` can be traced to a replay and a stored message.

pub mod anthropic;
pub mod apple_fm;
pub mod bedrock;
mod blocks;
mod canonical_base64;
pub mod google;
pub mod google_vertex;
pub mod google_vertex_pi_ai;
pub mod llm_messages;
pub mod mistral;
pub mod of_replay;
pub mod ollama;
pub mod openai_completions;
pub mod openai_responses;
#[cfg(test)]
mod test_support;
mod tool_result;
pub mod transform;

use std::borrow::Cow;

use crate::model::json::{Map, Value};
use serde::Serialize;

use crate::model::Indices;
use crate::model::Message;

pub use of_replay::{
    WireError, WirePayload, WireStage, payload_of, replay_payload, replay_payload_with, stored_payload,
    stored_payload_with, wire_model, wire_target, wire_target_with,
};

/// A provider API whose request body replaylens can build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WireApi {
    /// `anthropic-messages`
    AnthropicMessages,
    /// `openai-completions` (OpenAI Chat Completions and compatible servers)
    OpenAiCompletions,
    /// `openai-responses`, also `openai-codex-responses` / `openai-chatgpt-responses`
    OpenAiResponses,
    /// `azure-openai-responses`
    AzureOpenAiResponses,
    /// `google-generative-ai` (Gemini API)
    GoogleGenerativeAi,
    /// `google-vertex` (Gemini on Vertex AI) through the google plugin's transport
    /// (providers `google` and `google-vertex`)
    GoogleVertex,
    /// `google-vertex` for every other provider: `@openclaw/ai`'s built-in Vertex provider
    /// (pi-ai's API registry), whose conversion differs. Chosen by provider
    /// ([`WireApi::for_target`]), so not among [`WireApi::ALL`].
    GoogleVertexPiAi,
    /// `bedrock-converse-stream`
    BedrockConverseStream,
    /// `mistral-conversations`
    MistralConversations,
    /// `ollama` (Ollama's native `/api/chat`, providers `ollama` and `ollama-cloud`)
    Ollama,
    /// The Apple Foundation Models plugin's own transport (provider `apple-fm`, whatever the
    /// API): the agent's messages handed to the on-device bridge. Chosen by provider
    /// ([`WireApi::for_target`]), so not among [`WireApi::ALL`].
    AppleFm,
}

impl WireApi {
    /// Every API, in the order they are listed to users.
    pub const ALL: [WireApi; 9] = [
        WireApi::AnthropicMessages,
        WireApi::OpenAiCompletions,
        WireApi::OpenAiResponses,
        WireApi::AzureOpenAiResponses,
        WireApi::GoogleGenerativeAi,
        WireApi::GoogleVertex,
        WireApi::BedrockConverseStream,
        WireApi::MistralConversations,
        WireApi::Ollama,
    ];

    /// The API id as OpenClaw names it.
    pub fn id(self) -> &'static str {
        match self {
            WireApi::AnthropicMessages => "anthropic-messages",
            WireApi::OpenAiCompletions => "openai-completions",
            WireApi::OpenAiResponses => "openai-responses",
            WireApi::AzureOpenAiResponses => "azure-openai-responses",
            WireApi::GoogleGenerativeAi => "google-generative-ai",
            WireApi::GoogleVertex | WireApi::GoogleVertexPiAi => "google-vertex",
            WireApi::BedrockConverseStream => "bedrock-converse-stream",
            WireApi::MistralConversations => "mistral-conversations",
            WireApi::Ollama => "ollama",
            WireApi::AppleFm => "apple-fm",
        }
    }

    /// The API of a model-API id, including OpenClaw's transport aliases; `None` when
    /// replaylens has no converter for it.
    pub fn from_api(api: &str) -> Option<WireApi> {
        let api = api.strip_prefix("openclaw-").unwrap_or(api);
        let api = api.strip_suffix("-transport").unwrap_or(api);
        Some(match api {
            "anthropic-messages" => WireApi::AnthropicMessages,
            "openai-completions" => WireApi::OpenAiCompletions,
            "openai-responses" | "openai-codex-responses" | "openai-chatgpt-responses" => WireApi::OpenAiResponses,
            "azure-openai-responses" => WireApi::AzureOpenAiResponses,
            "google-generative-ai" => WireApi::GoogleGenerativeAi,
            "google-vertex" => WireApi::GoogleVertex,
            "bedrock-converse-stream" => WireApi::BedrockConverseStream,
            "mistral-conversations" => WireApi::MistralConversations,
            "ollama" => WireApi::Ollama,
            _ => return None,
        })
    }

    /// The transport OpenClaw uses for `provider` on `api`: a provider plugin with a stream of
    /// its own that ignores the API (`apple-fm`) decides; `google-vertex` outside the google
    /// plugin's providers is `@openclaw/ai`'s built-in provider; else [`WireApi::from_api`].
    pub fn for_target(provider: &str, api: &str) -> Option<WireApi> {
        if provider.trim().eq_ignore_ascii_case("apple-fm") {
            return Some(WireApi::AppleFm);
        }
        match WireApi::from_api(api) {
            Some(WireApi::GoogleVertex) if api == "google-vertex" && google_vertex_pi_ai::routes(provider) => {
                Some(WireApi::GoogleVertexPiAi)
            }
            other => other,
        }
    }

    /// Messages OpenClaw sends before the conversation in the same array: the system prompt
    /// as the first message on OpenAI Chat, Mistral and Ollama (the payload shown leaves it
    /// out, a provider's index counts it).
    pub fn system_messages(self) -> usize {
        match self {
            WireApi::OpenAiCompletions | WireApi::MistralConversations | WireApi::Ollama => 1,
            _ => 0,
        }
    }

    /// The body key that holds the conversation.
    pub fn conversation_key(self) -> &'static str {
        match self {
            WireApi::OpenAiResponses | WireApi::AzureOpenAiResponses => "input",
            WireApi::GoogleGenerativeAi | WireApi::GoogleVertex | WireApi::GoogleVertexPiAi => "contents",
            _ => "messages",
        }
    }
}

/// The model a payload is built for: the fields of OpenClaw's model object that change the
/// conversion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireModel {
    /// Provider id (`anthropic`, `openrouter`, …).
    pub provider: String,
    /// Model API id as configured (`anthropic-messages`, …).
    pub api: String,
    /// Model id.
    pub model: String,
    /// The model accepts image input (`model.input` includes `image`).
    pub input_images: bool,
    /// The model reasons (`model.reasoning`).
    pub reasoning: bool,
    /// The request asks for thinking: OpenClaw's default thinking level (`medium`) is on for
    /// every model (`resolveAgentReasoningOption`); `false` stands for thinking off.
    pub thinking: bool,
    /// The configured `baseUrl`, over the catalog default [`WireModel::base_url`] gives.
    pub base_url_override: Option<String>,
    /// The model's configured `compat`, as written (`models.providers.<id>.models[].compat`);
    /// empty for a catalog model without overrides.
    pub compat: serde_json::Map<String, serde_json::Value>,
    /// The configured `params.canonicalModelId`: the id OpenClaw's Claude checks read instead
    /// of the model id (`resolveClaudeModelIdentity`).
    pub canonical_model_id: Option<String>,
}

impl WireModel {
    /// A model as a normal user of the provider gets it: image input and reasoning on, as
    /// the oracle's model object (`oracle/openclaw_payload.mjs`).
    pub fn new(provider: &str, api: &str, model: &str) -> Self {
        Self {
            provider: provider.to_string(),
            api: api.to_string(),
            model: model.to_string(),
            input_images: true,
            reasoning: true,
            thinking: true,
            base_url_override: None,
            compat: serde_json::Map::new(),
            canonical_model_id: None,
        }
    }

    /// The model object OpenClaw resolves from the user's configuration for a custom provider
    /// (`resolveModelAsync` through `buildInlineProviderModels`): its `reasoning`, `input`,
    /// `baseUrl`, `compat` and `params.canonicalModelId` replace the catalog defaults of
    /// [`WireModel::new`], and the provider is the configuration's id as written (the model
    /// object's `provider`, which the same-model checks compare with each message's).
    pub fn configured(api: &str, model: &str, c: &crate::policy::config::ConfiguredModel) -> Self {
        Self {
            canonical_model_id: c.canonical_model_id().map(str::to_owned),
            input_images: c.input_images,
            reasoning: c.reasoning,
            base_url_override: c.base_url.clone(),
            compat: c.compat.clone(),
            ..Self::new(&c.provider, api, model)
        }
    }

    /// The id OpenClaw's Claude model checks read: `params.canonicalModelId` when configured,
    /// else the model id (`resolveClaudeModelIdentity`).
    pub fn claude_identity(&self) -> &str {
        self.canonical_model_id.as_deref().unwrap_or(&self.model)
    }

    /// A boolean of the configured `compat`, when written.
    pub fn compat_flag(&self, key: &str) -> Option<bool> {
        self.compat.get(key).and_then(serde_json::Value::as_bool)
    }

    /// True when `message` was produced by this very model (same provider, API and id):
    /// thinking signatures and native ids are then kept as they are.
    pub fn produced(&self, message: &Message) -> bool {
        message.provider() == Some(self.provider.as_str())
            && message.api() == Some(self.api.as_str())
            && message.model() == Some(self.model.as_str())
    }

    /// The model's `baseUrl`: the configured one, else as a catalog model without overrides
    /// has it (the oracle's model object): the provider's bundled default, the native Codex backend for `openai` on the
    /// ChatGPT-login API, else an address of no known endpoint class. OpenAI-compatible
    /// compat detection, the Responses payload policy and replay identities read it.
    pub fn base_url(&self) -> &str {
        if let Some(configured) = &self.base_url_override {
            return configured;
        }
        if self.provider == "openai" && self.api == "openai-chatgpt-responses" {
            return "https://chatgpt.com/backend-api/codex";
        }
        let by_provider = match self.provider.as_str() {
            "anthropic" => Some("https://api.anthropic.com"),
            "openai" => Some("https://api.openai.com/v1"),
            "azure-openai-responses" => Some("https://example-resource.openai.azure.com/openai/v1"),
            "google" | "google-gemini-cli" => Some("https://generativelanguage.googleapis.com/v1beta"),
            "google-vertex" => Some("https://{location}-aiplatform.googleapis.com"),
            "mistral" => Some("https://api.mistral.ai/v1"),
            "openrouter" => Some("https://openrouter.ai/api/v1"),
            "amazon-bedrock" => Some("https://bedrock-runtime.us-east-1.amazonaws.com"),
            "xai" => Some("https://api.x.ai/v1"),
            "together" => Some("https://api.together.xyz/v1"),
            "nvidia" => Some("https://integrate.api.nvidia.com/v1"),
            "huggingface" => Some("https://router.huggingface.co/v1"),
            "github-copilot" => Some("https://api.individual.githubcopilot.com"),
            "vllm" => Some("http://127.0.0.1:8000/v1"),
            "sglang" => Some("http://127.0.0.1:30000/v1"),
            "lmstudio" => Some("http://localhost:1234/v1"),
            "litellm" => Some("http://localhost:4000"),
            "ollama" => Some("http://127.0.0.1:11434"),
            "minimax" => Some("https://api.minimax.io/anthropic"),
            _ => None,
        };
        by_provider.unwrap_or(match self.api.as_str() {
            "anthropic-messages" => "https://api.anthropic.com",
            "google-generative-ai" => "https://generativelanguage.googleapis.com/v1beta",
            "google-vertex" => "https://{location}-aiplatform.googleapis.com",
            "mistral-conversations" => "https://api.mistral.ai/v1",
            "bedrock-converse-stream" => "https://bedrock-runtime.us-east-1.amazonaws.com",
            "azure-openai-responses" => "https://example-resource.openai.azure.com/openai/v1",
            _ => "https://llm.example.com/v1",
        })
    }
}

/// One message handed to a converter, with the indices of the input messages it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct WireInput {
    /// The message after the transport's own pre-conversion transform.
    pub message: Message,
    /// Indices into the converted message list (`[]` for a message the transform added).
    pub source: Indices,
}

impl WireInput {
    /// Each message as an input coming from its own index.
    pub fn numbered(messages: &[&Message]) -> Vec<WireInput> {
        messages
            .iter()
            .enumerate()
            .map(|(i, m)| WireInput {
                message: (*m).clone(),
                source: smallvec::smallvec![i],
            })
            .collect()
    }
}

/// One element of the payload's conversation array.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WireItem {
    /// The element exactly as it goes on the wire.
    pub value: Value,
    /// Indices of the input messages it came from (several when the converter merged
    /// messages, `[]` for an element the transport synthesized).
    pub source: Indices,
}

/// The conversation part of one request body.
#[derive(Debug, Clone, PartialEq)]
pub struct Payload {
    /// Which API's body this is.
    pub api: WireApi,
    /// The conversation array, in order.
    pub items: Vec<WireItem>,
}

impl Payload {
    /// A payload of ready-made items, item `i` coming from input message `i` (for tests and
    /// for checking a body pasted from elsewhere).
    pub fn from_values(api: WireApi, values: Vec<Value>) -> Self {
        let items = values
            .into_iter()
            .enumerate()
            .map(|(i, value)| WireItem {
                value,
                source: smallvec::smallvec![i],
            })
            .collect();
        Self { api, items }
    }

    /// The body as JSON: `{ "<messages|input|contents>": [...] }`.
    pub fn body(&self) -> Value {
        let mut body = Map::new();
        body.insert(
            self.api.conversation_key().to_string().into(),
            Value::Array(self.items.iter().map(|i| i.value.clone()).collect()),
        );
        Value::Object(body)
    }

    /// Size of the body in bytes as compact JSON (what a request-size limit counts).
    pub fn body_bytes(&self) -> usize {
        let items: usize = self
            .items
            .iter()
            .map(|i| serde_json::to_vec(&i.value).map(|v| v.len()).unwrap_or(0))
            .sum();
        // `{"<key>":[` + items and commas + `]}`
        items + self.items.len().saturating_sub(1) + self.api.conversation_key().len() + 7
    }
}

/// Build the payload `api` receives for `messages` (a replay projection), for `model`: the
/// transport's own last-moment transform, then its converter, exactly as OpenClaw sends it.
pub fn build(api: WireApi, messages: &[&Message], model: &WireModel) -> Payload {
    build_from(api, messages.iter().map(|m| Cow::Borrowed(*m)), model)
}

/// [`build`] for messages handed over: each message the converter receives as it is moves
/// into its input instead of being copied, and the list they came in is freed before the
/// conversion runs.
pub fn build_from<'a>(
    api: WireApi,
    messages: impl IntoIterator<Item = Cow<'a, Message>>,
    model: &WireModel,
) -> Payload {
    let inputs = transform::prepare(api, llm_messages::to_llm(messages), model);
    convert(api, &inputs, model)
}

/// Build the body a naive client would send for `messages` (a stored transcript): the
/// converter alone, without the transport's repairs (no failed-turn dropping, no synthetic
/// results, no id normalisation), so every problem of the stored transcript shows.
pub fn build_naive(api: WireApi, messages: &[&Message], model: &WireModel) -> Payload {
    let inputs = llm_messages::to_llm(messages.iter().map(|m| Cow::Borrowed(*m)));
    convert(api, &inputs, model)
}

/// Run `api`'s converter over prepared inputs.
fn convert(api: WireApi, inputs: &[WireInput], model: &WireModel) -> Payload {
    let items = match api {
        WireApi::AnthropicMessages => anthropic::convert(inputs, model),
        WireApi::OpenAiCompletions => openai_completions::convert(inputs, model),
        WireApi::OpenAiResponses | WireApi::AzureOpenAiResponses => openai_responses::convert(inputs, model, api),
        WireApi::GoogleGenerativeAi => google::convert(inputs, model),
        WireApi::GoogleVertex => google_vertex::convert(inputs, model),
        WireApi::GoogleVertexPiAi => google_vertex_pi_ai::convert(inputs, model),
        WireApi::BedrockConverseStream => bedrock::convert(inputs, model),
        WireApi::MistralConversations => mistral::convert(inputs, model),
        WireApi::Ollama => ollama::convert(inputs),
        WireApi::AppleFm => apple_fm::convert(inputs),
    };
    Payload { api, items }
}

#[cfg(test)]
mod tests {
    use super::WireApi;

    /// The policy layer (below this one) offers API names from the release's catalogue; every
    /// API replaylens builds a payload for must be among them.
    #[test]
    fn every_api_with_a_converter_is_a_known_api_name() {
        let known: Vec<&str> = crate::policy::known_apis().collect();
        for api in WireApi::ALL {
            assert!(known.contains(&api.id()), "{} is not a known API name", api.id());
        }
    }
}

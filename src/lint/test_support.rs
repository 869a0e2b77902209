//! Helpers for the constraint tests: run a constraint on a JSON conversation, build images of
//! any declared size cheaply.

use crate::model::json::Value;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use super::{Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// A typical model of an API.
pub(crate) fn model_of(api: WireApi) -> WireModel {
    match api {
        WireApi::AnthropicMessages => WireModel::new("anthropic", api.id(), "claude-sonnet-4-6"),
        WireApi::OpenAiCompletions => WireModel::new("openai", api.id(), "gpt-4.1"),
        WireApi::OpenAiResponses => WireModel::new("openai", api.id(), "gpt-5.2"),
        WireApi::AzureOpenAiResponses => WireModel::new("azure-openai-responses", api.id(), "gpt-5.2"),
        WireApi::GoogleGenerativeAi => WireModel::new("google", api.id(), "gemini-3-pro-preview"),
        WireApi::GoogleVertex => WireModel::new("google-vertex", api.id(), "gemini-3-pro-preview"),
        WireApi::GoogleVertexPiAi => WireModel::new("vllm", api.id(), "gemini-3-pro-preview"),
        WireApi::BedrockConverseStream => {
            WireModel::new("amazon-bedrock", api.id(), "us.anthropic.claude-sonnet-4-6-v1:0")
        }
        WireApi::MistralConversations => WireModel::new("mistral", api.id(), "mistral-large-latest"),
        WireApi::Ollama => WireModel::new("ollama", api.id(), "llama3.1"),
        WireApi::AppleFm => WireModel::new("apple-fm", "openai-completions", "apple-foundation"),
    }
}

/// Run a constraint on `items` (a JSON array) as a payload of its first API.
pub(crate) fn run(c: &Constraint, items: Value) -> Vec<Hit> {
    let api = c.apis[0];
    run_model(c, items, &model_of(api))
}

/// Run a constraint on `items` for a given model.
pub(crate) fn run_model(c: &Constraint, items: Value, model: &WireModel) -> Vec<Hit> {
    c.run(&payload(c, items), model)
}

/// The messages of the hits.
pub(crate) fn texts(hits: &[Hit]) -> Vec<&str> {
    hits.iter().map(|h| h.message.as_str()).collect()
}

/// A PNG of `bytes` bytes whose header declares `width`×`height` (no pixel data: enough for a
/// header probe), as base64.
pub(crate) fn png_base64(width: u32, height: u32, bytes: usize) -> String {
    let mut png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR".to_vec();
    png.extend_from_slice(&width.to_be_bytes());
    png.extend_from_slice(&height.to_be_bytes());
    png.extend_from_slice(&[8, 2, 0, 0, 0, 0, 0, 0, 0]);
    png.resize(bytes.max(png.len()), 0);
    STANDARD.encode(png)
}

/// A small valid-looking PNG (64×64, 100 bytes), as base64.
pub(crate) fn small_png() -> String {
    png_base64(64, 64, 100)
}

/// A user message with string content (Anthropic, OpenAI Chat, Mistral).
pub(crate) fn user_text(text: &str) -> Value {
    crate::json!({"role": "user", "content": text})
}

/// A body over 100 bytes: `[user("hi"), user(100 × "x")]` as a payload of `api`, and its
/// size. Item 1 takes it over a 100-byte limit.
pub(crate) fn oversized(api: WireApi) -> (Payload, usize) {
    let user = user_of(api);
    let p = Payload::from_values(api, vec![user("hi"), user(&"x".repeat(100))]);
    let total = p.body_bytes();
    (p, total)
}

/// `(item, message)` of the hits.
pub(crate) fn located(hits: &[Hit]) -> Vec<(usize, String)> {
    hits.iter().map(|h| (h.item, h.message.clone())).collect()
}

/// `items` as a payload of the constraint's first API.
pub(crate) fn payload(c: &Constraint, items: Value) -> Payload {
    Payload::from_values(c.apis[0], items.as_array().expect("a JSON array").to_vec())
}

/// The registered constraint of `id`.
pub(crate) fn constraint(id: &str) -> &'static Constraint {
    super::registry::find(id).expect("a registered constraint")
}

/// A user text message as `api` sends it.
pub(crate) fn user_of(api: WireApi) -> fn(&str) -> Value {
    fn parts(text: &str) -> Value {
        crate::json!({"role": "user", "parts": [{"text": text}]})
    }
    fn blocks(text: &str) -> Value {
        crate::json!({"role": "user", "content": [{"text": text}]})
    }
    fn item(text: &str) -> Value {
        crate::json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]})
    }
    match api {
        WireApi::GoogleGenerativeAi | WireApi::GoogleVertex | WireApi::GoogleVertexPiAi => parts,
        WireApi::BedrockConverseStream => blocks,
        WireApi::OpenAiResponses | WireApi::AzureOpenAiResponses => item,
        _ => user_text,
    }
}

/// A user message as `api` sends it: a text then one PNG image per payload (Anthropic,
/// Bedrock, Mistral, OpenAI Chat and Responses).
pub(crate) fn image_message(api: WireApi, data: &[String]) -> Value {
    let content: Vec<Value> = match api {
        WireApi::AnthropicMessages => std::iter::once(crate::json!({"type": "text", "text": "look"}))
            .chain(data.iter().map(
                |d| crate::json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": d}}),
            ))
            .collect(),
        WireApi::BedrockConverseStream => std::iter::once(crate::json!({"text": "look"}))
            .chain(
                data.iter()
                    .map(|d| crate::json!({"image": {"format": "png", "source": {"bytes": d}}})),
            )
            .collect(),
        WireApi::MistralConversations => std::iter::once(crate::json!({"type": "text", "text": "look"}))
            .chain(
                data.iter()
                    .map(|d| crate::json!({"type": "image_url", "image_url": format!("data:image/png;base64,{d}")})),
            )
            .collect(),
        WireApi::OpenAiCompletions => std::iter::once(crate::json!({"type": "text", "text": "look"}))
            .chain(data.iter().map(
                |d| crate::json!({"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{d}")}}),
            ))
            .collect(),
        WireApi::OpenAiResponses | WireApi::AzureOpenAiResponses => {
            std::iter::once(crate::json!({"type": "input_text", "text": "look"}))
                .chain(data.iter().map(|d| {
                    crate::json!({"type": "input_image", "detail": "auto", "image_url": format!("data:image/png;base64,{d}")})
                }))
                .collect()
        }
        other => panic!("no image messages for {other:?}"),
    };
    let mut message = crate::json!({"role": "user", "content": content});
    if matches!(api, WireApi::OpenAiResponses | WireApi::AzureOpenAiResponses) {
        message["type"] = "message".into();
    }
    message
}

/// The test every request-size row without a provider text shares, with the row's limit set
/// to 100 bytes: a small body passes, and a body over the limit is reported at the item
/// crossing it, at the path of the conversation.
pub(crate) fn assert_measured_request_size(id: &str) {
    let c = constraint(id);
    let user = user_of(c.apis[0]);
    assert!(run(c, crate::json!([user("hi")])).is_empty());
    let row = super::limits::Limit {
        limit: 100,
        ..*super::limits::row(id)
    };
    let (payload, total) = oversized(row.apis[0]);
    let hits = super::limit_checks::check(&row, &payload);
    assert_eq!(
        located(&hits),
        [(
            1,
            format!("(no provider error text on record) request body {total} bytes > 100 bytes")
        )]
    );
    assert_eq!(hits[0].path, payload.api.conversation_key());
}

//! The transport's pre-conversion transform: the message list each API's OpenClaw transport
//! hands to its converter (OpenClaw 2026.9.6).
//!
//! `messages` are what the agent loop hands the stream function, after its message step
//! (`convertToLlm`, [`super::llm_messages`]): only `user`, `assistant` and `toolResult`.
//!
//! | API | transform | tool-call ids |
//! |---|---|---|
//! | `anthropic-messages` | no-prefill trim (Opus 5 / Sonnet 5), then OpenClaw's [`transport`] transform | `normalizeAnthropicToolCallId` |
//! | `google-generative-ai`, `google-vertex` (google plugin) | route aliases folded, then [`transport`] (thought signatures kept across models for Gemini 3) | Anthropic rule for `claude-*` / `gpt-oss-*` models, else kept |
//! | `google-vertex` (built-in provider, other providers) | `transformProviderMessages` | Anthropic rule for `claude-*` / `gpt-oss-*` models, else kept (trimmed) |
//! | `openai-responses`, `azure-openai-responses` | [`transport`] (same-model ids normalized on GitHub Copilot; `transformProviderMessages` on the native Codex route), then async results ordered | the Responses normalizer (`openai_responses`) |
//! | `openai-completions` | `transformProviderMessages` ([`provider`]) | the Chat Completions normalizer (`openai_completions`) |
//! | `mistral-conversations` | `transformProviderMessages` | [`ids::mistral`] |
//! | `bedrock-converse-stream` | `transformMessages` of the plugin SDK (the Bedrock plugin) | Anthropic rule |
//! | `ollama` | `transformMessages` (the ollama plugin's stream function) | kept (trimmed) |
//!
//! Every [`WireInput`] keeps the indices of the input messages it came from; a synthesized
//! missing result has none. Compaction replays (Anthropic server compaction, Responses
//! compaction windows) only happen when those features are configured, and are not rebuilt.

/// Claude model identities: OpenClaw's model contract, in the neutral layer.
pub use crate::openclaw::claude_model as claude;
pub mod common;
pub mod ids;
pub mod provider;
#[cfg(test)]
mod tests;
pub mod transport;

use std::collections::HashMap;

use crate::model::json::Value;

use super::blocks::block_type;
use super::{WireApi, WireInput, WireModel, google};
use crate::model::Message;
use crate::openclaw::js;
use transport::{Target, TransportOptions};

/// Prepare the message step's output for `api`'s converter, for `model`.
pub fn prepare(api: WireApi, inputs: Vec<WireInput>, model: &WireModel) -> Vec<WireInput> {
    let target = Target::of(model);
    match api {
        WireApi::AnthropicMessages => {
            let inputs = strip_unsupported_prefill(inputs, model);
            let mut normalize = |id: &str, _: &Message| ids::anthropic(id);
            transport::transform(inputs, target, Some(&mut normalize), TransportOptions::default())
        }
        WireApi::GoogleGenerativeAi | WireApi::GoogleVertex => prepare_google(inputs, model),
        WireApi::GoogleVertexPiAi => {
            let needs_id = google::requires_tool_call_id(&model.model);
            let mut normalize = |id: &str, _: &Message| if needs_id { ids::anthropic(id) } else { id.to_owned() };
            provider::transform_provider(inputs, target, model.input_images, Some(&mut normalize))
        }
        WireApi::OpenAiResponses | WireApi::AzureOpenAiResponses => {
            let mut normalize =
                |id: &str, source: &Message| super::openai_responses::normalize_tool_call_id(id, source, model);
            let prepared = if super::openai_responses::uses_provider_style(model) {
                provider::transform_provider(inputs, target, model.input_images, Some(&mut normalize))
            } else {
                let options = TransportOptions {
                    normalize_same_model_ids: model.provider == "github-copilot",
                    ..TransportOptions::default()
                };
                transport::transform(inputs, target, Some(&mut normalize), options)
            };
            order_responses_async_results(prepared)
        }
        WireApi::OpenAiCompletions => {
            let mut normalize = |id: &str, _: &Message| super::openai_completions::normalize_tool_call_id(id, model);
            provider::transform_provider(inputs, target, model.input_images, Some(&mut normalize))
        }
        WireApi::MistralConversations => {
            let mut normalize = ids::mistral();
            provider::transform_provider(inputs, target, model.input_images, Some(&mut normalize))
        }
        WireApi::BedrockConverseStream => {
            let mut normalize = |id: &str, _: &Message| ids::anthropic(id);
            provider::transform(inputs, target, model.input_images, Some(&mut normalize))
        }
        WireApi::Ollama => provider::transform(inputs, target, model.input_images, None),
        // The plugin's stream takes `context.messages` as they are: no transport transform.
        WireApi::AppleFm => inputs,
    }
}

/// `prepareClaudeNoPrefillRequestContext`: Opus 5 and Sonnet 5 reject an assistant prefill,
/// so trailing assistant turns without a tool call are left out. The model is named as
/// `resolveClaudeModelIdentity` names it (`params.canonicalModelId` first): a gateway model
/// serving `claude-opus-5-5` under another id is Opus 5 here too.
pub fn strip_unsupported_prefill(mut inputs: Vec<WireInput>, model: &WireModel) -> Vec<WireInput> {
    let id = Some(model.claude_identity());
    if claude::opus5(id).is_none() && claude::sonnet5(id).is_none() {
        return inputs;
    }
    while let Some(last) = inputs.last() {
        let m = &last.message;
        let has_tool_call = m
            .content_array()
            .is_some_and(|c| c.iter().any(|b| block_type(b) == Some("toolCall")));
        if !m.is_assistant() || has_tool_call {
            break;
        }
        inputs.pop();
    }
    inputs
}

/// The Google transport (`convertGoogleMessages`): the transport alias of the API is folded
/// on the model and on assistant turns, then OpenClaw's transform.
fn prepare_google(inputs: Vec<WireInput>, model: &WireModel) -> Vec<WireInput> {
    let inputs = inputs
        .into_iter()
        .map(|mut input| {
            if input.message.is_assistant()
                && let Some(msg_api) = input.message.str_field("api")
                && google::route_api(msg_api) != msg_api
            {
                let folded = google::route_api(msg_api).to_owned();
                input.message.set("api", Value::String(folded.into()));
            }
            input
        })
        .collect();
    let target = Target {
        provider: &model.provider,
        api: google::route_api(&model.api),
        id: &model.model,
        canonical_id: model.canonical_model_id.as_deref(),
    };
    let needs_id = google::requires_tool_call_id(&model.model);
    let mut normalize = |id: &str, _: &Message| if needs_id { ids::anthropic(id) } else { id.to_owned() };
    let options = TransportOptions {
        preserve_cross_model_thought_signature: google::requires_tool_call_signature(&model.model),
        ..TransportOptions::default()
    };
    transport::transform(inputs, target, Some(&mut normalize), options)
}

/// `orderResponsesAsyncToolResults`: results of an async call made in a turn that continues
/// in later assistant messages (same `turnId` / `responseId`) wait for its last message.
fn order_responses_async_results(inputs: Vec<WireInput>) -> Vec<WireInput> {
    let turn_key = |m: &Message| -> Option<String> {
        let id = [m.get("turnId"), m.get("responseId")]
            .into_iter()
            .flatten()
            .find(|v| js::truthy(Some(v)))?;
        let s = |k: &str| js::string(m.get(k));
        Some(format!(
            "{}:{}:{}:{}",
            s("provider"),
            s("api"),
            s("model"),
            js::string(Some(id))
        ))
    };
    let mut last_assistant: HashMap<String, usize> = HashMap::new();
    for (i, input) in inputs.iter().enumerate() {
        if input.message.is_assistant()
            && let Some(key) = turn_key(&input.message)
        {
            last_assistant.insert(key, i);
        }
    }
    if last_assistant.is_empty() {
        return inputs;
    }
    let mut owners: HashMap<String, String> = HashMap::new();
    let mut pending: HashMap<usize, Vec<WireInput>> = HashMap::new();
    let mut ordered = Vec::with_capacity(inputs.len());
    for (i, input) in inputs.into_iter().enumerate() {
        let m = &input.message;
        if m.is_assistant()
            && let Some(key) = turn_key(m)
        {
            for block in m.content_array().into_iter().flatten() {
                if block_type(block) == Some("toolCall")
                    && js::truthy(block.get("async"))
                    && let Some(id) = block.get("id").and_then(Value::as_str)
                {
                    owners.insert(id.to_owned(), key.clone());
                }
            }
        }
        let owner = if m.is_tool_result() {
            m.str_field("toolCallId").and_then(|id| owners.get(id))
        } else {
            None
        };
        let last = owner.and_then(|o| last_assistant.get(o)).copied();
        match last {
            Some(l) if l > i => pending.entry(l).or_default().push(input),
            _ => ordered.push(input),
        }
        if let Some(results) = pending.remove(&i) {
            ordered.extend(results);
        }
    }
    ordered
}

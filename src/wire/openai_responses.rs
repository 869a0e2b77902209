//! OpenAI Responses (`openai-responses`, `openai-chatgpt-responses`,
//! `azure-openai-responses`): the `input` items.
//!
//! Port of `convertResponsesMessagesWithStyle` (`@openclaw/ai/dist/openai-responses-shared-*.mjs`)
//! as the two routes OpenClaw 2026.9.6 takes run it:
//!
//! - **transport** style, OpenClaw's own Responses transports (`buildOpenAIResponsesParams`
//!   in `openai-responses-prompt-observer-internal-*.mjs`; Azure's differs only outside
//!   `input`): the payload policy strips item `status` off endpoints that are not native
//!   OpenAI, and `sanitizeResponsesImagePayload` re-checks inline images before sending;
//! - **provider** style, the native Codex stream of provider `openai` on
//!   `openai-chatgpt-responses` (`buildRequestBody`, `openai-chatgpt-responses-*.mjs`): looser
//!   id sanitizing, every thinking signature tried as a reasoning item, unattributed
//!   `encrypted_content` kept, empty turns dropped.
//!
//! Items: `user` → `message` with `input_text` / `input_image` parts; `assistant` →
//! `reasoning` items (the JSON stored as `thinkingSignature`, `encrypted_content` kept only for
//! the same provider, API, model and base URL), `message` items with `output_text`
//! (`phase` from the `textSignature`), `function_call` items (`call_id` is the part of the id
//! before `|`); `toolResult` → `function_call_output` (text, or `input_text` + `input_image`
//! parts when it carries images). Item ids (`msg_…`, `fc_…`, `rs_…`) are replayed only when
//! the request stores responses, which OpenClaw's default `store: false` never does.
//! GitHub Copilot's stream wrapper then drops reasoning items it cannot replay (`copilot`).
//!
//! The transcript transform has already normalized tool-call ids (with
//! `normalize_tool_call_id`) and ordered the results of async tool calls.
//!
//! Not ported: the provider compaction checkpoint (an assistant's `providerReplay` of type
//! `openai-responses-compaction`, which replaces the history before it) and the steering
//! input replay (`openclawResponsesInputReplay`). Both are keyed to the request's session id
//! and auth profile, which a transcript replay does not have: a checkpoint stored with them
//! never applies to such a request (as in the oracle); one stored without them would, and is
//! not rebuilt here.

mod copilot;
mod ids;
mod images;
mod reasoning;
#[cfg(test)]
mod tests;

pub(crate) use ids::normalize_tool_call_id;
pub(crate) use reasoning::ReplayContext;
use reasoning::reasoning_item;

use crate::json;
use crate::model::json::{Map, Value};

use super::blocks::{block_type, content_blocks, payload_text};
use super::openai_completions::data_url;
use super::tool_result::{is_image_with_payload, media_placeholder, tool_result_text};
use super::{WireApi, WireInput, WireItem, WireModel};
use crate::model::{Message, Role};
use crate::openclaw::js::js_trim;
use crate::openclaw::js::js_truthy;

/// The Responses APIs (`OPENAI_RESPONSES_APIS`), transport aliases included.
pub(crate) const RESPONSES_APIS: [&str; 6] = [
    "openai-responses",
    "azure-openai-responses",
    "openai-chatgpt-responses",
    "openclaw-openai-responses-transport",
    "openclaw-openai-chatgpt-responses-transport",
    "openclaw-azure-openai-responses-transport",
];

/// Convert prepared messages to the Responses `input` items. Azure's request differs from
/// OpenAI's only outside `input` (deployment name, no `store`), so `_api` picks nothing here.
pub fn convert(inputs: &[WireInput], model: &WireModel, _api: WireApi) -> Vec<WireItem> {
    convert_with(inputs, model, &Policy::for_model(model))
}

/// Whether `model` takes the native Codex route (provider `openai` on the ChatGPT-login API),
/// whose converter runs in provider style after pi-ai's `transformMessages` instead of
/// OpenClaw's `transformTransportMessages`.
pub(crate) fn uses_provider_style(model: &WireModel) -> bool {
    model.provider == "openai"
        && matches!(
            model.api.as_str(),
            "openai-chatgpt-responses" | "openclaw-openai-chatgpt-responses-transport"
        )
}

/// The request facts that shape `input`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Policy {
    /// Provider style (the native Codex route) instead of OpenClaw's transport style.
    pub provider_style: bool,
    /// Replay `msg_…` / `fc_…` / `rs_…` item ids (`replayResponsesItemIds`).
    pub replay_item_ids: bool,
    /// Remove `status` from every item (`shouldStripInputStatus`).
    pub strip_status: bool,
    /// Re-check inline images before sending (`sanitizeResponsesImagePayload`).
    pub sanitize_images: bool,
    /// The identity whose reasoning `encrypted_content` may be replayed.
    pub replay: ReplayContext,
}

impl Policy {
    /// The policy OpenClaw applies to `model` (no `compat` overrides). Item ids are not
    /// replayed: without `compat.supportsResponsesContinuation` every route sends
    /// `store: false` (or omits it), and the Codex route never replays them.
    pub(crate) fn for_model(model: &WireModel) -> Self {
        let provider_style = uses_provider_style(model);
        let endpoint = responses_endpoint_class(model.base_url());
        let native_route = match endpoint {
            "default" => model.provider == "openai",
            other => matches!(other, "openai-public" | "openai" | "azure-openai"),
        };
        Self {
            provider_style,
            replay_item_ids: false,
            strip_status: !provider_style && RESPONSES_APIS.contains(&model.api.as_str()) && !native_route,
            sanitize_images: !provider_style,
            replay: ReplayContext::of(model),
        }
    }
}

/// `resolveOpenAIResponsesEndpointClass`.
fn responses_endpoint_class(base_url: &str) -> &'static str {
    let trimmed = base_url.trim();
    if trimmed.is_empty() {
        return "default";
    }
    let rest = trimmed.split_once("://").map_or(trimmed, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority
        .rsplit('@')
        .next()
        .unwrap_or("")
        .split(':')
        .next()
        .unwrap_or("")
        .to_lowercase();
    match host.as_str() {
        "api.openai.com" => "openai-public",
        "chatgpt.com" => "openai",
        "api.x.ai" => "xai-native",
        h if [
            ".openai.azure.com",
            ".cognitiveservices.azure.com",
            ".services.ai.azure.com",
            ".api.cognitive.microsoft.com",
        ]
        .iter()
        .any(|s| h.ends_with(s)) =>
        {
            "azure-openai"
        }
        _ => "custom",
    }
}

/// [`convert`] with an explicit policy.
pub(crate) fn convert_with(inputs: &[WireInput], model: &WireModel, policy: &Policy) -> Vec<WireItem> {
    let ordered = anchor_carriers(inputs.iter().collect());
    let mut items = Vec::with_capacity(inputs.len());
    let mut msg_index = 0usize;
    for input in ordered {
        let msg = &input.message;
        match msg.role() {
            Role::User => {
                if let Some(value) = user_item(msg, model, policy) {
                    items.push(WireItem {
                        value,
                        source: input.source.clone(),
                    });
                } else if policy.provider_style {
                    continue;
                }
            }
            Role::Assistant => {
                let output = assistant_items(msg, model, policy, msg_index);
                if output.is_empty() && policy.provider_style {
                    continue;
                }
                items.extend(output.into_iter().map(|value| WireItem {
                    value,
                    source: input.source.clone(),
                }));
            }
            Role::ToolResult => {
                items.push(WireItem {
                    value: tool_result_item(msg, model),
                    source: input.source.clone(),
                });
            }
            _ => {}
        }
        msg_index += 1;
    }
    if policy.strip_status {
        for item in &mut items {
            if let Value::Object(o) = &mut item.value {
                o.shift_remove("status");
            }
        }
    }
    if copilot::applies(model) {
        copilot::sanitize(&mut items);
    }
    if policy.sanitize_images {
        for item in &mut items {
            item.value = images::sanitize(&item.value);
        }
    }
    items
}

/// Runtime-context carriers (`runtimeContextCarrier` user turns) move up to just after the
/// latest ordinary user turn before them.
fn anchor_carriers(messages: Vec<&WireInput>) -> Vec<&WireInput> {
    let is_carrier =
        |i: &WireInput| i.message.is_user() && i.message.get("runtimeContextCarrier") == Some(&Value::Bool(true));
    if !messages.iter().any(|m| is_carrier(m)) {
        return messages;
    }
    let mut anchored: Vec<&WireInput> = Vec::with_capacity(messages.len());
    let mut insertion: Option<usize> = None;
    for message in messages {
        if is_carrier(message)
            && let Some(at) = insertion.as_mut()
        {
            anchored.insert(*at, message);
            *at += 1;
            continue;
        }
        anchored.push(message);
        if !is_carrier(message) && message.message.is_user() {
            insertion = Some(anchored.len());
        }
    }
    anchored
}

fn input_image(block: &Value) -> Value {
    json!({
        "type": "input_image",
        "detail": "auto",
        "image_url": data_url(block),
    })
}

/// A user turn as a `message` item; `None` when no part is left.
fn user_item(msg: &Message, model: &WireModel, policy: &Policy) -> Option<Value> {
    let content: Vec<Value> = match msg.content() {
        Some(Value::String(text)) => vec![json!({"type": "input_text", "text": text})],
        Some(Value::Array(blocks)) => blocks
            .iter()
            .map(|b| {
                if block_type(b) == Some("text") {
                    json!({"type": "input_text", "text": payload_text(b.get("text"))})
                } else {
                    input_image(b)
                }
            })
            .filter(|part| policy.provider_style || model.input_images || part["type"] != "input_image")
            .collect(),
        _ => Vec::new(),
    };
    (!content.is_empty()).then(|| json!({"type": "message", "role": "user", "content": content}))
}

/// `parseOpenAIResponsesTextSignature`: the item id and phase a text block was produced with.
fn text_signature(signature: Option<&str>) -> (Option<String>, Option<&'static str>) {
    let Some(signature) = signature.filter(|s| !s.is_empty()) else {
        return (None, None);
    };
    if signature.starts_with('{')
        && let Ok(Value::Object(parsed)) = serde_json::from_str::<Value>(signature)
        && parsed.get("v").and_then(Value::as_f64) == Some(1.0)
    {
        let id = parsed.get("id").and_then(Value::as_str).map(str::to_string);
        let phase = match parsed.get("phase").and_then(Value::as_str) {
            Some("commentary") => Some("commentary"),
            Some("final_answer") => Some("final_answer"),
            _ => None,
        };
        return (id, phase);
    }
    (Some(signature.to_string()), None)
}

/// An assistant turn's output items: reasoning, messages and function calls in block order.
fn assistant_items(msg: &Message, model: &WireModel, policy: &Policy, msg_index: usize) -> Vec<Value> {
    let mut output: Vec<Value> = Vec::new();
    let mut fallback_ordinal = 0usize;
    let mut after_reasoning = false;
    let different_model = msg.model() != Some(model.model.as_str())
        && msg.provider() == Some(model.provider.as_str())
        && msg.api() == Some(model.api.as_str());
    let blocks: Vec<&Value> = msg.content_array().map(|a| a.iter().collect()).unwrap_or_default();
    for block in blocks {
        match block_type(block) {
            Some("thinking") => {
                if let Some(item) = reasoning_item(block, model, policy) {
                    output.push(item);
                    after_reasoning = true;
                }
            }
            Some("text") => {
                let signature = block.get("textSignature").and_then(Value::as_str);
                let (signature_id, phase) = text_signature(signature);
                let signature_id = signature_id.filter(|id| !id.is_empty());
                let id = match (&signature_id, policy.replay_item_ids) {
                    (_, false) => None,
                    (None, true) if fallback_ordinal == 0 => Some(format!("msg_{msg_index}")),
                    (None, true) => Some(format!("msg_{msg_index}_{fallback_ordinal}")),
                    (Some(id), true) => after_reasoning.then(|| id.clone()),
                };
                if signature_id.is_none() {
                    fallback_ordinal += 1;
                }
                let mut item = Map::new();
                item.insert("type".into(), json!("message"));
                item.insert("role".into(), json!("assistant"));
                item.insert(
                    "content".into(),
                    json!([{"type": "output_text", "text": payload_text(block.get("text")), "annotations": []}]),
                );
                item.insert("status".into(), json!("completed"));
                if let Some(id) = id.filter(|id| !id.is_empty()) {
                    item.insert("id".into(), Value::String(ids::shorten_item_id(&id, "msg").into()));
                }
                if let Some(phase) = phase {
                    item.insert("phase".into(), json!(phase));
                }
                output.push(Value::Object(item));
                after_reasoning = false;
            }
            Some("toolCall") => {
                output.push(function_call(block, policy, different_model));
                after_reasoning = false;
            }
            _ => {}
        }
    }
    while output.last().is_some_and(|last| {
        last["type"] == "reasoning"
            && last
                .get("id")
                .and_then(Value::as_str)
                .is_some_and(|id| id.starts_with("rs_"))
            && last
                .get("encrypted_content")
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
    }) {
        output.pop();
    }
    output
}

/// A tool-call block as a `function_call` item.
fn function_call(block: &Value, policy: &Policy, different_model: bool) -> Value {
    let id = block.get("id").and_then(Value::as_str).unwrap_or_default();
    let (call_id, item_id) = match id.split_once('|') {
        Some((call, item)) => (call, Some(item)),
        None => (id, None),
    };
    let item_id = item_id.filter(|item| policy.replay_item_ids && !(different_model && item.starts_with("fc_")));
    let mut out = Map::new();
    out.insert("type".into(), json!("function_call"));
    if let Some(item) = item_id.filter(|i| !i.is_empty()) {
        out.insert("id".into(), json!(item));
    }
    out.insert("call_id".into(), json!(call_id));
    if let Some(name) = block.get("name") {
        out.insert("name".into(), name.clone());
    }
    if block.get("async").is_some_and(js_truthy) {
        out.insert("async".into(), json!(true));
    }
    let arguments = block.get("arguments");
    let arguments = if policy.provider_style {
        arguments.map(|a| Value::String(a.to_string().into()))
    } else {
        Some(match arguments {
            Some(Value::String(s)) => Value::String(s.clone()),
            Some(Value::Null) | None => json!("{}"),
            Some(other) => Value::String(other.to_string().into()),
        })
    };
    if let Some(arguments) = arguments {
        out.insert("arguments".into(), arguments);
    }
    Value::Object(out)
}

/// A tool result as a `function_call_output` item.
fn tool_result_item(msg: &Message, model: &WireModel) -> Value {
    let blocks = content_blocks(msg);
    let text = tool_result_text(&blocks);
    let has_text = !js_trim(&text).is_empty();
    let placeholder = media_placeholder(&blocks);
    let images: Vec<&Value> = blocks.iter().filter(|b| is_image_with_payload(b)).collect();
    let call_id = msg.tool_call_id().unwrap_or_default();
    let call_id = call_id.split_once('|').map_or(call_id, |(call, _)| call);
    let output = if !images.is_empty() && model.input_images {
        let mut parts = Vec::new();
        if has_text {
            parts.push(json!({"type": "input_text", "text": text}));
        } else if placeholder == Some("(see attached media)") {
            parts.push(json!({"type": "input_text", "text": "(see attached media)"}));
        }
        parts.extend(images.into_iter().map(input_image));
        Value::Array(parts.into())
    } else if has_text {
        Value::String(text.into())
    } else {
        Value::String(placeholder.unwrap_or("(no output)").to_string().into())
    };
    json!({"type": "function_call_output", "call_id": call_id, "output": output})
}

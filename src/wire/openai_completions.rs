//! OpenAI Chat Completions (`openai-completions`): the `messages` array.
//!
//! Port of what OpenClaw 2026.9.6's `openai-completions` transport builds
//! (`createOpenAICompletionsTransportStreamFn` → `buildOpenAICompletionsParams`, managed
//! mode, in `@openclaw/ai/dist/openai-completions-stream-*.mjs`), minus the system prompt:
//!
//! - `convertMessages` → `convert_messages`: `user` turns (string content, or `text` /
//!   `image_url` data-URL / `video_url` parts; an empty part list is dropped); `assistant`
//!   turns with the non-blank texts joined into one string, replayed reasoning in the field
//!   its `thinkingSignature` names (`reasoning_content`, …), `tool_calls` with JSON-string
//!   arguments and `reasoning_details` parsed from the calls' `thoughtSignature`; a run of
//!   `toolResult` messages as `tool` messages (text, else a media placeholder, else
//!   `(no output)`), their images following in one synthesized `user` turn;
//! - `applyCompletionsReplay` → `replay::apply_replay`: Gemini thought signatures on the tool calls
//!   of Google endpoints, then the reasoning fields each provider accepts;
//! - `stripCompletionMessagesToRoleContent` / `flattenCompletionMessagesToStringContent`
//!   when the compat asks for them;
//! - `applyCompletionsAnthropicCacheControl` for Anthropic models behind OpenRouter: the
//!   last user or tool turn's last text part gets `cache_control` (retention `short`, the
//!   default; `long` would add `ttl: "1h"`).
//!
//! The compat flags come from `Compat::detect`: provider and the default base URL
//! ([`WireModel::base_url`]), as for a catalog model without `compat` overrides.

mod compat;
mod replay;
#[cfg(test)]
mod tests;

pub(crate) use compat::Compat;
use replay::apply_replay;

use std::collections::HashSet;

use crate::json;
use crate::model::json::{Map, Value};

use super::blocks::{block_type, content_blocks};
use super::tool_result::{is_image_with_payload, media_placeholder, tool_result_text};
use super::transform::ids::{replace_unsafe_id_chars, truncate_utf16};
use super::{WireInput, WireItem, WireModel};
use crate::model::{Message, Role};
use crate::openclaw::assistant_text::is_blank;
use crate::openclaw::js;
use crate::openclaw::js::js_trim;
use crate::openclaw::js::js_truthy;

/// `EMPTY_TOOL_RESULT_TEXT`.
const EMPTY_TOOL_RESULT: &str = "(no output)";
/// The assistant turn inserted between tool results and a user turn when required.
const TOOL_RESULTS_ACK: &str = "I have processed the tool results.";

/// Convert prepared messages to the Chat Completions `messages` array.
pub fn convert(inputs: &[WireInput], model: &WireModel) -> Vec<WireItem> {
    convert_with(inputs, model, &Compat::detect(model))
}

/// [`convert`] with explicit compat flags.
pub(crate) fn convert_with(inputs: &[WireInput], model: &WireModel, compat: &Compat) -> Vec<WireItem> {
    let (mut items, cache_opt_out) = convert_messages(inputs, model, compat);
    apply_replay(&mut items, inputs, model, compat);
    if compat.strict_message_keys {
        for item in &mut items {
            if let Value::Object(object) = &mut item.value {
                object.retain(|k, _| k == "role" || k == "content");
            }
        }
    }
    if compat.requires_string_content {
        for item in &mut items {
            flatten_string_content(&mut item.value);
        }
    }
    if compat.anthropic_cache_control && !compat.requires_string_content {
        mark_cache_control(&mut items, &cache_opt_out);
    }
    items
}

/// The tool-call id normalizer the Chat Completions transport hands to the transcript
/// transform: an `id|item` pair keeps its sanitized call part (40 units at most); provider
/// `openai` cuts any id to 40 UTF-16 units; other ids are kept.
pub(crate) fn normalize_tool_call_id(id: &str, model: &WireModel) -> String {
    if let Some((call, _)) = id.split_once('|') {
        return truncate_utf16(&replace_unsafe_id_chars(call), 40);
    }
    if model.provider == "openai" {
        truncate_utf16(id, 40)
    } else {
        id.to_string()
    }
}

/// `data:<mimeType>;base64,<data>` of an image-like block, missing fields printed as a
/// JavaScript template prints them (`undefined`).
pub(crate) fn data_url(block: &Value) -> String {
    format!(
        "data:{};base64,{}",
        js::string(block.get("mimeType")),
        js::string(block.get("data"))
    )
}

fn str_field<'a>(block: &'a Value, key: &str) -> Option<&'a str> {
    block.get(key).and_then(Value::as_str)
}

/// `convertMessages` without the system prompt; also the indices of the runtime-context
/// carriers (turns the cache marker skips).
fn convert_messages(inputs: &[WireInput], model: &WireModel, compat: &Compat) -> (Vec<WireItem>, HashSet<usize>) {
    let mut items: Vec<WireItem> = Vec::with_capacity(inputs.len());
    let mut cache_opt_out = HashSet::new();
    let mut last_role: Option<String> = None;
    let mut i = 0;
    while i < inputs.len() {
        let input = &inputs[i];
        let msg = &input.message;
        let role = msg.role();
        if compat.requires_assistant_after_tool_result
            && last_role.as_deref() == Some("toolResult")
            && role == Role::User
        {
            items.push(WireItem {
                value: json!({"role": "assistant", "content": TOOL_RESULTS_ACK}),
                source: Default::default(),
            });
        }
        match role {
            Role::User => {
                let carrier = msg.get("runtimeContextCarrier") == Some(&Value::Bool(true));
                let content = match msg.content() {
                    Some(Value::String(text)) => Value::String(text.clone()),
                    _ => {
                        let parts: Vec<Value> = content_blocks(msg).iter().map(user_part).collect();
                        if parts.is_empty() {
                            i += 1;
                            continue;
                        }
                        Value::Array(parts.into())
                    }
                };
                if carrier {
                    cache_opt_out.insert(items.len());
                }
                items.push(WireItem {
                    value: Value::object([("role", "user".into()), ("content", content)]),
                    source: input.source.clone(),
                });
            }
            Role::Assistant => match assistant_message(msg, model, compat) {
                Some(value) => items.push(WireItem {
                    value,
                    source: input.source.clone(),
                }),
                None => {
                    i += 1;
                    continue;
                }
            },
            Role::ToolResult => {
                let (next, sent_images) = tool_results(inputs, i, model, compat, &mut items);
                last_role = Some(if sent_images { "user" } else { "toolResult" }.to_string());
                i = next;
                continue;
            }
            _ => {}
        }
        last_role = Some(role.as_str().to_string());
        i += 1;
    }
    (items, cache_opt_out)
}

/// One part of a user turn's content array.
fn user_part(block: &Value) -> Value {
    match block_type(block) {
        Some("text") => json!({"type": "text", "text": block.get("text").cloned().unwrap_or(Value::Null)}),
        Some("video") => json!({"type": "video_url", "video_url": {"url": data_url(block)}}),
        _ => json!({"type": "image_url", "image_url": {"url": data_url(block)}}),
    }
}

/// An assistant turn; `None` when it has neither content nor tool calls.
fn assistant_message(msg: &Message, model: &WireModel, compat: &Compat) -> Option<Value> {
    let mut out = Map::new();
    out.insert("role".into(), json!("assistant"));
    out.insert(
        "content".into(),
        if compat.requires_assistant_after_tool_result {
            json!("")
        } else {
            Value::Null
        },
    );
    let blocks = content_blocks(msg);
    let mut texts = Vec::new();
    let mut thinking = Vec::new();
    let mut calls = Vec::new();
    for block in blocks.iter() {
        match block_type(block) {
            Some("text") if str_field(block, "text").is_some_and(|t| !is_blank(t)) => {
                texts.push(str_field(block, "text").unwrap_or_default());
            }
            Some("thinking") if str_field(block, "thinking").is_some_and(|t| !is_blank(t)) => thinking.push(block),
            Some("toolCall") => calls.push(block),
            _ => {}
        }
    }
    if !thinking.is_empty() && compat.requires_thinking_as_text {
        let reasoning: Vec<&str> = thinking.iter().filter_map(|b| str_field(b, "thinking")).collect();
        let mut parts = vec![json!({"type": "text", "text": reasoning.join("\n\n")})];
        parts.extend(texts.iter().map(|t| json!({"type": "text", "text": t})));
        out.insert("content".into(), Value::Array(parts.into()));
    } else {
        let text = texts.join("\n");
        if !text.is_empty() {
            out.insert("content".into(), Value::String(text.into()));
        }
        let signature = thinking.first().and_then(|b| str_field(b, "thinkingSignature"));
        let signature = match signature {
            Some("reasoning") if model.provider == "opencode-go" => Some("reasoning_content"),
            other => other,
        };
        if let Some(field) = signature.filter(|s| !s.is_empty()) {
            let reasoning: Vec<&str> = thinking.iter().filter_map(|b| str_field(b, "thinking")).collect();
            out.insert(field.to_string().into(), Value::String(reasoning.join("\n").into()));
        }
    }
    if !calls.is_empty() {
        let tool_calls: Vec<Value> = calls.iter().map(|call| tool_call(call)).collect();
        out.insert("tool_calls".into(), Value::Array(tool_calls.into()));
        let details: Vec<Value> = calls
            .iter()
            .filter_map(|call| str_field(call, "thoughtSignature").filter(|s| !s.is_empty()))
            .filter_map(|sig| serde_json::from_str::<Value>(sig).ok())
            .filter(js_truthy)
            .collect();
        if !details.is_empty() {
            out.insert("reasoning_details".into(), Value::Array(details.into()));
        }
    }
    if compat.requires_reasoning_content && model.reasoning && !out.contains_key("reasoning_content") {
        out.insert("reasoning_content".into(), json!(""));
    }
    let has_content = match out.get("content") {
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        _ => false,
    };
    (has_content || out.contains_key("tool_calls")).then_some(Value::Object(out))
}

/// `{id, type: "function", function: {name, arguments}}` of a tool-call block.
fn tool_call(block: &Value) -> Value {
    let mut function = Map::new();
    if let Some(name) = block.get("name") {
        function.insert("name".into(), name.clone());
    }
    if let Some(arguments) = block.get("arguments") {
        function.insert("arguments".into(), Value::String(arguments.to_string().into()));
    }
    let mut call = Map::new();
    if let Some(id) = block.get("id") {
        call.insert("id".into(), id.clone());
    }
    call.insert("type".into(), json!("function"));
    call.insert("function".into(), Value::Object(function));
    Value::Object(call)
}

/// The run of `toolResult` messages starting at `start` as `tool` messages, followed by a
/// `user` turn holding their images; the index after the run and whether images were sent.
fn tool_results(
    inputs: &[WireInput],
    start: usize,
    model: &WireModel,
    compat: &Compat,
    items: &mut Vec<WireItem>,
) -> (usize, bool) {
    let mut image_parts = Vec::new();
    let mut image_sources = crate::model::Indices::new();
    let mut j = start;
    while let Some(input) = inputs.get(j).filter(|inp| inp.message.role() == Role::ToolResult) {
        let msg = &input.message;
        let blocks = content_blocks(msg);
        let text = tool_result_text(&blocks);
        let fallback = media_placeholder(&blocks).unwrap_or(EMPTY_TOOL_RESULT);
        let content = if js_trim(&text).is_empty() {
            fallback.to_string()
        } else {
            text
        };
        let mut out = Map::new();
        out.insert("role".into(), json!("tool"));
        out.insert("content".into(), Value::String(content.into()));
        if let Some(id) = msg.get("toolCallId") {
            out.insert("tool_call_id".into(), id.clone());
        }
        if compat.requires_tool_result_name && msg.tool_name().is_some_and(|n| !n.is_empty()) {
            out.insert("name".into(), json!(msg.tool_name()));
        }
        items.push(WireItem {
            value: Value::Object(out),
            source: input.source.clone(),
        });
        let images: Vec<&Value> = blocks.iter().filter(|b| is_image_with_payload(b)).collect();
        if !images.is_empty() && model.input_images {
            let name = truncate_utf16(msg.tool_name().unwrap_or(""), 64);
            let label = if name.is_empty() {
                String::new()
            } else {
                format!(" ({name})")
            };
            image_parts
                .push(json!({"type": "text", "text": format!("Image(s) from tool result #{}{label}:", j - start + 1)}));
            image_parts.extend(
                images
                    .iter()
                    .map(|b| json!({"type": "image_url", "image_url": {"url": data_url(b)}})),
            );
            image_sources.extend(input.source.iter().copied());
        }
        j += 1;
    }
    if !image_parts.is_empty() {
        if compat.requires_assistant_after_tool_result {
            items.push(WireItem {
                value: json!({"role": "assistant", "content": TOOL_RESULTS_ACK}),
                source: Default::default(),
            });
        }
        items.push(WireItem {
            value: Value::object([("role", "user".into()), ("content", Value::Array(image_parts.into()))]),
            source: image_sources,
        });
        return (j, true);
    }
    (j, false)
}

/// `flattenStringOnlyCompletionContent`: a content array of text parts only becomes their
/// texts joined by newlines.
fn flatten_string_content(message: &mut Value) {
    let Some(Value::Array(parts)) = message.get("content") else {
        return;
    };
    let texts: Option<Vec<&str>> = parts
        .iter()
        .map(|p| (block_type(p) == Some("text")).then(|| str_field(p, "text")).flatten())
        .collect();
    if let Some(texts) = texts {
        let joined = texts.join("\n");
        message["content"] = Value::String(joined.into());
    }
}

/// `applyCompletionsAnthropicCacheControl` on the messages (no system prompt, tools not
/// shown): the last user or tool turn with a non-empty text, runtime-context carriers
/// skipped, gets `cache_control` on its last text part.
fn mark_cache_control(items: &mut [WireItem], opt_out: &HashSet<usize>) {
    for (index, item) in items.iter_mut().enumerate().rev() {
        if opt_out.contains(&index) || !matches!(item.value["role"].as_str(), Some("user" | "tool")) {
            continue;
        }
        if let Some(Value::String(text)) = item.value.get("content")
            && !text.is_empty()
        {
            item.value["content"] = json!([{"type": "text", "text": text}]);
        }
        let Some(Value::Array(parts)) = item.value.get_mut("content") else {
            continue;
        };
        let last_text = parts
            .iter_mut()
            .rev()
            .find(|p| block_type(p) == Some("text") && str_field(p, "text").is_some_and(|t| !t.is_empty()));
        if let Some(Value::Object(part)) = last_text {
            part.insert("cache_control".into(), json!({"type": "ephemeral"}));
            return;
        }
    }
}

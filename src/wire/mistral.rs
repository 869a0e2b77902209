//! Mistral (`mistral-conversations`): the `messages` array.
//!
//! Port of `toChatMessages` (`@openclaw/ai/dist/mistral-*.mjs`, pi-ai's Mistral provider,
//! which OpenClaw 2026.9.6 runs for this API) followed by the Mistral SDK's serialization
//! (`@mistralai/mistralai` 2.7 outbound schemas: camelCase fields become `tool_calls`,
//! `tool_call_id`, `image_url`; every tool call gets `index: 0` and every assistant message
//! `prefix: false`), which is what goes on the wire:
//!
//! - `user` → string content, or `text` / `image_url` chunks (images dropped when the model
//!   takes none, a placeholder turn when nothing else is left);
//! - `assistant` → `text` chunks, `thinking` chunks (`{type:"thinking", thinking:[text]}`)
//!   and `tool_calls` with JSON-string arguments; an empty turn is dropped. Every block that
//!   is neither text nor thinking is sent as a tool call;
//! - `toolResult` (and any other role) → `tool` with one text chunk (`[tool error] ` prefix
//!   for errors, a media placeholder when there is no text) and its images.
//!
//! The transcript transform has already shortened foreign tool-call ids to Mistral's nine
//! alphanumerics (`transform::ids::mistral`).

use crate::json;
use crate::model::json::{Map, Value};

use super::blocks::{block_type, content_blocks};
use super::openai_completions::data_url;
use super::tool_result::{format_tool_result, is_image_with_payload, media_placeholder, tool_result_text};
use super::{WireInput, WireItem, WireModel};
use crate::model::{Message, Role};
use crate::openclaw::assistant_text::is_blank;
use crate::openclaw::js::js_trim;
use crate::openclaw::js::js_truthy;

/// What a user turn of images only becomes on a model without image input.
const USER_IMAGE_OMITTED: &str = "(image omitted: model does not support images)";

/// Convert prepared messages to the Mistral `messages` array.
pub fn convert(inputs: &[WireInput], model: &WireModel) -> Vec<WireItem> {
    inputs
        .iter()
        .filter_map(|input| {
            let msg = &input.message;
            let value = match msg.role() {
                Role::User => user_message(msg, model.input_images),
                Role::Assistant => assistant_message(msg),
                _ => Some(tool_message(msg, model.input_images)),
            }?;
            Some(WireItem {
                value,
                source: input.source.clone(),
            })
        })
        .collect()
}

fn text_of(block: &Value, key: &str) -> Option<String> {
    block.get(key).and_then(Value::as_str).map(str::to_string)
}

fn user_message(msg: &Message, supports_images: bool) -> Option<Value> {
    let blocks = match msg.content() {
        Some(Value::String(text)) => return Some(json!({"role": "user", "content": text})),
        Some(Value::Array(blocks)) => blocks.as_slice(),
        _ => &[],
    };
    let had_images = blocks.iter().any(|b| block_type(b) == Some("image"));
    let content: Vec<Value> = blocks
        .iter()
        .filter(|b| block_type(b) == Some("text") || supports_images)
        .map(|b| match block_type(b) {
            Some("text") => json!({"type": "text", "text": b.get("text").cloned().unwrap_or(Value::Null)}),
            _ => json!({"type": "image_url", "image_url": data_url(b)}),
        })
        .collect();
    if !content.is_empty() {
        Some(json!({"role": "user", "content": content}))
    } else if had_images && !supports_images {
        Some(json!({"role": "user", "content": USER_IMAGE_OMITTED}))
    } else {
        None
    }
}

fn assistant_message(msg: &Message) -> Option<Value> {
    let blocks = content_blocks(msg);
    let mut parts = Vec::new();
    let mut calls = Vec::new();
    for block in blocks.iter() {
        match block_type(block) {
            Some("text") => {
                if let Some(text) = text_of(block, "text").filter(|t| !is_blank(t)) {
                    parts.push(json!({"type": "text", "text": text}));
                }
            }
            Some("thinking") => {
                if let Some(thinking) = text_of(block, "thinking").filter(|t| !is_blank(t)) {
                    parts.push(json!({"type": "thinking", "thinking": [{"type": "text", "text": thinking}]}));
                }
            }
            _ => calls.push(tool_call(block)),
        }
    }
    if parts.is_empty() && calls.is_empty() {
        return None;
    }
    let mut out = Map::new();
    out.insert("role".into(), json!("assistant"));
    if !parts.is_empty() {
        out.insert("content".into(), Value::Array(parts.into()));
    }
    if !calls.is_empty() {
        out.insert("tool_calls".into(), Value::Array(calls.into()));
    }
    out.insert("prefix".into(), json!(false));
    Some(Value::Object(out))
}

/// A block sent as a tool call: `{id, type, function: {name, arguments}, index: 0}` (the SDK
/// fills a missing id with `"null"`).
fn tool_call(block: &Value) -> Value {
    let arguments = block
        .get("arguments")
        .filter(|a| js_truthy(a))
        .cloned()
        .unwrap_or_else(|| json!({}));
    let mut function = Map::new();
    if let Some(name) = block.get("name") {
        function.insert("name".into(), name.clone());
    }
    function.insert("arguments".into(), Value::String(arguments.to_string().into()));
    json!({
        "id": block.get("id").cloned().unwrap_or_else(|| json!("null")),
        "type": "function",
        "function": function,
        "index": 0,
    })
}

fn tool_message(msg: &Message, supports_images: bool) -> Value {
    let blocks = content_blocks(msg);
    let text = tool_result_text(&blocks);
    let media = media_placeholder(&blocks);
    let has_images = blocks.iter().any(is_image_with_payload);
    let omitted = (has_images && !supports_images).then(|| {
        if !js_trim(&text).is_empty() {
            "[tool image omitted: model does not support images]"
        } else if media == Some("(see attached media)") {
            "(media omitted: model does not support images)"
        } else {
            USER_IMAGE_OMITTED
        }
    });
    let is_error = msg.get("isError").is_some_and(js_truthy);
    let mut content = vec![json!({"type": "text", "text": format_tool_result(&text, media, omitted, is_error)})];
    if supports_images {
        content.extend(
            blocks
                .iter()
                .filter(|b| is_image_with_payload(b))
                .map(|b| json!({"type": "image_url", "image_url": data_url(b)})),
        );
    }
    let mut out = Map::new();
    out.insert("role".into(), json!("tool"));
    out.insert("content".into(), Value::Array(content.into()));
    if let Some(id) = msg.get("toolCallId").filter(|v| !v.is_null()) {
        out.insert("tool_call_id".into(), id.clone());
    }
    if let Some(name) = msg.get("toolName").filter(|v| !v.is_null()) {
        out.insert("name".into(), name.clone());
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests;

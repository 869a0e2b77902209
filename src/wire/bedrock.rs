//! Amazon Bedrock Converse (`bedrock-converse-stream`): the `messages` array.
//!
//! Where the conversion comes from: the amazon-bedrock provider plugin is published on ClawHub
//! only, so OpenClaw 2026.9.6's install has no Bedrock converter. This is a port of
//! `convertMessages` in the plugin's `extensions/amazon-bedrock/stream.runtime.ts` as found in
//! the public source index: its compiled build (`stream.runtime.js` with `bedrock-options.js`,
//! which imports only plugin-SDK names that 2026.9.6 exports, e.g. reading
//! `runtimeContextCarrier` directly), checked against the TypeScript source of
//! `openclaw/openclaw` at commit `034c540f3522dcc395aba40a103223cd7a813b62`. That later source
//! needs SDK exports 2026.9.6 lacks (`hasRuntimeContextMarker`, `buildAssistantMessage`) and
//! differs in two ways not followed here: it coerces tool-call arguments to an object, and a
//! request without tools replays tool calls and results as text.
//!
//! The plugin runs pi's `transformMessages` (not OpenClaw's `transformTransportMessages`) with
//! tool-call ids normalized to `[A-Za-z0-9_-]{1,64}` before this conversion.
//!
//! - `user` → `{role:"user", content}`: `text` blocks (a string content is one), `image`
//!   blocks with the base64 bytes; a message left empty is skipped.
//! - `assistant` → `{role:"assistant", content}`, skipped when nothing is left: blank text
//!   dropped; tool calls as `toolUse` with the stored arguments; on Claude models thinking with
//!   a signature as `reasoningContent.reasoningText` (`reasoning_content` placeholders dropped)
//!   and redacted thinking as `reasoningContent.redactedContent`; other thinking as text.
//! - a run of consecutive `toolResult` messages → one `user` message of `toolResult` blocks
//!   (`status` `error` or `success`, `(no output)` or a media note when nothing is left);
//!   on `openai.gpt-5.6-sol` images move out of the results into labelled user content.
//! - prompt caching (Claude models, the default `short` retention): when the last message is
//!   a user message, a `cachePoint` block ends the last user message before the first
//!   runtime-context carrier.
//!
//! Where the plugin throws instead of sending (an image MIME type Converse does not take,
//! malformed base64, a redacted block without its opaque signature), the block is still
//! emitted as far as it can be: without `format`, with the bytes as stored.

mod claude;
#[cfg(test)]
mod tests;

pub use claude::{CachePolicy, cache_policy, is_claude};

use crate::json;
use crate::model::json::{Map, Value};

use super::blocks::block_type;
use super::canonical_base64::canonicalize_base64;
use super::tool_result::media_placeholder;
use super::transform::claude::binds_thinking_prefix;
use super::{WireInput, WireItem, WireModel};
use crate::model::Role;
use crate::openclaw::assistant_text::is_blank;
use crate::openclaw::js::js_trim;
use crate::openclaw::js::{self, put, truthy};

/// The model whose tool results may not carry images.
const IMAGELESS_TOOL_RESULTS_MODEL: &str = "openai.gpt-5.6-sol";

/// Convert prepared messages to the Converse `messages` array.
pub fn convert(inputs: &[WireInput], model: &WireModel) -> Vec<WireItem> {
    let claude = is_claude(&model.model);
    let mut result: Vec<WireItem> = Vec::new();
    let mut first_volatile: Option<usize> = None;
    let mut i = 0;
    while i < inputs.len() {
        let input = &inputs[i];
        i += 1;
        let m = &input.message;
        match m.role() {
            Role::User => {
                let content = user_content(m.content());
                if content.is_empty() {
                    continue;
                }
                let carrier = m.get("runtimeContextCarrier") == Some(&Value::Bool(true));
                if carrier && first_volatile.is_none() && !binds_thinking_prefix(Some(model.claude_identity())) {
                    first_volatile = Some(result.len());
                }
                result.push(item("user", content, input.source.clone()));
            }
            Role::Assistant => {
                let blocks = m.content_array().map_or(&[][..], |a| a.as_slice());
                let content: Vec<Value> = blocks.iter().filter_map(|b| assistant_block(b, claude)).collect();
                if !content.is_empty() {
                    result.push(item("assistant", content, input.source.clone()));
                }
            }
            Role::ToolResult => {
                let mut group = vec![input];
                while let Some(next) = inputs.get(i).filter(|n| n.message.role() == Role::ToolResult) {
                    group.push(next);
                    i += 1;
                }
                let source = group.iter().flat_map(|g| g.source.iter().copied()).collect();
                let results = group.iter().map(|g| tool_result(g)).collect();
                result.push(item("user", tool_results_content(results, &model.model), source));
            }
            _ => {}
        }
    }
    if cache_policy(&model.model) == Some(CachePolicy::Claude) {
        add_cache_point(&mut result, first_volatile);
    }
    result
}

fn item(role: &str, content: Vec<Value>, source: crate::model::Indices) -> WireItem {
    WireItem {
        value: Value::object([("role", role.into()), ("content", Value::Array(content.into()))]),
        source,
    }
}

/// Text as the plugin sends it (`sanitizeSurrogates`; a non-string is read as empty).
fn text_block(text: Option<&Value>) -> Value {
    json!({ "text": text.and_then(Value::as_str).unwrap_or("") })
}

fn user_content(content: Option<&Value>) -> Vec<Value> {
    match content {
        Some(Value::String(s)) => vec![json!({ "text": s })],
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter_map(|b| match block_type(b) {
                Some("text") => Some(text_block(b.get("text"))),
                Some("image") => Some(image_block(b)),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// One assistant block on the wire, `None` when the plugin skips it.
fn assistant_block(block: &Value, claude: bool) -> Option<Value> {
    let field = |k| block.get(k);
    match field("type").and_then(Value::as_str)? {
        "text" => {
            let text = field("text").and_then(Value::as_str).unwrap_or("");
            (!is_blank(text)).then(|| json!({ "text": text }))
        }
        "toolCall" => {
            let mut call = Map::new();
            put(&mut call, "toolUseId", field("id"));
            put(&mut call, "name", field("name"));
            put(&mut call, "input", field("arguments"));
            Some(json!({ "toolUse": call }))
        }
        "thinking" => thinking_block(block, claude),
        _ => None,
    }
}

/// A thinking block: signed reasoning on Claude models, plain text elsewhere.
fn thinking_block(block: &Value, claude: bool) -> Option<Value> {
    let signature = block.get("thinkingSignature").and_then(Value::as_str);
    if truthy(block.get("redacted")) {
        if !claude {
            return None;
        }
        let opaque = signature.filter(|s| !s.is_empty()).unwrap_or("");
        return Some(json!({ "reasoningContent": { "redactedContent": bytes(opaque) } }));
    }
    let thinking = block.get("thinking").and_then(Value::as_str).unwrap_or("");
    let trimmed = signature.map(js_trim).unwrap_or("");
    let native = claude && !trimmed.is_empty() && trimmed != "reasoning_content";
    if is_blank(thinking) && !native {
        return None;
    }
    if claude && trimmed == "reasoning_content" {
        return None;
    }
    Some(match signature {
        Some(sig) if native => {
            json!({ "reasoningContent": { "reasoningText": { "text": thinking, "signature": sig } } })
        }
        _ => json!({ "text": thinking }),
    })
}

/// A tool result as its `toolResult` block.
fn tool_result(input: &WireInput) -> Value {
    let m = &input.message;
    let blocks = m.content_array().map_or(&[][..], |a| a.as_slice());
    let mut content: Vec<Value> = blocks
        .iter()
        .filter_map(|b| match block_type(b) {
            Some("text") => Some(text_block(b.get("text"))),
            Some("image") if media_placeholder(std::slice::from_ref(b)).is_some() => Some(image_block(b)),
            _ => None,
        })
        .collect();
    if content.is_empty() {
        content.push(json!({ "text": media_placeholder(blocks).unwrap_or("(no output)") }));
    }
    let mut result = Map::new();
    put(&mut result, "toolUseId", m.get("toolCallId"));
    result.insert("content".into(), Value::Array(content.into()));
    let status = if truthy(m.get("isError")) { "error" } else { "success" };
    result.insert("status".into(), json!(status));
    json!({ "toolResult": result })
}

/// The content of the user message holding a run of tool results. On the one model that
/// rejects images inside tool results, each result's images follow the results as labelled
/// user content.
fn tool_results_content(mut results: Vec<Value>, model_id: &str) -> Vec<Value> {
    if !model_id.contains(IMAGELESS_TOOL_RESULTS_MODEL) {
        return results;
    }
    let mut attached = Vec::new();
    for result in &mut results {
        let id = js::string(result["toolResult"].get("toolUseId"));
        let Some(content) = result["toolResult"].get_mut("content").and_then(Value::as_array_mut) else {
            continue;
        };
        let (images, kept): (Vec<Value>, Vec<Value>) = std::mem::take(content)
            .into_iter()
            .partition(|part| truthy(part.get("image")));
        *content = kept.into();
        if images.is_empty() {
            continue;
        }
        let label = format!("Images from tool result {id}");
        content.push(json!({ "text": format!("(see attached images labeled \"{label}\")") }));
        attached.push(json!({ "text": format!("{label}:") }));
        attached.extend(images);
    }
    results.extend(attached);
    results
}

/// A Converse image block: the format named by the MIME type and the bytes, base64 on the
/// wire.
fn image_block(block: &Value) -> Value {
    let mime = block.get("mimeType").and_then(Value::as_str);
    let format = match mime {
        Some("image/jpeg" | "image/jpg") => Some("jpeg"),
        Some("image/png") => Some("png"),
        Some("image/gif") => Some("gif"),
        Some("image/webp") => Some("webp"),
        _ => None,
    };
    let data = block.get("data").and_then(Value::as_str).unwrap_or("");
    let mut image = Map::new();
    image.insert("source".into(), json!({ "bytes": bytes(data) }));
    if let Some(format) = format {
        image.insert("format".into(), json!(format));
    }
    json!({ "image": image })
}

/// Bytes as the SDK sends them: the canonical base64 of the decoded data, or the data as
/// stored when it is not valid base64.
fn bytes(data: &str) -> String {
    canonicalize_base64(data).unwrap_or_else(|| data.to_owned())
}

/// Append a cache point to the last user message before the first runtime-context carrier,
/// when the conversation ends with a user message.
fn add_cache_point(result: &mut [WireItem], first_volatile: Option<usize>) {
    let is_user = |item: &WireItem| item.value["role"] == "user";
    if !result.last().is_some_and(is_user) {
        return;
    }
    let limit = first_volatile.unwrap_or(result.len());
    if let Some(anchor) = result[..limit].iter_mut().rev().find(|item| is_user(item))
        && let Some(content) = anchor.value.get_mut("content").and_then(Value::as_array_mut)
    {
        content.push(json!({ "cachePoint": { "type": "default" } }));
    }
}

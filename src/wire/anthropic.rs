//! Anthropic Messages: the `messages` array of the request body, as OpenClaw 2026.9.6's
//! Anthropic transport builds it (`buildAnthropicParams` in `@openclaw/ai/transports`):
//! `convertAnthropicMessages` on the transform's output ([`super::transform`]), the
//! non-empty guard, then the prompt-cache breakpoint that `applyAnthropicRequestCacheControl`
//! puts on the newest user content.
//!
//! * User turns: string content as a string; blocks as `text` / `image` (base64, media type
//!   sniffed from the bytes); blank text is dropped, and a turn left empty disappears. A model
//!   without image input gets `(image omitted: model does not support images)` instead.
//! * Assistant turns: non-blank text, thinking with its signature (unsigned thinking as text),
//!   `redacted_thinking`, and `tool_use` for `toolCall` blocks; every other block is dropped.
//!   When thinking is off for the request, thinking is left out except in the tool turn the
//!   request continues, and a turn left with nothing says `[assistant reasoning omitted]`.
//! * Consecutive tool results become one user message of `tool_result` blocks; their content
//!   is the result text (a string), or text and image blocks when images are attached.
//! * An empty conversation is sent as one user message `"."`.
//! * GitHub Copilot's stream wrapper then strips assistant thinking and re-allocates tool ids
//!   (`copilot`).

mod copilot;
mod images;
#[cfg(test)]
mod tests;

use std::collections::HashSet;

use crate::json;
use crate::model::json::{Array, Map, Value};

use super::blocks::coerce_arguments;
use super::tool_result::{block_text, is_image_with_payload, media_placeholder, tool_result_text};
use super::transform::claude;
use super::{WireInput, WireItem, WireModel};
use crate::openclaw::js::js_trim;
use crate::openclaw::js::truthy;

pub use images::InlineImage;

/// `ANTHROPIC_OMITTED_REASONING_TEXT`
pub const OMITTED_REASONING_TEXT: &str = "[assistant reasoning omitted]";
/// `NON_VISION_USER_IMAGE_PLACEHOLDER`
pub const USER_IMAGE_PLACEHOLDER: &str = "(image omitted: model does not support images)";
/// `EMPTY_ANTHROPIC_MESSAGES_FALLBACK_TEXT`
pub const EMPTY_MESSAGES_FALLBACK_TEXT: &str = ".";

/// The request settings that change the `messages` array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnthropicOptions {
    /// Thinking is on for this request (`replayThinkingEnabled`): earlier thinking is replayed.
    /// Off, only the tool turn being continued keeps it.
    pub replay_thinking: bool,
    /// `allowReasoningContentReplay` (Xiaomi's native endpoint): `reasoning_content` thinking
    /// is replayed as thinking plus a `reasoning_content` field.
    pub allow_reasoning_content_replay: bool,
    /// `model.compat.allowEmptySignature`: unsigned thinking stays thinking.
    pub allow_empty_signature: bool,
    /// The prompt-cache marker put on the newest user content (`None`: cache retention `none`).
    pub cache_control: Option<Value>,
}

impl AnthropicOptions {
    /// The settings of a normal request to `model`: thinking as the transport enables it
    /// (`resolveAnthropicTransportOptions`): at OpenClaw's default thinking level `medium` for
    /// every model, adaptive or with a budget of 8,192 tokens (`model.reasoning` is not read
    /// there; a configured `maxTokens` that leaves no room for it is not read here), and always
    /// for models that must think; short cache retention (`{type:"ephemeral"}`), no endpoint
    /// quirks.
    pub fn for_model(model: &WireModel) -> Self {
        Self {
            replay_thinking: model.thinking || claude::requires_adaptive_thinking(&model.api, model.claude_identity()),
            allow_reasoning_content_replay: false,
            allow_empty_signature: false,
            cache_control: Some(json!({"type": "ephemeral"})),
        }
    }
}

/// Convert prepared messages to the Anthropic `messages` array.
pub fn convert(inputs: &[WireInput], model: &WireModel) -> Vec<WireItem> {
    convert_with(inputs, model, &AnthropicOptions::for_model(model))
}

/// [`convert`] with explicit request settings.
pub fn convert_with(inputs: &[WireInput], model: &WireModel, options: &AnthropicOptions) -> Vec<WireItem> {
    let mut opt_out: HashSet<usize> = HashSet::new();
    let mut items = convert_messages(inputs, model, options, &mut opt_out);
    if items.is_empty() {
        items.push(WireItem {
            value: json!({"role": "user", "content": EMPTY_MESSAGES_FALLBACK_TEXT}),
            source: Default::default(),
        });
    }
    if let Some(cache_control) = &options.cache_control {
        apply_cache_control(&mut items, cache_control, &opt_out);
    }
    if copilot::applies(model) {
        copilot::patch(&mut items);
    }
    items
}

fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

fn text(t: &str) -> Value {
    Value::Object(Map::from_entries(vec![
        ("type".into(), Value::from("text")),
        ("text".into(), Value::from(t)),
    ]))
}

/// A text block's text as a `text` block, `None` when it is blank. A stored block that is
/// already exactly `{type, text}` is passed on shared, not rebuilt.
fn non_blank_text(block: &Value) -> Option<Value> {
    let t = str_of(block, "text").unwrap_or("");
    if js_trim(t).is_empty() {
        return None;
    }
    let already = block
        .as_object()
        .is_some_and(|o| o.keys().map(|k| k.as_str()).eq(["type", "text"]));
    Some(if already { block.clone() } else { text(t) })
}

fn image(img: &InlineImage) -> Value {
    json!({"type": "image", "source": {"type": "base64", "media_type": img.media_type, "data": img.data}})
}

/// `convertAnthropicMessages` (transport profile, API key auth).
fn convert_messages(
    inputs: &[WireInput],
    model: &WireModel,
    options: &AnthropicOptions,
    opt_out: &mut HashSet<usize>,
) -> Vec<WireItem> {
    let retain_runtime_context = claude::binds_thinking_prefix(Some(model.claude_identity()));
    let active_tool_turn = if options.replay_thinking {
        None
    } else {
        active_tool_turn_assistant(inputs)
    };
    let mut items: Vec<WireItem> = Vec::with_capacity(inputs.len());
    let mut i = 0;
    while i < inputs.len() {
        let input = &inputs[i];
        let msg = &input.message;
        match msg.str_field("role") {
            Some("user") => {
                let content = match msg.content_str() {
                    Some(content) => (!js_trim(content).is_empty()).then(|| Value::from(content)),
                    None => {
                        let stored = msg.content_array();
                        let blocks = user_blocks(stored.map_or(&[], |a| a.as_slice()), model.input_images);
                        (!blocks.is_empty()).then(|| content_of(stored, blocks))
                    }
                };
                if let Some(content) = content {
                    if truthy(msg.get("runtimeContextCarrier")) && !retain_runtime_context {
                        opt_out.insert(items.len());
                    }
                    items.push(WireItem {
                        value: Value::object([("role", "user".into()), ("content", content)]),
                        source: input.source.clone(),
                    });
                }
            }
            Some("assistant") => {
                if let Some(value) = assistant_message(msg.content_array(), i, active_tool_turn, options) {
                    items.push(WireItem {
                        value,
                        source: input.source.clone(),
                    });
                }
            }
            Some("toolResult") => {
                let mut results = Vec::new();
                let mut source = crate::model::Indices::new();
                while let Some(next) = inputs.get(i).filter(|n| n.message.is_tool_result()) {
                    results.push(tool_result_block(&next.message, model));
                    source.extend(next.source.iter().copied());
                    i += 1;
                }
                items.push(WireItem {
                    value: Value::object([("role", "user".into()), ("content", Value::Array(results.into()))]),
                    source,
                });
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    items
}

/// A turn's converted blocks as its `content`: the stored array itself, shared, when every
/// block was passed on shared and in order (a turn of plain text blocks), else a new array.
fn content_of(stored: Option<&Array>, blocks: Vec<Value>) -> Value {
    let shared =
        |(a, b): (&Value, &Value)| matches!((a, b), (Value::Object(a), Value::Object(b)) if a.shares_storage(b));
    match stored {
        Some(stored) if stored.len() == blocks.len() && stored.iter().zip(&blocks).all(shared) => {
            Value::Array(stored.clone())
        }
        _ => Value::Array(blocks.into()),
    }
}

/// The blocks of a user turn with array content.
fn user_blocks(content: &[Value], images: bool) -> Vec<Value> {
    let mut out = Vec::with_capacity(content.len());
    for block in content {
        match str_of(block, "type") {
            Some("text") => out.extend(non_blank_text(block)),
            Some("image") if images => {
                let img = images::normalize(str_of(block, "data").unwrap_or(""), str_of(block, "mimeType"));
                out.push(image(&img));
            }
            Some("image") => out.push(text(USER_IMAGE_PLACEHOLDER)),
            // Without images in the turn upstream keeps only text; with images (or on a
            // text-only model) another block makes the request fail. Either way it is not sent.
            _ => {}
        }
    }
    out
}

/// One assistant turn; `None` when nothing of it is sent.
fn assistant_message(
    stored: Option<&Array>,
    index: usize,
    active_tool_turn: Option<usize>,
    options: &AnthropicOptions,
) -> Option<Value> {
    let mut blocks: Vec<Value> = Vec::new();
    let mut reasoning_content: Vec<String> = Vec::new();
    let mut omitted_thinking = false;
    for block in stored.map_or(&[][..], |a| a.as_slice()) {
        match str_of(block, "type") {
            Some("text") => blocks.extend(non_blank_text(block)),
            Some("thinking") => {
                let raw_signature = block.get("thinkingSignature");
                let signature = raw_signature.and_then(Value::as_str).map(js_trim);
                let is_reasoning_content = signature == Some("reasoning_content");
                if !options.replay_thinking && Some(index) != active_tool_turn && !is_reasoning_content {
                    omitted_thinking = true;
                    continue;
                }
                if truthy(block.get("redacted")) {
                    let mut redacted = Map::new();
                    redacted.insert("type".into(), json!("redacted_thinking"));
                    if let Some(data) = raw_signature {
                        redacted.insert("data".into(), data.clone());
                    }
                    blocks.push(Value::Object(redacted));
                    continue;
                }
                let signature = signature.filter(|s| !s.is_empty());
                let native = signature.is_some() && !is_reasoning_content;
                let thinking = str_of(block, "thinking").unwrap_or("");
                if js_trim(thinking).is_empty() && !native {
                    continue;
                }
                match signature {
                    None if !options.allow_empty_signature => blocks.push(text(thinking)),
                    Some("reasoning_content") => {
                        if options.allow_reasoning_content_replay {
                            blocks.push(
                                json!({"type": "thinking", "thinking": thinking, "signature": "reasoning_content"}),
                            );
                            reasoning_content.push(thinking.to_owned());
                        }
                    }
                    sig => {
                        blocks.push(json!({"type": "thinking", "thinking": thinking, "signature": sig.unwrap_or("")}))
                    }
                }
            }
            Some("toolCall") => {
                let mut call = Map::new();
                call.insert("type".into(), json!("tool_use"));
                for key in ["id", "name"] {
                    if let Some(v) = block.get(key) {
                        call.insert(key.to_owned().into(), v.clone());
                    }
                }
                call.insert("input".into(), coerce_arguments(block.get("arguments")));
                blocks.push(Value::Object(call));
            }
            _ => {}
        }
    }
    if blocks.is_empty() && omitted_thinking {
        blocks.push(text(OMITTED_REASONING_TEXT));
    }
    if blocks.is_empty() {
        return None;
    }
    if reasoning_content.is_empty() && options.allow_reasoning_content_replay {
        blocks.insert(
            0,
            json!({"type": "thinking", "thinking": "", "signature": "reasoning_content"}),
        );
    }
    let content = content_of(stored, blocks);
    Some(if reasoning_content.is_empty() {
        Value::object([("role", "assistant".into()), ("content", content)])
    } else {
        Value::object([
            ("role", "assistant".into()),
            ("content", content),
            ("reasoning_content", reasoning_content.join("\n").into()),
        ])
    })
}

/// One `tool_result` block.
fn tool_result_block(msg: &crate::model::Message, model: &WireModel) -> Value {
    // Upstream iterates a string content character by character and finds no block in it
    // (on a vision model it fails the request instead): the result reads `(no output)`.
    let content: &[Value] = msg.content_array().map_or(&[], |a| a.as_slice());
    let mut block = Map::new();
    block.insert("type".into(), json!("tool_result"));
    if let Some(id) = msg.get("toolCallId") {
        block.insert("tool_use_id".into(), id.clone());
    }
    block.insert("content".into(), tool_result_content(content, model.input_images));
    if let Some(is_error) = msg.get("isError") {
        block.insert("is_error".into(), is_error.clone());
    }
    Value::Object(block)
}

/// `convertContentBlocks` (transport profile).
fn tool_result_content(content: &[Value], images: bool) -> Value {
    let placeholder = media_placeholder(content);
    if !(images && content.iter().any(is_image_with_payload)) {
        let t = tool_result_text(content);
        return if js_trim(&t).is_empty() {
            json!(placeholder.unwrap_or("(no output)"))
        } else {
            json!(t)
        };
    }
    let mut blocks = Vec::new();
    let mut has_text = false;
    for block in content {
        if !(block.is_object() || block.is_array()) {
            continue;
        }
        if let Some(t) = block_text(block) {
            blocks.push(text(&t));
            has_text = true;
        }
        if is_image_with_payload(block) {
            let mime = str_of(block, "mimeType").unwrap_or("image/png");
            blocks.push(image(&images::normalize(
                str_of(block, "data").unwrap_or(""),
                Some(mime),
            )));
        }
    }
    if !has_text {
        blocks.insert(0, text(placeholder.unwrap_or("(see attached image)")));
    }
    Value::Array(blocks.into())
}

/// `findActiveAnthropicToolTurnAssistantIndex`: the assistant turn whose calls the trailing
/// tool results answer, all of them.
fn active_tool_turn_assistant(inputs: &[WireInput]) -> Option<usize> {
    let mut ids: HashSet<&str> = HashSet::new();
    let mut index = inputs.len();
    while index > 0 && inputs[index - 1].message.is_tool_result() {
        if let Some(id) = inputs[index - 1].message.str_field("toolCallId") {
            ids.insert(id);
        }
        index -= 1;
    }
    if ids.is_empty() || index == 0 {
        return None;
    }
    let assistant = &inputs[index - 1].message;
    if !assistant.is_assistant() {
        return None;
    }
    let content = assistant.content_array()?;
    let calls: HashSet<&str> = content
        .iter()
        .filter(|b| matches!(str_of(b, "type"), Some("toolCall" | "tool_use" | "function_call")))
        .filter_map(|b| str_of(b, "id"))
        .collect();
    ids.iter().all(|id| calls.contains(id)).then_some(index - 1)
}

/// `applyAnthropicCacheControlToMessages`: the newest user text or image block gets the
/// marker; when tool results come after it, the newest of them gets one too (the system
/// prompt and tools use at most two of the four markers, so two are always left).
fn apply_cache_control(items: &mut [WireItem], cache_control: &Value, opt_out: &HashSet<usize>) {
    let mut fallback: Option<(usize, usize)> = None;
    let mut target: Option<(usize, Option<usize>)> = None;
    'messages: for i in (0..items.len()).rev() {
        let value = &items[i].value;
        if str_of(value, "role") != Some("user") || opt_out.contains(&i) {
            continue;
        }
        match value.get("content") {
            Some(Value::String(_)) => {
                target = Some((i, None));
                break 'messages;
            }
            Some(Value::Array(blocks)) => {
                for j in (0..blocks.len()).rev() {
                    match str_of(&blocks[j], "type") {
                        Some("text" | "image") => {
                            target = Some((i, Some(j)));
                            break 'messages;
                        }
                        Some("tool_result") if fallback.is_none() => fallback = Some((i, j)),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    match target {
        Some((i, None)) => {
            let content = items[i]
                .value
                .get("content")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            items[i].value["content"] = json!([{"type": "text", "text": content, "cache_control": cache_control}]);
        }
        Some((i, Some(j))) => mark(&mut items[i].value, j, cache_control),
        None => {}
    }
    if let Some((i, j)) = fallback {
        mark(&mut items[i].value, j, cache_control);
    }
}

fn mark(message: &mut Value, block: usize, cache_control: &Value) {
    if let Some(b) = message
        .get_mut("content")
        .and_then(|c| c.get_mut(block))
        .and_then(Value::as_object_mut)
    {
        b.insert("cache_control".into(), cache_control.clone());
    }
}

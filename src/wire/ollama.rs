//! Ollama's native chat API (`ollama`): the `messages` array of `/api/chat`.
//!
//! Port of `convertToOllamaMessages` in OpenClaw's bundled ollama plugin
//! (`extensions/ollama/src/stream.runtime.ts`, `dist/stream.runtime-*.mjs` in 2026.9.6), run
//! by the plugin's `createStreamFn` for the `ollama` and `ollama-cloud` providers after
//! `@openclaw/ai`'s `transformMessages` (without an id normalizer). Every message keeps a
//! string `content`:
//!
//! - `user` → the text blocks joined without separator, image blocks' `data` as `images`
//!   (kept as stored, `null` when absent);
//! - `assistant` → the text blocks joined, the non-redacted thinking joined as `thinking`,
//!   `toolCall` / `tool_use` blocks as `tool_calls` (`{id?, function: {name, arguments}}`,
//!   arguments always an object, names stripped of a `functions.` / `tools/` prefix); an empty
//!   turn is sent as `{role: "assistant", content: ""}`;
//! - `toolResult` → `tool` with the flattened text (structured blocks included, placeholders
//!   for media, `[tool error] ` prefix), the images' bytes as `images`, `tool_call_id` and
//!   `tool_name` when they are non-empty strings.
//!
//! The system prompt OpenClaw puts first is not part of the payload shown. The tool list the
//! plugin reads to keep a prefixed name that matches a tool is not known here (a transcript
//! holds no tool list), so names are read as OpenClaw does without one.

use std::sync::LazyLock;

use regex::Regex;

use crate::json;
use crate::model::json::{Map, Value};

use super::blocks::block_type;
use super::tool_result::{format_tool_result, is_image_with_payload, media_kinds, tool_result_text_with_structured};
use super::{WireInput, WireItem};
use crate::load::json_parse::parse_value;
use crate::model::{Message, Role};
use crate::openclaw::js;
use crate::openclaw::js::js_trim;

/// The prefix a model sometimes puts before a tool name, removed when no tool list is known.
static NAME_PREFIX: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?i)^(?:functions?|tools?)[./]+").expect("regex"));

/// `Number.MAX_SAFE_INTEGER` as digits.
const MAX_SAFE_INTEGER: &str = "9007199254740991";

/// Convert prepared messages to the Ollama `messages` array.
pub fn convert(inputs: &[WireInput]) -> Vec<WireItem> {
    inputs
        .iter()
        .filter_map(|input| {
            let msg = &input.message;
            let value = match msg.role() {
                Role::User => user_message(msg),
                Role::Assistant => assistant_message(msg),
                Role::ToolResult | Role::Other("tool") => tool_message(msg),
                _ => return None,
            };
            Some(WireItem {
                value,
                source: input.source.clone(),
            })
        })
        .collect()
}

/// The content's blocks of one `type`.
fn blocks_of<'a>(msg: &'a Message, kind: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
    msg.content_array()
        .into_iter()
        .flatten()
        .filter(move |b| block_type(b) == Some(kind))
}

/// `extractTextContent`: a string content as it is, else the text blocks' `text` joined.
fn text_content(msg: &Message) -> String {
    match msg.content() {
        Some(Value::String(text)) => text.to_string(),
        _ => blocks_of(msg, "text")
            .map(|b| b.get("text").map(js::join_element).unwrap_or_default())
            .collect(),
    }
}

fn user_message(msg: &Message) -> Value {
    let images: Vec<Value> = blocks_of(msg, "image")
        .map(|b| b.get("data").cloned().unwrap_or(Value::Null))
        .collect();
    let mut out = Map::new();
    out.insert("role".into(), json!("user"));
    out.insert("content".into(), Value::String(text_content(msg).into()));
    if !images.is_empty() {
        out.insert("images".into(), Value::Array(images.into()));
    }
    Value::Object(out)
}

fn assistant_message(msg: &Message) -> Value {
    let thinking: String = blocks_of(msg, "thinking")
        .filter(|b| !js::truthy(b.get("redacted")))
        .filter_map(|b| b.get("thinking").and_then(Value::as_str))
        .collect();
    let calls: Vec<Value> = msg
        .content_array()
        .into_iter()
        .flatten()
        .filter_map(|b| match block_type(b) {
            Some("toolCall") => Some(tool_call(b, b.get("arguments"))),
            Some("tool_use") => Some(tool_call(b, b.get("input"))),
            _ => None,
        })
        .collect();
    let mut out = Map::new();
    out.insert("role".into(), json!("assistant"));
    out.insert("content".into(), Value::String(text_content(msg).into()));
    if !thinking.is_empty() {
        out.insert("thinking".into(), Value::String(thinking.into()));
    }
    if !calls.is_empty() {
        out.insert("tool_calls".into(), Value::Array(calls.into()));
    }
    Value::Object(out)
}

/// One tool call: its trimmed id when non-blank, its name, its arguments as an object.
fn tool_call(block: &Value, arguments: Option<&Value>) -> Value {
    let mut out = Map::new();
    if let Some(id) = block
        .get("id")
        .and_then(Value::as_str)
        .map(js_trim)
        .filter(|id| !id.is_empty())
    {
        out.insert("id".into(), json!(id));
    }
    let mut function = Map::new();
    js::put(&mut function, "name", tool_name(block.get("name")).as_ref());
    function.insert("arguments".into(), arguments_object(arguments));
    out.insert("function".into(), Value::Object(function));
    Value::Object(out)
}

/// `normalizeOllamaToolCallName` without a tool list: trimmed, a `function`/`tool` prefix
/// ending in `.` or `/` removed. (OpenClaw throws on a name that is not a string; it is kept
/// as stored here.)
fn tool_name(name: Option<&Value>) -> Option<Value> {
    let Some(Value::String(raw)) = name else {
        return name.cloned();
    };
    let trimmed = js_trim(raw);
    Some(json!(js_trim(&NAME_PREFIX.replace(trimmed, ""))))
}

/// `ensureArgsObject`: an object as it is, a string holding a JSON object parsed (integers
/// beyond 2^53 kept as their digits in a string), anything else `{}`.
pub(crate) fn arguments_object(value: Option<&Value>) -> Value {
    let parsed = match value {
        Some(Value::String(s)) => parse_value(s.as_bytes()).ok().map(parsed_as_javascript),
        other => other.cloned(),
    };
    match parsed {
        Some(v @ Value::Object(_)) => v,
        _ => Value::Object(Map::new()),
    }
}

/// `quoteUnsafeIntegerLiterals` after the parse: an integer literal beyond
/// `Number.MAX_SAFE_INTEGER` becomes a string of its digits, any other number the double
/// `JSON.parse` reads.
fn parsed_as_javascript(value: Value) -> Value {
    match value {
        Value::Number(n) if is_unsafe_integer(n.as_str()) => Value::String(n.as_str().into()),
        Value::Number(n) => js::number(&n),
        Value::Array(items) => Value::Array(items.into_iter().map(parsed_as_javascript).collect()),
        Value::Object(object) => Value::Object(object.into_iter().map(|(k, v)| (k, parsed_as_javascript(v))).collect()),
        other => other,
    }
}

/// `isUnsafeIntegerLiteral` of a number token without fraction or exponent.
fn is_unsafe_integer(token: &str) -> bool {
    let digits = token.strip_prefix('-').unwrap_or(token);
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    digits.len() > MAX_SAFE_INTEGER.len() || (digits.len() == MAX_SAFE_INTEGER.len() && digits > MAX_SAFE_INTEGER)
}

fn tool_message(msg: &Message) -> Value {
    let blocks: Vec<Value> = match msg.content() {
        Some(Value::Array(blocks)) => blocks.to_vec(),
        Some(Value::String(text)) => vec![json!({"type": "text", "text": text})],
        _ => vec![json!({"type": "text", "text": ""})],
    };
    let text = tool_result_text_with_structured(&blocks);
    let images: Vec<Value> = blocks
        .iter()
        .filter(|b| is_image_with_payload(b))
        .filter_map(|b| b.get("data").cloned())
        .collect();
    // Images travel natively; only audio is described as omitted.
    let omitted = media_kinds(&blocks)
        .1
        .then_some("[unsupported tool-result audio omitted]");
    let media = (!images.is_empty()).then_some("(see attached image)");
    let is_error = msg.get("isError") == Some(&Value::Bool(true));
    let mut out = Map::new();
    out.insert("role".into(), json!("tool"));
    out.insert(
        "content".into(),
        Value::String(format_tool_result(&text, media, omitted, is_error).into()),
    );
    if !images.is_empty() {
        out.insert("images".into(), Value::Array(images.into()));
    }
    for (field, key) in [("toolCallId", "tool_call_id"), ("toolName", "tool_name")] {
        if let Some(v) = msg.get(field).filter(|v| v.as_str().is_some_and(|s| !s.is_empty())) {
            out.insert(key.into(), v.clone());
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests;

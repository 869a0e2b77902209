//! Codex `ResponseItem`s → the block and message shapes OpenClaw stores for the
//! `openai-responses` API (pi-ai's `openai-responses` provider): `thinking` blocks that
//! carry the whole reasoning item as their signature, `text` blocks with a `textSignature`,
//! `toolCall` blocks with `call_id|item_id` ids, and `toolResult` messages.

use crate::json;
use crate::model::json::{Map, Value};

use crate::load::json_parse::parse_value;

/// What a response item is, for the walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ItemKind<'a> {
    /// A `message` the model reads as input: role `user`, or `developer`/`system`
    /// (`developer: true`), which OpenClaw can only hold as a user turn.
    UserMessage {
        /// Whether the stored role was `developer` or `system`.
        developer: bool,
    },
    /// A `message` with role `assistant`.
    AssistantMessage,
    /// `reasoning`.
    Reasoning,
    /// `function_call`, or the drift spelling `tool_call`: JSON arguments.
    FunctionCall,
    /// `custom_tool_call`: a free-form `input` string.
    CustomToolCall,
    /// `local_shell_call`: an `action` object.
    LocalShellCall,
    /// A tool output: `function_call_output`, `custom_tool_call_output`, or the drift
    /// spellings `tool_result` / `function_result`.
    Output,
    /// A `message` whose role has no place in the common model ("" when it has none).
    OtherRole(&'a str),
    /// An item with no place in the common model (`web_search_call`, `ghost_snapshot`,
    /// `compaction`, unknown types; "" when untyped).
    Unmapped(&'a str),
}

/// Classify an item by its `type` (a payload with a `role` but no `type` is a message).
pub(super) fn classify(item: &Map) -> ItemKind<'_> {
    let role = item.get("role").and_then(Value::as_str);
    match item.get("type").and_then(Value::as_str) {
        Some("message") => message_kind(role),
        None if item.contains_key("role") => message_kind(role),
        None => ItemKind::Unmapped(""),
        Some("reasoning") => ItemKind::Reasoning,
        Some("function_call" | "tool_call") => ItemKind::FunctionCall,
        Some("custom_tool_call") => ItemKind::CustomToolCall,
        Some("local_shell_call") => ItemKind::LocalShellCall,
        Some("function_call_output" | "custom_tool_call_output" | "tool_result" | "function_result") => {
            ItemKind::Output
        }
        Some(other) => ItemKind::Unmapped(other),
    }
}

fn message_kind(role: Option<&str>) -> ItemKind<'_> {
    match role {
        Some("user") => ItemKind::UserMessage { developer: false },
        Some("developer" | "system") => ItemKind::UserMessage { developer: true },
        Some("assistant") => ItemKind::AssistantMessage,
        Some(other) => ItemKind::OtherRole(other),
        None => ItemKind::OtherRole(""),
    }
}

/// A content part in the common model's shape, or kept as stored with a label for the notes.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Part {
    /// A `text` or `image` block.
    Block(Value),
    /// The stored part, unchanged, and what kind of part it is (e.g. "`refusal` part").
    Kept(Value, String),
}

/// The label of an `input_image` part that holds no inline `data:` URL.
pub(super) const IMAGE_WITHOUT_DATA: &str = "`input_image` part without a `data:` URL";

/// Map one content part: `input_text`/`output_text`/`text` → text, an `input_image` with a
/// base64 `data:` URL → image, anything else kept as stored.
pub(super) fn content_part(part: &Value) -> Part {
    let Some(ty) = part.get("type").and_then(Value::as_str) else {
        return Part::Kept(part.clone(), "untyped content part".to_owned());
    };
    match ty {
        "input_text" | "output_text" | "text" => match part.get("text").and_then(Value::as_str) {
            Some(text) => Part::Block(text_block(text)),
            None => Part::Kept(part.clone(), format!("`{ty}` part without a string `text`")),
        },
        "input_image" => match image_url(part).and_then(data_url_image) {
            Some(block) => Part::Block(block),
            None => Part::Kept(part.clone(), IMAGE_WITHOUT_DATA.to_owned()),
        },
        other => Part::Kept(part.clone(), format!("`{other}` part")),
    }
}

/// `image_url` as a string, or the `url` of an `{url}` object (the Chat Completions spelling).
fn image_url(part: &Value) -> Option<&str> {
    match part.get("image_url")? {
        Value::String(url) => Some(url),
        Value::Object(o) => o.get("url").and_then(Value::as_str),
        _ => None,
    }
}

/// `data:<mime>;base64,<data>` → `{type:"image", data, mimeType}`.
pub(super) fn data_url_image(url: &str) -> Option<Value> {
    let rest = url.strip_prefix("data:")?;
    let (meta, data) = rest.split_once(',')?;
    let mut params = meta.split(';');
    let mime = params.next()?.trim();
    if mime.is_empty() || !params.any(|p| p.trim().eq_ignore_ascii_case("base64")) {
        return None;
    }
    Some(json!({"type": "image", "data": data, "mimeType": mime}))
}

fn text_block(text: &str) -> Value {
    json!({"type": "text", "text": text})
}

/// The parts of a user-side message: `content` as a string or an array of parts, else the
/// drift spelling `message` (a string).
pub(super) fn message_parts(item: &Map) -> Vec<Part> {
    match item.get("content") {
        Some(Value::String(text)) => vec![Part::Block(text_block(text))],
        Some(Value::Array(parts)) => parts.iter().map(content_part).collect(),
        Some(part @ Value::Object(_)) => vec![content_part(part)],
        _ => match item.get("message") {
            Some(Value::String(text)) => vec![Part::Block(text_block(text))],
            _ => Vec::new(),
        },
    }
}

/// An assistant `message` item as pi-ai stores it: ONE text block holding its
/// `output_text` (and `refusal`) parts joined, with `textSignature` `{"v":1,"id",phase?}`
/// when the item has an id. Parts that are not text are returned to be kept as stored.
pub(super) fn assistant_text(item: &Map) -> (Value, Vec<Part>) {
    let mut text = String::new();
    let mut kept = Vec::new();
    match item.get("content") {
        Some(Value::String(s)) => text.push_str(s),
        Some(Value::Array(parts)) => {
            for part in parts {
                let ty = part.get("type").and_then(Value::as_str);
                let piece = match ty {
                    Some("output_text" | "input_text" | "text") => part.get("text").and_then(Value::as_str),
                    Some("refusal") => part.get("refusal").and_then(Value::as_str),
                    _ => None,
                };
                match (piece, ty) {
                    (Some(p), _) => text.push_str(p),
                    (None, Some(t)) => kept.push(Part::Kept(part.clone(), format!("`{t}` part"))),
                    (None, None) => kept.push(Part::Kept(part.clone(), "untyped content part".to_owned())),
                }
            }
        }
        _ => {
            if let Some(s) = item.get("message").and_then(Value::as_str) {
                text.push_str(s);
            }
        }
    }
    let mut block = Map::new();
    block.insert("type".into(), json!("text"));
    block.insert("text".into(), json!(text));
    if let Some(id) = item.get("id").and_then(Value::as_str) {
        let mut sig = Map::new();
        sig.insert("v".into(), json!(1));
        sig.insert("id".into(), json!(id));
        if let Some(phase) = item.get("phase").and_then(Value::as_str).filter(|p| !p.is_empty()) {
            sig.insert("phase".into(), json!(phase));
        }
        let sig = serde_json::to_string(&sig).unwrap_or_default();
        block.insert("textSignature".into(), json!(sig));
    }
    (Value::Object(block), kept)
}

/// A `reasoning` item → `{type:"thinking", thinking: <summary texts joined by a blank
/// line>, thinkingSignature: <the whole stored item as compact JSON>}`.
pub(super) fn thinking_block(item: &Map) -> Value {
    let thinking = item
        .get("summary")
        .and_then(Value::as_array)
        .map(|parts| {
            parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n\n")
        })
        .unwrap_or_default();
    let signature = serde_json::to_string(item).unwrap_or_default();
    json!({"type": "thinking", "thinking": thinking, "thinkingSignature": signature})
}

/// A tool call read from an item, before its id is settled.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct CallParts<'a> {
    /// The stored `call_id`.
    pub call_id: Option<&'a str>,
    /// The item's own `id` (`fc_…`), which OpenClaw appends as `call_id|id`.
    pub item_id: Option<&'a str>,
    /// The tool name (`name`, or the drift spelling `function.name`).
    pub name: Option<&'a str>,
    /// The arguments object of the `toolCall` block.
    pub arguments: Value,
    /// Set when the arguments had to be guessed (not a JSON object, or missing).
    pub guessed: bool,
}

/// Read a call item of kind `FunctionCall`, `CustomToolCall` or `LocalShellCall`.
pub(super) fn call_parts<'a>(kind: ItemKind<'_>, item: &'a Map) -> CallParts<'a> {
    let function = item.get("function").and_then(Value::as_object);
    let name = match kind {
        ItemKind::LocalShellCall => Some("local_shell"),
        _ => item
            .get("name")
            .and_then(Value::as_str)
            .or_else(|| function.and_then(|f| f.get("name")).and_then(Value::as_str)),
    };
    let (arguments, guessed) = match kind {
        ItemKind::CustomToolCall => match item.get("input") {
            Some(Value::String(s)) => (json!({"input": s}), false),
            Some(v) if !v.is_null() => (json!({"input": v}), true),
            _ => (json!({"input": ""}), true),
        },
        ItemKind::LocalShellCall => match item.get("action") {
            Some(action @ Value::Object(_)) => (action.clone(), false),
            _ => (json!({}), true),
        },
        _ => {
            let raw = item
                .get("arguments")
                .or_else(|| function.and_then(|f| f.get("arguments")));
            json_arguments(raw)
        }
    };
    CallParts {
        call_id: item.get("call_id").and_then(Value::as_str),
        item_id: item.get("id").and_then(Value::as_str),
        name,
        arguments,
        guessed,
    }
}

/// `arguments` as stored (a JSON string, or an object in drift shapes) → an object; `{}`
/// and `true` (guessed) when it is anything else.
fn json_arguments(raw: Option<&Value>) -> (Value, bool) {
    match raw {
        Some(obj @ Value::Object(_)) => (obj.clone(), false),
        Some(Value::String(s)) => match parse_value(s.as_bytes()) {
            Ok(obj @ Value::Object(_)) => (obj, false),
            _ => (json!({}), true),
        },
        _ => (json!({}), true),
    }
}

/// The id OpenClaw gives a Responses tool call: `call_id|item_id`, or `call_id` alone.
pub(super) fn tool_call_id(call_id: &str, item_id: Option<&str>) -> String {
    match item_id {
        Some(item) => format!("{call_id}|{item}"),
        None => call_id.to_owned(),
    }
}

/// A `toolCall` block.
pub(super) fn tool_call_block(id: &str, name: &str, arguments: Value) -> Value {
    json!({"type": "toolCall", "id": id, "name": name, "arguments": arguments})
}

/// The stored output of a tool-output item: `output`, or the drift spellings `result`
/// and `content` (the first one present and not null).
pub(super) fn output_value(item: &Map) -> Option<&Value> {
    ["output", "result", "content"]
        .iter()
        .find_map(|k| item.get(k).filter(|v| !v.is_null()))
}

/// A tool output → tool-result content: a string is one text block, an array is mapped
/// part by part, a single part object is one part, and any other value is its compact
/// JSON as text.
pub(super) fn output_parts(output: &Value) -> Vec<Part> {
    match output {
        Value::String(text) => vec![Part::Block(text_block(text))],
        Value::Array(parts) => parts.iter().map(content_part).collect(),
        Value::Object(o) if o.get("type").is_some_and(Value::is_string) => vec![content_part(output)],
        other => vec![Part::Block(text_block(
            &serde_json::to_string(other).unwrap_or_default(),
        ))],
    }
}

/// OpenClaw's zeroed `usage` (Codex rollouts record usage only in UI events).
pub(super) fn zero_usage() -> Value {
    json!({
        "input": 0,
        "output": 0,
        "cacheRead": 0,
        "cacheWrite": 0,
        "totalTokens": 0,
        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
    })
}

/// The working directory in an `<environment_context>…<cwd>…</cwd>` user text.
pub(super) fn environment_cwd(text: &str) -> Option<&str> {
    let context = &text[text.find("<environment_context>")?..];
    let start = context.find("<cwd>")? + "<cwd>".len();
    let len = context[start..].find("</cwd>")?;
    Some(context[start..start + len].trim()).filter(|c| !c.is_empty())
}

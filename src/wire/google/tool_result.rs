//! The text and media of a tool result as OpenClaw's converters read them.
//!
//! Port of `tool-result-text.ts` in `@openclaw/ai` (`host-*.mjs` in 2026.9.6):
//! `extractToolResultText` → [`tool_result_text`], `describeToolResultMediaPlaceholder` →
//! [`media_placeholder`], `isImageWithMediaPayload` → [`is_image_with_payload`]. Every
//! converter of OpenClaw uses them; they live here until a shared wire module takes them.
//!
//! Not ported: the host's `redactModelVisibleSecrets` pass over structured (non-text) blocks,
//! which masks credentials with OpenClaw's redaction patterns before they are stringified.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::{Map, Value};

use crate::hygiene::rules::assistant_text::js_trim;
use crate::model::value_field;

/// Longest structured tool-result text kept, in UTF-16 code units.
const STRUCTURED_MAX_UNITS: usize = 8000;

/// Block types whose payload is media only: they contribute no text.
const MEDIA_ONLY_TYPES: [&str; 6] = [
    "image",
    "image_url",
    "input_image",
    "audio",
    "input_audio",
    "output_audio",
];

/// Fields whose MIME type names the `data` next to them, in the order they are read.
const MIME_KEYS: [&str; 6] = [
    "mimeType",
    "mime_type",
    "mediaType",
    "media_type",
    "contentType",
    "content_type",
];

static OPAQUE_KEY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)^(?:blob|buffer|bytes|encrypted_content|encrypted_stdout)$").expect("regex"));
static TEXTUAL_MIME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:text/|application/(?:json|ld\+json|x-ndjson|xml|javascript|x-www-form-urlencoded)|[^/]+/[^+]+\+(?:json|xml)$)",
    )
    .expect("regex")
});
static DATA_URI: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)(^|[^A-Za-z0-9_])data:([a-z][a-z0-9.+-]*/[a-z0-9.+-]+(?:;[a-z0-9.+-]+=[^,;"'\s]+|;base64)*,[^\s"'<>)]+)"#)
        .expect("regex")
});

/// The text a tool result's blocks carry (`extractToolResultText`): the non-empty `text`
/// blocks joined by newlines; without any, the other non-media blocks stringified as JSON,
/// joined and cut to 8,000 UTF-16 units.
pub(crate) fn tool_result_text(blocks: &[Value]) -> String {
    let mut explicit = Vec::new();
    let mut structured = Vec::new();
    for block in blocks.iter().filter(|b| b.is_object() || b.is_array()) {
        if type_of(block) == Some("text") {
            if let Some(text) = value_field(block, "text")
                .and_then(Value::as_str)
                .filter(|t| !t.is_empty())
            {
                explicit.push(text);
            }
        } else {
            structured.push(block);
        }
    }
    if !explicit.is_empty() {
        return explicit.join("\n");
    }
    let texts: Vec<String> = structured.into_iter().filter_map(structured_block_text).collect();
    truncate_structured(texts.join("\n"))
}

/// The placeholder a media-only result is described by (`describeToolResultMediaPlaceholder`).
pub(crate) fn media_placeholder(blocks: &[Value]) -> Option<&'static str> {
    let (mut image, mut audio) = (false, false);
    for block in blocks
        .iter()
        .filter(|b| has_media_payload(b) && type_of(b) != Some("text"))
    {
        let kind = type_of(block);
        let mime = mime_type(block).map(str::to_lowercase);
        image |= matches!(kind, Some("image" | "image_url" | "input_image"))
            || mime.as_deref().is_some_and(|m| m.starts_with("image/"));
        audio |= matches!(kind, Some("audio" | "input_audio" | "output_audio"))
            || mime.as_deref().is_some_and(|m| m.starts_with("audio/"));
    }
    match (image, audio) {
        (true, true) => Some("(see attached media)"),
        (_, true) => Some("(see attached audio)"),
        (true, _) => Some("(see attached image)"),
        _ => None,
    }
}

/// An `image` block carrying inline bytes (`isImageWithMediaPayload`).
pub(crate) fn is_image_with_payload(block: &Value) -> bool {
    type_of(block) == Some("image") && has_media_payload(block)
}

fn type_of(block: &Value) -> Option<&str> {
    value_field(block, "type").and_then(Value::as_str)
}

/// A block whose `data` is a non-blank string.
fn has_media_payload(block: &Value) -> bool {
    block.is_object()
        && value_field(block, "data")
            .and_then(Value::as_str)
            .is_some_and(|d| !js_trim(d).is_empty())
}

/// The first non-blank MIME field of an object (`readMimeType`).
fn mime_type(value: &Value) -> Option<&str> {
    let object = value.as_object()?;
    MIME_KEYS.iter().find_map(|k| {
        object
            .get(*k)
            .and_then(Value::as_str)
            .filter(|m| !js_trim(m).is_empty())
    })
}

fn is_binary_mime(mime: &str) -> bool {
    let normalized = js_trim(mime.split(';').next().unwrap_or("")).to_lowercase();
    !normalized.is_empty() && !TEXTUAL_MIME.is_match(&normalized)
}

/// `extractToolResultBlockText` for a non-text block.
fn structured_block_text(block: &Value) -> Option<String> {
    if type_of(block).is_some_and(|t| MEDIA_ONLY_TYPES.contains(&t)) {
        return None;
    }
    let serialized = serde_json::to_string(&redact(block)).ok()?;
    (!serialized.is_empty() && serialized != "{}").then(|| truncate_structured(serialized))
}

/// The replacer of `stringifyStructuredBlock`: opaque fields and binary `data` become short
/// notes, inline `data:` URIs are described by their length. Keys come out in JavaScript's
/// property order: array-index keys first, ascending, then the others as stored.
fn redact(value: &Value) -> Value {
    match value {
        Value::String(s) => Value::String(redact_data_uris(s)),
        Value::Array(items) => Value::Array(items.iter().map(redact).collect()),
        Value::Object(object) => {
            let mime = mime_type(value);
            let mut keys: Vec<&String> = object.keys().collect();
            keys.sort_by_key(|k| array_index(k).map_or((1, 0), |i| (0, i)));
            let mut out = Map::new();
            for key in keys {
                let v = &object[key];
                let next = if OPAQUE_KEY.is_match(key) {
                    Value::String(format!("[omitted {key}]"))
                } else if key == "data" && mime.is_some_and(is_binary_mime) {
                    Value::String(omitted(v, "binary data"))
                } else {
                    redact(v)
                };
                out.insert(key.clone(), next);
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

/// The value of a key that JavaScript orders as an array index (`"0"`, `"17"`, below 2³² − 1).
fn array_index(key: &str) -> Option<u32> {
    let canonical = key == "0" || (!key.starts_with('0') && key.bytes().all(|b| b.is_ascii_digit()));
    canonical
        .then(|| key.parse::<u32>().ok())
        .flatten()
        .filter(|&i| i != u32::MAX)
}

/// `describeOmittedValue`.
fn omitted(value: &Value, label: &str) -> String {
    let len = match value {
        Value::String(s) => utf16_len(s),
        other => serde_json::to_string(other).map_or(0, |s| utf16_len(&s)),
    };
    if len == 0 {
        format!("[{label} omitted]")
    } else {
        format!("[{label} omitted: {len} chars]")
    }
}

fn redact_data_uris(s: &str) -> String {
    DATA_URI
        .replace_all(s, |c: &regex::Captures<'_>| {
            format!("{}[inline data URI: {} chars]", &c[1], utf16_len(&c[2]))
        })
        .into_owned()
}

fn utf16_len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// `truncateStructuredToolText`: at most 8,000 UTF-16 units, never splitting a character.
fn truncate_structured(text: String) -> String {
    if utf16_len(&text) <= STRUCTURED_MAX_UNITS {
        return text;
    }
    let mut units = 0;
    let end = text
        .char_indices()
        .find(|(_, c)| {
            units += c.len_utf16();
            units > STRUCTURED_MAX_UNITS
        })
        .map_or(text.len(), |(i, _)| i);
    format!("{}\n…(truncated)…", &text[..end])
}

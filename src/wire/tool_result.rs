//! The text and media of a tool result as every OpenClaw converter reads them.
//!
//! Port of `tool-result-text.ts` in `@openclaw/ai` (`host-*.mjs` in 2026.9.6):
//! `extractToolResultText` → [`tool_result_text`] (with `includeStructured`:
//! [`tool_result_text_with_structured`]), `extractToolResultBlockText` → [`block_text`],
//! `describeToolResultMediaPlaceholder` → [`media_placeholder`], `classifyToolResultMedia` →
//! [`media_kinds`], `hasMediaPayload` → [`has_media_payload`], `isImageWithMediaPayload` →
//! [`is_image_with_payload`]. Explicit text blocks win; other blocks are replayed as bounded
//! JSON; media payloads leave a placeholder.
//!
//! Not ported: the host's `redactModelVisibleSecrets` pass over structured (non-text) blocks,
//! which masks credentials with OpenClaw's redaction patterns before they are stringified, so
//! a secret inside a non-text, non-image tool-result block is shown as stored.

use std::sync::LazyLock;

use crate::model::json::{Map, Value};
use regex::Regex;

use super::blocks::block_type;
use super::transform::ids::truncate_utf16;
use crate::openclaw::js::js_trim;

/// `STRUCTURED_TOOL_RESULT_MAX_CHARS`: longest structured text kept, in UTF-16 code units.
const STRUCTURED_MAX_UNITS: usize = 8000;

/// `IMAGE_TOOL_RESULT_TYPES`.
const IMAGE_TYPES: [&str; 3] = ["image", "image_url", "input_image"];
/// `AUDIO_TOOL_RESULT_TYPES`.
const AUDIO_TYPES: [&str; 3] = ["audio", "input_audio", "output_audio"];

/// `MIME_KEY_CANDIDATES`: fields whose MIME type names the `data` next to them, in the order
/// they are read.
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
    extract_text(blocks, false)
}

/// [`tool_result_text`] with `includeStructured`: the other non-media blocks' JSON follows
/// the explicit texts (joined and cut to 8,000 UTF-16 units) instead of being left out.
pub(crate) fn tool_result_text_with_structured(blocks: &[Value]) -> String {
    extract_text(blocks, true)
}

/// `extractToolResultText(blocks, {includeStructured})`.
fn extract_text(blocks: &[Value], include_structured: bool) -> String {
    let mut explicit = Vec::new();
    let mut structured = Vec::new();
    for block in blocks.iter().filter(|b| b.is_object() || b.is_array()) {
        if block_type(block) == Some("text") {
            explicit.extend(block_text(block));
        } else {
            structured.push(block);
        }
    }
    if !explicit.is_empty() && !include_structured {
        return explicit.join("\n");
    }
    let texts: Vec<String> = structured.into_iter().filter_map(block_text).collect();
    if !explicit.is_empty() {
        if !texts.is_empty() {
            explicit.push(truncate_structured(texts.join("\n")));
        }
        return explicit.join("\n");
    }
    truncate_structured(texts.join("\n"))
}

/// The text of one block (`extractToolResultBlockText`): a `text` block's non-empty text, a
/// structured block as bounded JSON, nothing for media blocks, empty objects and non-objects.
pub(crate) fn block_text(block: &Value) -> Option<String> {
    if !(block.is_object() || block.is_array()) {
        return None;
    }
    let kind = block_type(block);
    if kind.is_some_and(|t| IMAGE_TYPES.contains(&t) || AUDIO_TYPES.contains(&t)) {
        return None;
    }
    if kind == Some("text") {
        let text = block.get("text").and_then(Value::as_str).unwrap_or("");
        return (!text.is_empty()).then(|| text.to_owned());
    }
    let serialized = serde_json::to_string(&redact(block)).ok()?;
    (!serialized.is_empty() && serialized != "{}").then(|| truncate_structured(serialized))
}

/// The placeholder a media-only result is described by (`describeToolResultMediaPlaceholder`).
pub(crate) fn media_placeholder(blocks: &[Value]) -> Option<&'static str> {
    match media_kinds(blocks) {
        (true, true) => Some("(see attached media)"),
        (_, true) => Some("(see attached audio)"),
        (true, _) => Some("(see attached image)"),
        _ => None,
    }
}

/// Whether the blocks carry an image and an audio payload (`classifyToolResultMedia`).
pub(crate) fn media_kinds(blocks: &[Value]) -> (bool, bool) {
    let (mut image, mut audio) = (false, false);
    for block in blocks
        .iter()
        .filter(|b| has_media_payload(b) && block_type(b) != Some("text"))
    {
        let kind = block_type(block);
        let mime = mime_type(block).map(str::to_lowercase);
        image |=
            kind.is_some_and(|t| IMAGE_TYPES.contains(&t)) || mime.as_deref().is_some_and(|m| m.starts_with("image/"));
        audio |=
            kind.is_some_and(|t| AUDIO_TYPES.contains(&t)) || mime.as_deref().is_some_and(|m| m.starts_with("audio/"));
    }
    (image, audio)
}

/// A block whose `data` is a non-blank string (`hasMediaPayload`): media metadata alone is
/// not an attachment.
pub(crate) fn has_media_payload(block: &Value) -> bool {
    block
        .get("data")
        .and_then(Value::as_str)
        .is_some_and(|d| !js_trim(d).is_empty())
}

/// An `image` block carrying inline bytes (`isImageWithMediaPayload`).
pub(crate) fn is_image_with_payload(block: &Value) -> bool {
    block_type(block) == Some("image") && has_media_payload(block)
}

/// The first non-blank MIME field of an object (`readMimeType`).
fn mime_type(value: &Value) -> Option<&str> {
    let object = value.as_object()?;
    MIME_KEYS
        .iter()
        .find_map(|k| object.get(k).and_then(Value::as_str).filter(|m| !js_trim(m).is_empty()))
}

/// `isBinaryMimeType`: not text, JSON, XML, JavaScript or form data.
fn is_binary_mime(mime: &str) -> bool {
    let normalized = js_trim(mime.split(';').next().unwrap_or("")).to_lowercase();
    !normalized.is_empty() && !TEXTUAL_MIME.is_match(&normalized)
}

/// The replacer of `stringifyStructuredBlock`: opaque fields and binary `data` become short
/// notes, inline `data:` URIs are described by their length. Keys come out in JavaScript's
/// property order: array-index keys first, ascending, then the others as stored.
fn redact(value: &Value) -> Value {
    match value {
        Value::String(s) => Value::String(redact_data_uris(s).into()),
        Value::Array(items) => Value::Array(items.iter().map(redact).collect()),
        Value::Object(object) => {
            let mime = mime_type(value);
            let mut keys: Vec<&str> = object.keys().map(|k| k.as_str()).collect();
            keys.sort_by_key(|k| array_index(k).map_or((1, 0), |i| (0, i)));
            let mut out = Map::new();
            for key in keys {
                let v = &object[key];
                let next = if OPAQUE_KEY.is_match(key) {
                    Value::String(format!("[omitted {key}]").into())
                } else if key == "data" && mime.is_some_and(is_binary_mime) {
                    Value::String(omitted(v, "binary data").into())
                } else {
                    redact(v)
                };
                out.insert(key.into(), next);
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

/// `formatToolResultText`: the text, or (when blank) the omission note, the media
/// placeholder or `(no tool output)`; an omission note follows non-blank text on its own line;
/// errors get a `[tool error] ` prefix.
pub(crate) fn format_tool_result(text: &str, media: Option<&str>, omitted: Option<&str>, is_error: bool) -> String {
    let body = if js_trim(text).is_empty() {
        omitted.or(media).unwrap_or("(no tool output)").to_string()
    } else {
        match omitted {
            Some(note) => format!("{text}\n{note}"),
            None => text.to_string(),
        }
    };
    if is_error { format!("[tool error] {body}") } else { body }
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

/// `redactInlineDataUris`: `data:<mime>[;params],<payload>` becomes its length.
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
    format!("{}\n…(truncated)…", truncate_utf16(&text, STRUCTURED_MAX_UNITS))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn explicit_text_wins() {
        let blocks = [
            json!({"type": "text", "text": "a"}),
            json!({"type": "json", "x": 1}),
            json!({"type": "text", "text": ""}),
            json!({"type": "text", "text": "b"}),
        ];
        assert_eq!(tool_result_text(&blocks), "a\nb");
    }

    #[test]
    fn structured_blocks_are_bounded_json() {
        let blocks = [
            json!({"type": "resource", "b": 1, "2": "x", "1": "y", "blob": "zzz", "uri": "data:image/png;base64,AAAA"}),
        ];
        assert_eq!(
            tool_result_text(&blocks),
            r#"{"1":"y","2":"x","type":"resource","b":1,"blob":"[omitted blob]","uri":"[inline data URI: 21 chars]"}"#
        );
        let bin = [json!({"type": "file", "mimeType": "application/pdf", "data": "JVBERi0x"})];
        assert_eq!(
            tool_result_text(&bin),
            r#"{"type":"file","mimeType":"application/pdf","data":"[binary data omitted: 8 chars]"}"#
        );
        let textual = [json!({"type": "file", "mimeType": "application/vnd.api+json", "data": "{}"})];
        assert_eq!(
            tool_result_text(&textual),
            r#"{"type":"file","mimeType":"application/vnd.api+json","data":"{}"}"#
        );
        assert_eq!(tool_result_text(&[json!({})]), "");
        assert_eq!(tool_result_text(&[json!({"type": "image", "data": "AAAA"})]), "");
    }

    #[test]
    fn long_structured_text_is_cut_at_8000_units() {
        let long = "é".repeat(9000);
        let text = tool_result_text(&[json!({"type": "note", "v": long})]);
        assert!(text.ends_with("\n…(truncated)…"));
        assert_eq!(
            text.encode_utf16().count(),
            8000 + "\n…(truncated)…".encode_utf16().count()
        );
    }

    #[test]
    fn placeholders() {
        assert_eq!(
            media_placeholder(&[json!({"type": "image", "data": "AAAA"})]),
            Some("(see attached image)")
        );
        assert_eq!(
            media_placeholder(&[json!({"type": "file", "mimeType": "audio/wav", "data": "AAAA"})]),
            Some("(see attached audio)")
        );
        assert_eq!(
            media_placeholder(&[
                json!({"type": "file", "mimeType": "audio/ogg", "data": "AA"}),
                json!({"type": "image_url", "data": "AA"})
            ]),
            Some("(see attached media)")
        );
        assert_eq!(media_placeholder(&[json!({"type": "image", "data": " "})]), None);
    }
}

//! Tool-result text as `@openclaw/ai` extracts it (`packages/ai/src/providers/tool-result-text.ts`):
//! explicit text blocks win; other blocks are replayed as bounded JSON; media payloads leave a
//! placeholder.
//!
//! Upstream passes structured blocks through the host's model-visible secret redaction
//! (`redactModelVisibleSecrets`) before serializing them; that redaction is not ported, so a
//! secret inside a non-text, non-image tool-result block is shown as stored.

use serde_json::{Map, Value};

use crate::hygiene::rules::assistant_text::js_trim;
use crate::wire::transform::ids::truncate_utf16;

/// `STRUCTURED_TOOL_RESULT_MAX_CHARS`
const STRUCTURED_MAX: usize = 8000;
const IMAGE_TYPES: [&str; 3] = ["image", "image_url", "input_image"];
const AUDIO_TYPES: [&str; 3] = ["audio", "input_audio", "output_audio"];
const MIME_KEYS: [&str; 6] = [
    "mimeType",
    "mime_type",
    "mediaType",
    "media_type",
    "contentType",
    "content_type",
];

/// `hasMediaPayload`: an object with a non-blank string `data`.
pub fn has_media_payload(block: &Value) -> bool {
    block.as_object().is_some_and(|o| {
        o.get("data")
            .and_then(Value::as_str)
            .is_some_and(|d| !js_trim(d).is_empty())
    })
}

/// `isImageWithMediaPayload`.
pub fn is_image_with_payload(block: &Value) -> bool {
    block.get("type").and_then(Value::as_str) == Some("image") && has_media_payload(block)
}

/// `readMimeType`: the first non-blank string among the MIME keys.
fn read_mime(o: &Map<String, Value>) -> Option<&str> {
    MIME_KEYS
        .iter()
        .find_map(|k| o.get(*k).and_then(Value::as_str).filter(|m| !js_trim(m).is_empty()))
}

/// `describeToolResultMediaPlaceholder`.
pub fn media_placeholder(blocks: &[Value]) -> Option<&'static str> {
    let (mut image, mut audio) = (false, false);
    for block in blocks {
        let Some(o) = block.as_object() else { continue };
        let ty = o.get("type").and_then(Value::as_str);
        if !has_media_payload(block) || ty == Some("text") {
            continue;
        }
        let mime = read_mime(o).map(str::to_lowercase);
        image |=
            ty.is_some_and(|t| IMAGE_TYPES.contains(&t)) || mime.as_deref().is_some_and(|m| m.starts_with("image/"));
        audio |=
            ty.is_some_and(|t| AUDIO_TYPES.contains(&t)) || mime.as_deref().is_some_and(|m| m.starts_with("audio/"));
    }
    match (image, audio) {
        (true, true) => Some("(see attached media)"),
        (false, true) => Some("(see attached audio)"),
        (true, false) => Some("(see attached image)"),
        (false, false) => None,
    }
}

/// `truncateStructuredToolText`.
fn truncate_structured(text: String) -> String {
    if text.encode_utf16().count() <= STRUCTURED_MAX {
        return text;
    }
    format!("{}\n…(truncated)…", truncate_utf16(&text, STRUCTURED_MAX))
}

/// `extractToolResultBlockText`.
pub fn block_text(block: &Value) -> Option<String> {
    let o = match block {
        Value::Object(o) => Some(o),
        Value::Array(_) => None,
        _ => return None,
    };
    let ty = o.and_then(|o| o.get("type")).and_then(Value::as_str);
    if ty.is_some_and(|t| IMAGE_TYPES.contains(&t) || AUDIO_TYPES.contains(&t)) {
        return None;
    }
    if ty == Some("text") {
        let text = block.get("text").and_then(Value::as_str).unwrap_or("");
        return (!text.is_empty()).then(|| text.to_owned());
    }
    let serialized = stringify_structured(block)?;
    Some(truncate_structured(serialized))
}

/// `extractToolResultText(blocks)`.
pub fn result_text(blocks: &[Value]) -> String {
    let mut explicit = Vec::new();
    let mut structured = Vec::new();
    for block in blocks {
        if !(block.is_object() || block.is_array()) {
            continue;
        }
        if block.get("type").and_then(Value::as_str) == Some("text") {
            if let Some(t) = block_text(block) {
                explicit.push(t);
            }
        } else {
            structured.push(block);
        }
    }
    if !explicit.is_empty() {
        return explicit.join("\n");
    }
    let texts: Vec<String> = structured.into_iter().filter_map(block_text).collect();
    truncate_structured(texts.join("\n"))
}

/// `/^(?:blob|buffer|bytes|encrypted_content|encrypted_stdout)$/i`
fn is_opaque_key(key: &str) -> bool {
    matches!(
        key.to_ascii_lowercase().as_str(),
        "blob" | "buffer" | "bytes" | "encrypted_content" | "encrypted_stdout"
    )
}

/// `isBinaryMimeType`: not text, JSON, XML, JavaScript or form data.
fn is_binary_mime(mime: &str) -> bool {
    let normalized = js_trim(mime.split(';').next().unwrap_or("")).to_lowercase();
    if normalized.is_empty() {
        return false;
    }
    let textual = normalized.starts_with("text/")
        || [
            "application/json",
            "application/ld+json",
            "application/x-ndjson",
            "application/xml",
            "application/javascript",
            "application/x-www-form-urlencoded",
        ]
        .iter()
        .any(|p| normalized.starts_with(p))
        || normalized.split_once('/').is_some_and(|(ty, rest)| {
            !ty.is_empty()
                && [rest.strip_suffix("+json"), rest.strip_suffix("+xml")]
                    .into_iter()
                    .flatten()
                    .any(|x| !x.is_empty() && !x.contains('+'))
        });
    !textual
}

/// `redactInlineDataUris`: `data:<mime>[;params],<payload>` becomes its length.
fn redact_data_uris(s: &str) -> String {
    use std::sync::LazyLock;
    static RE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r#"(?i)(^|[^A-Za-z0-9_])data:([a-z][a-z0-9.+-]*/[a-z0-9.+-]+(?:;[a-z0-9.+-]+=[^,;"'\s]+|;base64)*,[^\s"'<>)]+)"#,
        )
        .expect("regex")
    });
    RE.replace_all(s, |c: &regex::Captures<'_>| {
        format!("{}[inline data URI: {} chars]", &c[1], c[2].encode_utf16().count())
    })
    .into_owned()
}

/// `stringifyStructuredBlock`: `JSON.stringify` with the structured-result replacer; `None`
/// for an empty object.
fn stringify_structured(block: &Value) -> Option<String> {
    let mut out = String::new();
    write_js_json(block, &mut out);
    (!out.is_empty() && out != "{}").then_some(out)
}

/// A JSON value the way `JSON.stringify(value, replacer)` writes it: integer-like keys first
/// in ascending order, then the others in insertion order. The replacer sees every property:
/// opaque keys and binary `data` become short descriptions (written as they are), other
/// strings lose inline data URIs.
fn write_js_json(value: &Value, out: &mut String) {
    match value {
        Value::String(s) => out.push_str(&serde_json::to_string(&redact_data_uris(s)).unwrap_or_default()),
        Value::Array(a) => {
            out.push('[');
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_js_json(v, out);
            }
            out.push(']');
        }
        Value::Object(o) => {
            out.push('{');
            for (i, (k, v)) in js_key_order(o).into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::to_string(k).unwrap_or_default());
                out.push(':');
                if is_opaque_key(k) {
                    out.push_str(&serde_json::to_string(&format!("[omitted {k}]")).unwrap_or_default());
                } else if k == "data" && read_mime(o).is_some_and(is_binary_mime) {
                    let len = match v {
                        Value::String(s) => s.encode_utf16().count(),
                        other => serde_json::to_string(other).map_or(0, |s| s.encode_utf16().count()),
                    };
                    let described = if len > 0 {
                        format!("[binary data omitted: {len} chars]")
                    } else {
                        "[binary data omitted]".to_owned()
                    };
                    out.push_str(&serde_json::to_string(&described).unwrap_or_default());
                } else {
                    write_js_json(v, out);
                }
            }
            out.push('}');
        }
        other => out.push_str(&serde_json::to_string(other).unwrap_or_default()),
    }
}

/// Property order of a JavaScript object: array-index keys ascending, then the rest.
fn js_key_order(o: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let index = |k: &str| -> Option<u32> {
        if k == "0" {
            return Some(0);
        }
        if k.starts_with('0') || !k.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        k.parse::<u32>().ok().filter(|&n| n != u32::MAX)
    };
    let mut indexed: Vec<(u32, (&String, &Value))> = Vec::new();
    let mut named = Vec::new();
    for (k, v) in o {
        match index(k) {
            Some(n) => indexed.push((n, (k, v))),
            None => named.push((k, v)),
        }
    }
    indexed.sort_by_key(|(n, _)| *n);
    indexed.into_iter().map(|(_, kv)| kv).chain(named).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn explicit_text_wins() {
        let blocks = vec![
            json!({"type": "text", "text": "a"}),
            json!({"type": "json", "x": 1}),
            json!({"type": "text", "text": "b"}),
        ];
        assert_eq!(result_text(&blocks), "a\nb");
    }

    #[test]
    fn structured_blocks_are_bounded_json() {
        let blocks = vec![
            json!({"type": "resource", "b": 1, "2": "x", "1": "y", "blob": "zzz", "uri": "data:image/png;base64,AAAA"}),
        ];
        assert_eq!(
            result_text(&blocks),
            r#"{"1":"y","2":"x","type":"resource","b":1,"blob":"[omitted blob]","uri":"[inline data URI: 21 chars]"}"#
        );
        let bin = vec![json!({"type": "file", "mimeType": "application/pdf", "data": "JVBERi0x"})];
        assert_eq!(
            result_text(&bin),
            r#"{"type":"file","mimeType":"application/pdf","data":"[binary data omitted: 8 chars]"}"#
        );
        assert_eq!(result_text(&[json!({})]), "");
        assert_eq!(result_text(&[json!({"type": "image", "data": "AAAA"})]), "");
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
        assert_eq!(media_placeholder(&[json!({"type": "image", "data": " "})]), None);
    }
}

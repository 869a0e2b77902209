//! `sanitizeResponsesImagePayload`: the Responses transport's last step before sending.
//! Every `input_image` whose `image_url` is an inline `data:` URL is re-checked: the base64
//! is canonicalized, the format sniffed from the bytes (the sniffed MIME type replaces the
//! declared one), and anything that is not valid PNG, JPEG, WebP or GIF base64 is replaced by
//! an `input_text` note. Port of `responses-image-payload-sanitizer.ts` and
//! `inline-image-data-url.ts` (`@openclaw/ai` 2026.9.6).

use crate::json;
use crate::model::json::{Map, Value};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use crate::wire::canonical_base64::canonicalize_base64;

/// The note an invalid inline image becomes.
const INVALID_IMAGE_TEXT: &str = "[omitted image payload: invalid inline image data]";
/// How many base64 characters are decoded to sniff the format.
const SNIFF_BASE64_CHARS: usize = 128;

/// Sanitize every inline `input_image` of an `input` item, at any depth.
pub(crate) fn sanitize(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(sanitize).collect()),
        Value::Object(object) => {
            if object.get("type").and_then(Value::as_str) == Some("input_image")
                && let Some(url) = object.get("image_url").and_then(Value::as_str)
            {
                return match sanitize_data_url(url) {
                    Some(url) => {
                        let mut next = object.clone();
                        next.insert("image_url".into(), Value::String(url.into()));
                        Value::Object(next)
                    }
                    None => json!({"type": "input_text", "text": INVALID_IMAGE_TEXT}),
                };
            }
            Value::Object(object.iter().map(|(k, v)| (*k, sanitize(v))).collect::<Map>())
        }
        other => other.clone(),
    }
}

/// `sanitizeInlineImageDataUrl`: a non-`data:` URL is kept; a base64 image data URL comes back
/// canonical with its sniffed type; `None` when it is not a supported image.
fn sanitize_data_url(url: &str) -> Option<String> {
    let is_data = url.get(..5).is_some_and(|p| p.eq_ignore_ascii_case("data:"));
    if !is_data {
        return Some(url.to_string());
    }
    let comma = url.find(',')?;
    let metadata: Vec<&str> = url[5..comma].split(';').map(str::trim).collect();
    let (mime, options) = metadata.split_first()?;
    let is_image = |m: &str| m.trim().to_lowercase().starts_with("image/");
    if !is_image(mime) || !options.iter().any(|o| o.eq_ignore_ascii_case("base64")) {
        return None;
    }
    let canonical = canonicalize_base64(&url[comma + 1..])?;
    let prefix = &canonical[..canonical.len().min(SNIFF_BASE64_CHARS)];
    let bytes = STANDARD.decode(prefix).ok()?;
    let sniffed = sniff(&bytes)?;
    Some(format!("data:{sniffed};base64,{canonical}"))
}

/// The supported format the bytes start with (`sniffInlineImageMime`, restricted to the
/// formats an inline Responses image may have).
fn sniff(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(&[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a]) {
        Some("image/png")
    } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        Some("image/jpeg")
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some("image/gif")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG_1X1: &str =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

    #[test]
    fn data_urls_are_resniffed_or_replaced() {
        let declared_jpeg =
            json!({"type": "input_image", "detail": "auto", "image_url": format!("data:image/jpeg;base64,{PNG_1X1}")});
        assert_eq!(
            sanitize(&declared_jpeg)["image_url"],
            json!(format!("data:image/png;base64,{PNG_1X1}"))
        );
        let junk = json!([{"type": "input_image", "image_url": "data:image/png;base64,aGVsbG8="}]);
        assert_eq!(
            sanitize(&junk),
            json!([{"type": "input_text", "text": INVALID_IMAGE_TEXT}])
        );
        let remote = json!({"type": "input_image", "image_url": "https://example.com/a.png"});
        assert_eq!(sanitize(&remote), remote);
    }
}

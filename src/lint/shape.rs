//! Shared payload helpers for the constraint checks: roles, content blocks, fields under either
//! spelling, the inline images of a payload with the path the provider names them by, their
//! decoded size and dimensions, and where a body or the images of a payload cross a limit.
//!
//! Indices are payload indices. The payload holds only the conversation: where a provider puts
//! the system prompt in the same array (OpenAI Chat, Responses, Mistral, Ollama), its own index is one
//! higher.

use crate::model::json::Value;

use super::Hit;
use crate::openclaw::image::ops::base64_image_facts;
use crate::wire::{Payload, WireApi};

/// The `role` of a payload item.
pub(crate) fn role(item: &Value) -> Option<&str> {
    item.get("role").and_then(Value::as_str)
}

/// The `type` of a block or item.
pub(crate) fn kind(block: &Value) -> Option<&str> {
    block.get("type").and_then(Value::as_str)
}

/// The array under `key`, or nothing.
pub(crate) fn array<'a>(value: &'a Value, key: &str) -> &'a [Value] {
    value.get(key).and_then(Value::as_array).map_or(&[], |a| a.as_slice())
}

/// The content blocks of a message (`content` as an array; nothing for string content).
pub(crate) fn blocks(message: &Value) -> &[Value] {
    array(message, "content")
}

/// The first of `keys` present on `value` (for APIs spelled both camelCase and snake_case).
pub(crate) fn field<'a>(value: &'a Value, keys: &[&str]) -> Option<&'a Value> {
    keys.iter().find_map(|k| value.get(*k))
}

/// The string under `key`.
pub(crate) fn str_at<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Value::as_str)
}

/// Whether a string is empty after JavaScript's `trim()`, the test hygiene and the converters
/// use (U+0085 is whitespace to Rust's `char::is_whitespace`, not to JavaScript).
pub(crate) fn is_blank(text: &str) -> bool {
    crate::openclaw::assistant_text::is_blank(text)
}

/// Whether content is missing, `null`, an empty string or an empty array.
pub(crate) fn is_empty_content(content: Option<&Value>) -> bool {
    match content {
        None | Some(Value::Null) => true,
        Some(Value::String(s)) => s.is_empty(),
        Some(Value::Array(a)) => a.is_empty(),
        Some(_) => false,
    }
}

/// The index the provider names for payload item `i`. OpenClaw sends the system prompt as the
/// first message on OpenAI Chat, Mistral and Ollama, and those providers count it; the payload here
/// leaves the system prompt out.
pub(crate) fn provider_index(payload: &Payload, i: usize) -> usize {
    i + payload.api.system_messages()
}

/// The payload items of role `who`, with their index.
pub(crate) fn messages_of<'a>(payload: &'a Payload, who: &'a str) -> impl Iterator<Item = (usize, &'a Value)> + 'a {
    payload
        .items
        .iter()
        .enumerate()
        .map(|(i, item)| (i, &item.value))
        .filter(move |(_, m)| role(m) == Some(who))
}

/// Every payload item with its index and the item before it (`None` for the first).
pub(crate) fn with_previous(payload: &Payload) -> impl Iterator<Item = (usize, Option<&Value>, &Value)> {
    let items = &payload.items;
    items
        .iter()
        .enumerate()
        .map(move |(i, item)| (i, i.checked_sub(1).map(|p| &items[p].value), &item.value))
}

/// The indices of the items of role `now` right after an item of role `before`.
pub(crate) fn role_after<'a>(payload: &'a Payload, now: &'a str, before: &'a str) -> impl Iterator<Item = usize> + 'a {
    with_previous(payload)
        .filter(move |(_, prev, item)| role(item) == Some(now) && prev.is_some_and(|p| role(p) == Some(before)))
        .map(|(i, _, _)| i)
}

/// The run of `tool` messages right after item `i`.
pub(crate) fn tool_run(payload: &Payload, i: usize) -> impl Iterator<Item = &Value> {
    payload.items[i + 1..]
        .iter()
        .map(|m| &m.value)
        .take_while(|m| role(m) == Some("tool"))
}

/// A hit.
pub(crate) fn hit(item: usize, path: String, message: String) -> Hit {
    Hit { item, path, message }
}

/// One inline (base64) image of a payload.
#[derive(Debug, Clone)]
pub(crate) struct Image<'a> {
    /// Index of the payload item holding it.
    pub(crate) item: usize,
    /// The path the provider names it by (Anthropic `messages.0.content.1.image.source.base64`).
    pub(crate) path: String,
    /// The declared MIME type, when the block states one.
    pub(crate) mime: Option<&'a str>,
    /// The base64 payload.
    pub(crate) data: &'a str,
}

/// What an image's bytes show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ImageFacts {
    /// Decoded size in bytes.
    pub(crate) bytes: usize,
    /// Stored width and height, when the header shows them.
    pub(crate) size: Option<(u32, u32)>,
}

impl Image<'_> {
    /// Decoded size and dimensions; `None` when the payload is not base64.
    pub(crate) fn facts(&self) -> Option<ImageFacts> {
        base64_image_facts(self.data).map(|(bytes, size)| ImageFacts { bytes, size })
    }
}

/// `(mime, data)` of a `data:<mime>;base64,<data>` URL.
pub(crate) fn data_url(url: &str) -> Option<(&str, &str)> {
    url.strip_prefix("data:")?.split_once(";base64,")
}

/// Every inline image of a payload, in payload order, nested ones (tool results) included.
pub(crate) fn images(payload: &Payload) -> Vec<Image<'_>> {
    let mut out = Vec::new();
    for (i, item) in payload.items.iter().enumerate() {
        let v = &item.value;
        match payload.api {
            WireApi::AnthropicMessages => {
                for (j, b) in blocks(v).iter().enumerate() {
                    let at = format!("messages.{i}.content.{j}");
                    anthropic_image(&mut out, i, &at, b);
                    if kind(b) == Some("tool_result") {
                        for (k, inner) in array(b, "content").iter().enumerate() {
                            anthropic_image(&mut out, i, &format!("{at}.tool_result.content.{k}"), inner);
                        }
                    }
                }
            }
            WireApi::OpenAiCompletions | WireApi::MistralConversations => {
                for (j, b) in blocks(v).iter().enumerate() {
                    let url = field(b, &["image_url", "imageUrl"]);
                    let url = url.and_then(|u| u.as_str().or_else(|| str_at(u, "url")));
                    if kind(b) == Some("image_url") {
                        url_image(
                            &mut out,
                            i,
                            format!("messages[{}].content[{j}].image_url", provider_index(payload, i)),
                            url,
                        );
                    }
                }
            }
            WireApi::OpenAiResponses | WireApi::AzureOpenAiResponses => {
                for key in ["content", "output"] {
                    for (j, b) in array(v, key).iter().enumerate() {
                        if kind(b) == Some("input_image") {
                            let path = format!("input[{i}].{key}[{j}].image_url");
                            url_image(&mut out, i, path, str_at(b, "image_url"));
                        }
                    }
                }
            }
            WireApi::GoogleGenerativeAi | WireApi::GoogleVertex | WireApi::GoogleVertexPiAi => {
                for (j, part) in array(v, "parts").iter().enumerate() {
                    let at = format!("contents[{i}].parts[{j}]");
                    google_image(&mut out, i, &at, part);
                    if let Some(response) = field(part, &["functionResponse", "function_response"]) {
                        for (k, inner) in array(response, "parts").iter().enumerate() {
                            google_image(&mut out, i, &format!("{at}.function_response.parts[{k}]"), inner);
                        }
                    }
                }
            }
            WireApi::BedrockConverseStream => {
                for (j, b) in blocks(v).iter().enumerate() {
                    let at = format!("messages.{i}.content.{j}");
                    bedrock_image(&mut out, i, &at, b);
                    if let Some(result) = b.get("toolResult") {
                        for (k, inner) in array(result, "content").iter().enumerate() {
                            bedrock_image(&mut out, i, &format!("{at}.toolResult.content.{k}"), inner);
                        }
                    }
                }
            }
            WireApi::Ollama => {
                for (j, data) in array(v, "images").iter().enumerate() {
                    if let Some(data) = data.as_str() {
                        let path = format!("messages[{}].images[{j}]", provider_index(payload, i));
                        out.push(Image {
                            item: i,
                            path,
                            mime: None,
                            data,
                        });
                    }
                }
            }
            // The on-device bridge converts for itself; no documented limits to check.
            WireApi::AppleFm => {}
        }
    }
    out
}

fn anthropic_image<'a>(out: &mut Vec<Image<'a>>, item: usize, at: &str, block: &'a Value) {
    let source = block.get("source");
    if kind(block) != Some("image") || source.and_then(|s| str_at(s, "type")) != Some("base64") {
        return;
    }
    if let Some(data) = source.and_then(|s| str_at(s, "data")) {
        let mime = source.and_then(|s| str_at(s, "media_type"));
        let path = format!("{at}.image.source.base64");
        out.push(Image { item, path, mime, data });
    }
}

fn url_image<'a>(out: &mut Vec<Image<'a>>, item: usize, path: String, url: Option<&'a str>) {
    if let Some((mime, data)) = url.and_then(data_url) {
        out.push(Image {
            item,
            path,
            mime: Some(mime),
            data,
        });
    }
}

fn google_image<'a>(out: &mut Vec<Image<'a>>, item: usize, at: &str, part: &'a Value) {
    if let Some(inline) = field(part, &["inlineData", "inline_data"])
        && let Some(data) = str_at(inline, "data")
    {
        let mime = field(inline, &["mimeType", "mime_type"]).and_then(Value::as_str);
        out.push(Image {
            item,
            path: format!("{at}.inline_data"),
            mime,
            data,
        });
    }
}

fn bedrock_image<'a>(out: &mut Vec<Image<'a>>, item: usize, at: &str, block: &'a Value) {
    if let Some(image) = block.get("image")
        && let Some(data) = image.get("source").and_then(|s| str_at(s, "bytes"))
    {
        let mime = str_at(image, "format");
        out.push(Image {
            item,
            path: format!("{at}.image"),
            mime,
            data,
        });
    }
}

/// A hit at every image `judge` finds fault with (`judge` gives the message), in payload order.
pub(crate) fn image_hits(payload: &Payload, judge: impl Fn(&Image<'_>, ImageFacts) -> Option<String>) -> Vec<Hit> {
    images(payload)
        .into_iter()
        .filter_map(|image| {
            let message = judge(&image, image.facts()?)?;
            Some(hit(image.item, image.path, message))
        })
        .collect()
}

/// Where an image-count limit is crossed: the item holding image number `limit + 1`, and the
/// number of images; `None` when there are at most `limit`.
pub(crate) fn over_image_count(images: &[Image<'_>], limit: usize) -> Option<(usize, usize)> {
    images.get(limit).map(|img| (img.item, images.len()))
}

/// When the body is over `limit` bytes: the item whose end takes it over, and the body size.
pub(crate) fn over_size(payload: &Payload, limit: usize) -> Option<(usize, usize)> {
    let total = payload.body_bytes();
    if total <= limit {
        return None;
    }
    let mut running = payload.api.conversation_key().len() + 6;
    for (i, item) in payload.items.iter().enumerate() {
        running += serde_json::to_vec(&item.value).map_or(0, |v| v.len()) + usize::from(i > 0);
        if running > limit {
            return Some((i, total));
        }
    }
    Some((payload.items.len().saturating_sub(1), total))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::lint::test_support::png_base64;

    #[test]
    fn images_are_found_with_the_provider_paths_and_measured() {
        let data = png_base64(300, 200, 1000);
        let p = Payload::from_values(
            WireApi::AnthropicMessages,
            vec![json!({"role": "user", "content": [
                {"type": "text", "text": "x"},
                {"type": "tool_result", "tool_use_id": "t", "content": [
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}}
                ]}
            ]})],
        );
        let found = images(&p);
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].path,
            "messages.0.content.1.tool_result.content.0.image.source.base64"
        );
        assert_eq!(
            found[0].facts(),
            Some(ImageFacts {
                bytes: 1000,
                size: Some((300, 200))
            })
        );
    }

    #[test]
    fn blank_is_javascript_trim() {
        assert!(is_blank(""));
        assert!(is_blank(" \t\n\u{a0}\u{3000}\u{feff}"));
        assert!(!is_blank("\u{85}"));
        assert!(!is_blank(" x "));
    }

    #[test]
    fn data_urls_split_and_sizes_point_at_the_crossing_item() {
        assert_eq!(data_url("data:image/png;base64,AAAA"), Some(("image/png", "AAAA")));
        assert_eq!(data_url("https://x/y.png"), None);
        let p = Payload::from_values(
            WireApi::MistralConversations,
            vec![
                json!({"role": "user", "content": "a"}),
                json!({"role": "user", "content": "b".repeat(100)}),
            ],
        );
        assert_eq!(over_size(&p, 50), Some((1, p.body_bytes())));
        assert_eq!(over_size(&p, p.body_bytes()), None);
    }
}

//! [`Kind::ImageBytes`](crate::lint::limits::Kind::ImageBytes) and
//! [`Kind::ImageBytesAndFormat`](crate::lint::limits::Kind::ImageBytesAndFormat): every
//! inline image, once base64-decoded, stays within the limit (and is of a format the provider
//! takes).

use super::fill;
use crate::lint::Hit;
use crate::lint::limits::Limit;
use crate::lint::shape::image_hits;
use crate::wire::Payload;

/// The formats [`check_with_format`] accepts, as declared MIME types.
const FORMATS: &[&str] = &["image/png", "image/jpeg", "image/gif", "image/webp"];

/// A hit at every image over the limit once decoded.
pub(super) fn check(row: &Limit, payload: &Payload) -> Vec<Hit> {
    image_hits(payload, |image, facts| {
        (facts.bytes > row.limit).then(|| {
            fill(
                row.error,
                &[("path", &image.path), ("bytes", &facts.bytes), ("limit", &row.limit)],
            )
        })
    })
}

/// A hit at every image over the limit once decoded or declared of another format than
/// [`FORMATS`] (an image without a declared type passes the format test).
pub(super) fn check_with_format(row: &Limit, payload: &Payload) -> Vec<Hit> {
    image_hits(payload, |image, facts| {
        let format_ok = image.mime.is_none_or(|m| FORMATS.contains(&m));
        (facts.bytes > row.limit || !format_ok).then(|| fill(row.error, &[]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::lint::limits::row;
    use crate::lint::test_support::{constraint, image_message, payload, png_base64, run, texts};
    use crate::model::json::Value;
    use crate::wire::WireApi;

    /// The row of `id` with its limit set to `limit`.
    fn at(id: &str, limit: usize) -> Limit {
        Limit { limit, ..*row(id) }
    }

    #[test]
    fn anthropic_an_image_at_the_limit_passes() {
        let hits = run(
            constraint("anthropic-image-bytes"),
            json!([image_message(
                WireApi::AnthropicMessages,
                &[png_base64(100, 100, 5_242_880)]
            )]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn anthropic_a_larger_image_is_reported_with_its_decoded_size() {
        let hits = run(
            constraint("anthropic-image-bytes"),
            json!([image_message(
                WireApi::AnthropicMessages,
                &[png_base64(100, 100, 6_418_576)]
            )]),
        );
        assert_eq!(
            texts(&hits),
            ["messages.0.content.1.image.source.base64: image exceeds 5 MB maximum: 6418576 bytes > 5242880 bytes"]
        );
    }

    /// A small image passes the row of `id` as it is and with a limit of its exact size.
    fn a_small_image_passes(id: &str, api: WireApi) {
        let c = constraint(id);
        assert!(run(c, json!([image_message(api, &[png_base64(9, 9, 1000)])])).is_empty());
        let p = payload(c, json!([image_message(api, &[png_base64(9, 9, 1000)])]));
        assert!(check(&at(id, 1000), &p).is_empty());
    }

    /// One byte over a limit of 1000 is reported, at `path`.
    fn a_larger_image_is_reported(id: &str, api: WireApi, path: &str) {
        let p = payload(constraint(id), json!([image_message(api, &[png_base64(9, 9, 1001)])]));
        let hits = check(&at(id, 1000), &p);
        assert_eq!(
            texts(&hits),
            [format!(
                "(no provider error text on record) {path}: image 1001 bytes > 1000 bytes"
            )]
        );
        assert_eq!(hits[0].path, path);
    }

    #[test]
    fn bedrock_a_small_image_passes() {
        a_small_image_passes("bedrock-image-bytes", WireApi::BedrockConverseStream);
    }

    #[test]
    fn bedrock_a_larger_image_is_reported() {
        a_larger_image_is_reported(
            "bedrock-image-bytes",
            WireApi::BedrockConverseStream,
            "messages.0.content.1.image",
        );
    }

    #[test]
    fn mistral_a_small_image_passes() {
        a_small_image_passes("mistral-image-bytes", WireApi::MistralConversations);
    }

    #[test]
    fn mistral_a_larger_image_is_reported() {
        a_larger_image_is_reported(
            "mistral-image-bytes",
            WireApi::MistralConversations,
            "messages[1].content[1].image_url",
        );
    }

    /// An OpenAI Chat user message of one image of `mime`.
    fn chat_image(mime: &str, data: &str) -> Value {
        json!({"role": "user", "content": [{"type": "image_url", "image_url": {"url": format!("data:{mime};base64,{data}")}}]})
    }

    /// A Responses `input_image`.
    fn input_image(data: &str) -> Value {
        json!({"type": "input_image", "detail": "auto", "image_url": format!("data:image/png;base64,{data}")})
    }

    #[test]
    fn openai_chat_supported_images_pass() {
        let c = constraint("openai-chat-image-size");
        let hits = run(
            c,
            json!([
                chat_image("image/png", &png_base64(10, 10, 100)),
                chat_image("image/webp", "UklG")
            ]),
        );
        assert!(hits.is_empty());
        let at_limit = payload(c, json!([chat_image("image/png", &png_base64(10, 10, 1000))]));
        assert!(check_with_format(&at("openai-chat-image-size", 1000), &at_limit).is_empty());
    }

    #[test]
    fn openai_chat_a_larger_image_or_another_format_is_reported() {
        let row = at("openai-chat-image-size", 1000);
        let items = json!([
            chat_image("image/png", &png_base64(10, 10, 1001)),
            chat_image("image/heic", &png_base64(10, 10, 100))
        ]);
        let hits = check_with_format(&row, &payload(constraint(row.id), items));
        assert_eq!(texts(&hits), [row.error, row.error]);
        assert_eq!(hits[1].path, "messages[2].content[0].image_url");
    }

    #[test]
    fn openai_responses_a_small_image_passes() {
        let hits = run(
            constraint("openai-responses-image-size"),
            json!([{"type": "message", "role": "user", "content": [input_image(&png_base64(9, 9, 100))]}]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn openai_responses_a_large_tool_output_image_is_reported() {
        let row = at("openai-responses-image-size", 1000);
        let items =
            json!([{"type": "function_call_output", "call_id": "c", "output": [input_image(&png_base64(9, 9, 1001))]}]);
        let hits = check_with_format(&row, &payload(constraint(row.id), items));
        assert_eq!(texts(&hits), [row.error]);
        assert_eq!(hits[0].path, "input[0].output[0].image_url");
    }

    #[test]
    fn both_openai_apis_send_the_same_text() {
        assert_eq!(
            row("openai-chat-image-size").error,
            row("openai-responses-image-size").error
        );
    }
}

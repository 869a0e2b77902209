//! [`Kind::ImageCount`](crate::lint::limits::Kind::ImageCount): the request holds at most the
//! limit of inline images.

use super::fill;
use crate::lint::Hit;
use crate::lint::limits::Limit;
use crate::lint::shape::{hit, images, over_image_count};
use crate::wire::Payload;

/// A hit at the item holding image number `limit + 1`, at the conversation key.
pub(super) fn check(row: &Limit, payload: &Payload) -> Vec<Hit> {
    over_image_count(&images(payload), row.limit)
        .map(|(item, count)| {
            let message = fill(row.error, &[("count", &count), ("limit", &row.limit)]);
            hit(item, payload.api.conversation_key().to_string(), message)
        })
        .into_iter()
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::json;
    use crate::lint::test_support::{constraint, image_message, run, small_png, texts};
    use crate::wire::WireApi;

    #[test]
    fn anthropic_a_hundred_images_pass() {
        let hits = run(
            constraint("anthropic-image-count"),
            json!([image_message(WireApi::AnthropicMessages, &vec![small_png(); 100])]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn anthropic_more_are_reported_at_the_message_crossing_the_limit() {
        let images = |n| image_message(WireApi::AnthropicMessages, &vec![small_png(); n]);
        let hits = run(
            constraint("anthropic-image-count"),
            json!([images(60), {"role": "assistant", "content": "ok"}, images(42)]),
        );
        assert_eq!(texts(&hits), ["Too much media: 0 document pages + 102 images > 100"]);
        assert_eq!(hits[0].item, 2);
        assert_eq!(hits[0].path, "messages");
    }

    #[test]
    fn bedrock_twenty_images_pass() {
        let hits = run(
            constraint("bedrock-image-count"),
            json!([image_message(WireApi::BedrockConverseStream, &vec![small_png(); 20])]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn bedrock_twenty_one_are_reported() {
        let hits = run(
            constraint("bedrock-image-count"),
            json!([image_message(WireApi::BedrockConverseStream, &vec![small_png(); 21])]),
        );
        assert_eq!(texts(&hits), ["(no provider error text on record) 21 images > 20"]);
    }

    #[test]
    fn mistral_eight_images_pass() {
        let hits = run(
            constraint("mistral-image-count"),
            json!([image_message(WireApi::MistralConversations, &vec![small_png(); 8])]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn mistral_nine_are_reported() {
        let hits = run(
            constraint("mistral-image-count"),
            json!([image_message(WireApi::MistralConversations, &vec![small_png(); 9])]),
        );
        assert_eq!(texts(&hits), ["(no provider error text on record) 9 images > 8"]);
    }
}

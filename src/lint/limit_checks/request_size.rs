//! [`Kind::RequestSize`](crate::lint::limits::Kind::RequestSize): the serialized conversation
//! stays within the limit.

use super::fill;
use crate::lint::Hit;
use crate::lint::limits::Limit;
use crate::lint::shape::{hit, over_size};
use crate::wire::Payload;

/// A hit at the item whose end takes the body over the limit, at the conversation key.
pub(super) fn check(row: &Limit, payload: &Payload) -> Vec<Hit> {
    over_size(payload, row.limit)
        .map(|(item, total)| {
            let message = fill(row.error, &[("bytes", &total), ("limit", &row.limit)]);
            hit(item, payload.api.conversation_key().to_string(), message)
        })
        .into_iter()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::lint::limits::row;
    use crate::lint::test_support::{assert_measured_request_size, constraint, located, oversized, run, user_text};

    #[test]
    fn anthropic_a_small_body_passes() {
        assert!(run(constraint("anthropic-request-size"), json!([user_text("hi")])).is_empty());
    }

    #[test]
    fn anthropic_a_body_over_the_limit_is_reported_at_the_item_crossing_it() {
        let row = Limit {
            limit: 100,
            ..*row("anthropic-request-size")
        };
        let (payload, _) = oversized(row.apis[0]);
        let hits = check(&row, &payload);
        assert_eq!(located(&hits), [(1, "Request exceeds the maximum size".to_string())]);
        assert_eq!(hits[0].path, payload.api.conversation_key());
    }

    #[test]
    fn bedrock_a_small_body_passes_and_a_body_over_the_limit_is_reported_at_the_item_crossing_it() {
        assert_measured_request_size("bedrock-request-size");
    }

    #[test]
    fn gemini_a_small_body_passes_and_a_body_over_the_limit_is_reported_at_the_item_crossing_it() {
        assert_measured_request_size("gemini-request-size");
    }

    #[test]
    fn mistral_a_small_body_passes_and_a_body_over_the_limit_is_reported_at_the_item_crossing_it() {
        assert_measured_request_size("mistral-request-size");
    }

    #[test]
    fn openai_chat_a_small_body_passes_and_a_body_over_the_limit_is_reported_at_the_item_crossing_it() {
        assert_measured_request_size("openai-chat-request-size");
    }

    #[test]
    fn openai_responses_a_small_body_passes_and_a_body_over_the_limit_is_reported_at_the_item_crossing_it() {
        assert_measured_request_size("openai-responses-request-size");
    }
}

//! The request body stays within the documented 32 MB.
//!
//! The limit used is 32 MiB (33,554,432 bytes) of serialized conversation; the system prompt and
//! tools, not part of this payload, count too, and 413s have been reported from about 18 MB of
//! images, so a body under the limit can still be refused.

use crate::lint::shape::{Wording, request_size};
use crate::lint::{Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The request-size limit used, in bytes.
pub const MAX_BODY_BYTES: usize = 32 * 1024 * 1024;

/// The provider's text.
const WORDING: Wording = Wording::Provider("Request exceeds the maximum size");

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "anthropic-request-size",
    apis: &[WireApi::AnthropicMessages],
    summary: "the request body is at most 32 MB (limit used: 33554432 bytes)",
    error: "Request exceeds the maximum size",
    reference: "provider-constraints.md §1, §7.2",
    fixed_by: None,
    check,
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    request_size(payload, MAX_BODY_BYTES, WORDING)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::lint::test_support::{located, oversized, run, user_text as user};

    #[test]
    fn a_small_body_passes() {
        assert!(run(&CONSTRAINT, json!([user("hi")])).is_empty());
    }

    #[test]
    fn a_body_over_the_limit_is_reported_at_the_item_crossing_it() {
        let (payload, _) = oversized(&CONSTRAINT, user);
        let hits = request_size(&payload, 100, WORDING);
        assert_eq!(located(&hits), [(1, "Request exceeds the maximum size".to_string())]);
        assert_eq!(hits[0].path, payload.api.conversation_key());
    }
}

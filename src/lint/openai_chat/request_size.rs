//! The request body stays within 50 MB.
//!
//! No error text is on record. The limit used is the documented 50 MB of image bytes per
//! request (a doc mirror, read as 50 MiB = 52,428,800 bytes), applied to the whole conversation;
//! reports put the real limit between 30 and 45 MB.

use crate::lint::shape::{Wording, request_size};
use crate::lint::{Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The request-size limit used, in bytes.
pub const MAX_BODY_BYTES: usize = 50 * 1024 * 1024;

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "openai-chat-request-size",
    apis: &[WireApi::OpenAiCompletions],
    summary: "the request body is at most 50 MB (limit used: 52428800 bytes)",
    error: "(no provider error text on record) request body {bytes} bytes > {limit} bytes",
    reference: "provider-constraints.md §2, §7.2",
    fixed_by: None,
    check,
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    request_size(payload, MAX_BODY_BYTES, Wording::Measured)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::test_support::{assert_measured_request_size, user_text as user};

    #[test]
    fn a_small_body_passes_and_a_body_over_the_limit_is_reported_at_the_item_crossing_it() {
        assert_measured_request_size(&CONSTRAINT, user);
    }
}

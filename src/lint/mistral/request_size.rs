//! The request body stays within about 40 MB.
//!
//! Measured by a client's probe (tag C: about 40 MB total gives a 413), read as 40 MiB =
//! 41,943,040 bytes; no error text is on record.

use crate::lint::shape::{Wording, request_size};
use crate::lint::{Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The request-size limit used, in bytes.
pub const MAX_BODY_BYTES: usize = 40 * 1024 * 1024;

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "mistral-request-size",
    apis: &[WireApi::MistralConversations],
    summary: "the request body is at most about 40 MB (limit used: 41943040 bytes)",
    error: "(no provider error text on record) request body {bytes} bytes > {limit} bytes",
    reference: "provider-constraints.md §6, §7.2 (C)",
    fixed_by: None,
    check,
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    request_size(payload, MAX_BODY_BYTES, Wording::Measured)
}

#[cfg(test)]
mod tests {
    use super::super::user;
    use super::*;
    use crate::lint::test_support::assert_measured_request_size;

    #[test]
    fn a_small_body_passes_and_a_body_over_the_limit_is_reported_at_the_item_crossing_it() {
        assert_measured_request_size(&CONSTRAINT, user);
    }
}

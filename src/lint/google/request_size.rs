//! The request body stays within 20 MB.
//!
//! No error text is on record for the Gemini API (a 413). The limit used is the 20 MB total
//! request size of the Google docs and forum, read as 20 MiB = 20,971,520 bytes.

use crate::lint::shape::{Wording, request_size};
use crate::lint::{Constraint, Hit};
use crate::wire::{Payload, WireModel};

/// The request-size limit used, in bytes.
pub const MAX_BODY_BYTES: usize = 20 * 1024 * 1024;

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "gemini-request-size",
    apis: super::APIS,
    summary: "the request body is at most 20 MB (limit used: 20971520 bytes)",
    error: "(no provider error text on record) request body {bytes} bytes > {limit} bytes",
    reference: "provider-constraints.md §4, §7.2",
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

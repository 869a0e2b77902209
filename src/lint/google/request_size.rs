//! The request body stays within 20 MB.
//!
//! No error text is on record for the Gemini API (a 413). The limit used is the 20 MB total
//! request size of the Google docs and forum, read as 20 MiB = 20,971,520 bytes.

use crate::lint::shape::{no_text, size_hits};
use crate::lint::{Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// The request-size limit used, in bytes.
pub const MAX_BODY_BYTES: usize = 20 * 1024 * 1024;

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "gemini-request-size",
    apis: &[WireApi::GoogleGenerativeAi],
    summary: "the request body is at most 20 MB (limit used: 20971520 bytes)",
    error: "(no provider error text on record) request body {bytes} bytes > {limit} bytes",
    reference: "provider-constraints.md §4, §7.2",
    fixed_by: None,
    check,
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    over(payload, MAX_BODY_BYTES)
}

/// The finding when the body is over `limit` bytes.
fn over(payload: &Payload, limit: usize) -> Vec<Hit> {
    size_hits(payload, limit, |total| {
        no_text(format!("request body {total} bytes > {limit} bytes"))
    })
}

#[cfg(test)]
mod tests {
    use super::super::user;
    use super::*;
    use crate::lint::test_support::{body_bytes, payload, run};
    use serde_json::json;

    #[test]
    fn a_small_body_passes() {
        assert!(run(&CONSTRAINT, json!([user("hi")])).is_empty());
    }

    #[test]
    fn a_body_over_the_limit_is_reported_at_the_item_crossing_it() {
        let items = json!([user("hi"), user(&"x".repeat(100))]);
        let total = body_bytes(&CONSTRAINT, &items);
        let hits = over(&payload(&CONSTRAINT, items), 100);
        assert_eq!(
            hits.iter().map(|h| (h.item, h.message.clone())).collect::<Vec<_>>(),
            [(
                1,
                format!("(no provider error text on record) request body {total} bytes > 100 bytes")
            )]
        );
    }
}

//! An image is at most about 15 MB.
//!
//! Measured by a client's probe against pixtral-12b (tag C), read as 15 MiB = 15,728,640
//! bytes; no error text is on record.

use crate::lint::shape::{Wording, image_bytes};
use crate::lint::{Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// Largest decoded image, in bytes.
pub const MAX_IMAGE_BYTES: usize = 15 * 1024 * 1024;

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "mistral-image-bytes",
    apis: &[WireApi::MistralConversations],
    summary: "every image is at most about 15 MB (limit used: 15728640 bytes)",
    error: "(no provider error text on record) {path}: image {bytes} bytes > {limit} bytes",
    reference: "provider-constraints.md §6, §7.2 (C)",
    fixed_by: Some("image-sanitize"),
    check,
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    image_bytes(payload, MAX_IMAGE_BYTES, Wording::Measured)
}

#[cfg(test)]
mod tests {
    use super::super::image_message;
    use super::*;
    use crate::json;
    use crate::lint::test_support::{payload, png_base64, run, texts};

    #[test]
    fn a_small_image_passes() {
        assert!(run(&CONSTRAINT, json!([image_message(&[png_base64(9, 9, 1000)])])).is_empty());
        assert!(
            image_bytes(
                &payload(&CONSTRAINT, json!([image_message(&[png_base64(9, 9, 1000)])])),
                1000,
                Wording::Measured
            )
            .is_empty()
        );
    }

    #[test]
    fn a_larger_image_is_reported() {
        let hits = image_bytes(
            &payload(&CONSTRAINT, json!([image_message(&[png_base64(9, 9, 1001)])])),
            1000,
            Wording::Measured,
        );
        assert_eq!(
            texts(&hits),
            ["(no provider error text on record) messages[1].content[1].image_url: image 1001 bytes > 1000 bytes"]
        );
    }
}

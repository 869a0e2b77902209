//! An image is at most 3.75 MB.
//!
//! Documented (tag D) with no rejection text seen; 3.75 MB is read as 3.75 MiB = 3,932,160
//! bytes. `image-sanitize` caps images at 5 MiB, above this limit, so hygiene does not
//! guarantee it.

use crate::lint::shape::{Wording, image_bytes};
use crate::lint::{Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// Largest decoded image, in bytes.
pub const MAX_IMAGE_BYTES: usize = 3_932_160;

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "bedrock-image-bytes",
    apis: &[WireApi::BedrockConverseStream],
    summary: "every image is at most 3.75 MB (limit used: 3932160 bytes)",
    error: "(no provider error text on record) {path}: image {bytes} bytes > {limit} bytes",
    reference: "provider-constraints.md §5, §7.2 (D)",
    fixed_by: None,
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
            ["(no provider error text on record) messages.0.content.1.image: image 1001 bytes > 1000 bytes"]
        );
    }
}

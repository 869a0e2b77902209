//! An image is at most 5 MB (5,242,880 bytes) once base64-decoded, also inside tool results.

use crate::lint::shape::{Wording, image_bytes};
use crate::lint::{Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// Largest decoded image, in bytes.
pub const MAX_IMAGE_BYTES: usize = 5_242_880;

/// The provider's text.
const WORDING: Wording = Wording::Provider("{path}: image exceeds 5 MB maximum: {bytes} bytes > {limit} bytes");

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "anthropic-image-bytes",
    apis: &[WireApi::AnthropicMessages],
    summary: "every image is at most 5 MB (5242880 bytes) decoded",
    error: "messages.{N}.content.{M}[.tool_result.content.{K}].image.source.base64: image exceeds 5 MB maximum: {bytes} bytes > 5242880 bytes",
    reference: "provider-constraints.md §1, §7.2",
    fixed_by: Some("image-sanitize"),
    check,
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    image_bytes(payload, MAX_IMAGE_BYTES, WORDING)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::lint::anthropic::image_message;
    use crate::lint::test_support::{png_base64, run, texts};

    #[test]
    fn an_image_at_the_limit_passes() {
        let hits = run(
            &CONSTRAINT,
            json!([image_message(&[png_base64(100, 100, MAX_IMAGE_BYTES)])]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn a_larger_image_is_reported_with_its_decoded_size() {
        let hits = run(&CONSTRAINT, json!([image_message(&[png_base64(100, 100, 6_418_576)])]));
        assert_eq!(
            texts(&hits),
            ["messages.0.content.1.image.source.base64: image exceeds 5 MB maximum: 6418576 bytes > 5242880 bytes"]
        );
    }
}

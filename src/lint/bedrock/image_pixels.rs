//! An image is at most 8000 px on each side.
//!
//! Documented (tag D) with no rejection text seen.

use crate::lint::shape::{Wording, image_sides};
use crate::lint::{Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// Longest side accepted, in pixels.
pub const MAX_SIDE_PX: u32 = 8000;

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "bedrock-image-pixels",
    apis: &[WireApi::BedrockConverseStream],
    summary: "every image is at most 8000 px per side",
    error: "(no provider error text on record) {path}: image {width}x{height} px > 8000 px",
    reference: "provider-constraints.md §5, §7.2 (D)",
    fixed_by: Some("image-sanitize"),
    check,
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    image_sides(payload, MAX_SIDE_PX, Wording::Measured)
}

#[cfg(test)]
mod tests {
    use super::super::image_message;
    use super::*;
    use crate::json;
    use crate::lint::test_support::{png_base64, run, texts};

    #[test]
    fn an_image_at_the_limit_passes() {
        assert!(run(&CONSTRAINT, json!([image_message(&[png_base64(8000, 10, 100)])])).is_empty());
    }

    #[test]
    fn a_wider_image_is_reported() {
        let hits = run(&CONSTRAINT, json!([image_message(&[png_base64(8001, 10, 100)])]));
        assert_eq!(
            texts(&hits),
            ["(no provider error text on record) messages.0.content.1.image: image 8001x10 px > 8000 px"]
        );
    }
}

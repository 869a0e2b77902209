//! An image is at most 8000 px on each side.

use super::dimension_hits;
use crate::lint::shape::images;
use crate::lint::{Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// Longest side accepted, in pixels.
pub const MAX_SIDE_PX: u32 = 8000;

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "anthropic-image-pixels",
    apis: &[WireApi::AnthropicMessages],
    summary: "every image is at most 8000 px per side",
    error: "messages.{N}.content.{M}[.tool_result.content.{K}].image.source.base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels",
    reference: "provider-constraints.md §1, §7.2",
    fixed_by: Some("image-sanitize"),
    check,
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let text = format!("At least one of the image dimensions exceed max allowed size: {MAX_SIDE_PX} pixels");
    dimension_hits(images(payload), |side| side > MAX_SIDE_PX, &text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::lint::anthropic::image_message;
    use crate::lint::test_support::{png_base64, run, texts};

    #[test]
    fn an_image_at_the_limit_passes() {
        let hits = run(&CONSTRAINT, json!([image_message(&[png_base64(8000, 8000, 200)])]));
        assert!(hits.is_empty());
    }

    #[test]
    fn a_taller_image_is_reported() {
        let hits = run(&CONSTRAINT, json!([image_message(&[png_base64(100, 8001, 200)])]));
        assert_eq!(
            texts(&hits),
            [
                "messages.0.content.1.image.source.base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels"
            ]
        );
    }
}

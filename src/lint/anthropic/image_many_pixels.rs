//! With more than 20 images in the request, every image is at most 2000 px on each side.
//!
//! Images over 8000 px are left to `anthropic-image-pixels`.

use super::dimension_hits;
use super::image_pixels::MAX_SIDE_PX;
use crate::lint::shape::images;
use crate::lint::{Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// Images a request may hold before the many-image limit applies.
pub const MANY_IMAGES: usize = 20;

/// Longest side in a many-image request, in pixels.
pub const MANY_IMAGES_SIDE_PX: u32 = 2000;

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "anthropic-image-many-pixels",
    apis: &[WireApi::AnthropicMessages],
    summary: "with more than 20 images in the request, every image is at most 2000 px per side",
    error: "messages.{N}.content.{M}[.tool_result.content.{K}].image.source.base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: 2000 pixels",
    reference: "provider-constraints.md §1, §7.2",
    fixed_by: Some("image-sanitize"),
    check,
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let all = images(payload);
    if all.len() <= MANY_IMAGES {
        return Vec::new();
    }
    let text = format!(
        "At least one of the image dimensions exceed max allowed size for many-image requests: {MANY_IMAGES_SIDE_PX} pixels"
    );
    dimension_hits(all, |side| side > MANY_IMAGES_SIDE_PX && side <= MAX_SIDE_PX, &text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::lint::anthropic::image_message;
    use crate::lint::test_support::{png_base64, run, small_png, texts};

    #[test]
    fn large_images_in_a_small_request_pass() {
        let hits = run(
            &CONSTRAINT,
            json!([image_message(&vec![png_base64(3000, 100, 200); 20])]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn a_large_image_among_21_is_reported() {
        let mut data = vec![small_png(); 20];
        data.push(png_base64(2001, 100, 200));
        let hits = run(&CONSTRAINT, json!([image_message(&data)]));
        assert_eq!(
            texts(&hits),
            [
                "messages.0.content.21.image.source.base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: 2000 pixels"
            ]
        );
    }
}

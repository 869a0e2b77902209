//! At most 20 images per request.
//!
//! Documented (tag D) with no rejection text seen; a newer AWS page says Bedrock leaves image
//! limits to the model.

use crate::lint::shape::{Wording, image_count};
use crate::lint::{Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// Images a request may hold.
pub const MAX_IMAGES: usize = 20;

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "bedrock-image-count",
    apis: &[WireApi::BedrockConverseStream],
    summary: "at most 20 images per request",
    error: "(no provider error text on record) {count} images > 20",
    reference: "provider-constraints.md §5, §7.2 (D)",
    fixed_by: None,
    check,
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    image_count(payload, MAX_IMAGES, Wording::Measured)
}

#[cfg(test)]
mod tests {
    use super::super::image_message;
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, small_png, texts};

    #[test]
    fn twenty_images_pass() {
        assert!(run(&CONSTRAINT, json!([image_message(&vec![small_png(); 20])])).is_empty());
    }

    #[test]
    fn twenty_one_are_reported() {
        let hits = run(&CONSTRAINT, json!([image_message(&vec![small_png(); 21])]));
        assert_eq!(texts(&hits), ["(no provider error text on record) 21 images > 20"]);
    }
}

//! At most 8 images per request.
//!
//! Measured by a client's probe against pixtral-12b (tag C); no error text is on record.

use crate::lint::shape::{Wording, image_count};
use crate::lint::{Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// Images a request may hold.
pub const MAX_IMAGES: usize = 8;

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "mistral-image-count",
    apis: &[WireApi::MistralConversations],
    summary: "at most 8 images per request",
    error: "(no provider error text on record) {count} images > 8",
    reference: "provider-constraints.md §6, §7.2 (C)",
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
    fn eight_images_pass() {
        assert!(run(&CONSTRAINT, json!([image_message(&vec![small_png(); 8])])).is_empty());
    }

    #[test]
    fn nine_are_reported() {
        let hits = run(&CONSTRAINT, json!([image_message(&vec![small_png(); 9])]));
        assert_eq!(texts(&hits), ["(no provider error text on record) 9 images > 8"]);
    }
}

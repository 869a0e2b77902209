//! At most 100 images and document pages per request.
//!
//! OpenClaw's converter sends no document blocks, so the page count is always 0 here.

use crate::lint::shape::{Wording, image_count};
use crate::lint::{Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// Images and document pages a request may hold.
pub const MAX_MEDIA: usize = 100;

/// The provider's text.
const WORDING: Wording = Wording::Provider("Too much media: 0 document pages + {count} images > {limit}");

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "anthropic-image-count",
    apis: &[WireApi::AnthropicMessages],
    summary: "at most 100 images and document pages per request",
    error: "Too much media: 0 document pages + {count} images > 100",
    reference: "provider-constraints.md §1, §7.2",
    fixed_by: None,
    check,
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    image_count(payload, MAX_MEDIA, WORDING)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::lint::anthropic::image_message;
    use crate::lint::test_support::{run, small_png, texts};

    #[test]
    fn a_hundred_images_pass() {
        let hits = run(&CONSTRAINT, json!([image_message(&vec![small_png(); 100])]));
        assert!(hits.is_empty());
    }

    #[test]
    fn more_are_reported_at_the_message_crossing_the_limit() {
        let hits = run(
            &CONSTRAINT,
            json!([image_message(&vec![small_png(); 60]), {"role": "assistant", "content": "ok"}, image_message(&vec![small_png(); 42])]),
        );
        assert_eq!(texts(&hits), ["Too much media: 0 document pages + 102 images > 100"]);
        assert_eq!(hits[0].item, 2);
    }
}

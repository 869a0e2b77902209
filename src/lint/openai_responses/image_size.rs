//! An `input_image` is below 20 MB and PNG, JPEG, GIF or WEBP (as in Chat Completions), in
//! messages and in function call outputs.

use super::APIS;
use crate::lint::openai_chat::image_size::{MAX_IMAGE_BYTES, MESSAGE, unsupported};
use crate::lint::shape::image_hits;
use crate::lint::{Constraint, Hit};
use crate::wire::{Payload, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "openai-responses-image-size",
    apis: APIS,
    summary: "every input_image is below 20 MB (limit used: 20971520 bytes) and png, jpeg, gif or webp",
    error: MESSAGE,
    reference: "provider-constraints.md §2, §3, §7.2",
    fixed_by: Some("image-sanitize"),
    check,
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    image_hits(payload, unsupported(MAX_IMAGE_BYTES))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::lint::test_support::{payload, png_base64, run, texts};

    fn image(data: &str) -> crate::model::json::Value {
        json!({"type": "input_image", "detail": "auto", "image_url": format!("data:image/png;base64,{data}")})
    }

    #[test]
    fn a_small_image_passes() {
        let hits = run(
            &CONSTRAINT,
            json!([{"type": "message", "role": "user", "content": [image(&png_base64(9, 9, 100))]}]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn a_large_tool_output_image_is_reported() {
        let items =
            json!([{"type": "function_call_output", "call_id": "c", "output": [image(&png_base64(9, 9, 1001))]}]);
        let hits = image_hits(&payload(&CONSTRAINT, items), unsupported(1000));
        assert_eq!(texts(&hits), [MESSAGE]);
        assert_eq!(hits[0].path, "input[0].output[0].image_url");
    }
}

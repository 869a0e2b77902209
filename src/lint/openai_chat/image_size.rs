//! An image is below 20 MB and PNG, JPEG, GIF or WEBP.
//!
//! The text is from 2024 (tag V); 20 MB is read as 20 MiB. The format is the data URL's
//! declared MIME type.

use crate::lint::shape::{Image, ImageFacts, image_hits};
use crate::lint::{Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// Largest decoded image accepted, in bytes.
pub const MAX_IMAGE_BYTES: usize = 20 * 1024 * 1024;

/// The message, shared with the Responses constraint.
pub(crate) const MESSAGE: &str = "You uploaded an unsupported image. Please make sure your image is below 20 MB in size and is of one the following formats: ['png', 'jpeg', 'gif', 'webp'].";

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "openai-chat-image-size",
    apis: &[WireApi::OpenAiCompletions],
    summary: "every image is below 20 MB (limit used: 20971520 bytes) and png, jpeg, gif or webp",
    error: MESSAGE,
    reference: "provider-constraints.md §2, §7.2",
    fixed_by: Some("image-sanitize"),
    check,
};

/// The judge of images over `limit` decoded bytes or of another format: the message when so.
pub(crate) fn unsupported(limit: usize) -> impl Fn(&Image<'_>, ImageFacts) -> Option<String> {
    move |image, facts| {
        let format_ok = image
            .mime
            .is_none_or(|m| matches!(m, "image/png" | "image/jpeg" | "image/gif" | "image/webp"));
        (facts.bytes > limit || !format_ok).then(|| MESSAGE.to_string())
    }
}

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    image_hits(payload, unsupported(MAX_IMAGE_BYTES))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::lint::test_support::{payload, png_base64, run, texts};

    fn message(mime: &str, data: &str) -> crate::model::json::Value {
        json!({"role": "user", "content": [{"type": "image_url", "image_url": {"url": format!("data:{mime};base64,{data}")}}]})
    }

    #[test]
    fn supported_images_pass() {
        let hits = run(
            &CONSTRAINT,
            json!([
                message("image/png", &png_base64(10, 10, 100)),
                message("image/webp", "UklG")
            ]),
        );
        assert!(hits.is_empty());
        let at_limit = payload(&CONSTRAINT, json!([message("image/png", &png_base64(10, 10, 1000))]));
        assert!(image_hits(&at_limit, unsupported(1000)).is_empty());
    }

    #[test]
    fn a_larger_image_or_another_format_is_reported() {
        let items = json!([
            message("image/png", &png_base64(10, 10, 1001)),
            message("image/heic", &png_base64(10, 10, 100))
        ]);
        let hits = image_hits(&payload(&CONSTRAINT, items), unsupported(1000));
        assert_eq!(texts(&hits), [MESSAGE, MESSAGE]);
        assert_eq!(hits[1].path, "messages[2].content[0].image_url");
    }
}

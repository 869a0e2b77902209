//! [`Kind::ImageSide`](crate::lint::limits::Kind::ImageSide) and
//! [`Kind::ManyImagesSide`](crate::lint::limits::Kind::ManyImagesSide): the longer side of every
//! inline image stays within the limit (in a request of many images, for the latter).

use super::fill;
use crate::lint::Hit;
use crate::lint::limits::{Limit, side_limit_of};
use crate::lint::shape::{Image, hit, images};
use crate::wire::{Payload, WireApi};

/// The path the provider names for an image's dimensions: Anthropic points at the `data` of
/// the base64 source, the others at the image.
fn dimension_path(api: WireApi, image: &Image<'_>) -> String {
    match api {
        WireApi::AnthropicMessages => format!("{}.data", image.path),
        _ => image.path.clone(),
    }
}

/// A hit at every image of `found` whose longer side `too_large` rejects, at its
/// [`dimension_path`].
fn side_hits(row: &Limit, payload: &Payload, found: Vec<Image<'_>>, too_large: impl Fn(usize) -> bool) -> Vec<Hit> {
    found
        .into_iter()
        .filter_map(|image| {
            let (width, height) = image.facts()?.size?;
            if !too_large(width.max(height) as usize) {
                return None;
            }
            let path = dimension_path(payload.api, &image);
            let message = fill(
                row.error,
                &[
                    ("path", &path),
                    ("width", &width),
                    ("height", &height),
                    ("limit", &row.limit),
                ],
            );
            Some(hit(image.item, path, message))
        })
        .collect()
}

/// A hit at every image with a side over the limit.
pub(super) fn check(row: &Limit, payload: &Payload) -> Vec<Hit> {
    side_hits(row, payload, images(payload), |side| side > row.limit)
}

/// With more than `many` images in the request, a hit at every image with a side over the
/// limit and within the API's own side limit (the images over that are its row's).
pub(super) fn check_many(row: &Limit, many: usize, payload: &Payload) -> Vec<Hit> {
    let all = images(payload);
    if all.len() <= many {
        return Vec::new();
    }
    let up_to = side_limit_of(row).unwrap_or(usize::MAX);
    side_hits(row, payload, all, |side| side > row.limit && side <= up_to)
}

#[cfg(test)]
mod tests {
    use crate::json;
    use crate::lint::test_support::{constraint, image_message, png_base64, run, small_png, texts};
    use crate::wire::WireApi;

    const ANTHROPIC: WireApi = WireApi::AnthropicMessages;

    #[test]
    fn anthropic_an_image_at_the_limit_passes() {
        let hits = run(
            constraint("anthropic-image-pixels"),
            json!([image_message(ANTHROPIC, &[png_base64(8000, 8000, 200)])]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn anthropic_a_taller_image_is_reported() {
        let hits = run(
            constraint("anthropic-image-pixels"),
            json!([image_message(ANTHROPIC, &[png_base64(100, 8001, 200)])]),
        );
        assert_eq!(
            texts(&hits),
            [
                "messages.0.content.1.image.source.base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels"
            ]
        );
        assert_eq!(hits[0].path, "messages.0.content.1.image.source.base64.data");
    }

    #[test]
    fn anthropic_large_images_in_a_small_request_pass() {
        let hits = run(
            constraint("anthropic-image-many-pixels"),
            json!([image_message(ANTHROPIC, &vec![png_base64(3000, 100, 200); 20])]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn anthropic_a_large_image_among_21_is_reported() {
        let mut data = vec![small_png(); 20];
        data.push(png_base64(2001, 100, 200));
        let hits = run(
            constraint("anthropic-image-many-pixels"),
            json!([image_message(ANTHROPIC, &data)]),
        );
        assert_eq!(
            texts(&hits),
            [
                "messages.0.content.21.image.source.base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: 2000 pixels"
            ]
        );
    }

    #[test]
    fn anthropic_an_image_over_8000_among_21_is_left_to_the_per_image_limit() {
        let mut data = vec![small_png(); 20];
        data.push(png_base64(8001, 100, 200));
        data.push(png_base64(8000, 100, 200));
        let hits = run(
            constraint("anthropic-image-many-pixels"),
            json!([image_message(ANTHROPIC, &data)]),
        );
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].path, "messages.0.content.22.image.source.base64.data");
    }

    #[test]
    fn bedrock_an_image_at_the_limit_passes() {
        let hits = run(
            constraint("bedrock-image-pixels"),
            json!([image_message(
                WireApi::BedrockConverseStream,
                &[png_base64(8000, 10, 100)]
            )]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn bedrock_a_wider_image_is_reported() {
        let hits = run(
            constraint("bedrock-image-pixels"),
            json!([image_message(
                WireApi::BedrockConverseStream,
                &[png_base64(8001, 10, 100)]
            )]),
        );
        assert_eq!(
            texts(&hits),
            ["(no provider error text on record) messages.0.content.1.image: image 8001x10 px > 8000 px"]
        );
        assert_eq!(hits[0].path, "messages.0.content.1.image");
    }

    #[test]
    fn mistral_an_image_at_the_limit_passes() {
        let hits = run(
            constraint("mistral-image-pixels"),
            json!([image_message(
                WireApi::MistralConversations,
                &[png_base64(10, 8000, 100)]
            )]),
        );
        assert!(hits.is_empty());
    }

    #[test]
    fn mistral_a_taller_image_is_reported() {
        let hits = run(
            constraint("mistral-image-pixels"),
            json!([image_message(
                WireApi::MistralConversations,
                &[png_base64(10, 9000, 100)]
            )]),
        );
        assert_eq!(
            texts(&hits),
            ["(no provider error text on record) messages[1].content[1].image_url: image 10x9000 px > 8000 px"]
        );
    }
}

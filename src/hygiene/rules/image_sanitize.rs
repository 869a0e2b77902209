//! `image-sanitize`: downscale / recompress oversized images; replace undecodable ones by text.

use crate::json;
use crate::model::json::{Map, Value};

use crate::hygiene::{Action, Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::{Message, Role};

use crate::openclaw::image::ops::{
    HeaderCheck, ImageCache, ImageFailure, ImageLimits, ImageRelease, SanitizedImage, header_check, human_bytes,
    sanitize_image_with,
};

/// The label OpenClaw's replay gives image placeholders.
pub const LABEL: &str = "session:history";

static INFO: RuleInfo = RuleInfo {
    id: "image-sanitize",
    summary: "downscale / recompress oversized images; replace undecodable ones by text",
    explanation: "Providers reject oversized base64 images (Anthropic: over 5 MB, or very large sides in \
        multi-image requests), so OpenClaw sanitizes every image before replay \
        (sanitizeSessionMessagesImages → sanitizeContentBlocksImages, label `session:history`). It runs for \
        every provider and in both sanitize modes (`full` and `images-only`). It walks the array content of \
        user, assistant (any stop reason) and toolResult messages; string content, other roles and \
        compaction summaries are left alone. Every `{type:\"image\"}` block is processed, in OpenClaw \
        2026.9.6's order: without a string `data` and a string `mimeType` it becomes the text \
        `[session:history] omitted image payload: missing data or mimeType`; a payload whose estimated decoded \
        size is over 10 MiB becomes `… image exceeds input size limit (10.00MB)`; blank `data` (JavaScript's \
        trim) becomes `[session:history] omitted empty image payload`; data OpenClaw cannot canonicalize \
        (characters up to U+0020 are removed, unpadded data is padded; a character outside the base64 \
        alphabet, `=` before data, more than two `=`, a length of 4n+1 or non-zero pad bits are refused, so \
        `data:` URLs and URL-safe base64 are refused) becomes `… invalid base64`. The MIME type is inferred \
        from the first base64 characters (`/9j/` JPEG, `iVBOR` PNG, `R0lGOD` GIF, else the declared type is \
        kept) and replaces a wrong label even when the image is kept. The header is read without decoding \
        pixels, with rastermill's reader (PNG, GIF, WebP, BMP, TIFF, HEIF/AVIF `ispe`, JPEG; EXIF and HEIF \
        orientations 5–8 swap the axes); an image whose size is known, whose bytes are at most 5 MiB, whose \
        sides are at most the maximum (`--image-max-px`, default 1200) and whose pixels are at most 25 million \
        is kept byte for byte (canonicalized), whatever its format (a BMP, TIFF, HEIC or a cut file whose \
        header is intact is kept). Otherwise it is decoded as OpenClaw's Photon backend decodes it (the same \
        `image` crate release), turned upright, resized with Lanczos3 and encoded as JPEG from its RGBA \
        pixels (alpha dropped): sides [min(max, longest), 1800, 1600, 1400, 1200, 1000, 800] capped at the \
        maximum, de-duplicated and tried largest first, each at qualities 85, 75, 65, 55, 45, 35, fitted \
        inside a side×side box without enlargement; the first result of at most 5 MiB wins and the block \
        keeps its other fields with the new `data` and `mimeType: image/jpeg`. Failures become `[session:history] \
        omitted image payload: ` and OpenClaw's error: no size in any header (SVG, ICO, HEIF without `ispe`, \
        text, a 0×0 header) `RastermillError: Unable to determine image dimensions; refusing to process`; over \
        25 million pixels `RastermillError: Image dimensions exceed the 25,000,000 pixel input limit: WxH (N \
        pixels)`; a BMP, TIFF, HEIF or AVIF over a limit `ImageProcessorUnavailableError: Image processor \
        unavailable for jpeg encoding; tried: photon, imagemagick, graphicsmagick, ffmpeg` (OpenClaw on a \
        machine without those tools); a PNG, GIF, WebP or JPEG over a limit that does not decode \
        `RastermillError: Unable to decode image with Photon` (a grey+alpha PNG is first inflated by hand, \
        whose zlib errors, e.g. `Error: unexpected end of file`, are reported as they are); no size and \
        quality under 5 MiB `Error: Image could not be reduced below 5.00MB (got 6.12MB)`: an image is never \
        silently lost. Older releases differ by four switches (`replaylens rules --openclaw V`): no 10 MiB \
        estimate (2026.6.9–6.10), unpadded base64 with any pad bits (2026.6), rastermill 0.3.1's HEIF header \
        (largest `ispe`, no orientation; 2026.7 and older), the cap in whole megabytes in the reduce error \
        (2026.9.1 and older). Each changed image is one rewrite naming its block index (0-based, in the message's \
        content array).",
    families: "all providers and APIs, in both sanitize modes",
    reference: "transcript-hygiene.md › \"Global rule: image sanitization\" · sanitizeSessionMessagesImages, sanitizeContentBlocksImages",
};

/// The `image-sanitize` rule.
pub struct ImageSanitize;

impl Rule for ImageSanitize {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, _ctx: &Context<'_>) -> bool {
        true
    }

    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let limits = ImageLimits::with_max_dimension(ctx.options.image_max_px)
            .for_release(ImageRelease::of(&ctx.options.rule_set.switches));
        let cache = decode_distinct(work, limits);
        for wm in &mut work.messages {
            let changes = changed_blocks(&wm.message, limits, &cache);
            if changes.is_empty() {
                continue;
            }
            let blocks = wm
                .message
                .to_mut()
                .blocks_mut()
                .expect("changed blocks come from array content");
            let mut details = Vec::with_capacity(changes.len());
            for (index, block, detail) in changes {
                blocks[index] = block;
                details.push(detail);
            }
            for detail in details {
                rewrites.push(PendingRewrite::on(INFO.id, Action::Modify, wm, detail));
            }
        }
    }
}

/// The image blocks the rule processes: every `{type:"image"}` block in the array content of
/// user, assistant and toolResult messages, with `(data, mimeType)` when both are strings.
fn image_blocks(message: &Message) -> impl Iterator<Item = (usize, &Map, Option<(&str, &str)>)> {
    let blocks = match message.role() {
        Role::User | Role::Assistant | Role::ToolResult => message.content_array(),
        _ => None,
    };
    blocks.into_iter().flatten().enumerate().filter_map(|(index, block)| {
        let obj = block.as_object()?;
        if obj.get("type").and_then(Value::as_str) != Some("image") {
            return None;
        }
        let fields = obj
            .get("data")
            .and_then(Value::as_str)
            .zip(obj.get("mimeType").and_then(Value::as_str));
        Some((index, obj, fields))
    })
}

/// The image blocks with string `data` and `mimeType`.
fn image_payloads(message: &Message) -> impl Iterator<Item = (usize, &Map, &str, &str)> {
    image_blocks(message).filter_map(|(index, obj, fields)| fields.map(|(data, mime)| (index, obj, data, mime)))
}

/// Decode and re-encode, once each and in parallel, the distinct payloads whose header
/// does not settle them.
fn decode_distinct(work: &Working<'_>, limits: ImageLimits) -> ImageCache {
    let mut needs_decode = Vec::new();
    for wm in &work.messages {
        for (_, _, data, declared) in image_payloads(&wm.message) {
            if let Ok(HeaderCheck::NeedsDecode(canonical)) = header_check(data, declared, limits) {
                needs_decode.push(canonical);
            }
        }
    }
    // One payload alone gains nothing from the pool; the rule decodes it in line.
    if needs_decode.len() < 2 {
        return ImageCache::default();
    }
    ImageCache::build(needs_decode.iter().map(|c| c.as_ref()), limits)
}

/// The image blocks of a message that change: (index, new block, detail).
fn changed_blocks(message: &Message, limits: ImageLimits, cache: &ImageCache) -> Vec<(usize, Value, String)> {
    image_blocks(message)
        .filter_map(|(index, obj, fields)| match fields {
            Some((data, declared)) => change(index, obj, data, declared, limits, cache),
            None => Some(replaced(index, "no data or mimeType", &ImageFailure::MissingFields)),
        })
        .collect()
}

/// The new block and detail for one image block, or `None` when it stays as it is.
fn change(
    index: usize,
    obj: &Map,
    data: &str,
    declared: &str,
    limits: ImageLimits,
    cache: &ImageCache,
) -> Option<(usize, Value, String)> {
    match sanitize_image_with(data, declared, limits, Some(cache)) {
        Ok(image) => {
            let detail = kept_detail(index, data, declared, &image, limits)?;
            Some((index, with_payload(obj, &image), detail))
        }
        Err(failure) => Some(replaced(index, declared, &failure)),
    }
}

/// An image block replaced by the failure's placeholder text.
fn replaced(index: usize, declared: &str, failure: &ImageFailure) -> (usize, Value, String) {
    let detail = format!(
        "replaced image block {index} ({declared}) by text: {}",
        failure.reason()
    );
    (
        index,
        json!({"type": "text", "text": failure.placeholder(LABEL)}),
        detail,
    )
}

/// The block with the new `data` and `mimeType`, every other field kept in place.
fn with_payload(obj: &Map, image: &SanitizedImage<'_>) -> Value {
    let next: Map = obj
        .iter()
        .map(|(key, value)| {
            let value = match key.as_str() {
                "data" => Value::String(image.data.clone().into_owned().into()),
                "mimeType" => Value::String(image.mime_type.to_owned().into()),
                _ => value.clone(),
            };
            (*key, value)
        })
        .collect();
    Value::Object(next)
}

/// The detail of an image that stays an image, or `None` when nothing changed.
fn kept_detail(
    index: usize,
    data: &str,
    declared: &str,
    image: &SanitizedImage<'_>,
    limits: ImageLimits,
) -> Option<String> {
    let size = |(w, h): (u32, u32)| format!("{w}×{h}");
    if let Some(out) = &image.reencoded {
        let source = image.source_size.map_or_else(|| "unknown size".to_owned(), size);
        let mut why = Vec::new();
        if image
            .source_size
            .is_some_and(|(w, h)| w.max(h) > limits.max_dimension_px)
        {
            why.push(format!("longest side over {} px", limits.max_dimension_px));
        }
        if image.source_bytes > limits.max_bytes {
            why.push(format!("over the {} cap", human_bytes(limits.max_bytes)));
        }
        if let Some(o) = image.orientation {
            why.push(format!("EXIF orientation {o} applied"));
        }
        return Some(format!(
            "{} {source} {} → image/jpeg {} {} at quality {} (block {index}: {})",
            image.source_mime_type,
            human_bytes(image.source_bytes),
            size((out.width, out.height)),
            human_bytes(out.bytes),
            out.quality,
            crate::text::join_folded(&why)
        ));
    }
    let mut what = Vec::new();
    if image.mime_type != declared {
        what.push(format!("mimeType {declared} → {}: the bytes say so", image.mime_type));
    }
    if image.data != data {
        what.push("removed whitespace from the base64 payload".to_owned());
    }
    (!what.is_empty()).then(|| format!("{} (block {index})", what.join("; ")))
}

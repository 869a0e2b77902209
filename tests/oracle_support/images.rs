//! Image fixtures for generated transcripts, one per class of what OpenClaw's image
//! sanitization decides: kept, relabelled, canonicalized, re-encoded as a smaller JPEG, or
//! replaced by which placeholder. Formats rastermill reads only by header (BMP, TIFF,
//! HEIF/AVIF) and those it does not read at all (SVG, ICO, text), animations, cut and damaged
//! files, zero and absurd sizes, base64 faults, wrong MIME labels, empty and missing fields,
//! payloads over 5 MiB and over the 10 MiB input estimate. All built in code, once; small in
//! pixels so decoding stays cheap.

use std::sync::OnceLock;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use image::ImageFormat;
use replaylens::json;
use replaylens::model::json::Value;

use super::cases::{Case, Origin};
use super::image_bytes::{
    animated_gif, animated_webp, bmp_header, break_crcs, encoded, heif, ico, jpeg_with_orientation, png_chunk,
    png_with_idat, raw_png, tiff,
};
use super::rng::Rng;
use super::targets::fixed_targets;

/// One image block of a class.
#[derive(Debug, Clone)]
pub struct ImageFixture {
    /// The class, e.g. `heic-ispe-large`.
    pub name: &'static str,
    /// The block as stored.
    pub block: Value,
    /// Whether the payload is megabytes long (picked rarely by the generator).
    pub heavy: bool,
}

impl ImageFixture {
    /// The block's `data` string.
    pub fn data(&self) -> &str {
        self.block["data"].as_str().unwrap_or_default()
    }
}

fn b64(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

fn cut(mut bytes: Vec<u8>, keep: usize) -> Vec<u8> {
    bytes.truncate(keep);
    bytes
}

fn half(bytes: Vec<u8>) -> Vec<u8> {
    let n = bytes.len() / 2;
    cut(bytes, n)
}

/// Bytes with a stretch in the middle overwritten.
fn damaged(mut bytes: Vec<u8>) -> Vec<u8> {
    let n = bytes.len();
    for b in &mut bytes[n / 2..(n / 2 + 24).min(n)] {
        *b = 0xa5;
    }
    bytes
}

/// Base64 with a newline every 60 characters and spaces around.
fn wrapped(data: &str) -> String {
    let lines: Vec<&str> = data
        .as_bytes()
        .chunks(60)
        .map(|c| std::str::from_utf8(c).unwrap_or(""))
        .collect();
    format!("  {}\n", lines.join("\n"))
}

/// The fixtures as (name, data, mimeType) payloads.
fn payloads() -> Vec<(&'static str, String, &'static str)> {
    let png = |w, h| encoded(w, h, ImageFormat::Png);
    let jpeg = |w, h| encoded(w, h, ImageFormat::Jpeg);
    let small_png = b64(&png(8, 8));
    let small_jpeg = b64(&jpeg(24, 12));
    let small_gif = b64(&encoded(8, 8, ImageFormat::Gif));
    let small_webp = b64(&encoded(8, 8, ImageFormat::WebP));
    let ihdr_only = |w: u32, h: u32| {
        let mut d = w.to_be_bytes().to_vec();
        d.extend_from_slice(&h.to_be_bytes());
        d.extend_from_slice(&[8, 2, 0, 0, 0]);
        let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
        out.extend(png_chunk(b"IHDR", &d));
        out
    };
    let big_text = png_chunk(b"tEXt", &[b'x'; 5_600_000]);
    let unpadded = small_png.trim_end_matches('=').to_owned();
    vec![
        ("png-small", small_png.clone(), "image/png"),
        ("png-medium", b64(&png(64, 32)), "image/png"),
        ("png-at-limit", b64(&png(1200, 10)), "image/png"),
        ("png-over-limit-by-one", b64(&png(1201, 30)), "image/png"),
        ("png-wide", b64(&png(2000, 40)), "image/png"),
        ("png-tall", b64(&png(16, 1500)), "image/png"),
        ("png-1x100000", b64(&raw_png(1, 100_000, 0, &[])), "image/png"),
        ("png-grey-alpha-large", b64(&raw_png(1300, 2, 4, &[])), "image/png"),
        ("png-rgba-large", b64(&raw_png(1300, 3, 6, &[])), "image/png"),
        ("png-0x0-header", b64(&ihdr_only(0, 0)), "image/png"),
        ("png-header-10000x10000", b64(&ihdr_only(10_000, 10_000)), "image/png"),
        ("png-header-5001x5000", b64(&ihdr_only(5001, 5000)), "image/png"),
        ("png-header-5000x5000", b64(&ihdr_only(5000, 5000)), "image/png"),
        ("png-truncated-small", b64(&cut(png(8, 8), 40)), "image/png"),
        ("png-truncated-large", b64(&half(png(2000, 40))), "image/png"),
        ("png-damaged-large", b64(&damaged(png(2000, 40))), "image/png"),
        (
            "png-bad-crc-large",
            b64(&break_crcs(raw_png(1300, 2, 2, &[]))),
            "image/png",
        ),
        (
            "png-grey-alpha-bad-crc-large",
            b64(&break_crcs(raw_png(1300, 2, 4, &[]))),
            "image/png",
        ),
        (
            "png-grey-alpha-cut-zlib-large",
            b64(&png_with_idat(1300, 2, 4, &[], &[0x78, 0x9c, 0x63, 0x60])),
            "image/png",
        ),
        ("png-over-5mib", b64(&raw_png(10, 10, 2, &[big_text])), "image/png"),
        ("jpeg-small", small_jpeg.clone(), "image/jpeg"),
        ("jpeg-large", b64(&jpeg(1300, 20)), "image/jpeg"),
        (
            "jpeg-exif-rotated-small",
            b64(&jpeg_with_orientation(40, 20, 6)),
            "image/jpeg",
        ),
        (
            "jpeg-exif-rotated-large",
            b64(&jpeg_with_orientation(1300, 16, 6)),
            "image/jpeg",
        ),
        ("jpeg-truncated-small", b64(&half(jpeg(24, 12))), "image/jpeg"),
        ("jpeg-truncated-large", b64(&half(jpeg(1300, 20))), "image/jpeg"),
        ("jpeg-damaged-large", b64(&damaged(jpeg(1300, 20))), "image/jpeg"),
        ("gif-small", small_gif.clone(), "image/gif"),
        ("gif-animated-small", b64(&animated_gif(8, 8)), "image/gif"),
        ("gif-animated-large", b64(&animated_gif(1300, 4)), "image/gif"),
        (
            "gif-truncated-large",
            b64(&half(encoded(1300, 20, ImageFormat::Gif))),
            "image/gif",
        ),
        ("webp-small", small_webp.clone(), "image/webp"),
        ("webp-large", b64(&encoded(1300, 10, ImageFormat::WebP)), "image/webp"),
        ("webp-animated-small", b64(&animated_webp(8, 8)), "image/webp"),
        ("webp-animated-large", b64(&animated_webp(1300, 4)), "image/webp"),
        (
            "webp-truncated-large",
            b64(&half(encoded(1300, 10, ImageFormat::WebP))),
            "image/webp",
        ),
        ("bmp-small", b64(&encoded(8, 8, ImageFormat::Bmp)), "image/bmp"),
        ("bmp-large", b64(&bmp_header(1300, 2)), "image/bmp"),
        ("bmp-negative-width", b64(&bmp_header(-8, 8)), "image/bmp"),
        ("bmp-top-down", b64(&bmp_header(8, -8)), "image/bmp"),
        ("tiff-small", b64(&tiff(8, 8, None)), "image/tiff"),
        ("tiff-large", b64(&tiff(1300, 8, None)), "image/tiff"),
        ("tiff-with-subifds", b64(&tiff(8, 8, Some(330))), "image/tiff"),
        ("heic-bare-ftyp", b64(&heif(b"heic", None, None)), "image/heic"),
        (
            "heic-ispe-small",
            b64(&heif(b"heic", Some((64, 48)), None)),
            "image/heic",
        ),
        (
            "heic-ispe-large",
            b64(&heif(b"heic", Some((4032, 3024)), None)),
            "image/heic",
        ),
        (
            "heic-primary-rotated",
            b64(&heif(b"heic", Some((1000, 1300)), Some(1))),
            "image/heic",
        ),
        (
            "heic-primary-rotated-large",
            b64(&heif(b"heic", Some((1300, 1000)), Some(3))),
            "image/heif",
        ),
        (
            "avif-ispe-small",
            b64(&heif(b"avif", Some((64, 48)), None)),
            "image/avif",
        ),
        (
            "avif-ispe-large",
            b64(&heif(b"avif", Some((2000, 1500)), None)),
            "image/avif",
        ),
        (
            "svg",
            b64(br#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>"#),
            "image/svg+xml",
        ),
        ("ico", b64(&ico()), "image/x-icon"),
        ("unknown-bytes", b64(b"hello, this is not an image"), "image/png"),
        ("b64-invalid-chars", "not base64!!".into(), "image/png"),
        (
            "b64-data-url",
            format!("data:image/png;base64,{small_png}"),
            "image/png",
        ),
        ("b64-url-safe", "iVBO-_w0KGgo".into(), "image/png"),
        ("b64-whitespace", wrapped(&small_jpeg), "image/jpeg"),
        ("b64-unpadded", unpadded, "image/png"),
        ("b64-bad-padding", format!("{small_png}="), "image/png"),
        ("b64-padding-inside", "QUI=QUJD".into(), "image/png"),
        ("b64-nonzero-pad-bits", "QUJ=".into(), "image/png"),
        ("b64-one-char-over", format!("{small_png}Q"), "image/png"),
        ("b64-nbsp-around", format!("\u{a0}{small_png}\u{feff}"), "image/png"),
        (
            "b64-nbsp-inside",
            format!("iVBOR\u{a0}{}", &small_png[5..]),
            "image/png",
        ),
        (
            "b64-control-chars-inside",
            format!("iVBOR\u{1}{}", &small_png[5..]),
            "image/png",
        ),
        ("mime-png-as-jpeg", small_png.clone(), "image/jpeg"),
        ("mime-jpeg-as-png", small_jpeg, "image/png"),
        ("mime-gif-as-png", small_gif, "image/png"),
        ("mime-webp-as-png", small_webp, "image/png"),
        ("mime-png-as-octet-stream", small_png, "application/octet-stream"),
        ("empty", String::new(), "image/png"),
        ("blank", "   ".into(), "image/png"),
        ("blank-unicode", "\u{a0}\n\u{3000}".into(), "image/png"),
        ("control-only", "\u{1}\u{2}".into(), "image/png"),
        ("over-10mib-estimate", "A".repeat(14_000_004), "image/png"),
    ]
}

/// Every fixture, built on first use.
pub fn fixtures() -> &'static [ImageFixture] {
    static CELL: OnceLock<Vec<ImageFixture>> = OnceLock::new();
    CELL.get_or_init(|| {
        let mut all: Vec<ImageFixture> = payloads()
            .into_iter()
            .map(|(name, data, mime)| ImageFixture {
                name,
                heavy: data.len() > 1 << 20,
                block: json!({"type": "image", "data": data, "mimeType": mime}),
            })
            .collect();
        let odd = |name, block| ImageFixture {
            name,
            block,
            heavy: false,
        };
        all.push(odd(
            "missing-mime-type",
            json!({"type": "image", "data": "iVBORw0KGgo="}),
        ));
        all.push(odd(
            "data-not-a-string",
            json!({"type": "image", "data": 12, "mimeType": "image/png"}),
        ));
        all.push(odd("missing-data", json!({"type": "image", "mimeType": "image/png"})));
        all
    })
}

/// The fixture of a class.
pub fn fixture(name: &str) -> &'static ImageFixture {
    fixtures()
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no image fixture {name}"))
}

/// A random image block: any class, the megabyte-long ones one time in 40.
pub fn image_block(rng: &mut Rng) -> Value {
    let all = fixtures();
    let light: Vec<&ImageFixture> = all.iter().filter(|f| !f.heavy).collect();
    let heavy: Vec<&ImageFixture> = all.iter().filter(|f| f.heavy).collect();
    let f = if rng.below(40) == 0 {
        *rng.pick(&heavy)
    } else {
        *rng.pick(&light)
    };
    f.block.clone()
}

/// One differential case per class: the block in a user turn and in a tool result.
pub fn class_cases() -> Vec<Case> {
    let target = fixed_targets()[0].clone();
    fixtures()
        .iter()
        .map(|f| {
            let messages = vec![
                json!({"role": "user", "content": [{"type": "text", "text": f.name}, f.block.clone()], "timestamp": 1}),
                json!({"role": "assistant", "content": [{"type": "toolCall", "id": "call_1", "name": "read", "arguments": {}}],
                    "stopReason": "toolUse", "provider": target.provider, "api": target.api, "model": target.model, "timestamp": 2}),
                json!({"role": "toolResult", "toolCallId": "call_1", "toolName": "read",
                    "content": [f.block.clone()], "isError": false, "timestamp": 3}),
            ];
            Case {
                id: format!("image:{}@{}", f.name, target.label()),
                origin: Origin::File,
                target: target.clone(),
                tools: None,
                messages: std::sync::Arc::new(messages),
            }
        })
        .collect()
}

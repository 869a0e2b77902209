//! Inline images as the Anthropic transport sends them (`normalizeAnthropicInlineContent` →
//! the OpenClaw host's `normalizeAnthropicInlineImage`, `src/media/anthropic-inline-images.ts`):
//! the base64 is canonicalized and the media type is what the bytes are (sniffed like the
//! `file-type` package does), else the declared type when the bytes tell nothing.
//!
//! Anthropic accepts JPEG, PNG, GIF and WebP. Anything else is re-encoded upstream (BMP to
//! PNG, the rest to JPEG through the image processor); here a BMP is re-encoded to PNG with
//! the `image` crate and other formats keep their bytes under the type upstream would give
//! them, so the block has the right shape but not upstream's exact bytes.

use std::io::Cursor;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use crate::openclaw::js::js_trim;
use crate::wire::canonical_base64::{base64_value, canonicalize_base64};

/// The media types the Messages API accepts.
pub const SUPPORTED: [&str; 4] = ["image/jpeg", "image/png", "image/gif", "image/webp"];

/// Node's lenient `Buffer.from(s, "base64")` for the first bytes: characters outside the
/// standard and URL-safe alphabets are skipped, decoding stops at `=`.
fn lenient_decode(s: &str, max_bytes: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut acc = 0u32;
    let mut bits = 0;
    for b in s.bytes() {
        let v = match b {
            b'-' => 62,
            b'_' => 63,
            b'=' => break,
            _ => match base64_value(b) {
                Some(v) => v,
                None => continue,
            },
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
            if out.len() >= max_bytes {
                break;
            }
        }
    }
    out
}

/// The type `file-type` reports for the first bytes of a file, folded as OpenClaw's
/// `normalizeMimeType` does (`image/apng` → `image/png`). `None` when nothing is recognized;
/// formats outside the table below are reported as `application/octet-stream`-like unknowns
/// only when their signature is listed.
pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
    let at = |offset: usize, sig: &[u8]| bytes.get(offset..offset + sig.len()) == Some(sig);
    if at(0, &[0xFF, 0xD8, 0xFF]) {
        return Some("image/jpeg");
    }
    if at(0, &[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]) {
        return Some("image/png");
    }
    if at(0, b"GIF") {
        return Some("image/gif");
    }
    if at(0, b"RIFF") && at(8, b"WEBP") {
        return Some("image/webp");
    }
    if at(0, b"BM") && bytes.len() >= 14 {
        return Some("image/bmp");
    }
    if at(0, b"II*\0") || at(0, b"MM\0*") {
        return Some("image/tiff");
    }
    if at(0, &[0, 0, 1, 0]) {
        return Some("image/x-icon");
    }
    if at(4, b"ftyp") {
        let brand = bytes.get(8..12).unwrap_or_default();
        return Some(match brand {
            b"avif" | b"avis" => "image/avif",
            b"heic" | b"heix" | b"heim" | b"heis" => "image/heic",
            b"mif1" | b"msf1" => "image/heif",
            _ => "video/mp4",
        });
    }
    if at(0, b"%PDF") {
        return Some("application/pdf");
    }
    if at(0, b"PK\x03\x04") {
        return Some("application/zip");
    }
    None
}

/// `normalizeMimeType`: parameters dropped, trimmed, lowercased, `image/apng` folded.
pub fn normalize_mime(mime: Option<&str>) -> Option<String> {
    let cleaned = mime?.split(';').next()?;
    let cleaned = js_trim(cleaned).to_lowercase();
    if cleaned.is_empty() {
        return None;
    }
    Some(if cleaned == "image/apng" {
        "image/png".to_owned()
    } else {
        cleaned
    })
}

/// An image as sent: base64 payload and media type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InlineImage {
    /// The base64 data.
    pub data: String,
    /// The media type (one of [`SUPPORTED`]).
    pub media_type: String,
}

/// `normalizeAnthropicInlineImage`.
pub fn normalize(data: &str, declared: Option<&str>) -> InlineImage {
    let canonical = canonicalize_base64(data);
    let payload = canonical.clone().unwrap_or_else(|| js_trim(data).to_owned());
    // file-type reads at most the first 1 MiB; a few KiB decide every signature above.
    let head = lenient_decode(&payload, 4096);
    let detected = sniff(&head);
    let declared = normalize_mime(declared);
    if let Some(d) = detected.filter(|d| SUPPORTED.contains(d)) {
        return InlineImage {
            data: payload,
            media_type: d.to_owned(),
        };
    }
    if detected.is_none()
        && let Some(d) = declared.filter(|d| SUPPORTED.contains(&d.as_str()))
    {
        return InlineImage {
            data: payload,
            media_type: d,
        };
    }
    if detected == Some("image/bmp") {
        let bytes = STANDARD.decode(payload.as_bytes()).unwrap_or_default();
        if let Ok(img) = image::load_from_memory_with_format(&bytes, image::ImageFormat::Bmp) {
            // OpenClaw's BMP worker writes RGBA PNGs whatever the bitmap's depth.
            let img = image::DynamicImage::ImageRgba8(img.to_rgba8());
            let mut png = Vec::new();
            if img
                .write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
                .is_ok()
            {
                return InlineImage {
                    data: STANDARD.encode(png),
                    media_type: "image/png".to_owned(),
                };
            }
        }
        return InlineImage {
            data: payload,
            media_type: "image/png".to_owned(),
        };
    }
    InlineImage {
        data: payload,
        media_type: "image/jpeg".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffed_type_wins_over_the_label() {
        let jpeg = STANDARD.encode([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, b'J', b'F', b'I', b'F']);
        let img = normalize(&jpeg, Some("image/png"));
        assert_eq!(img.media_type, "image/jpeg");
        let unknown = STANDARD.encode(b"not an image at all");
        assert_eq!(normalize(&unknown, Some("IMAGE/WEBP; q=1")).media_type, "image/webp");
        assert_eq!(normalize(&unknown, Some("image/tiff")).media_type, "image/jpeg");
    }
}

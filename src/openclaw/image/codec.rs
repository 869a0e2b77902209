//! The pixel work behind image sanitization, as OpenClaw 2026.9.6 does it: rastermill's
//! Photon backend (photon-node 0.3.4, built on the `image` crate 0.24.9, the release used
//! here). Decode to RGBA (an 8-bit grey+alpha PNG Photon rejects is inflated by hand, as
//! rastermill does), turn upright by the EXIF orientation, resize with Lanczos3 and encode a
//! baseline JPEG from the RGBA pixels (alpha dropped), its APPn/COM segments stripped.
//! Payload-level decisions (base64, limits, the side × quality search) stay in
//! [`super::ops`].

use std::io::Cursor;

use photon_image::codecs::jpeg::JpegEncoder;
use photon_image::{ColorType, ImageEncoder, RgbaImage};

use super::header::{self as header, HeaderProbe};
use super::resize::resize_lanczos3;

/// The pixel limit of OpenClaw's image processor (input and output).
pub const MAX_INPUT_PIXELS: u64 = 25_000_000;

/// rastermill's error when no header gives the size.
pub const UNDETERMINED_DIMENSIONS: &str = "RastermillError: Unable to determine image dimensions; refusing to process";

/// rastermill's error when Photon cannot decode bytes whose header it accepts.
pub const UNDECODABLE: &str = "RastermillError: Unable to decode image with Photon";

/// What OpenClaw reports when no backend can decode the format (BMP, TIFF, HEIF, AVIF on a
/// machine without ImageMagick, GraphicsMagick or ffmpeg).
pub const NO_BACKEND: &str = "ImageProcessorUnavailableError: Image processor unavailable for jpeg encoding; tried: photon, imagemagick, graphicsmagick, ffmpeg";

/// What Photon's JPEG encoder failing (a panic in its WebAssembly) surfaces as.
const ENCODER_PANIC: &str = "RuntimeError: unreachable";

/// rastermill's pixel budget: `width > floor(max / height)` is refused.
pub fn check_pixel_budget(width: u32, height: u32) -> Result<(), String> {
    if u64::from(width) > MAX_INPUT_PIXELS / u64::from(height.max(1)) {
        let pixels = u64::from(width) * u64::from(height);
        let safe = pixels < (1 << 53);
        return Err(format!(
            "RastermillError: Image dimensions exceed the {} pixel input limit: {width}x{height}{}",
            crate::text::thousands(MAX_INPUT_PIXELS),
            if safe {
                format!(" ({pixels} pixels)")
            } else {
                String::new()
            }
        ));
    }
    Ok(())
}

/// A decoded image, upright, ready to be resized and encoded any number of times.
pub struct Decoded {
    pixels: RgbaImage,
}

impl Decoded {
    /// Width after orientation.
    pub fn width(&self) -> u32 {
        self.pixels.width()
    }

    /// Height after orientation.
    pub fn height(&self) -> u32 {
        self.pixels.height()
    }

    /// The upright RGBA pixels.
    #[cfg(test)]
    pub(super) fn pixels(&self) -> &RgbaImage {
        &self.pixels
    }

    /// The image resized (Lanczos3, as Photon's `image` 0.24.9 resizes) to `width`×`height`;
    /// itself when the size is unchanged.
    pub fn resized(&self, width: u32, height: u32) -> std::borrow::Cow<'_, RgbaImage> {
        if (width, height) == (self.width(), self.height()) {
            std::borrow::Cow::Borrowed(&self.pixels)
        } else {
            std::borrow::Cow::Owned(resize_lanczos3(&self.pixels, width, height))
        }
    }
}

/// Decode for re-encoding, with rastermill's checks in its order: header size and pixel
/// budget, the Photon format gate, the decode itself, the budget on the decoded size.
/// `heif_primary_item` chooses rastermill's HEIF header rules (false: 0.3.1's).
pub fn decode(bytes: &[u8], heif_primary_item: bool) -> Result<Decoded, String> {
    let probe: HeaderProbe =
        header::probe_with(bytes, heif_primary_item).ok_or_else(|| UNDETERMINED_DIMENSIONS.to_owned())?;
    check_pixel_budget(probe.width, probe.height)?;
    if !header::photon_decodable(bytes) {
        return Err(NO_BACKEND.to_owned());
    }
    let pixels = match photon_image::load_from_memory(bytes) {
        Ok(img) => img.into_rgba8(),
        Err(_) => match grey_alpha_png(bytes)? {
            Some(pixels) => pixels,
            None => return Err(UNDECODABLE.to_owned()),
        },
    };
    check_pixel_budget(pixels.width(), pixels.height())?;
    let pixels = match header::orientation_with(bytes, heif_primary_item) {
        Some(o @ 2..=8) => orient(pixels, o),
        _ => pixels,
    };
    Ok(Decoded { pixels })
}

/// Turn RGBA pixels upright for an EXIF orientation (2–8).
fn orient(src: RgbaImage, orientation: u8) -> RgbaImage {
    let (w, h) = src.dimensions();
    let swaps = orientation >= 5;
    let (ow, oh) = if swaps { (h, w) } else { (w, h) };
    let mut out = RgbaImage::new(ow, oh);
    for (x, y, px) in src.enumerate_pixels() {
        let (tx, ty) = match orientation {
            2 => (w - 1 - x, y),
            3 => (w - 1 - x, h - 1 - y),
            4 => (x, h - 1 - y),
            5 => (y, x),
            6 => (h - 1 - y, x),
            7 => (h - 1 - y, w - 1 - x),
            _ => (y, w - 1 - x),
        };
        out.put_pixel(tx, ty, *px);
    }
    out
}

/// Encode as Photon's `get_bytes_jpeg`, then strip metadata segments as rastermill does.
pub fn encode_jpeg(pixels: &RgbaImage, quality: u8) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(Cursor::new(&mut out), quality)
        .write_image(pixels.as_raw(), pixels.width(), pixels.height(), ColorType::Rgba8)
        .map_err(|_| ENCODER_PANIC.to_owned())?;
    Ok(strip_jpeg_metadata(out))
}

/// Drop APP0–APP15 and COM segments before the scan.
fn strip_jpeg_metadata(data: Vec<u8>) -> Vec<u8> {
    if data.len() < 4 || data[0] != 0xff || data[1] != 0xd8 {
        return data;
    }
    let mut out = Vec::with_capacity(data.len());
    out.extend_from_slice(&data[..2]);
    let mut at = 2;
    while at + 1 < data.len() {
        if data[at] != 0xff {
            out.extend_from_slice(&data[at..]);
            return out;
        }
        let mut m = at;
        while m < data.len() && data[m] == 0xff {
            m += 1;
        }
        let Some(&marker) = data.get(m) else { break };
        let payload = m + 1;
        if marker == 0xda {
            out.extend_from_slice(&data[at..]);
            return out;
        }
        if marker == 0xd9 || (0xd0..=0xd7).contains(&marker) {
            out.extend_from_slice(&data[at..payload]);
            at = payload;
            continue;
        }
        if payload + 2 > data.len() {
            out.extend_from_slice(&data[at..]);
            return out;
        }
        let length = usize::from(u16::from_be_bytes([data[payload], data[payload + 1]]));
        let end = payload + length;
        if length < 2 || end > data.len() {
            out.extend_from_slice(&data[at..]);
            return out;
        }
        if !((0xe0..=0xef).contains(&marker) || marker == 0xfe) {
            out.extend_from_slice(&data[at..end]);
        }
        at = end;
    }
    out
}

#[path = "codec_png.rs"]
mod png_fallback;
use png_fallback::grey_alpha_png;

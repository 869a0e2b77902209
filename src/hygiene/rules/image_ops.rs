//! Image payload sanitization (hygiene-b §3), the engine behind the `image-sanitize` rule.
//!
//! One base64 image payload goes in; out comes either the payload to send (kept as it was,
//! relabelled with the MIME type its bytes show, or re-encoded as a smaller JPEG) or the
//! reason it cannot be sent, which the rule turns into a text block. Deterministic: the
//! same payload and limits always give the same bytes.

use std::borrow::Cow;

pub use super::image_cache::ImageCache;
use super::image_codec::{Probe, probe, reduce};
use base64::Engine as _;
use base64::engine::DecodePaddingMode;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, STANDARD};

/// Default longest side sent, in pixels (`agents.defaults.imageMaxDimensionPx`).
pub const DEFAULT_MAX_DIMENSION_PX: u32 = 1200;

/// Largest payload sent, in decoded bytes (5 MiB; not configurable upstream).
pub const DEFAULT_MAX_BYTES: usize = 5 * 1024 * 1024;

/// Images with more input pixels than this are refused rather than decoded.
pub const MAX_INPUT_PIXELS: u64 = 25_000_000;

/// The fixed part of the side grid tried when re-encoding (capped at the maximum side).
pub const SIDE_STEPS: [u32; 6] = [1800, 1600, 1400, 1200, 1000, 800];

/// JPEG qualities tried for each side, best first.
pub const QUALITY_STEPS: [u8; 6] = [85, 75, 65, 55, 45, 35];

/// Decoding that accepts any trailing bits, like Node's `Buffer.from(s, "base64")`.
const LENIENT: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_allow_trailing_bits(true)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// The limits an image must fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageLimits {
    /// Longest side, in pixels (at least 1).
    pub max_dimension_px: u32,
    /// Largest payload, in decoded bytes (at least 1).
    pub max_bytes: usize,
}

impl ImageLimits {
    /// The replay limits for a configured longest side: `max(1, px)` and the 5 MiB cap.
    pub fn with_max_dimension(px: u32) -> Self {
        Self {
            max_dimension_px: px.max(1),
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}

impl Default for ImageLimits {
    fn default() -> Self {
        Self::with_max_dimension(DEFAULT_MAX_DIMENSION_PX)
    }
}

/// A re-encoding that fitted the limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reencoded {
    /// Width of the JPEG sent.
    pub width: u32,
    /// Height of the JPEG sent.
    pub height: u32,
    /// Size of the JPEG sent, in bytes.
    pub bytes: usize,
    /// The JPEG quality that fitted.
    pub quality: u8,
    /// The grid side that fitted.
    pub side: u32,
}

/// An image payload that is still sent as an image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SanitizedImage<'a> {
    /// The base64 payload to send (canonical: no whitespace).
    pub data: Cow<'a, str>,
    /// The MIME type to send.
    pub mime_type: &'a str,
    /// The MIME type of the original payload: inferred from its first bytes, else declared.
    pub source_mime_type: &'a str,
    /// Decoded size of the original payload, in bytes.
    pub source_bytes: usize,
    /// Displayed size of the original (EXIF orientation applied), when its header could be read.
    pub source_size: Option<(u32, u32)>,
    /// The EXIF orientation (1–8) of the original, when it was not 1.
    pub orientation: Option<u8>,
    /// Set when the payload was re-encoded.
    pub reencoded: Option<Reencoded>,
}

/// Why an image payload cannot be sent as an image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageFailure {
    /// `data` is blank.
    Empty,
    /// `data` is not canonical base64.
    InvalidBase64,
    /// The size could not be read, decoding or reducing failed: the message (with its error
    /// class, e.g. `RastermillError: …` or `Error: …`) follows `omitted image payload: `.
    Unusable(String),
}

impl ImageFailure {
    /// The text that replaces the image block (hygiene-b §0 constants).
    pub fn placeholder(&self, label: &str) -> String {
        match self {
            Self::Empty => format!("[{label}] omitted empty image payload"),
            Self::InvalidBase64 => format!("[{label}] omitted image payload: invalid base64"),
            Self::Unusable(message) => format!("[{label}] omitted image payload: {message}"),
        }
    }

    /// Why, in a few words (for rewrite details).
    pub fn reason(&self) -> String {
        match self {
            Self::Empty => "empty image payload".to_owned(),
            Self::InvalidBase64 => "invalid base64".to_owned(),
            Self::Unusable(message) => message.clone(),
        }
    }
}

/// OpenClaw 2026.9.6 (rastermill) when no header gives the image's size.
pub const UNDETERMINED_DIMENSIONS: &str = "RastermillError: Unable to determine image dimensions; refusing to process";

/// OpenClaw 2026.9.6 (rastermill) when an image over a limit cannot be decoded.
pub const UNDECODABLE: &str = "RastermillError: Unable to decode image with Photon";

/// Sanitize one image payload: validate, sniff, check the limits from the header, and
/// re-encode only when the image is over a limit or its size cannot be read.
pub fn sanitize_image<'a>(
    data: &'a str,
    declared_mime: &'a str,
    limits: ImageLimits,
) -> Result<SanitizedImage<'a>, ImageFailure> {
    sanitize_image_with(data, declared_mime, limits, None)
}

/// [`sanitize_image`], taking the decode-and-re-encode outcome from `cache` when the
/// payload is there (computed once per distinct image, in parallel).
pub fn sanitize_image_with<'a>(
    data: &'a str,
    declared_mime: &'a str,
    limits: ImageLimits,
    cache: Option<&ImageCache>,
) -> Result<SanitizedImage<'a>, ImageFailure> {
    let canonical = match header_check(data, declared_mime, limits)? {
        HeaderCheck::Kept(kept) => return Ok(kept),
        HeaderCheck::NeedsDecode(canonical) => canonical,
    };
    let mime_type = infer_mime_type(&canonical).unwrap_or(declared_mime);
    let computed;
    let full = match cache.and_then(|c| c.get(&canonical)) {
        Some(full) => full,
        None => {
            computed = full_decode(&canonical, limits);
            &computed
        }
    };
    let reencoded = match &full.outcome {
        Outcome::Fits => None,
        Outcome::Reencoded(jpeg, reencoded) => Some((jpeg, reencoded)),
        Outcome::Failed(failure) => return Err(failure.clone()),
    };
    Ok(SanitizedImage {
        data: match reencoded {
            Some((jpeg, _)) => Cow::Owned(jpeg.to_string()),
            None => canonical,
        },
        mime_type: if reencoded.is_some() { "image/jpeg" } else { mime_type },
        source_mime_type: mime_type,
        source_bytes: full.source_bytes,
        source_size: full.source_size,
        orientation: full.orientation,
        reencoded: reencoded.map(|(_, r)| r.clone()),
    })
}

/// What the cheap checks (blank, base64, header) decide.
pub enum HeaderCheck<'a> {
    /// Sent as it is (or relabelled / whitespace removed): no decoding needed.
    Kept(SanitizedImage<'a>),
    /// Over a limit or no size in the header: the canonical payload must be decoded.
    NeedsDecode(Cow<'a, str>),
}

/// The cheap part of sanitizing: validate, sniff the type, read the header.
pub fn header_check<'a>(
    data: &'a str,
    declared_mime: &'a str,
    limits: ImageLimits,
) -> Result<HeaderCheck<'a>, ImageFailure> {
    if data.trim().is_empty() {
        return Err(ImageFailure::Empty);
    }
    let canonical = canonical_base64(data).ok_or(ImageFailure::InvalidBase64)?;
    let mime_type = infer_mime_type(&canonical).unwrap_or(declared_mime);
    Ok(match kept_from_header(&canonical, mime_type, limits) {
        Some(kept) => HeaderCheck::Kept(kept),
        None => HeaderCheck::NeedsDecode(canonical),
    })
}

/// The expensive part of sanitizing one canonical payload, independent of its MIME label:
/// decode, probe and, when over a limit, re-encode. Owned, so it can be shared by every
/// block holding the same payload.
#[derive(Debug, Clone)]
pub struct FullDecode {
    /// Decoded size of the payload, in bytes.
    pub source_bytes: usize,
    /// Displayed size, when the header could be read.
    pub source_size: Option<(u32, u32)>,
    /// EXIF orientation when not 1.
    pub orientation: Option<u8>,
    /// What is sent.
    pub outcome: Outcome,
}

/// What a fully decoded payload becomes.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// It fits the limits after all: sent as it is.
    Fits,
    /// Re-encoded: the JPEG's base64 and how it was made.
    Reencoded(std::sync::Arc<str>, Reencoded),
    /// It cannot be sent as an image.
    Failed(ImageFailure),
}

/// Decode, probe and re-encode a canonical base64 payload (the expensive part).
pub fn full_decode(canonical: &str, limits: ImageLimits) -> FullDecode {
    let Ok(bytes) = LENIENT.decode(canonical.as_bytes()) else {
        return FullDecode {
            source_bytes: 0,
            source_size: None,
            orientation: None,
            outcome: Outcome::Failed(ImageFailure::InvalidBase64),
        };
    };
    let probe = probe(&bytes);
    let source_size = probe.as_ref().ok().map(Probe::displayed);
    let orientation = probe.as_ref().ok().map(|p| p.orientation.to_exif()).filter(|&o| o != 1);
    let fits = |(w, h): (u32, u32)| {
        bytes.len() <= limits.max_bytes && w <= limits.max_dimension_px && h <= limits.max_dimension_px
    };
    let outcome = if source_size.is_some_and(fits) {
        Outcome::Fits
    } else {
        match reduce(&bytes, probe, limits) {
            Ok((jpeg, reencoded)) => Outcome::Reencoded(STANDARD.encode(jpeg).into(), reencoded),
            Err(message) => Outcome::Failed(ImageFailure::Unusable(message)),
        }
    };
    FullDecode {
        source_bytes: bytes.len(),
        source_size,
        orientation,
        outcome,
    }
}

/// Base64 characters decoded to read an image's header without decoding all of it.
const HEADER_BASE64_CHARS: usize = 96 * 1024;

/// The image kept as it is, when the header (decoded from the first base64 characters) shows
/// it within the limits. `None` when the header cannot be read from that prefix or the image
/// is over a limit: the caller then decodes everything, as before.
fn kept_from_header<'a>(
    canonical: &Cow<'a, str>,
    mime_type: &'a str,
    limits: ImageLimits,
) -> Option<SanitizedImage<'a>> {
    let padding = canonical.len() - canonical.trim_end_matches('=').len();
    let decoded_len = canonical.len() / 4 * 3 - padding;
    let head = LENIENT
        .decode(&canonical.as_bytes()[..canonical.len().min(HEADER_BASE64_CHARS)])
        .ok()?;
    let probe = probe(&head).ok()?;
    let (w, h) = probe.displayed();
    let fits = decoded_len <= limits.max_bytes && w <= limits.max_dimension_px && h <= limits.max_dimension_px;
    fits.then(|| SanitizedImage {
        data: canonical.clone(),
        mime_type,
        source_mime_type: mime_type,
        source_bytes: decoded_len,
        source_size: Some((w, h)),
        orientation: Some(probe.orientation.to_exif()).filter(|&o| o != 1),
        reencoded: None,
    })
}

/// For the provider lint: the decoded size in bytes of a base64 image payload and its stored
/// width × height, read from the header as [`header_check`] reads it (falling back to the whole
/// payload). `None` unless the payload is canonical base64; no size when no header shows one.
pub(crate) fn base64_image_facts(data: &str) -> Option<(usize, Option<(u32, u32)>)> {
    let canonical = canonical_base64(data)?;
    let padding = canonical.len() - canonical.trim_end_matches('=').len();
    let decoded_len = canonical.len() / 4 * 3 - padding;
    let size_of = |bytes: &[u8]| probe(bytes).ok().map(|p| (p.width, p.height));
    let head = &canonical.as_bytes()[..canonical.len().min(HEADER_BASE64_CHARS)];
    let size = LENIENT.decode(head).ok().and_then(|h| size_of(&h)).or_else(|| {
        (canonical.len() > HEADER_BASE64_CHARS)
            .then(|| LENIENT.decode(canonical.as_bytes()).ok())
            .flatten()
            .and_then(|b| size_of(&b))
    });
    Some((decoded_len, size))
}

/// The canonical form of a base64 payload: all whitespace removed; `None` unless it is
/// non-empty, a multiple of 4 long and matches `^[A-Za-z0-9+/]+={0,2}$`.
pub fn canonical_base64(data: &str) -> Option<Cow<'_, str>> {
    let canonical: Cow<'_, str> = if data.chars().any(char::is_whitespace) {
        Cow::Owned(data.chars().filter(|c| !c.is_whitespace()).collect())
    } else {
        Cow::Borrowed(data)
    };
    let body = canonical.trim_end_matches('=');
    let padding = canonical.len() - body.len();
    let valid = !body.is_empty()
        && padding <= 2
        && canonical.len().is_multiple_of(4)
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/');
    valid.then_some(canonical)
}

/// The MIME type shown by the first base64 characters (JPEG, PNG, GIF only).
pub fn infer_mime_type(base64: &str) -> Option<&'static str> {
    let s = base64.trim();
    if s.starts_with("/9j/") {
        Some("image/jpeg")
    } else if s.starts_with("iVBOR") {
        Some("image/png")
    } else if s.starts_with("R0lGOD") {
        Some("image/gif")
    } else {
        None
    }
}

/// The side grid: `[start, 1800, 1600, 1400, 1200, 1000, 800]`, each capped at `max`,
/// positive, de-duplicated, sorted descending.
pub fn side_grid(max: u32, start: u32) -> Vec<u32> {
    let mut grid: Vec<u32> = std::iter::once(start)
        .chain(SIDE_STEPS)
        .map(|v| v.min(max))
        .filter(|&v| v > 0)
        .collect();
    grid.sort_unstable_by(|a, b| b.cmp(a));
    grid.dedup();
    grid
}

/// The size of an image of `width`×`height` fitted inside a `side`×`side` box, never enlarged.
pub fn fit_inside(width: u32, height: u32, side: u32) -> (u32, u32) {
    if width <= side && height <= side {
        return (width, height);
    }
    let scaled = |short: u32, long: u32| {
        let v = (f64::from(short) * f64::from(side) / f64::from(long)).round();
        (v as u32).max(1)
    };
    if width >= height {
        (side, scaled(height, width))
    } else {
        (scaled(width, height), side)
    }
}

/// Whether the bytes are an ISO-BMFF HEIF/AVIF file (by major or compatible brand).
pub fn is_heif_or_avif(bytes: &[u8]) -> bool {
    const BRANDS: [&[u8; 4]; 12] = [
        b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"hevm", b"hevs", b"mif1", b"msf1", b"avif", b"avis",
    ];
    if bytes.len() < 16 || &bytes[4..8] != b"ftyp" {
        return false;
    }
    let size = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as usize;
    let end = size.clamp(16, bytes.len());
    let major = &bytes[8..12];
    let compatible = bytes[16..end].chunks_exact(4);
    std::iter::once(major)
        .chain(compatible)
        .any(|brand| BRANDS.iter().any(|b| &b[..] == brand))
}

/// `(bytes / 2^20).toFixed(digits)` with JavaScript's round-half-up on exact ties.
pub fn mib_fixed(bytes: usize, digits: u32) -> String {
    let scale = 10u128.pow(digits);
    let n = (bytes as u128 * scale + (1 << 19)) >> 20;
    if digits == 0 {
        return n.to_string();
    }
    format!("{}.{:0width$}", n / scale, n % scale, width = digits as usize)
}

/// A short human size: `512 B`, `3.4 KB`, `140 KB`, `1.8 MB` (binary units).
pub fn human_bytes(bytes: usize) -> String {
    let b = bytes as f64;
    if bytes < 1024 {
        format!("{bytes} B")
    } else if bytes < 10 * 1024 {
        format!("{:.1} KB", b / 1024.0)
    } else if bytes < 1024 * 1024 {
        format!("{:.0} KB", b / 1024.0)
    } else {
        format!("{:.1} MB", b / (1024.0 * 1024.0))
    }
}

/// Encode bytes as standard padded base64 (used to build payloads).
pub fn to_base64(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

#[cfg(test)]
#[path = "image_ops_tests.rs"]
mod tests;

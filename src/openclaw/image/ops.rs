//! Image payload sanitization (OpenClaw's `transcript-hygiene.md` › "Global rule: image
//! sanitization"), the engine behind the `image-sanitize` rule:
//! OpenClaw 2026.9.6's `sanitizeContentBlocksImages` / `resizeImageBase64IfNeeded` for one
//! image block.
//!
//! One base64 image payload goes in; out comes either the payload to send (kept as it was,
//! relabelled with the MIME type its first characters show, or re-encoded as a smaller JPEG)
//! or the reason it cannot be sent, which the rule turns into a text block. The decisions, in
//! OpenClaw's order: estimated size over 10 MiB; blank; not canonical base64; the header
//! (rastermill's reader) shows a size within the limits → kept; otherwise decoded as
//! OpenClaw's Photon backend decodes and re-encoded over the side × quality grid, the first
//! error ending the search. Deterministic: the same payload and limits give the same bytes.

use std::borrow::Cow;

use super::base64::{
    MAX_INPUT_BYTES, canonical_base64_unpadded, canonical_decoded_len, estimate_decoded_bytes, js_trim,
};
pub use super::base64::{canonical_base64, format_bytes_short, infer_mime_type};
pub use super::cache::ImageCache;
pub use super::codec::{MAX_INPUT_PIXELS, NO_BACKEND, UNDECODABLE, UNDETERMINED_DIMENSIONS};
use super::header::{self as header, HeaderProbe};
pub use super::search::{QUALITY_STEPS, SIDE_STEPS, fit_inside, mib_fixed, reduce_error, side_grid};
use super::search::{Unreduced, reduce};
use crate::rule_set::Switches;
use base64::Engine as _;
use base64::engine::DecodePaddingMode;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, STANDARD};

/// Decoding as Node's `Buffer.from(s, "base64")` decodes a canonical payload: any pad bits
/// (2026.6 keeps payloads whose pad bits are not zero; later canonical forms have none).
pub(super) const NODE_BASE64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_allow_trailing_bits(true)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Default longest side sent, in pixels (`agents.defaults.imageMaxDimensionPx`).
pub const DEFAULT_MAX_DIMENSION_PX: u32 = 1200;

/// Largest payload sent, in decoded bytes (5 MiB; not configurable upstream).
pub const DEFAULT_MAX_BYTES: usize = 5 * 1024 * 1024;

/// The image behaviours that changed between OpenClaw releases, taken from a rule set's
/// switches (see `replaylens rules`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageRelease {
    /// Payloads estimated over 10 MiB are refused first (2026.6.11 and later).
    pub input_limit: bool,
    /// Base64 is padded and its pad bits checked (2026.7 and later), not taken as it is.
    pub base64_padding: bool,
    /// HEIF/AVIF headers are read from the primary item (rastermill 0.3.2 and later).
    pub heif_primary_item: bool,
    /// The "could not be reduced" error gives the cap as `5.00MB` (2026.9.2 and later), not `5MB`.
    pub reduce_error_short_format: bool,
}

impl ImageRelease {
    /// OpenClaw 2026.9.6's behaviour.
    pub const NEWEST: ImageRelease = ImageRelease {
        input_limit: true,
        base64_padding: true,
        heif_primary_item: true,
        reduce_error_short_format: true,
    };

    /// The behaviour a rule set's switches select.
    pub fn of(switches: &Switches) -> Self {
        Self {
            input_limit: switches.image_input_limit,
            base64_padding: switches.image_base64_padding,
            heif_primary_item: switches.heif_primary_item,
            reduce_error_short_format: switches.reduce_error_short_format,
        }
    }
}

/// The limits an image must fit, and the release whose rules judge it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageLimits {
    /// Longest side, in pixels (at least 1).
    pub max_dimension_px: u32,
    /// Largest payload, in decoded bytes (at least 1).
    pub max_bytes: usize,
    /// The release's image rules.
    pub release: ImageRelease,
}

impl ImageLimits {
    /// The replay limits for a configured longest side: `max(1, px)` and the 5 MiB cap, with
    /// 2026.9.6's rules.
    pub fn with_max_dimension(px: u32) -> Self {
        Self {
            max_dimension_px: px.max(1),
            max_bytes: DEFAULT_MAX_BYTES,
            release: ImageRelease::NEWEST,
        }
    }

    /// These limits judged by another release's rules.
    pub fn for_release(self, release: ImageRelease) -> Self {
        Self { release, ..self }
    }

    /// OpenClaw's `imageWithinLimits` for a payload of `bytes` with a displayed size.
    fn fit(&self, bytes: usize, (w, h): (u32, u32)) -> bool {
        bytes <= self.max_bytes
            && w <= self.max_dimension_px
            && h <= self.max_dimension_px
            && u64::from(w) * u64::from(h) <= MAX_INPUT_PIXELS
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
    /// The base64 payload to send (canonical: no whitespace, padded).
    pub data: Cow<'a, str>,
    /// The MIME type to send.
    pub mime_type: &'a str,
    /// The MIME type of the original payload: inferred from its first characters, else declared.
    pub source_mime_type: &'a str,
    /// Decoded size of the original payload, in bytes.
    pub source_bytes: usize,
    /// Displayed size of the original (orientation applied), when its header could be read.
    pub source_size: Option<(u32, u32)>,
    /// The orientation (2–8) of the original, when its header names one other than 1.
    pub orientation: Option<u8>,
    /// Set when the payload was re-encoded.
    pub reencoded: Option<Reencoded>,
}

/// Why an image payload cannot be sent as an image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageFailure {
    /// `data` or `mimeType` is not a string.
    MissingFields,
    /// The estimated decoded size is over 10 MiB.
    InputTooLarge,
    /// `data` is blank.
    Empty,
    /// `data` is not base64 OpenClaw can canonicalize.
    InvalidBase64,
    /// The header gave no size, decoding or reducing failed: the message (with its error
    /// class, e.g. `RastermillError: …` or `Error: …`) follows `omitted image payload: `.
    Unusable(String),
}

impl ImageFailure {
    /// The text that replaces the image block.
    pub fn placeholder(&self, label: &str) -> String {
        match self {
            Self::Empty => format!("[{label}] omitted empty image payload"),
            other => format!("[{label}] omitted image payload: {}", other.reason()),
        }
    }

    /// Why, in a few words (for rewrite details).
    pub fn reason(&self) -> String {
        match self {
            Self::MissingFields => "missing data or mimeType".to_owned(),
            Self::InputTooLarge => format!(
                "image exceeds input size limit ({})",
                format_bytes_short(MAX_INPUT_BYTES as usize)
            ),
            Self::Empty => "empty image payload".to_owned(),
            Self::InvalidBase64 => "invalid base64".to_owned(),
            Self::Unusable(message) => message.clone(),
        }
    }
}

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
/// payload is there (computed once per distinct image, in parallel), else from the process's
/// [`super::cache::Store`].
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
    let shared;
    let full = match cache.and_then(|c| c.get(&canonical)) {
        Some(full) => full,
        None => {
            shared = super::cache::Store::global().full_decode(&canonical, limits);
            &shared
        }
    };
    if let Some(got) = full.reduce_got {
        return Err(ImageFailure::Unusable(reduce_error(limits, got)));
    }
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

/// What the cheap checks (size estimate, blank, base64, header) decide.
pub enum HeaderCheck<'a> {
    /// Sent as it is (or relabelled / canonicalized): no decoding needed.
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
    let release = limits.release;
    if release.input_limit && estimate_decoded_bytes(data) > MAX_INPUT_BYTES {
        return Err(ImageFailure::InputTooLarge);
    }
    let trimmed = js_trim(data);
    if trimmed.is_empty() {
        return Err(ImageFailure::Empty);
    }
    let canonical = if release.base64_padding {
        canonical_base64(trimmed)
    } else {
        canonical_base64_unpadded(trimmed)
    }
    .ok_or(ImageFailure::InvalidBase64)?;
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
    /// Orientation when not 1.
    pub orientation: Option<u8>,
    /// What is sent.
    pub outcome: Outcome,
    /// When no side × quality fitted the byte cap: the smallest JPEG size reached (the
    /// failure's wording depends on the release: see [`reduce_error`]).
    pub reduce_got: Option<usize>,
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
    let Ok(bytes) = NODE_BASE64.decode(canonical.as_bytes()) else {
        return FullDecode {
            source_bytes: 0,
            source_size: None,
            orientation: None,
            outcome: Outcome::Failed(ImageFailure::InvalidBase64),
            reduce_got: None,
        };
    };
    let probe = header::probe_with(&bytes, limits.release.heif_primary_item);
    let source_size = probe.as_ref().map(HeaderProbe::displayed);
    let mut reduce_got = None;
    let outcome = if source_size.is_some_and(|size| limits.fit(bytes.len(), size)) {
        Outcome::Fits
    } else {
        match reduce(&bytes, source_size, limits) {
            Ok((jpeg, reencoded)) => Outcome::Reencoded(STANDARD.encode(jpeg).into(), reencoded),
            Err(Unreduced::Failed(message)) => Outcome::Failed(ImageFailure::Unusable(message)),
            Err(Unreduced::TooLarge(got)) => {
                reduce_got = Some(got);
                Outcome::Failed(ImageFailure::Unusable(reduce_error(limits, got)))
            }
        }
    };
    FullDecode {
        source_bytes: bytes.len(),
        source_size,
        orientation: probe.and_then(|p| p.orientation).filter(|&o| o != 1),
        outcome,
        reduce_got,
    }
}

/// Base64 characters decoded to read an image's header without decoding all of it.
const HEADER_BASE64_CHARS: usize = 96 * 1024;

/// The header of a canonical payload, read from its first characters when the format allows
/// (see [`header::prefix_safe`]), else from the whole payload; `heif_primary_item` chooses
/// rastermill's HEIF rules.
fn header_of(canonical: &str, heif_primary_item: bool) -> Option<HeaderProbe> {
    let head = &canonical.as_bytes()[..canonical.len().min(HEADER_BASE64_CHARS)];
    let probe = |bytes: &[u8]| header::probe_with(bytes, heif_primary_item);
    let from_head = NODE_BASE64.decode(head).ok().and_then(|h| probe(&h));
    if canonical.len() <= HEADER_BASE64_CHARS {
        return from_head;
    }
    match from_head {
        Some(p) if header::prefix_safe(p.format) => Some(p),
        _ => probe(&NODE_BASE64.decode(canonical.as_bytes()).ok()?),
    }
}

/// The image kept as it is, when its header shows it within the limits.
fn kept_from_header<'a>(
    canonical: &Cow<'a, str>,
    mime_type: &'a str,
    limits: ImageLimits,
) -> Option<SanitizedImage<'a>> {
    let decoded_len = canonical_decoded_len(canonical);
    let probe = header_of(canonical, limits.release.heif_primary_item)?;
    let size = probe.displayed();
    limits.fit(decoded_len, size).then(|| SanitizedImage {
        data: canonical.clone(),
        mime_type,
        source_mime_type: mime_type,
        source_bytes: decoded_len,
        source_size: Some(size),
        orientation: probe.orientation.filter(|&o| o != 1),
        reencoded: None,
    })
}

/// For the provider lint: the decoded size in bytes of a base64 image payload and its stored
/// width × height, read from the header as [`header_check`] reads it. `None` unless the
/// payload is base64 OpenClaw accepts; no size when no header shows one.
pub(crate) fn base64_image_facts(data: &str) -> Option<(usize, Option<(u32, u32)>)> {
    let canonical = canonical_base64(js_trim(data))?;
    let size = header_of(&canonical, true).map(|p| (p.width, p.height));
    Some((canonical_decoded_len(&canonical), size))
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
#[path = "ops_tests.rs"]
mod tests;
